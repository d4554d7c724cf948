// Messages between the page and the engine worker: discriminated unions on `type` (and on `op`
// for the sentiment session's requests). Typed arrays inside messages travel as transferables.
import type {
  AttnEngine,
  Seq2SeqBleuBucket,
  Seq2SeqCrossEncoding,
  Seq2SeqCrossStep,
  Seq2SeqEpochReport,
  Seq2SeqEvaluation,
  Seq2SeqInfo,
  Seq2SeqDecoderState,
  Seq2SeqDecoderStepResult,
  Seq2SeqSettings,
  Seq2SeqStepEncoding,
  Tensor,
} from '../../generated/attn_engine.mjs';
import { SESSION_CALLS, type SessionOps, type TrainingProgress } from './session_protocol';
export type * from './session_protocol';
import type { ErrorKind } from './errors';
import type { ReplicaOutcome } from './data_parallel';
import type {
  BaselineExplanation,
  BaselineInfo,
  BaselineSettings,
  MisclassifiedReview,
  ReviewAnalysis,
  TokenPrediction,
} from '../../generated/attn_engine.mjs';
export type {
  BaselineExplanation,
  BaselineInfo,
  BaselineSettings,
  MisclassifiedReview,
  ReviewAnalysis,
  TokenPrediction,
};

/** The stateless engine functions the page may call through the worker. */
export const ENGINE_METHODS = [
  'scoreKinds',
  'scores',
  'softmax',
  'contextVector',
  'weightedAnnotations',
  'attend',
  'initScoreParams',
  'scaledDotProductAttention',
  'causalMask',
  'paddingMask',
  'combineMasks',
  'splitHeads',
  'mergeHeads',
  'imdbEncode',
  'padSequences',
  'sinusoidalPositionalEncoding',
  'concatDirections',
  'luongAttentionStep',
  'greedyDecodeTable',
  'decoderInputTokens',
  'sentimentRecipes',
  // The Seq2seq and Translation tabs' presets (the engine's seq2seq recipe table).
  'seq2seqRecipes',
  // The course's lessons 11 and 12 (projections, French tokens, BLEU's parts).
  'matmul',
  'mtTokenize',
  'corpusBleu',
  'corpusBleuTokens',
  'bleuBySourceLength',
  // Which GEMM kernel the engine chose (relaxed-SIMD FMA or mul + add); the browser tests report it.
  'gemmImplementation',
] as const satisfies readonly (keyof AttnEngine)[];

export type EngineMethod = (typeof ENGINE_METHODS)[number];
export type EngineArgs<M extends EngineMethod> = Parameters<AttnEngine[M]>;
export type EngineResult<M extends EngineMethod> = ReturnType<AttnEngine[M]>;

export type SessionOp = keyof SessionOps;
export type SessionRequest = TrackRequest<'session'>;

/** An epoch's report with its held-out BLEU (greedy, all references; null when not measured). */
export type Seq2SeqEpoch = Seq2SeqEpochReport;

/** Seq2seq training progress (posted at most every progressMs, after each epoch, and at the end). */
export interface Seq2SeqProgress {
  step: number;
  epoch: number;
  loss: number;
  /** Each step's batch loss since the previous message. */
  losses: Float32Array;
  elapsed: number;
  plannedSteps: number;
  stepsPerSecond: number;
  /** Pairs per second of training (the coordinator's clock on several workers). */
  examplesPerSecond: number;
  /** Engine workers the run trains on (data parallel: docs/data-parallel.md). */
  workers: number;
  /** Epochs that ended since the previous message (with validation exact match). */
  epochs: Seq2SeqEpoch[];
  paused: boolean;
  done: boolean;
}

export interface Seq2SeqOutcome {
  steps: number;
  cancelled: boolean;
  earlyStopped: boolean;
  bestEpoch: number;
  elapsed: number;
}

/** One of a beam's hypotheses, best first (attn_engine.d.ts: GNMT length-penalised score). */
export interface Seq2SeqCandidate {
  text: string;
  score: number;
  logProb: number;
  finished: boolean;
}

/** One decoding with its alignment copied out of wasm memory ([rows × cols] row-major). */
export interface Seq2SeqTranslation {
  output: string;
  sourceTokens: string[];
  outputTokens: string[];
  alignment: Float32Array;
  rows: number;
  cols: number;
  logProb: number;
  finished: boolean;
  /** The beam's hypotheses, best first (greedy: the one output). */
  candidates: Seq2SeqCandidate[];
  /** Transformer: every decoder block's cross-attention [layers, heads, Ty, Tx] and masked
   *  self-attention [layers, heads, Ty, Ty], copies; null for an RNN. */
  crossAttention: Float32Array | null;
  crossShape: [number, number, number, number] | null;
  selfAttention: Float32Array | null;
  selfShape: [number, number, number, number] | null;
}

/** evaluate()'s answer: the engine's metrics, with BLEU, chrF and BLEU by source length on parallel text. */
export type { Seq2SeqBleuBucket, Seq2SeqEvaluation };

