// The page's handle on the engine worker: typed calls that return promises.
// One message listener, installed once; each call gets an id and a pending promise, plus a
// progress callback for the calls that report progress (train, loadData).
//
// Sentiment API (the worker's SessionHost does the work; see protocol.ts for the types):
//   loadData(source) → DataSummary          dataStats(which) → DataStats
//   createModel(config) → ModelInfo         train(options, onProgress, signal?) → TrainingOutcome (at the end)
//   pause() / resume() / cancel()           evaluate(which) → Metrics
//   predict(text) → Prediction              saveModel() → ArrayBuffer, loadModel(ArrayBuffer)
// Cancelling is cooperative (between chunks of steps) rather than terminating the worker: the
// model keeps its best validation epoch and stays usable for predictions.
import type { DataStats, DataSummary, Metrics, ModelInfo, SentimentModelConfig } from '../../generated/attn_engine.mjs';
import type {
  DataSource,
  EngineArgs,
  EngineMethod,
  EngineResult,
  FromWorker,
  Prediction,
  SessionOp,
  SessionOps,
  SessionRequest,
  ToWorker,
  TrainOptions,
  TrainingOutcome,
  TrainingProgress,
} from './protocol';

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
  onLoad?: (p: LoadProgress) => void;
}

export class EngineBridge {
  readonly ready: Promise<EngineInfo>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    let markReady!: (info: EngineInfo) => void;
    let failReady!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    this.worker.addEventListener('message', (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      switch (message.type) {
        case 'ready':
          markReady({ version: message.version, simd: message.simd });
          break;
        case 'init-failed':
          failReady(new Error(`the engine could not start: ${message.message}`));
          break;
        case 'progress':
          this.pending.get(message.id)?.onProgress?.(message.progress);
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
          else waiting.reject(new Error(message.message));
          break;
        }
      }
    });
    this.worker.addEventListener('error', (event) => {
      const error = new Error(`the engine worker failed: ${event.message || 'unknown error'}`);
      failReady(error);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
  }

  /** Calls `method` in the worker; rejects with the engine's message on bad input. */
  call<M extends EngineMethod>(method: M, ...args: EngineArgs<M>): Promise<EngineResult<M>> {
    return this.send({ type: 'call', id: this.nextId++, method, args }, {}) as Promise<EngineResult<M>>;
  }

  loadData(source: DataSource, onLoad?: (p: LoadProgress) => void): Promise<DataSummary> {
    const transfer = source.kind === 'bytes' ? [source.bytes] : [];
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
  ): Promise<TrainingOutcome> {
    if (signal?.aborted) return Promise.reject(new Error('training was aborted before it started'));
    const cancel = () => void this.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    const run = this.session('train', { options }, { onProgress });
    return run.finally(() => signal?.removeEventListener('abort', cancel));
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
  /** The buffer is transferred to the worker (detached here). */
  loadModel(bytes: ArrayBuffer): Promise<ModelInfo> {
    return this.session('loadModel', { bytes }, {}, [bytes]);
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

  private send(message: ToWorker, callbacks: Pick<Pending, 'onProgress' | 'onLoad'>, transfer: Transferable[] = []) {
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject, ...callbacks });
      this.worker.postMessage(message, { transfer });
    });
  }
}
