// The page's handle on the engine worker: typed calls that return promises.
// One message listener, installed once; each call gets an id and a pending promise, plus a
// progress callback for the calls that report progress (train, loadData).
//
// Sentiment API (the worker's SessionHost does the work; see protocol.ts for the types):
//   loadData(source) → DataSummary          dataStats(which) → DataStats
//   createModel(config) → ModelInfo         train(options, onProgress, signal?) → TrainingOutcome (at the end)
//   pause() / resume() / cancel()           evaluate(which) → Metrics
//   predict(text) → Prediction              saveModel() → ArrayBuffer, loadModel(ArrayBuffer)
//   inspectTransformer(text, {causal, ablated}), headAblation(limit), positionalEncoding(positions)
// Seq2seq API (the worker's Seq2SeqHost): seq2seqCreate(settings) → {info, samples},
//   seq2seqTrain(options, onProgress) → Seq2SeqOutcome, seq2seqPause / seq2seqResume / seq2seqCancel,
//   seq2seqTranslate(text, beam) → Seq2SeqTranslation, seq2seqEvaluate(which, limit) → Seq2SeqMetrics.
// Cancelling is cooperative (between chunks of steps) rather than terminating the worker: the
// model keeps its best validation epoch and stays usable for predictions.
import type {
  DataStats,
  DataSummary,
  Metrics,
  ModelInfo,
  SentimentModelConfig,
  Seq2SeqMetrics,
  Seq2SeqSettings,
} from '../../generated/attn_engine.mjs';
import type {
  DataSource,
  EngineArgs,
  EngineMethod,
  EngineResult,
  FromWorker,
  Prediction,
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
  TrainOptions,
  TrainingOutcome,
  TrainingProgress,
} from './protocol';
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
        case 'seq2seq-progress':
          this.pending.get(message.id)?.onSeq2SeqProgress?.(message.progress);
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

  seq2seqCreate(settings: Seq2SeqSettings): Promise<Seq2SeqOps['create']['result']> {
    return this.seq2seq('create', { settings });
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
  seq2seqEvaluate(which: 'test' | 'train' = 'test', limit = 0): Promise<Seq2SeqMetrics> {
    return this.seq2seq('evaluate', { which, limit });
  }

  private seq2seq<K extends Seq2SeqOp>(
    op: K,
    args: Seq2SeqOps[K]['args'],
    callbacks: Pick<Pending, 'onSeq2SeqProgress'> = {},
  ): Promise<Seq2SeqOps[K]['result']> {
    const request = { op, ...args } as Seq2SeqRequest;
    return this.send({ type: 'seq2seq', id: this.nextId++, request }, callbacks) as Promise<Seq2SeqOps[K]['result']>;
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
    message: ToWorker,
    callbacks: Pick<Pending, 'onProgress' | 'onLoad' | 'onSeq2SeqProgress'>,
    transfer: Transferable[] = [],
  ) {
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject, ...callbacks });
      this.worker.postMessage(message, { transfer });
    });
  }
}
