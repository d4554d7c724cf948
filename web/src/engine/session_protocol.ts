// The sentiment session's side of the protocol (protocol.ts re-exports it): what loadData,
// train and the other session requests take and resolve with. Typed arrays inside results travel
// as transferables.
import type {
  BaselineExplanation,
  BaselineInfo,
  BaselineSettings,
  DataStats,
  DataSummary,
  ExportedFile,
  HeadAblationReport,
  Metrics,
  MisclassifiedReview,
  ModelInfo,
  PositionalEncodingTable,
  ReviewAnalysis,
  SentimentModelConfig,
  StepsReport,
  TokenPrediction,
  TrainerSettings,
  TransformerInspection,
  TransformerInspectOptions,
} from '../../generated/attn_engine.mjs';
import type { ReplicaOutcome } from './data_parallel';

export type DataSource =
  | { kind: 'builtin' }
  | {
      kind: 'synthetic';
      count?: number;
      seed?: number;
      testFraction?: number;
      minTokens?: number;
      maxTokens?: number;
    }
  /** An aclImdb .tar.gz, .csv or .tsv as read from a File; the buffer is transferred. */
  | {
      kind: 'bytes';
      bytes: ArrayBuffer;
      name: string;
      testFraction?: number;
      seed?: number;
      /** 'source': the archive's own test half where it has one (default); 'holdout': always hold out. */
      testSet?: 'source' | 'holdout';
    }
  /** One sentence per line, one file per class (buffers transferred); a stratified hold-out. */
  | {
      kind: 'sentences';
      positive: { bytes: ArrayBuffer; name: string };
      negative: { bytes: ArrayBuffer; name: string };
      testFraction?: number;
      seed?: number;
    };

export interface TrainOptions extends TrainerSettings {
  /** Attention snapshots of `watched` every this many steps (0 or absent: none). */
  snapshotEvery?: number;
  /** Instead of snapshotEvery: about this many snapshots over the run, spaced by the steps the
   *  engine plans for it (snapshotInterval). */
  snapshots?: number;
  watched?: string[];
  /** Wall time one chunk of steps aims at, in ms (default 40): the worker answers pause and
   *  cancel between chunks, so this bounds their latency. */
  chunkMs?: number;
  /** At most one progress message per this many ms (default 100), besides snapshots and the end. */
  progressMs?: number;
}

export interface WatchedAttention {
  text: string;
  probability: number;
  tokens: string[];
  weights: Float32Array;
}

export interface AttentionSnapshot {
  step: number;
  items: WatchedAttention[];
}

/** The engine's step report (StepsReport in attn_engine.d.ts) plus what the worker adds. */
export interface TrainingProgress extends Pick<
  StepsReport,
  | 'step'
  | 'epoch'
  | 'loss'
  | 'losses'
  | 'runningLoss'
  | 'runningAccuracy'
  | 'examplesSeen'
  | 'examplesPerSecond'
  | 'elapsed'
  | 'plannedSteps'
  | 'epochs'
  | 'done'
> {
  stepsPerSecond: number;
  /** Seconds left at the current speed if the run goes the full schedule. */
  etaSeconds: number;
  paused: boolean;
  snapshot?: AttentionSnapshot;
}

export interface TrainingOutcome {
  steps: number;
  cancelled: boolean;
  earlyStopped: boolean;
  bestEpoch: number;
  epochs: number;
  elapsed: number;
}

export interface Prediction {
  probability: number;
  tokens: string[];
  weights: Float32Array;
}