export interface Seq2SeqTrainOptions {
  /** Wall time one chunk of steps aims at, in ms (default 40). */
  chunkMs?: number;
  /** At most one progress message per this many ms (default 100). */
  progressMs?: number;
}

/** seq2seqCreate's settings: the engine's, plus the file for task 'parallel'. */
export interface Seq2SeqCreateSettings extends Seq2SeqSettings {
  /** "source<TAB>target" lines (text, or a file's bytes, transferred); `name` is what error
   *  messages call the file ("pairs.tsv:3: ..."). Implies task 'parallel'. */
  parallelText?: { data: string | ArrayBuffer; name?: string };
  /** Transformer only: the decoder's self-attention mask ([L, L], 1 = visible, L >= the
   *  session's decodeLimit) the model trains and decodes with instead of the causal one. */
  decoderMask?: { shape: number[]; data: ArrayLike<number> };
}

/** Requests to the worker's seq2seq session and what each resolves to. */
export interface Seq2SeqOps {
  create: {
    args: { settings: Seq2SeqCreateSettings };
    result: { info: Seq2SeqInfo; samples: { source: string; target: string }[] };
  };
  /** With `peers`, this worker coordinates a data-parallel run (docs/data-parallel.md): port
   *  r - 1 leads to the worker training shard r of every batch (trainReplica). */
  train: { args: { options: Seq2SeqTrainOptions; peers?: MessagePort[] }; result: Seq2SeqOutcome };
  /** Shard `shard` of a data-parallel run coordinated through `port`; resolves when it ends. */
  trainReplica: { args: { port: MessagePort; shard: number; shards: number }; result: ReplicaOutcome };
  /** A replica's worker failed (the page saw it crash): the coordinated run ends with `message`. */
  peerFailed: { args: { message: string }; result: { failed: boolean } };
  pause: { args: Record<string, never>; result: { paused: boolean } };
  resume: { args: Record<string, never>; result: { paused: boolean } };
  cancel: { args: Record<string, never>; result: { cancelled: boolean } };
  translate: { args: { text: string; beam: number }; result: Seq2SeqTranslation };
  evaluate: { args: { which: 'test' | 'train'; limit?: number }; result: Seq2SeqEvaluation };
  saveModel: { args: Record<string, never>; result: ArrayBuffer };
  loadModel: { args: { bytes: ArrayBuffer }; result: Seq2SeqInfo };
  /** The first `count` held-out pairs. */
  samples: { args: { count: number }; result: { source: string; target: string }[] };
  // The step API (Bahdanau models): attention computed outside the engine drives decoding.
  stepEncode: { args: { texts: string[] }; result: Seq2SeqStepEncoding };
  stepAttend: {
    args: { encoding: Pick<Seq2SeqStepEncoding, 'annotations' | 'mask'>; s: Tensor };
    result: { weights: Tensor; context: Tensor };
  };
  decoderStep: {
    args: { previous: number[]; state: Seq2SeqDecoderState; context: Tensor };
    result: Seq2SeqDecoderStepResult;
  };
  targetText: { args: { ids: number[] }; result: { text: string; tokens: string[] } };
  // The Transformer's step API with the cross-attention from outside (one decoding at a time).
  crossStart: { args: { texts: string[] }; result: Seq2SeqCrossEncoding };
  crossBegin: { args: { previous: number[] }; result: Seq2SeqCrossStep };
  crossAttend: { args: Record<string, never>; result: { heads: Tensor; weights: Tensor } };
  crossContinue: { args: { heads: Tensor; weights: Tensor | null }; result: Seq2SeqCrossStep };
}
export type Seq2SeqOp = keyof Seq2SeqOps;
export type Seq2SeqRequest = TrackRequest<'seq2seq'>;

/** A toy run's progress (the course's "Train one"), at most every progressMs and at the end. */
export interface ToyRunProgress {
  step: number;
  plannedSteps: number;
  /** Each step's batch loss since the previous message. */
  losses: Float32Array;
}

/** How a toy run ended: its test numbers (ToyRunResult) and whether it was cancelled first. */
export interface ToyRunOutcome {
  cancelled: boolean;
  steps: number;
  losses: Float32Array;
  testAccuracy: number;
  decisiveAttention: number;
  decisiveArgmaxRate: number;
  parameters: number;
}

/** Requests to the worker's toy runs (one at a time; a new run cancels the previous one). */
export interface ToyOps {
  /** `configJson`: runToyTask's flat JSON settings (snake_case keys). */
  run: { args: { configJson: string; chunkMs?: number; progressMs?: number }; result: ToyRunOutcome };
  cancel: { args: Record<string, never>; result: { cancelled: boolean } };
}
export type ToyOp = keyof ToyOps;
export type ToyRequest = TrackRequest<'toy'>;

/**
 * The training tracks the worker hosts, by the message type that carries their requests: each
 * track is one table of ops ({args, result}), one host class in the worker (worker.ts, HOSTS)
 * and one prefix of derived bridge methods (TRACK_CALLS below). A new track adds one line here,
 * one there, and its calls.
 */
