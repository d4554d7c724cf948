// The page's handle on the engine worker: typed calls that return promises.
// One message listener, installed once; each call gets an id and a pending promise, plus a
// progress callback for the calls that report progress (train, loadData).
//
// The tracks' calls (protocol.ts, TrackOps) are derived from TRACK_CALLS: each op becomes a
// method taking its arguments in order (sentiment: createModel(config), evaluate(which?),
// predict(text), ...; seq2seq: seq2seqTranslate(text, beam?), ...; toy: toyCancel()). The calls
// that transfer buffers or report progress are written out below: loadData, train,
// trainReplica, loadModel, analyze, seq2seqCreate, seq2seqTrain, seq2seqLoadModel, toyRun.
// Engine: memoryBytes() → wasm memory size, onRestart(listener), dispose().
// Cancelling is cooperative (between chunks of steps) rather than terminating the worker: the
// model keeps its best validation epoch and stays usable for predictions.
//
// A crashed worker (an uncaught error, or a wasm trap — `RuntimeError: unreachable`, out of
// memory — that the worker reports as fatal, since the module's state is undefined after one)
// is replaced: every pending call rejects with the reason, a new worker starts, `ready` is renewed
// and `onRestart` listeners are told. Whatever lived in the old worker (models, data) is gone.
// A worker that never became ready is not restarted (that is a failed start, shown as such), and
// more than MAX_RESTARTS crashes within RESTART_WINDOW_MS stop the restarts.
// Every rejection is an EngineError whose `kind` (errors.ts) says what happened: the worker's
// classification of an engine failure, or 'crashed' / 'unavailable' / 'cancelled' from here.
import type { DataSummary, ModelInfo, Seq2SeqInfo } from '../../generated/attn_engine.mjs';
import {
  TRACK_CALLS,
  trackMethodName,
  type DataSource,
  type EngineArgs,
  type EngineMethod,
  type EngineResult,
  type FromWorker,
  type ReviewAnalysis,
  type Seq2SeqCreateSettings,
  type Seq2SeqOps,
  type Seq2SeqOutcome,
  type Seq2SeqProgress,
  type Seq2SeqTrainOptions,
  type ToWorker,
  type ToyRunOutcome,
  type ToyRunProgress,
  type Track,
  type TrackArgs,
  type TrackMethods,
  type TrackOps,
  type TrackResult,
  type TrainOptions,
  type TrainingOutcome,
  type TrainingProgress,
} from './protocol';
import type { ReplicaOutcome } from './data_parallel';
import { EngineError } from './errors';

export interface EngineInfo {
  version: string;
  simd: boolean;
}

export interface LoadProgress {
  bytesRead: number;
  bytesTotal: number;
  examples: number;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** The track's progress messages (progress, seq2seq-progress, toy-progress) for this call. */
  onProgress?: (p: never) => void;
  onLoad?: (p: LoadProgress) => void;
}
type Callbacks = Pick<Pending, 'onProgress' | 'onLoad'>;

const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

export interface EngineBridgeOptions {
  /**
   * Enables `crashForTest()` (the app passes it when the page URL has `?debug`). The worker's
   * 'crash-test' message grants nothing page code could not already do (it can terminate the
   * worker itself); the option only keeps the method off the normal path.
   */
  debug?: boolean;
}

