// The page's handle on the engine worker: typed calls that return promises.
// One message listener, installed once; each call gets an id and a pending promise, plus a
// progress callback for the calls that report progress (train, loadData).
//
// Sentiment API (the worker's SessionHost does the work; see protocol.ts for the types):
//   loadData(source) → DataSummary          dataStats(which) → DataStats
//   createModel(config) → ModelInfo         train(options, onProgress, signal?, peers?) → TrainingOutcome (at the end)
//   trainReplica(options, port, shard, shards), peerFailed(message): data parallel (data_parallel.ts)
//   pause() / resume() / cancel()           evaluate(which) → Metrics
//   predict(text) → Prediction              saveModel() → ArrayBuffer, loadModel(ArrayBuffer)
//   exportPytorch() → [{name, bytes}] (model.safetensors, vocab.json, model.py)
//   inspectTransformer(text, {causal, ablated}), headAblation(limit), positionalEncoding(positions)
// Seq2seq API (the worker's Seq2SeqHost): seq2seqCreate(settings) → {info, samples},
//   seq2seqTrain(options, onProgress) → Seq2SeqOutcome, seq2seqPause / seq2seqResume / seq2seqCancel,
//   seq2seqTranslate(text, beam) → Seq2SeqTranslation, seq2seqEvaluate(which, limit) → Seq2SeqEvaluation,
//   seq2seqSaveModel() → ArrayBuffer, seq2seqLoadModel(ArrayBuffer) → Seq2SeqInfo, seq2seqSamples(count);
//   the step API seq2seqStepEncode(texts), seq2seqStepAttend(encoding, s), seq2seqDecoderStep(previous,
//   state, context), seq2seqTargetText(ids) (course/seq2seq_step_decode.ts drives it).
// Toy runs (the worker's ToyHost; the course's "Train one"): toyRun(configJson, onProgress) →
//   ToyRunOutcome, toyCancel() (the run then resolves with `cancelled: true`).
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
import type { BaselineExplanation, BaselineInfo } from './protocol';
import type {
  DataStats,
  DataSummary,
  ExportedFile,
  Metrics,
  ModelInfo,
  SentimentModelConfig,
  Seq2SeqInfo,
  Tensor,
} from '../../generated/attn_engine.mjs';
import type {
  DataSource,
  EngineArgs,
  EngineMethod,
  EngineResult,
  FromWorker,
  Prediction,
  Seq2SeqCreateSettings,
  Seq2SeqEvaluation,
  Seq2SeqOp,
  Seq2SeqOps,
  Seq2SeqOutcome,
  Seq2SeqProgress,
  Seq2SeqRequest,
  Seq2SeqTrainOptions,
  Seq2SeqTranslation,
  SessionOp,
  SessionOps,
  SessionRequest,
  ToWorker,
  ToyRequest,
  ToyRunOutcome,
  ToyRunProgress,
  TrainOptions,
  TrainingOutcome,
  TrainingProgress,
} from './protocol';
import type { ReplicaOutcome } from './data_parallel';
import { EngineError } from './errors';
import type {
  HeadAblationReport,
  PositionalEncodingTable,
  TransformerInspection,
  TransformerInspectOptions,
} from '../../generated/attn_engine.mjs';

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
  onProgress?: (p: TrainingProgress) => void;
  onSeq2SeqProgress?: (p: Seq2SeqProgress) => void;
  onToyProgress?: (p: ToyRunProgress) => void;
  onLoad?: (p: LoadProgress) => void;
}

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
          this.pending.get(message.id)?.onProgress?.(message.progress);
          break;
        case 'seq2seq-progress':
          this.pending.get(message.id)?.onSeq2SeqProgress?.(message.progress);
          break;
        case 'toy-progress':
          this.pending.get(message.id)?.onToyProgress?.(message.progress);
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
    return this.session('loadData', { source }, { onLoad }, transfer);
  }
  dataStats(which: 'train' | 'test', bins?: number): Promise<DataStats> {
    return this.session('dataStats', { which, bins });
  }
  createModel(config: SentimentModelConfig): Promise<ModelInfo> {
    return this.session('createModel', { config });
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
    const run = this.session('train', args, { onProgress }, peers);
    return run.finally(() => signal?.removeEventListener('abort', cancel));
  }
  /** Data parallel (docs/data-parallel.md): this worker trains shard `shard` of `shards` of the
   *  run that the worker holding the other end of `port` (transferred) coordinates through train(…, peers). */
  trainReplica(options: TrainOptions, port: MessagePort, shard: number, shards: number): Promise<ReplicaOutcome> {
    return this.session('trainReplica', { options, port, shard, shards }, {}, [port]);
  }
  /** Ends this worker's data-parallel run with `message` (another of its workers crashed). */
  peerFailed(message: string): Promise<{ failed: boolean }> {
    return this.session('peerFailed', { message });
  }
  pause(): Promise<{ paused: boolean }> {
    return this.session('pause', {});
  }
  resume(): Promise<{ paused: boolean }> {
    return this.session('resume', {});
  }
  cancel(): Promise<{ cancelled: boolean }> {
    return this.session('cancel', {});
  }
  evaluate(which: 'test' | 'train' | 'validation' | 'all-train' = 'test'): Promise<Metrics> {
    return this.session('evaluate', { which });
  }
  predict(text: string): Promise<Prediction> {
    return this.session('predict', { text });
  }
  saveModel(): Promise<ArrayBuffer> {
    return this.session('saveModel', {});
  }
  exportPytorch(): Promise<ExportedFile[]> {
    return this.session('exportPytorch', {});
  }
  /** The buffer is transferred to the worker (detached here). */
  loadModel(bytes: ArrayBuffer): Promise<ModelInfo> {
    return this.session('loadModel', { bytes }, {}, [bytes]);
  }

  // ---- Explanations (the Studio's explain panel) -----------------------------------------
  /** Attention vs gradient × input vs leave-one-out for `text`, with the shuffle and uniform tests. */
  analyze(text: string, options: { shuffles?: number; seed?: number } = {}): Promise<SessionOps['analyze']['result']> {
    return this.session('analyze', { text, ...options });
  }
  /** Counterfactual prediction for an edited token list ("<mask>" → <oov>). */
  poolingProbe(text: string): Promise<SessionOps['poolingProbe']['result']> {
    return this.session('poolingProbe', { text });
  }
  probabilityWithWeights(text: string, weights: number[]): Promise<number> {
    return this.session('probabilityWithWeights', { text, weights });
  }
  predictTokens(tokens: string[]): Promise<SessionOps['predictTokens']['result']> {
    return this.session('predictTokens', { tokens });
  }
  /** Misclassified reviews, most confidently wrong first (limit 0 = all). */
  misclassified(which: 'test' | 'train', limit: number): Promise<SessionOps['misclassified']['result']> {
    return this.session('misclassified', { which, limit });
  }
  // ---- end explanations

  // ---- The bag-of-n-grams baseline (lives beside the model; trains in one call) ----------
  trainBaseline(settings: SessionOps['trainBaseline']['args']['settings'] = {}): Promise<BaselineInfo> {
    return this.session('trainBaseline', { settings });
  }
  evaluateBaseline(which: 'test' | 'all-train' = 'test'): Promise<Metrics> {
    return this.session('evaluateBaseline', { which });
  }
  /** Per-token contributions to the baseline's logit (a copy). */
  explainBaseline(text: string): Promise<BaselineExplanation> {
    return this.session('explainBaseline', { text });
  }

  // Transformer view (the session's model must be a Transformer).
  /** Attention of every layer and head for `text`, with optional causal mask / ablated heads. */
  inspectTransformer(text: string, options: TransformerInspectOptions = {}): Promise<TransformerInspection> {
    return this.session('inspectTransformer', { text, options });
  }
  /** Test-set accuracy with each head ablated alone (limit 0 = the whole test set). */
  headAblation(limit = 0, causal = false): Promise<HeadAblationReport> {
    return this.session('headAblation', { limit, causal });
  }
  /** The positional term added at positions 0..positions-1, [positions × dim]. */
  positionalEncoding(positions: number): Promise<PositionalEncodingTable> {
    return this.session('positionalEncoding', { positions });
  }

  /** With `settings.parallelText`, task 'parallel' on that TSV (its buffer is transferred). */
  seq2seqCreate(settings: Seq2SeqCreateSettings): Promise<Seq2SeqOps['create']['result']> {
    const data = settings.parallelText?.data;
    return this.seq2seq('create', { settings }, {}, data instanceof ArrayBuffer ? [data] : []);
  }
  /** Resolves when the run ends (schedule done, early stop or cancel). */
  seq2seqTrain(options: Seq2SeqTrainOptions, onProgress?: (p: Seq2SeqProgress) => void): Promise<Seq2SeqOutcome> {
    return this.seq2seq('train', { options }, { onSeq2SeqProgress: onProgress });
  }
  seq2seqPause(): Promise<{ paused: boolean }> {
    return this.seq2seq('pause', {});
  }
  seq2seqResume(): Promise<{ paused: boolean }> {
    return this.seq2seq('resume', {});
  }
  seq2seqCancel(): Promise<{ cancelled: boolean }> {
    return this.seq2seq('cancel', {});
  }
  seq2seqTranslate(text: string, beam = 1): Promise<Seq2SeqTranslation> {
    return this.seq2seq('translate', { text, beam });
  }
  seq2seqEvaluate(which: 'test' | 'train' = 'test', limit = 0): Promise<Seq2SeqEvaluation> {
    return this.seq2seq('evaluate', { which, limit });
  }
  /** The seq2seq model file with its vocabularies (the CLI's format). */
  seq2seqSaveModel(): Promise<ArrayBuffer> {
    return this.seq2seq('saveModel', {});
  }
  /** The buffer is transferred to the worker (detached here). */
  seq2seqLoadModel(bytes: ArrayBuffer): Promise<Seq2SeqInfo> {
    return this.seq2seq('loadModel', { bytes }, {}, [bytes]);
  }

  /** The first `count` held-out pairs of the seq2seq session. */
  seq2seqSamples(count: number): Promise<Seq2SeqOps['samples']['result']> {
    return this.seq2seq('samples', { count });
  }
  // The seq2seq step API (Bahdanau models): see Seq2SeqSession.stepEncode in attn_engine.d.ts.
  seq2seqStepEncode(texts: string[]): Promise<Seq2SeqOps['stepEncode']['result']> {
    return this.seq2seq('stepEncode', { texts });
  }
  seq2seqStepAttend(
    encoding: Seq2SeqOps['stepAttend']['args']['encoding'],
    s: Tensor,
  ): Promise<Seq2SeqOps['stepAttend']['result']> {
    return this.seq2seq('stepAttend', { encoding, s });
  }
  seq2seqDecoderStep(
    previous: number[],
    state: Seq2SeqOps['decoderStep']['args']['state'],
    context: Tensor,
  ): Promise<Seq2SeqOps['decoderStep']['result']> {
    return this.seq2seq('decoderStep', { previous, state, context });
  }
  seq2seqTargetText(ids: number[]): Promise<Seq2SeqOps['targetText']['result']> {
    return this.seq2seq('targetText', { ids });
  }
  /** Trains a toy run (runToyTask's settings) in chunks; resolves with its test numbers. */
  toyRun(configJson: string, onProgress?: (p: ToyRunProgress) => void): Promise<ToyRunOutcome> {
    const request: ToyRequest = { op: 'run', configJson };
    return this.send(
      { type: 'toy', id: this.nextId++, request },
      { onToyProgress: onProgress },
    ) as Promise<ToyRunOutcome>;
  }
  toyCancel(): Promise<{ cancelled: boolean }> {
    const request = { op: 'cancel' } as ToyRequest;
    return this.send({ type: 'toy', id: this.nextId++, request }, {}) as Promise<{ cancelled: boolean }>;
  }

  private seq2seq<K extends Seq2SeqOp>(
    op: K,
    args: Seq2SeqOps[K]['args'],
    callbacks: Pick<Pending, 'onSeq2SeqProgress'> = {},
    transfer: Transferable[] = [],
  ): Promise<Seq2SeqOps[K]['result']> {
    const request = { op, ...args } as Seq2SeqRequest;
    return this.send({ type: 'seq2seq', id: this.nextId++, request }, callbacks, transfer) as Promise<
      Seq2SeqOps[K]['result']
    >;
  }

  private session<K extends SessionOp>(
    op: K,
    args: SessionOps[K]['args'],
    callbacks: Pick<Pending, 'onProgress' | 'onLoad'> = {},
    transfer: Transferable[] = [],
  ): Promise<SessionOps[K]['result']> {
    const request = { op, ...args } as SessionRequest;
    return this.send({ type: 'session', id: this.nextId++, request }, callbacks, transfer) as Promise<
      SessionOps[K]['result']
    >;
  }

  private send(
    message: Exclude<ToWorker, { type: 'crash-test' }>,
    callbacks: Pick<Pending, 'onProgress' | 'onLoad' | 'onSeq2SeqProgress' | 'onToyProgress'>,
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