export interface TrackOps {
  session: SessionOps;
  seq2seq: Seq2SeqOps;
  toy: ToyOps;
}
export type Track = keyof TrackOps;
type OpsOf<T extends Track> = TrackOps[T];
export type TrackArgs<T extends Track, K extends keyof OpsOf<T>> = OpsOf<T>[K] extends { args: infer A } ? A : never;
export type TrackResult<T extends Track, K extends keyof OpsOf<T>> = OpsOf<T>[K] extends { result: infer R }
  ? R
  : never;
export type TrackRequest<T extends Track> = {
  [K in keyof OpsOf<T>]: { op: K } & TrackArgs<T, K>;
}[keyof OpsOf<T>];

/**
 * The bridge methods derived from the tables above (bridge.ts installs them): for each track,
 * its method prefix and, per op, the op's argument names in the order the method takes them
 * and the defaults of those a caller may leave out. Ops that transfer buffers or take a
 * progress callback keep a hand-written method in bridge.ts.
 */
export const TRACK_CALLS = {
  session: { prefix: '', ops: SESSION_CALLS },
  seq2seq: {
    prefix: 'seq2seq',
    ops: {
      peerFailed: { params: ['message'] },
      pause: { params: [] },
      resume: { params: [] },
      cancel: { params: [] },
      translate: { params: ['text', 'beam'], defaults: { beam: 1 } },
      evaluate: { params: ['which', 'limit'], defaults: { which: 'test', limit: 0 } },
      saveModel: { params: [] },
      samples: { params: ['count'] },
      stepEncode: { params: ['texts'] },
      stepAttend: { params: ['encoding', 's'] },
      decoderStep: { params: ['previous', 'state', 'context'] },
      targetText: { params: ['ids'] },
      crossStart: { params: ['texts'] },
      crossBegin: { params: ['previous'] },
      crossAttend: { params: [] },
      crossContinue: { params: ['heads', 'weights'] },
    },
  },
  toy: { prefix: 'toy', ops: { cancel: { params: [] } } },
} as const satisfies {
  [T in Track]: {
    prefix: string;
    ops: {
      [K in keyof OpsOf<T>]?: { params: readonly (keyof TrackArgs<T, K>)[]; defaults?: Partial<TrackArgs<T, K>> };
    };
  };
};

type Calls<T extends Track> = (typeof TRACK_CALLS)[T]['ops'];
// The positional parameters of op K: its args' types in `params` order, optional where a default exists.
type Positional<T extends Track, K extends keyof Calls<T> & keyof OpsOf<T>> = Calls<T>[K] extends {
  params: infer P extends readonly (keyof TrackArgs<T, K>)[];
  defaults: object;
}
  ? Partial<{ -readonly [I in keyof P]: TrackArgs<T, K>[P[I]] }>
  : Calls<T>[K] extends { params: infer P extends readonly (keyof TrackArgs<T, K>)[] }
    ? { -readonly [I in keyof P]: TrackArgs<T, K>[P[I]] }
    : never;
type MethodName<T extends Track, K> = K extends string
  ? (typeof TRACK_CALLS)[T]['prefix'] extends ''
    ? K
    : `${(typeof TRACK_CALLS)[T]['prefix']}${Capitalize<K>}`
  : never;
/** The derived methods of one track, as the bridge exposes them (e.g. seq2seqTranslate(text, beam?)). */
export type TrackMethods<T extends Track> = {
  [K in keyof Calls<T> & keyof OpsOf<T> as MethodName<T, K>]: (...args: Positional<T, K>) => Promise<TrackResult<T, K>>;
};
/** The bridge method `op` of `track` is called: `seq2seq` + `Translate`. */
export function trackMethodName(track: Track, op: string): string {
  const prefix = TRACK_CALLS[track].prefix;
  return prefix ? prefix + op[0].toUpperCase() + op.slice(1) : op;
}

export type ToWorker =
  | { type: 'call'; id: number; method: EngineMethod; args: unknown[] }
  | { [T in Track]: { type: T; id: number; request: TrackRequest<T> } }[Track]
  /** Answers with the engine's WebAssembly memory size in bytes. */
  | { type: 'memory'; id: number }
  /** Makes the worker crash like a wasm trap (the bridge sends it only in debug mode). */
  | { type: 'crash-test' };

export type FromWorker =
  | { type: 'ready'; version: string; simd: boolean }
  | { type: 'init-failed'; message: string }
  /** The engine is unusable (a wasm trap): the bridge replaces the worker. */
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; value: unknown }
  /** A failed request: the message to show and its kind (errors.ts classifies it in the worker). */
  | { type: 'error'; id: number; message: string; kind: ErrorKind }
  | { type: 'progress'; id: number; progress: TrainingProgress }
  | { type: 'seq2seq-progress'; id: number; progress: Seq2SeqProgress }
  | { type: 'toy-progress'; id: number; progress: ToyRunProgress }
  | {
      type: 'load-progress';
      id: number;
      bytesRead: number;
      bytesTotal: number;
      examples: number;
    };