// The derived methods (TRACK_CALLS), installed on the prototype below the class.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface EngineBridge extends TrackMethods<'session'>, TrackMethods<'seq2seq'>, TrackMethods<'toy'> {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class EngineBridge {
  private readyPromise!: Promise<EngineInfo>;
  private worker!: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly restartListeners = new Set<(reason: string) => void>();
  private readonly restarts: number[] = [];
  private nextId = 1;
  private disposed = false;

  constructor(private readonly options: EngineBridgeOptions = {}) {
    this.start();
  }

  /** Resolves when the current worker's engine is ready; a new promise after each restart. */
  get ready(): Promise<EngineInfo> {
    return this.readyPromise;
  }

  /** Calls `listener(reason)` after each restart of a crashed worker; returns an unsubscribe. */
  onRestart(listener: (reason: string) => void): () => void {
    this.restartListeners.add(listener);
    return () => this.restartListeners.delete(listener);
  }

  /** Terminates the worker; pending calls reject, later calls reject at once. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.worker.terminate();
    this.rejectPending(new EngineError('the engine was shut down', 'unavailable'));
  }

  /** Bytes of the engine's WebAssembly memory (it grows, never shrinks): for the long-run bench. */
  memoryBytes(): Promise<number> {
    return this.send({ type: 'memory', id: this.nextId++ }, {}) as Promise<number>;
  }

  /** Makes the worker crash as a wasm trap would (only with `{debug: true}`), to test recovery. */
  crashForTest(): void {
    if (!this.options.debug) throw new Error('crashForTest needs the debug option');
    this.worker.postMessage({ type: 'crash-test' } satisfies ToWorker);
  }

  private start(): void {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    this.worker = worker;
    let started = false;
    let markReady!: (info: EngineInfo) => void;
    let failReady!: (error: Error) => void;
    this.readyPromise = new Promise((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    // Nobody may be waiting on a renewed `ready`: keep its failure from being "unhandled".
    this.readyPromise.catch(() => {});
    const crashed = (reason: string) => {
      if (worker !== this.worker || this.disposed) return;
      if (!started) {
        failReady(new EngineError(`the engine could not start: ${reason}`, 'unavailable'));
        this.rejectPending(new EngineError(`the engine could not start: ${reason}`, 'unavailable'));
        return;
      }
      this.restart(reason);
    };
    worker.addEventListener('message', (event: MessageEvent<FromWorker>) => {
      if (worker !== this.worker) return;
      const message = event.data;
      switch (message.type) {
        case 'ready':
          started = true;
          markReady({ version: message.version, simd: message.simd });
          break;
        case 'init-failed':
          failReady(new EngineError(`the engine could not start: ${message.message}`, 'unavailable'));
          break;
        case 'fatal':
          crashed(message.message);
          break;
        case 'progress':
        case 'seq2seq-progress':
        case 'toy-progress':
          this.pending.get(message.id)?.onProgress?.(message.progress as never);
          break;
        case 'load-progress':
          this.pending.get(message.id)?.onLoad?.(message);
          break;
        case 'result':
        case 'error': {
          const waiting = this.pending.get(message.id);
          if (!waiting) return;
          this.pending.delete(message.id);
          if (message.type === 'result') waiting.resolve(message.value);
          else waiting.reject(new EngineError(message.message, message.kind));
          break;
        }
      }
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      crashed(event.message || 'the worker failed to load or threw an error');
    });
  }

  private restart(reason: string): void {
    this.worker.terminate();
    this.rejectPending(new EngineError(`the engine stopped (${reason}); it was restarted: try again`, 'crashed'));
    const now = Date.now();
    while (this.restarts.length && now - this.restarts[0] > RESTART_WINDOW_MS) this.restarts.shift();
    this.restarts.push(now);
    if (this.restarts.length > MAX_RESTARTS) {
      this.readyPromise = Promise.reject(
        new EngineError(
          `the engine stopped ${this.restarts.length} times in a minute (last: ${reason}): reload the page`,
          'unavailable',
        ),
      );
      this.readyPromise.catch(() => {});
      this.disposed = true;
      return;
    }
    this.start();
    for (const listener of this.restartListeners) listener(reason);
  }

  private rejectPending(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const call of waiting) call.reject(error);
  }

  /** Calls `method` in the worker; rejects with the engine's message on bad input. */
  call<M extends EngineMethod>(method: M, ...args: EngineArgs<M>): Promise<EngineResult<M>> {
    return this.send({ type: 'call', id: this.nextId++, method, args }, {}) as Promise<EngineResult<M>>;
  }

  loadData(source: DataSource, onLoad?: (p: LoadProgress) => void): Promise<DataSummary> {
    const transfer =
      source.kind === 'bytes'
        ? [source.bytes]
        : source.kind === 'sentences'
          ? [source.positive.bytes, source.negative.bytes]
          : [];
    return this.track('session', 'loadData', { source }, { onLoad }, transfer);
  }
  /**
   * Resolves when the run ends (schedule done, early stop or cancel). Aborting `signal` cancels
   * the run, like cancel(); the promise then resolves with `cancelled: true`.
   */
  train(
    options: TrainOptions,
    onProgress?: (p: TrainingProgress) => void,
    signal?: AbortSignal,
    peers: MessagePort[] = [],
  ): Promise<TrainingOutcome> {
    if (signal?.aborted) return Promise.reject(new EngineError('training was aborted before it started', 'cancelled'));
    const cancel = () => void this.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    const args = peers.length ? { options, peers } : { options };
    const run = this.track('session', 'train', args, { onProgress }, peers);
    return run.finally(() => signal?.removeEventListener('abort', cancel));
  }
  /** Data parallel (docs/data-parallel.md): this worker trains shard `shard` of `shards` of the
   *  run that the worker holding the other end of `port` (transferred) coordinates through train(…, peers). */
  trainReplica(options: TrainOptions, port: MessagePort, shard: number, shards: number): Promise<ReplicaOutcome> {
    return this.track('session', 'trainReplica', { options, port, shard, shards }, {}, [port]);
  }
  /** The buffer is transferred to the worker (detached here). */
  loadModel(bytes: ArrayBuffer): Promise<ModelInfo> {
    return this.track('session', 'loadModel', { bytes }, {}, [bytes]);
  }

  /** Attention vs gradient × input vs leave-one-out for `text`, with the shuffle and uniform tests. */
  analyze(text: string, options: { shuffles?: number; seed?: number } = {}): Promise<ReviewAnalysis> {
    return this.track('session', 'analyze', { text, ...options });
  }

  /** With `settings.parallelText`, task 'parallel' on that TSV (its buffer is transferred). */
  seq2seqCreate(settings: Seq2SeqCreateSettings): Promise<Seq2SeqOps['create']['result']> {
    const data = settings.parallelText?.data;
    return this.track('seq2seq', 'create', { settings }, {}, data instanceof ArrayBuffer ? [data] : []);
  }
  /** Resolves when the run ends (schedule done, early stop or cancel). With `peers` (transferred),
   *  this worker coordinates a data-parallel run (docs/data-parallel.md). */
  seq2seqTrain(
    options: Seq2SeqTrainOptions,
    onProgress?: (p: Seq2SeqProgress) => void,
    peers: MessagePort[] = [],
  ): Promise<Seq2SeqOutcome> {
    const args = peers.length ? { options, peers } : { options };
    return this.track('seq2seq', 'train', args, { onProgress }, peers);
  }
  /** Data parallel: this worker's session (created with the same settings and data) trains shard
   *  `shard` of `shards` of the run coordinated through `port` (transferred). */
  seq2seqTrainReplica(port: MessagePort, shard: number, shards: number): Promise<ReplicaOutcome> {
    return this.track('seq2seq', 'trainReplica', { port, shard, shards }, {}, [port]);
  }
  /** The buffer is transferred to the worker (detached here). */
  seq2seqLoadModel(bytes: ArrayBuffer): Promise<Seq2SeqInfo> {
    return this.track('seq2seq', 'loadModel', { bytes }, {}, [bytes]);
  }

  /** Trains a toy run (runToyTask's settings) in chunks; resolves with its test numbers. */
  toyRun(configJson: string, onProgress?: (p: ToyRunProgress) => void): Promise<ToyRunOutcome> {
    return this.track('toy', 'run', { configJson }, { onProgress });
  }

  /** One request of `track`'s op `op` (protocol.ts, TrackOps); what the derived methods call. */
  track<T extends Track, K extends keyof TrackOps[T]>(
    track: T,
    op: K,
    args: TrackArgs<T, K>,
    callbacks: Callbacks = {},
    transfer: Transferable[] = [],
  ): Promise<TrackResult<T, K>> {
    const request = { op, ...(args as object) };
    const message = { type: track, id: this.nextId++, request } as unknown as Extract<ToWorker, { type: Track }>;
    return this.send(message, callbacks, transfer) as Promise<TrackResult<T, K>>;
  }
  private send(
    message: Exclude<ToWorker, { type: 'crash-test' }>,
    callbacks: Callbacks,
    transfer: Transferable[] = [],
  ) {
    if (this.disposed)
      return Promise.reject(new EngineError('the engine was shut down: reload the page', 'unavailable'));
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject, ...callbacks });
      this.worker.postMessage(message, { transfer });
    });
  }
}

// Installs each track's derived methods (TRACK_CALLS): positional arguments become the op's args
// object, left-out ones take the op's defaults.
for (const track of Object.keys(TRACK_CALLS) as Track[]) {
  for (const [op, call] of Object.entries(TRACK_CALLS[track].ops) as [
    string,
    { params: readonly string[]; defaults?: Record<string, unknown> },
  ][]) {
    Object.defineProperty(EngineBridge.prototype, trackMethodName(track, op), {
      value(this: EngineBridge, ...values: unknown[]) {
        const args: Record<string, unknown> = { ...call.defaults };
        call.params.forEach((name, i) => {
          if (values[i] !== undefined) args[name] = values[i];
        });
        return this.track(track, op as never, args as never);
      },
      writable: true,
      configurable: true,
    });
  }
}