/** Requests to the worker's sentiment session and what each resolves to. */
export interface SessionOps {
  loadData: { args: { source: DataSource }; result: DataSummary };
  dataStats: {
    args: { which: 'train' | 'test'; bins?: number };
    result: DataStats;
  };
  createModel: { args: { config: SentimentModelConfig }; result: ModelInfo };
  /** With `peers`, this worker coordinates a data-parallel run (docs/data-parallel.md): port
   *  r - 1 leads to the worker training shard r of every batch (trainReplica). */
  train: { args: { options: TrainOptions; peers?: MessagePort[] }; result: TrainingOutcome };
  /** Shard `shard` of a data-parallel run coordinated through `port`; resolves when it ends. */
  trainReplica: {
    args: { options: TrainOptions; port: MessagePort; shard: number; shards: number };
    result: ReplicaOutcome;
  };
  /** A replica's worker failed (the page saw it crash): the coordinated run ends with `message`. */
  peerFailed: { args: { message: string }; result: { failed: boolean } };
  pause: { args: Record<string, never>; result: { paused: boolean } };
  resume: { args: Record<string, never>; result: { paused: boolean } };
  cancel: { args: Record<string, never>; result: { cancelled: boolean } };
  evaluate: {
    args: { which: 'test' | 'train' | 'validation' | 'all-train' };
    result: Metrics;
  };
  predict: { args: { text: string }; result: Prediction };
  saveModel: { args: Record<string, never>; result: ArrayBuffer };
  /** model.safetensors, vocab.json, model.py (docs/pytorch.md); the bytes are transferred. */
  exportPytorch: { args: Record<string, never>; result: ExportedFile[] };
  loadModel: { args: { bytes: ArrayBuffer }; result: ModelInfo };
  // Transformer view (copies; the attention and table arrays are transferred).
  inspectTransformer: { args: { text: string; options: TransformerInspectOptions }; result: TransformerInspection };
  headAblation: { args: { limit: number; causal: boolean }; result: HeadAblationReport };
  positionalEncoding: { args: { positions: number }; result: PositionalEncodingTable };
  // Explanations (the Studio's explain panel; engine: wasm/bindings_analysis.cpp). Results are
  // copies; their typed arrays travel as transferables.
  analyze: { args: { text: string; shuffles?: number; seed?: number }; result: ReviewAnalysis };
  predictTokens: { args: { tokens: string[] }; result: TokenPrediction };
  misclassified: { args: { which: 'test' | 'train'; limit: number }; result: MisclassifiedReview[] };
  // The course's "your pooling in the model" (attention pooling only; copies, transferred).
  poolingProbe: { args: { text: string }; result: PoolingProbe };
  probabilityWithWeights: { args: { text: string; weights: number[] }; result: number };
  // The bag-of-n-grams baseline (SentimentSession's baseline; copies, transferred).
  trainBaseline: { args: { settings: BaselineSettings }; result: BaselineInfo };
  evaluateBaseline: { args: { which: 'test' | 'all-train' }; result: Metrics };
  explainBaseline: { args: { text: string }; result: BaselineExplanation };
}
/** One review's pooling step: encoder output [T, Dh], learned query [Dh], the model's weights and P. */
export interface PoolingProbe {
  tokens: string[];
  hidden: { shape: number[]; data: Float32Array };
  query: Float32Array;
  weights: Float32Array;
  probability: number;
}

/**
 * The session's ops that become bridge methods as they are (TRACK_CALLS in protocol.ts): each
 * op's argument names in the order the method takes them, and the defaults of those a caller may
 * leave out. The worker's SessionHost answers them by calling the engine session's method of the
 * same name, so a new pass-through call is its SessionOps entry and one line here.
 */
export const SESSION_CALLS = {
  dataStats: { params: ['which', 'bins'], defaults: { bins: 20 } },
  createModel: { params: ['config'] },
  peerFailed: { params: ['message'] },
  pause: { params: [] },
  resume: { params: [] },
  cancel: { params: [] },
  evaluate: { params: ['which'], defaults: { which: 'test' } },
  predict: { params: ['text'] },
  saveModel: { params: [] },
  exportPytorch: { params: [] },
  inspectTransformer: { params: ['text', 'options'], defaults: { options: {} } },
  headAblation: { params: ['limit', 'causal'], defaults: { limit: 0, causal: false } },
  positionalEncoding: { params: ['positions'] },
  poolingProbe: { params: ['text'] },
  probabilityWithWeights: { params: ['text', 'weights'] },
  predictTokens: { params: ['tokens'] },
  misclassified: { params: ['which', 'limit'] },
  trainBaseline: { params: ['settings'], defaults: { settings: {} } },
  evaluateBaseline: { params: ['which'], defaults: { which: 'test' } },
  explainBaseline: { params: ['text'] },
} as const satisfies {
  [K in keyof SessionOps]?: {
    params: readonly (keyof SessionOps[K]['args'])[];
    defaults?: Partial<SessionOps[K]['args']>;
  };
};
