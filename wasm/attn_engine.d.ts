// Types of the wasm module built from wasm/*.cpp (installed next to it as attn_engine.d.mts).
// Every function copies its inputs into the wasm heap. The attention functions and runToyTask
// return fresh JS arrays that stay valid after later calls; the SentimentSession methods marked
// VIEW return typed arrays over wasm memory instead (see the section on sentiment sessions).
// Optional arguments must still be passed (as undefined or null): Embind checks the argument count.
// Any invalid input throws a JS Error whose message comes from the C++ engine.

/** Row-major tensor: data.length equals the product of shape. */
export interface Tensor {
  shape: number[];
  data: Float32Array | number[];
}
/** The engine always returns Float32Array data. */
export interface OutTensor {
  shape: number[];
  data: Float32Array;
}
/** 1 = visible, 0 = masked. */
export interface Mask {
  shape: number[];
  data: Uint8Array | number[] | boolean[];
}
export interface OutMask {
  shape: number[];
  data: Uint8Array;
}

export type ScoreKindName = 'dot' | 'scaled_dot' | 'general' | 'additive' | 'concat' | 'location' | 'cosine';

/** Parameters of the learnable scoring functions (see core/include/attn/attention/scores.hpp). */
export interface ScoreParams {
  w?: Tensor;
  w1?: Tensor;
  w2?: Tensor;
  v?: Tensor;
}
export interface OutScoreParams {
  w?: OutTensor;
  w1?: OutTensor;
  w2?: OutTensor;
  v?: OutTensor;
}

export interface AttendOptions {
  params?: ScoreParams;
  /** > 0; below 1 sharpens the weights, above 1 flattens them. Default 1. */
  temperature?: number;
  /** [T] mask over the annotations. */
  mask?: Mask;
}
export interface AttendResult {
  scores: OutTensor; // [T]
  weights: OutTensor; // [T]
  weighted: OutTensor; // [T, Dh]
  context: OutTensor; // [Dh]
}
export interface SoftmaxOptions {
  axis?: number;
  temperature?: number;
  mask?: Mask;
}
export interface AttentionOutput {
  output: OutTensor; // [Tq, d_v] or [H, Tq, d_v]
  weights: OutTensor; // [Tq, Tk] or [H, Tq, Tk]
}

/** Result of a toy training run (see core/include/attn/train/toy_run.hpp). */
export interface ToyRunResult {
  /** Training loss at every step. */
  losses: Float32Array;
  testAccuracy: number;
  /** Mean attention-pooling weight on the decisive positions of the test set. */
  decisiveAttention: number;
  /** Share of test examples whose most-attended position is decisive. */
  decisiveArgmaxRate: number;
  parameters: number;
}

// ---- Sentiment sessions (wasm/bindings_sentiment.cpp) ------------------------------------------
// Copies and views: inputs (texts, bytes, settings) are always copied into wasm memory — wasm
// cannot read JS memory; bytes go in one block copy (TypedArray.set). Results are fresh JS values
// except where marked VIEW: a VIEW is a typed array over wasm memory, valid only until the next
// call on the module (any call may grow memory, which detaches it). VIEWs are used where the
// data is re-read often (attention weights of the watched texts every few training steps) so that
// nothing is copied twice: a consumer that keeps or posts the data copies it once itself (the
// worker does, then transfers the copy). saveModel returns a copy because the file leaves wasm
// to be stored or posted.

/**
 * Model settings (flat; camelCase or snake_case keys). Every key is optional. Defaults, ranges
 * and help: `settingsSchemas().sentimentModel` (the engine's one table; tests/js/
 * settings_schema.test.mjs holds these keys and unions to it).
 */
export interface SentimentModelConfig {
  /** Vocabulary ids kept (4 reserved + the most frequent words). */
  numWords?: number;
  /** Longest encoded review (ids, <start> included). */
  maxlen?: number;
  padding?: 'pre' | 'post';
  truncating?: 'pre' | 'post';
  lowercase?: boolean;
  stripHtml?: boolean;
  keepPunctuation?: boolean;
  /** 'none': the pooling reads the embeddings (words, plus bigrams with bigramBuckets). */
  encoder?: 'bilstm' | 'bigru' | 'transformer' | 'none';
  embedDim?: number;
  units?: number;
  pooling?: 'attention' | 'last' | 'mean';
  score?: ScoreKindName;
  attentionDim?: number;
  layers?: number;
  heads?: number;
  ffDim?: number;
  positional?: 'sinusoidal' | 'learned';
  dropout?: number;
  /** Rate of dropping whole token embeddings while training (the CLI's --word-dropout). */
  wordDropout?: number;
  causal?: boolean;
  /** Rows of the hashed bigram embedding table added to the word embeddings (0 = none). */
  bigramBuckets?: number;
  /** Parameter initialisation seed. */
  seed?: number;
}

/** Trainer settings (TrainerConfig; defaults and ranges: `settingsSchemas().trainer`). */
export interface TrainerSettings {
  epochs?: number;
  batchSize?: number;
  learningRate?: number;
  optimizer?: 'adam' | 'adamw' | 'sgd';
  weightDecay?: number;
  clipNorm?: number;
  schedule?: 'constant' | 'linear' | 'cosine' | 'inverse_sqrt';
  warmupSteps?: number;
  validationSplit?: number;
  earlyStoppingPatience?: number;
  bucketByLength?: boolean;
  seed?: number;
}

export interface DataSummary {
  source: string;
  /** True when the test set was held out of the source's reviews (testFraction, seed). */
  heldOut: boolean;
  /** True when the source has a test half of its own (an aclImdb archive with test/, the built-in corpus). */
  sourceHasTest: boolean;
  trainExamples: number;
  testExamples: number;
  /** How the hold-out and the validation split are drawn: 'by group' (each movie, or each value
   *  of a CSV/TSV group column, on one side) when the training reviews name groups, else 'random'. */
  split: 'by group' | 'random';
  /** Distinct groups the training reviews name (0: none). */
  groups: number;
}
export interface DataStats {
  examples: number;
  positive: number;
  negative: number;
  totalTokens: number;
  distinctWords: number;
  minTokens: number;
  maxTokens: number;
  meanTokens: number;
  percentiles: { p50: number; p90: number; p95: number; p99: number };
  /** Copy. histogram[i] counts reviews with [i·binWidth, (i+1)·binWidth) tokens. */
  histogram: Uint32Array;
  binWidth: number;
  /** Share of tokens / distinct words the model's vocabulary knows; null before a model exists. */
  coverage: { tokens: number; words: number; truncated: number } | null;
}
/** One file of an export: its name and its bytes (a copy owning its buffer). */
export interface ExportedFile {
  name: string;
  bytes: Uint8Array;
}
export interface ModelInfo {
  parameters: number;
  vocabulary: number;
  maxlen: number;
  /** The classifier's configuration as flat JSON. */
  classifier: string;
}
export interface Metrics {
  loss: number;
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}
export interface EpochReport {
  epoch: number;
  trainLoss: number;
  trainAccuracy: number;
  validation: Metrics | null;
  seconds: number;
}
export interface TrainingStart {
  trainExamples: number;
  validationExamples: number;
  plannedSteps: number;
  batchesPerEpoch: number;
}
export interface StepsReport {
  stepsRun: number;
  /** Optimiser steps of the run so far. */
  step: number;
  epoch: number;
  /** The last step's batch loss. */
  loss: number;
  /** Copy: each step's batch loss in this call. */
  losses: Float32Array;
  runningLoss: number;
  runningAccuracy: number;
  examplesSeen: number;
  examplesPerSecond: number;
  /** Seconds spent training (pauses excluded). */
  elapsed: number;
  plannedSteps: number;
  batchesPerEpoch: number;
  /** Epochs that ended (and were validated) during this call. */
  epochs: EpochReport[];
  done: boolean;
  earlyStopped: boolean;
  bestEpoch: number;
}
export interface ExplanationView {
  probability: number;
  /** "<start>" then the words as tokenised. */
  tokens: string[];
  /** VIEW [T]. */
  ids: Int32Array;
  /** VIEW [T]: attention-pooling weights (sum 1); empty without attention pooling. */
  weights: Float32Array;
}

/** One sentiment workspace: data, model, training run. Free it with delete(). */
/** The bag-of-n-grams baseline's settings (defaults: the engine's BagOfNgramsConfig). */
export interface BaselineSettings {
  epochs?: number;
  learningRate?: number;
  seed?: number;
  /** 1 unigrams, 2 up to bigrams (default), 3 up to trigrams. */
  maxNgram?: number;
  /** Document frequency an n-gram needs in the training data (default 2). */
  minCount?: number;
  maxFeatures?: number;
}

export interface BaselineInfo {
  /** F: n-grams in the vocabulary. */
  features: number;
  /** F weights + 1 bias. */
  parameters: number;
}

export interface BaselineExplanation {
  probability: number;
  bias: number;
  /** [T] the review's tokens (lowercased, punctuation dropped; no <start>). */
  tokens: string[];
  /** [T] each token's share of the logit: bias + Σ contributions = logit(probability). */
  contributions: Float32Array;
  /** The vocabulary's n-grams present, by first position: contribution = weight · NB ratio · x. */
  ngrams: { ngram: string; first: number; length: number; contribution: number }[];
}

export interface SentimentSession {
  /** The built-in corpus with its fixed train/test split. */
  loadBuiltin(): DataSummary;
  loadSynthetic(
    options:
      | { count?: number; seed?: number; testFraction?: number; minTokens?: number; maxTokens?: number }
      | undefined
      | null,
  ): DataSummary;
  /**
   * An aclImdb .tar.gz, a .csv or a .tsv/.txt. The test set is the archive's own test half where
   * it has one; otherwise (CSV, TSV, an archive holding only train/) a stratified, seeded
   * hold-out of testFraction (default 0.2, seed default 1): the rule of the CLI's --holdout.
   * testSet 'holdout' holds out even when the archive has a test half (from its training half).
   * Malformed data throws "name:line: problem".
   */
  loadBytes(
    bytes: ArrayBuffer | ArrayBufferView,
    name: string,
    options: { testFraction?: number; seed?: number; testSet?: 'source' | 'holdout' } | undefined | null,
    onProgress: ((bytesRead: number, bytesTotal: number, examples: number) => void) | undefined | null,
  ): DataSummary;
  /**
   * The two-file layout of sentence-polarity corpora: one sentence per line, one file per class.
   * It has no test half, so a stratified, seeded testFraction (default 0.2, seed default 1) is
   * held out, as for a CSV. Empty files, blank lines between sentences, bytes that are not UTF-8
   * and the same file twice throw "name:line: problem" / "name: problem".
   */
  loadSentenceFiles(
    positiveBytes: ArrayBuffer | ArrayBufferView,
    positiveName: string,
    negativeBytes: ArrayBuffer | ArrayBufferView,
    negativeName: string,
    options: { testFraction?: number; seed?: number } | undefined | null,
    onProgress: ((bytesRead: number, bytesTotal: number, examples: number) => void) | undefined | null,
  ): DataSummary;
  dataStats(which: 'train' | 'test', bins: number): DataStats;
  /** Fits the text pipeline on the training texts and builds a fresh model. */
  createModel(config: SentimentModelConfig | undefined | null): ModelInfo;
  loadModel(bytes: ArrayBuffer | ArrayBufferView): ModelInfo;
  /** Copy: a model file (config, vocabulary and parameters). */
  saveModel(): Uint8Array;
  /** Copies: model.safetensors, vocab.json and model.py, as `attn export --format pytorch` writes
   *  them (docs/pytorch.md). Throws when there is no model. */
  exportPytorch(): ExportedFile[];
  modelInfo(): ModelInfo;
  /** Starts a run from the current parameters (validation split held out, stratified). */
  startTraining(config: TrainerSettings | undefined | null): TrainingStart;
  /** Up to `steps` optimiser steps, synchronously; epochs that end are validated. */
  runSteps(steps: number): StepsReport;
  /** Data-parallel training (docs/data-parallel.md): floats in one exchange buffer (every
   *  parameter's gradient, then the loss sum and the correct count). */
  exchangeSize(): number;
  /** Copy: the exchange buffer of shard `shard` of `shards` of the next batch (gradient SUM over
   *  its examples; the engine keeps its own until the step is applied); the parameters do not change. */
  shardGradient(shard: number, shards: number): Float32Array;
  /** One step from this replica's shard buffer and `others` (the other shards' buffers, in shard
   *  order, copied in), added in shard order by the engine; as runSteps(1). */
  applyGradient(others: Float32Array[]): StepsReport;
  /** Ends the run; the model gets the best validation epoch's parameters. */
  cancelTraining(): void;
  isTraining(): boolean;
  evaluate(which: 'test' | 'train' | 'validation' | 'all-train'): Metrics;
  /**
   * Trains the bag-of-n-grams baseline on all the loaded training data, synchronously (seconds on
   * 25,000 reviews). It lives beside the neural model; new data keeps it.
   */
  trainBaseline(options: BaselineSettings | undefined | null): BaselineInfo;
  hasBaseline(): boolean;
  evaluateBaseline(which: 'test' | 'all-train'): Metrics;
  /** Copies: the baseline's per-token and per-n-gram contributions to its logit. */
  explainBaseline(text: string): BaselineExplanation;
  /** Copy: P(positive) per text. */
  predict(texts: string[]): Float32Array;
  /** VIEWs in the result (see ExplanationView). */
  explain(text: string): ExplanationView;
  /** explain() of each text, for attention snapshots during training; VIEWs as explain(). */
  snapshot(texts: string[]): ExplanationView[];
  /** Copies. Transformer models only (else throws "...the Transformer view needs a transformer model"). */
  inspectTransformer(text: string, options: TransformerInspectOptions | undefined | null): TransformerInspection;
  /** Test-set accuracy with each head ablated alone; limit 0 = the whole test set. */
  headAblation(limit: number, causal: boolean | undefined | null): HeadAblationReport;
  /** The positional term added at positions 0..positions-1: [positions × dim] row-major. */
  positionalEncoding(positions: number): PositionalEncodingTable;
  delete(): void;
}

// ---- "Is attention an explanation?" (wasm/bindings_analysis.cpp) -----------------------------
// Every array here is a COPY (owns its buffer), valid after later calls and transferable.

/** analyze(): one review, T tokens ("<start>" then the words). */
export interface ReviewAnalysis {
  probability: number;
  /** log-odds of P(positive). */
  logit: number;
  tokens: string[];
  /** [T]. */
  ids: Int32Array;
  /** [T] attention-pooling weights α (sum 1); empty without attention pooling. */
  weights: Float32Array;
  /** [T] pre-softmax scores e_t (α = softmax(e)); empty without attention pooling. */
  scores: Float32Array;
  /** [T] w_outᵀ(α_t h_t): logit = Σ contributions + outputBias. Empty without attention pooling. */
  contributions: Float32Array;
  outputBias: number;
  /** [T] gradient × input: Σ_d ∂logit/∂x_{t,d} · x_{t,d} over the embedding. */
  saliency: Float32Array;
  /** [T] P(token t replaced by <oov>) − P; 0 for <start> and for words already <oov>. */
  leaveOneOut: Float32Array;
  /** [shuffles] P with the attention weights randomly permuted (empty without attention). */
  shuffledProbabilities: Float32Array;
  /** median |P_k − P| over the permutations; null without attention pooling or shuffles = 0. */
  shuffleMedianChange: number | null;
  shuffleMaxChange: number | null;
  /** P with uniform attention 1/T; null without attention pooling. */
  uniformProbability: number | null;
}
/** predictTokens(): a prediction for an edited token list (copies). */
export interface TokenPrediction {
  probability: number;
  tokens: string[];
  ids: Int32Array;
  weights: Float32Array;
}
export interface MisclassifiedReview {
  text: string;
  origin: string;
  label: number;
  probability: number;
  tokens: string[];
  weights: Float32Array;
}
// Merged into the SentimentSession interface above.
export interface SentimentSession {
  /** Attention vs gradient × input vs leave-one-out, and the shuffle / uniform-attention tests. */
  analyze(text: string, options: { shuffles?: number; seed?: number } | undefined | null): ReviewAnalysis;
  /**
   * Counterfactual: tokens looked up as words ("<start>" → start id; "<mask>", "<oov>", "" and
   * unknown words → <oov>); no start token is added.
   */
  predictTokens(tokens: string[]): TokenPrediction;
  /** Wrong predictions on the test set or all training data, most confidently wrong first (limit 0 = all). */
  misclassified(which: 'test' | 'train', limit: number): MisclassifiedReview[];
  /**
   * The pooling step of one review (attention pooling only), for running another pooling
   * function on it: hidden [T, Dh] encoder output, query [Dh] (dot / scaled_dot scoring; empty
   * otherwise), the model's own weights [T] and P(positive). Copies.
   */
  poolingProbe(text: string): {
    tokens: string[];
    hidden: OutTensor;
    query: Float32Array;
    weights: Float32Array;
    probability: number;
  };
  /** P(positive) of `text` with its pooling weights replaced by `weights` (one per token). */
  probabilityWithWeights(text: string, weights: Tensor): number;
}

/** What-ifs for inspectTransformer, inference only. */
export interface TransformerInspectOptions {
  /** Run with a causal mask (query t sees keys 0..t) even if the model was trained without. */
  causal?: boolean;
  /** [layer, head] pairs whose output is zeroed before the output projection. */
  ablated?: [number, number][];
}
export interface TransformerInspection {
  /** "<start>" then the words as tokenised (T). */
  tokens: string[];
  probability: number;
  layers: number;
  heads: number;
  /** d = d_model / heads, the size of one head's queries and keys. */
  headDim: number;
  /** [layers × heads × T × T] row-major: row t = query t's weights over the keys. */
  attention: Float32Array;
  /** [layers × heads × T × T]: s = q·k / √d before the mask and the softmax. */
  scores: Float32Array;
}
export interface HeadAblationReport {
  examples: number;
  baselineAccuracy: number;
  heads: { layer: number; head: number; accuracy: number; delta: number }[];
}
export interface PositionalEncodingTable {
  positions: number;
  dim: number;
  kind: 'sinusoidal' | 'learned';
  values: Float32Array;
}

/** Seq2SeqSession settings (all optional; camelCase or snake_case keys). */
/**
 * Seq2SeqSession's settings (Seq2SeqSessionConfig): every key optional; defaults, ranges and help
 * are `settingsSchemas().seq2seqSession` (the engine's one table; tests/js/settings_schema.test.mjs
 * holds this type to it). Named settings per task and model are the recipes,
 * `seq2seqRecipes()` / `seq2seqRecipeSettings(name)` (the ones `attn train --recipe NAME` trains).
 */
export interface Seq2SeqSettings {
  /** 'parallel': only through Seq2SeqSession.fromParallelText (the pairs come from a TSV file). */
  task?: 'reverse' | 'sort' | 'copy' | 'dates' | 'parallel';
  /** Training pairs; parallel: at most this many (0 = every pair). */
  trainSize?: number;
  testSize?: number;
  /** Digit tasks: string lengths of training (and, test*, held-out) pairs; test* 0 = min/max. */
  minLen?: number;
  maxLen?: number;
  testMinLen?: number;
  testMaxLen?: number;
  /** parallel: most frequent words kept per side. */
  sourceVocab?: number;
  targetVocab?: number;
  /** parallel (snake_case source_language / target_language): each side's word rules
   *  (text/mt_tokenizer.hpp; 'english' splits contractions, 'french' elisions and clitics); the
   *  target's also writes the translations back as text. Defaults 'english' → 'french'. */
  sourceLanguage?: MtLanguage;
  targetLanguage?: MtLanguage;
  /** parallel: lowercase both sides' words (default true; BLEU is scored lowercased). */
  lowercase?: boolean;
  /** 'rnn': the RNN encoder–decoder with `attention`; 'transformer': the Transformer
   *  encoder–decoder sized by dModel, heads, layers, ff (the RNN's keys are then ignored). */
  model?: 'rnn' | 'transformer';
  /** rnn: 'none' is RNNenc (no attention), 'bahdanau' / 'luong' RNNsearch. */
  attention?: 'bahdanau' | 'luong' | 'none';
  /** rnn: 'auto' is the attention's own (bahdanau: additive, luong: general). */
  score?: 'auto' | ScoreKindName;
  cell?: 'lstm' | 'gru';
  embed?: number;
  units?: number;
  attentionDim?: number;
  /** transformer (snake_case: d_model): model size D, a multiple of heads. */
  dModel?: number;
  /** transformer: attention heads H. */
  heads?: number;
  /** transformer: encoder blocks and decoder blocks, each. */
  layers?: number;
  /** transformer: feed-forward size F (0: 2·dModel). */
  ff?: number;
  /** transformer: dropout in [0, 1) while training (decoding never drops). */
  dropout?: number;
  /** transformer (snake_case: label_smoothing): ε in [0, 1). */
  labelSmoothing?: number;
  /** snake_case bleu_sentences: task 'parallel', held-out sources decoded for each epoch's BLEU
   *  (0 = no per-epoch BLEU, `bleu` is then null). */
  bleuSentences?: number;
  /** Task parallel: how the held-out sentences are decoded for their BLEU (each epoch's and
   *  evaluate's): 1 (the default) greedy, K a beam search of K ranked with the GNMT length penalty
   *  lengthAlpha (snake_case length_alpha, default 0.6, in [0, 10]). */
  beam?: number;
  lengthAlpha?: number;
  /** Task parallel: training pairs with more tokens than this on either side are left out (0, the
   *  default: no limit); the held-out sentences are all kept. */
  maxTrainTokens?: number;
  epochs?: number;
  batch?: number;
  /** Adam's learning rate (the recipes set each model's): the schedule's peak. */
  learningRate?: number;
  /** The learning rate over the planned steps (epochs × batches): 'constant' (default), or a linear
   *  warm-up of warmupSteps (snake_case warmup_steps, default 0) then 'linear' / 'cosine' decay to 0
   *  at the last step, or 'inverse_sqrt'. */
  schedule?: 'constant' | 'linear' | 'cosine' | 'inverse_sqrt';
  warmupSteps?: number;
  clipNorm?: number;
  validationSplit?: number;
  earlyStoppingPatience?: number;
  /** snake_case restore_best: at the end the model keeps the best validation epoch's parameters
   *  (by exact match, free-running token accuracy, loss; default true) or, false, the last epoch's. */
  restoreBest?: boolean;
  seed?: number;
}
/** One row of the engine's seq2seq recipe table (train/seq2seq_recipes.hpp). */
export interface Seq2SeqRecipe {
  /** 'reverse', 'translation-bahdanau-page', ... */
  name: string;
  /** 'cli': `attn train`'s defaults; 'page': the page's presets. */
  use: 'cli' | 'page';
  /** The row it starts from ('' = the session's defaults). */
  base: string;
  summary: string;
  task: NonNullable<Seq2SeqSettings['task']>;
  /** Every field the recipe trains. */
  settings: Required<Seq2SeqSettings>;
}
export interface Seq2SeqInfo {
  task: string;
  /** 'rnn' | 'transformer'. */
  model: string;
  /** rnn: 'none' | 'bahdanau' | 'luong'; transformer: 'transformer'. */
  attention: string;
  cell: string;
  parameters: number;
  sourceVocabulary: number;
  targetVocabulary: number;
  trainExamples: number;
  testExamples: number;
  /** Training pairs left out for having more than maxTrainTokens tokens on a side (task parallel). */
  trainTooLong: number;
  /** The longest decoding translate runs (the longest target + 4): a Transformer's decoder mask
   *  (setDecoderMask) must be at least this many positions square. */
  decodeLimit: number;
  /** How each side is split into tokens: 'characters' (the generated tasks), 'English rules,
   *  lowercased', 'French rules' (task parallel), or 'the project tokenizer (lowercased)' for a
   *  model file saved before the tokenisation was recorded. */
  sourceTokenizer: string;
  targetTokenizer: string;
  /** The share of each side's tokens (and sentences) the vocabularies turn into <unk>, in the
   *  training and the held-out pairs (recomputed by loadModel). */
  unknown: { train: Seq2SeqSideUnknownRates; test: Seq2SeqSideUnknownRates };
}
/** text/unknown_rate.hpp's counts of one side of one part. */
export interface UnknownRate {
  tokens: number;
  unknownTokens: number;
  sentences: number;
  sentencesWithUnknown: number;
  /** unknownTokens / tokens (0 without tokens). */
  tokenRate: number;
  /** sentencesWithUnknown / sentences (0 without sentences). */
  sentenceRate: number;
}
export interface Seq2SeqSideUnknownRates {
  source: UnknownRate;
  target: UnknownRate;
}
export interface Seq2SeqMetrics {
  count: number;
  /** Greedy output equal to its gold target (per pair). */
  exactMatch: number;
  /** FREE-RUNNING position-wise accuracy: the greedy output holds the gold token at that position
   *  (the name predates the BLEU fields; it is not teacher forced). */
  tokenAccuracy: number;
  byLength: { sourceLength: number; count: number; exact: number }[];
}
/** One bucket of held-out BLEU by source length (words; maxLength 0 = no upper bound). */
export interface Seq2SeqBleuBucket {
  minLength: number;
  maxLength: number;
  /** Held-out sources in the bucket (0: bleu is 0). */
  sentences: number;
  bleu: number;
}
/** evaluate(): greedy (free-running) output scored against ALL references of each held-out source
 *  (pairs grouped by source sentence), lowercased, 13a tokens. */
export interface Seq2SeqEvaluation extends Seq2SeqMetrics {
  /** Corpus BLEU-4 in [0, 100] over the held-out sources; null for the built-in tasks (reverse,
   *  dates: each output is one 13a token, so BLEU has no 2-grams to count). */
  bleu: number | null;
  /** Corpus chrF2 in [0, 100]. */
  chrf: number;
  /** Sources scored for bleu / chrf / bleuByLength (distinct held-out sources, at most `limit`). */
  sentences: number;
  /** The five buckets 1-5, 6-10, 11-15, 16-20, 21+ words, empty ones included ([] when bleu is null). */
  bleuByLength: Seq2SeqBleuBucket[];
  /** TEACHER-FORCED token accuracy (gold previous tokens fed in, argmax of each step compared with
   *  the gold next token, EOS included): not a translation quality; shown labelled as such. */
  teacherForcedAccuracy: number;
  /** Task 'parallel': exactMatch here is by source — the output equals ANY reference of its source
   *  (13a tokens, lowercased), over `sentences`. The built-in tasks keep the per-pair figure.
   *  pairExactMatch is always Seq2SeqMetrics' per-pair one, over `count`. */
  pairExactMatch: number;
}
export interface Seq2SeqEpochReport {
  epoch: number;
  trainLoss: number;
  /** Task 'parallel': greedy held-out corpus BLEU-4 after this epoch on the first bleuSentences
   *  held-out sources (all references of each); null when bleuSentences is 0 or for a built-in task. */
  bleu: number | null;
  teacherForcing: number;
  validationLoss: number | null;
  validation: Seq2SeqMetrics | null;
  seconds: number;
}
export interface Seq2SeqStepsReport {
  stepsRun: number;
  step: number;
  epoch: number;
  loss: number;
  /** Copy: each step's batch loss in this call. */
  losses: Float32Array;
  elapsed: number;
  /** Pairs stepped on so far (0 when the call ran no step). */
  examplesSeen: number;
  examplesPerSecond: number;
  plannedSteps: number;
  batchesPerEpoch: number;
  epochs: Seq2SeqEpochReport[];
  done: boolean;
  earlyStopped: boolean;
  /** The best validation epoch (0-based; -1 without validation): the model holds its parameters
   *  unless the session was created with restoreBest false (then the last epoch's). */
  bestEpoch: number;
}
export interface Seq2SeqTranslationView {
  output: string;
  sourceTokens: string[];
  /** The decoded tokens, then "<eos>" when decoding finished. */
  outputTokens: string[];
  /** data: VIEW [rows × cols] row-major (rows = outputTokens, cols = sourceTokens), valid until the
   *  next translate(); each row sums to 1. rows = cols = 0 for attention 'none'. */
  alignment: { rows: number; cols: number; data: Float32Array };
  logProb: number;
  finished: boolean;
  /** The beam's hypotheses, best first (one for greedy): text and GNMT length-penalised score
   *  (alpha 0.6; log_prob / ((5 + steps) / 6)^0.6). candidates[0].text === output. */
  candidates: { text: string; score: number; logProb: number; finished: boolean }[];
  /** transformer: every decoder block's cross-attention of the chosen output, COPY, row-major
   *  [layers, heads, Ty, Tx] (crossShape; Ty = outputTokens.length, Tx = sourceTokens.length);
   *  each [Ty, Tx] row sums to 1. alignment is the last layer's head mean. null for the RNN. */
  crossAttention: Float32Array | null;
  crossShape: [number, number, number, number] | null;
  /** transformer: the decoder's masked self-attention, COPY, [layers, heads, Ty, Ty] (selfShape):
   *  row t (the step that produced outputTokens[t], its input the previous token, BOS first) is
   *  exactly 0 beyond column t. null for the RNN. */
  selfAttention: Float32Array | null;
  selfShape: [number, number, number, number] | null;
}
/** A seq2seq decoder's state: s [B, Ds] and an LSTM's cell state c [B, Ds] (zeros for a GRU). */
export interface Seq2SeqDecoderState {
  s: Tensor;
  c: Tensor;
}
/** stepEncode's answer: every tensor is a COPY. */
export interface Seq2SeqStepEncoding {
  /** Each text's source tokens (one per character for the built-in tasks). */
  sourceTokens: string[][];
  /** [B, Tx, Dh] h_j = [→h_j; ←h_j], the batch padded 'post'. */
  annotations: Tensor;
  /** [B, Tx] Uint8Array: 1 for a source token, 0 for padding. */
  mask: { shape: number[]; data: Uint8Array };
  /** s_0 (and c_0 = 0). */
  state: Seq2SeqDecoderState;
  /** The alignment network e_j = vᵀ tanh(W [s_{t-1}; h_j]): w [A, Ds + Dh], v [A]. */
  alignment: { w: Tensor; v: Tensor };
  /** The longest decoding translate runs (the longest target + 4). */
  maxLen: number;
}
export interface Seq2SeqDecoderStepResult {
  state: Seq2SeqDecoderState;
  /** [B, V] p(y_t | y_<t, x) over the whole target vocabulary. */
  probabilities: Tensor;
  /** [B] the greedy choice of each row (never PAD or BOS). */
  tokens: number[];
}
/** One decoder block's cross-attention projections (COPIES): Q = x wq + bq, K = m wk + bk,
 *  V = m wv + bv; [D, D] and [D], head h owning columns h·D/H .. (h+1)·D/H − 1. */
export interface Seq2SeqCrossWeights {
  wq: Tensor;
  bq: Tensor;
  wk: Tensor;
  bk: Tensor;
  wv: Tensor;
  bv: Tensor;
}
/** crossStart's answer (Transformer sessions): every tensor is a COPY. */
export interface Seq2SeqCrossEncoding {
  sourceTokens: string[][];
  /** Each text's real tokens; the batch is padded 'post'. */
  sourceLengths: number[];
  /** [B, Tx, D] the encoder's output m: every block's keys and values are projected from it. */
  memory: Tensor;
  /** One per decoder block. */
  blocks: Seq2SeqCrossWeights[];
  heads: number;
  /** The longest decoding translate runs. */
  maxLen: number;
}
/** A decoding step cut open at a block's cross-attention (crossBegin / crossContinue). */
export type Seq2SeqCrossStep =
  /** Block `block`'s cross-attention is pending: its queries are projected from queriesInput
   *  [B, 1, D] (LN2 of the block's residual stream). */
  | { block: number; finished: false; queriesInput: Tensor }
  /** Every block done: log p [B, V] and each row's greedy choice (never PAD or BOS, as translate). */
  | { block: number; finished: true; logProbs: Tensor; tokens: number[] };

/** A built-in seq2seq task's data and model, trained in chunks. Free it with delete(). */
export interface Seq2SeqSession {
  info(): Seq2SeqInfo;
  /** The first `count` held-out pairs. */
  samples(count: number): { source: string; target: string }[];
  startTraining(): TrainingStart;
  runSteps(steps: number): Seq2SeqStepsReport;
  /** Data-parallel training (docs/data-parallel.md): floats in one exchange buffer (every
   *  parameter's gradient, then the loss sum and the target-token count). */
  exchangeSize(): number;
  /** Copy: the exchange buffer of shard `shard` of `shards` of the next batch (gradient SUM over
   *  its target tokens; the engine keeps its own until the step is applied); the parameters do
   *  not change. */
  shardGradient(shard: number, shards: number): Float32Array;
  /** One step from this replica's shard buffer and `others` (the other shards' buffers, in shard
   *  order, copied in), added in shard order by the engine; as runSteps(1). */
  applyGradient(others: Float32Array[]): Seq2SeqStepsReport;
  cancelTraining(): void;
  isTraining(): boolean;
  /** Greedy (beam <= 1) or beam search of that width. */
  translate(text: string, beam: number | undefined | null): Seq2SeqTranslationView;
  /** Greedy decoding of the first `limit` pairs (0 / undefined: all) with the per-pair metrics, and
   *  BLEU / chrF / exact match / BLEU by length over the distinct sources of those pairs, each
   *  against all its references in that part. */
  evaluate(which: 'test' | 'train', limit: number | undefined | null): Seq2SeqEvaluation;
  /** The step API (RNN Bahdanau models; others, the Transformer included, throw): the texts'
   *  annotations, mask, s_0 and alignment network, for attention computed outside the engine. */
  stepEncode(texts: string[]): Seq2SeqStepEncoding;
  /** The model's own attention for states s [B, Ds]: weights [B, Tx], context [B, Dh] (copies). */
  stepAttend(
    encoding: { annotations: Tensor; mask: Seq2SeqStepEncoding['mask'] },
    s: Tensor,
  ): {
    weights: Tensor;
    context: Tensor;
  };
  /** One decoder step from any context [B, Dh]: previous tokens [B] (BOS = 1 first). */
  decoderStep(previous: number[], state: Seq2SeqDecoderState, context: Tensor): Seq2SeqDecoderStepResult;
  /** Decoded target ids as text and as display tokens. */
  targetText(ids: number[]): { text: string; tokens: string[] };
  /** Transformer sessions: the decoder's self-attention mask ([L, L], 1 = query t may see position
   *  i, L >= info().decodeLimit) for the next training run and every decoding; null restores the
   *  causal mask. Throws for an RNN session, a smaller mask, or during a run. */
  setDecoderMask(mask: { shape: number[]; data: ArrayLike<number> } | null): void;
  /** The Transformer's step API with the cross-attention from outside: one decoding held by the
   *  session. crossStart encodes the texts (one batch, padded 'post') and starts it. */
  crossStart(texts: string[]): Seq2SeqCrossEncoding;
  /** The next step (previous [B] tokens, BOS = 1 first) up to block 0's cross-attention. */
  crossBegin(previous: number[]): Seq2SeqCrossStep;
  /** The engine's own cross-attention of the pending block: heads [B, 1, D] (each head's P V in
   *  its columns, before W_o) and weights [B, H, 1, Tx] (COPIES). */
  crossAttend(): { heads: Tensor; weights: Tensor };
  /** Finishes the pending block with these heads [B, 1, D] (weights [B, H, 1, Tx] are recorded,
   *  or null), then runs the next block up to its cross-attention, or the output. */
  crossContinue(heads: Tensor, weights: Tensor | null): Seq2SeqCrossStep;
  /** The model file with its vocabularies (the CLI's format): a COPY that owns its buffer. */
  saveModel(): Uint8Array;
  /** Replaces model and vocabularies with a saved file's (browser or `attn train --save`); the
   *  input is copied. Throws the model loader's message for a damaged or foreign file, as the CLI. */
  loadModel(bytes: Uint8Array | ArrayBuffer): Seq2SeqInfo;
  delete(): void;
}

/** The toy run of runToyTask in chunks of steps (same losses, however the steps are grouped). */
export interface ToyRun {
  /** Up to `steps` optimiser steps; `losses` (a copy) are theirs; `step` counts all steps so far. */
  runSteps(steps: number): { losses: Float32Array; step: number; plannedSteps: number; done: boolean };
  /** The test-set numbers of the model as it is now, with every loss so far (copies). */
  result(): ToyRunResult;
  delete(): void;
}

export type MtLanguage = 'generic' | 'english' | 'french' | 'en' | 'fr';

export interface MtTokenizeOptions {
  language?: MtLanguage;
  lowercase?: boolean;
}

export interface MtDetokenizeOptions {
  language?: MtLanguage;
  /** French only: the space before ? ! : ; % » and after « (' ', '\u00a0', '\u202f' or ''). */
  frenchSpace?: string;
}

export interface MetricOptions {
  /** Compare case-insensitively (default false). */
  lowercase?: boolean;
  /** NFC before tokenising (default true). */
  nfc?: boolean;
}

/** BLEU and the parts the course shows; precisions are in [0, 1], score in [0, 100]. */
export interface BleuParts {
  score: number;
  /** p_1..p_4 = matches / totals. */
  precisions: number[];
  /** Clipped n-gram matches, n = 1..4. */
  matches: number[];
  /** n-grams in the hypotheses, n = 1..4. */
  totals: number[];
  brevityPenalty: number;
  /** hypothesisLength / referenceLength. */
  lengthRatio: number;
  hypothesisLength: number;
  /** Sum of the closest reference lengths (ties to the shorter). */
  referenceLength: number;
  sentences: number;
}

export interface ChrfParts {
  /** chrF2 in [0, 100]. */
  score: number;
  /** Character n-gram precision and recall averaged over the orders, in [0, 1]. */
  precision: number;
  recall: number;
}

export interface LengthBucketBleu {
  label: string;
  minWords: number;
  /** null for the last, open bucket (21+). */
  maxWords: number | null;
  sentences: number;
  bleu: BleuParts;
}

export interface AttnEngine {
  /** Throws for a bad configuration (the same messages as runToyTask). */
  ToyRun: { new (configJson: string): ToyRun };
  SentimentSession: { new (): SentimentSession };
  Seq2SeqSession: {
    new (settings: Seq2SeqSettings | undefined | null): Seq2SeqSession;
    /** Task 'parallel' on "source<TAB>target" lines (text, or bytes copied in); errors name
     *  `name` (default "pairs.tsv") and the line: "pairs.tsv:3: expected 'source<TAB>target' ...". */
    fromParallelText(
      settings: Seq2SeqSettings | undefined | null,
      data: string | Uint8Array | ArrayBuffer,
      name: string | undefined | null,
    ): Seq2SeqSession;
  };
  /** Bytes of wasm memory currently allocated by malloc (for leak tests). */
  heapBytesInUse(): number;
  /** The module's memory as bytes (Emscripten export); its buffer grows, never shrinks. */
  HEAPU8: Uint8Array;
  version(): string;
  simdEnabled(): boolean;
  /**
   * The GEMM micro-kernel in use: "wasm relaxed-simd fma 4x8" where the engine has relaxed SIMD
   * (fused multiply-adds), else "wasm_simd128 4x8" (SIMD build) or "scalar 4x8".
   */
  gemmImplementation(): string;
  /** a [M, K] · b [K, N] → [M, N], through the GEMM kernel every layer uses. */
  matmul(a: Tensor, b: Tensor): OutTensor;
  /** alpha · op(a) · op(b), op(x) = xᵀ where transposeA / transposeB: the same kernel with every flag. */
  gemm(a: Tensor, b: Tensor, options: { transposeA?: boolean; transposeB?: boolean; alpha?: number }): OutTensor;
  scoreKinds(): { name: ScoreKindName; hasParameters: boolean }[];
  /** query [Ds] -> [T], or queries [Q, Ds] -> [Q, T]; keys [T, Dh]. */
  scores(kind: ScoreKindName, queries: Tensor, keys: Tensor, params: ScoreParams | undefined | null): OutTensor;
  /**
   * Rank 1 to 4; axis defaults to the last. x may hold -Infinity: a masked position (weight 0,
   * as with options.mask; a slice with every entry masked gives zeros). NaN and +Infinity throw.
   * This is the only input that accepts a non-finite number.
   */
  softmax(x: Tensor, options: SoftmaxOptions | undefined | null): OutTensor;
  /** weights [T] -> [D], or [Q, T] -> [Q, D]; annotations [T, D]. */
  contextVector(weights: Tensor, annotations: Tensor): OutTensor;
  /** weights [T], annotations [T, D] -> [T, D]. */
  weightedAnnotations(weights: Tensor, annotations: Tensor): OutTensor;
  attend(
    kind: ScoreKindName,
    query: Tensor,
    annotations: Tensor,
    options: AttendOptions | undefined | null,
  ): AttendResult;
  initScoreParams(
    kind: ScoreKindName,
    ds: number,
    dh: number,
    t: number,
    attentionDim: number,
    seed: number,
  ): OutScoreParams;
  /** q [Tq, dk] k [Tk, dk] v [Tk, dv], or the same with a leading heads axis; mask [Tq, Tk]. */
  scaledDotProductAttention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    options: { mask?: Mask } | undefined | null,
  ): AttentionOutput;
  causalMask(n: number): OutMask;
  paddingMask(tq: number, tk: number, validKeys: number): OutMask;
  combineMasks(a: Mask, b: Mask): OutMask;
  /** x [T, H*d] -> [H, T, d]. */
  splitHeads(x: Tensor, heads: number): OutTensor;
  /** x [H, T, d] -> [T, H*d]. */
  mergeHeads(x: Tensor): OutTensor;
  /**
   * Vocabulary::fit(trainDocs, numWords) with Keras' imdb ids (0 pad, 1 start, 2 oov, 3 unused,
   * words from 4 by falling count), then every review encoded with <start>: [M][tokens + 1].
   */
  imdbEncode(trainDocs: string[][], numWords: number, reviews: string[][]): number[][];
  /** Keras' pad_sequences: ids and mask (1 = real token) [N][maxlen]. */
  padSequences(
    seqs: number[][],
    maxlen: number,
    padding: 'pre' | 'post',
    truncating: 'pre' | 'post',
    value: number,
  ): { ids: number[][]; mask: number[][] };
  /**
   * Word tokens for translation (core/include/attn/text/mt_tokenizer.hpp): NFC, French elisions
   * and hyphenated clitics ("l'" "homme", "est" "-ce"), English contractions ("does" "n't"),
   * punctuation as tokens; optional lowercasing. Throws on invalid UTF-8 or an unknown language.
   */
  mtTokenize(text: string, options: MtTokenizeOptions | undefined | null): string[];
  /** Tokens back to text; French puts `frenchSpace` (default ' ') before ? ! : ; % » and after «. */
  mtDetokenize(tokens: string[], options: MtDetokenizeOptions | undefined | null): string;
  /** Corpus BLEU-4 on sentences (13a tokens), hypotheses [N], references [N][R_i >= 1], with its parts. */
  corpusBleu(hypotheses: string[], references: string[][], options: MetricOptions | undefined | null): BleuParts;
  /** Corpus BLEU-4 on tokens the caller split: hypotheses [N][tokens], references [N][R_i][tokens]. */
  corpusBleuTokens(hypotheses: string[][], references: string[][][], smoothing: 'none' | 'exp'): BleuParts;
  /** Corpus chrF2 (character 1..6-grams, white space removed), best reference per sentence. */
  corpusChrf(hypotheses: string[], references: string[][], options: MetricOptions | undefined | null): ChrfParts;
  /** Hypotheses whose 13a tokens equal those of any reference. */
  exactMatch(
    hypotheses: string[],
    references: string[][],
    options: MetricOptions | undefined | null,
  ): { matched: number; sentences: number; rate: number };
  /** Corpus BLEU per source length bucket (1-5, 6-10, 11-15, 16-20, 21+ words), always 5 buckets. */
  bleuBySourceLength(
    sources: string[],
    hypotheses: string[],
    references: string[][],
    options: MetricOptions | undefined | null,
  ): LengthBucketBleu[];
  /**
   * The held-out split by source sentence (core/include/attn/data/parallel_split.hpp): pairs with
   * the same normalised source stay together; the same result as natively for the same seed.
   */
  splitBySource(
    sources: string[],
    targets: string[],
    heldOutSources: number,
    seed: number,
  ): {
    sources: number;
    trainPairs: number;
    heldOutPairs: number;
    heldOutGroups: { source: string; references: string[] }[];
  };
  /** PE [maxLen, dim]: sin(pos / 10000^(2i/dim)) in column 2i, cos in column 2i + 1. */
  sinusoidalPositionalEncoding(maxLen: number, dim: number): OutTensor;
  /** hForward, hBackward [B, T, U] by source position -> [B, T, 2U], rows [→h_t ; ←h_t]. */
  concatDirections(hForward: Tensor, hBackward: Tensor): OutTensor;
  /**
   * One step of Luong's global attention (layers/decoder_attention) with the given weights, stored
   * [in, out]: wA (general [Ds, Dh]; concat [Ds + Dh, Ds]; location [Ds, T]), vA (concat [Ds]),
   * wC [Dh + Ds, Ds]. s [B, Ds], annotations [B, T, Dh], mask [B, T] or null.
   */
  /**
   * Greedy decoding (models/seq2seq_decoding) over the step whose next-token logits are row
   * `previous` of stepTable [V, V]: from BOS (1), the best token other than PAD (0) and BOS, until
   * EOS (2, not returned) or maxLen steps.
   */
  greedyDecodeTable(stepTable: Tensor, maxLen: number): number[];
  /** Tokens fed at decoder steps 0..Ty-2: target[t] (teacher forcing) or BOS then the previous prediction. */
  decoderInputTokens(target: Tensor, logits: Tensor, teacherForcing: boolean): number[];
  luongAttentionStep(
    kind: ScoreKindName,
    s: Tensor,
    annotations: Tensor,
    params: { wA?: Tensor; vA?: Tensor; wC: Tensor },
    mask: Mask | undefined | null,
  ): { weights: OutTensor; context: OutTensor; attentional: OutTensor };
  /**
   * Trains a small classifier on a synthetic task, synchronously. `configJson` is a flat JSON
   * object (keys in snake_case: task, encoder, pooling, score, embed_dim, units, steps, seed, ...);
   * onStep(step, loss) is called after every step.
   */
  runToyTask(configJson: string, onStep: ((step: number, loss: number) => void) | null): ToyRunResult;
  /** Copy: the sentiment recipes (the CLI's defaults per --model; engine train/recipes.hpp). */
  sentimentRecipes(): SentimentRecipe[];
  /**
   * The engine's split rule (data/splits.hpp): held-out flags (1 = held out) for `fraction` of the
   * examples, stratified by label, keeping each non-empty group on one side; no groups (or all
   * '') gives the plain stratified hold-out. A copy.
   */
  groupedHoldout(labels: number[], groups: string[], fraction: number, seed: number): Uint8Array;
  /** Cross-validation folds by the same rule: each example's fold in [0, k). A copy. */
  groupedFolds(labels: number[], groups: string[], k: number, seed: number): Uint32Array;
  /** Copy: every settings struct's fields (io/settings_schema.hpp), defaults included. */
  settingsSchemas(): {
    sentimentModel: SettingSpec[];
    trainer: SettingSpec[];
    toyRun: SettingSpec[];
    /** Seq2SeqSession's settings (Seq2SeqSettings), and the structs the model files write. */
    seq2seqSession: SettingSpec[];
    seq2seqModel: SettingSpec[];
    transformerSeq2seqModel: SettingSpec[];
    seq2seqTrainer: SettingSpec[];
  };
  /** Copy: the seq2seq recipes (engine train/seq2seq_recipes.hpp), each with every field it trains. */
  seq2seqRecipes(): Seq2SeqRecipe[];
  /** Copy: every field one seq2seq recipe trains (what `attn train --recipe <name>` trains). */
  seq2seqRecipeSettings(name: string): Required<Seq2SeqSettings>;
  /** Copy: what `new Seq2SeqSession(settings)` makes of these settings, every field filled in. */
  resolveSeq2seqSettings(settings: Seq2SeqSettings | undefined | null): Required<Seq2SeqSettings>;
  /** Copy: every field one recipe trains (what `attn train --model <model> [--data builtin]` trains). */
  sentimentRecipeSettings(model: SentimentRecipe['model'], data: SentimentRecipe['data']): ResolvedSentimentSettings;
  /** Copy: what createModel(model) and startTraining(trainer) make of these settings, every field filled in. */
  resolveSentimentSettings(
    model: SentimentModelConfig | undefined | null,
    trainer: TrainerSettings | undefined | null,
  ): ResolvedSentimentSettings;
}

/** One field of a settings struct, as the engine's schema describes it. */
export interface SettingSpec {
  /** camelCase, as the page passes it; `key` is the snake_case JSON key. */
  name: string;
  key: string;
  type: 'whole' | 'number' | 'boolean' | 'choice';
  default: number | boolean | string;
  /** whole and number: the range (null: unbounded), each end open or closed. */
  min?: number | null;
  max?: number | null;
  minOpen?: boolean;
  maxOpen?: boolean;
  choices?: string[];
  help: string;
  /** The CLI's flag (without --), or '' when the CLI has none. */
  flag: string;
  /** What a valid value is, as errors word it: "in [0, 1)", "one of adam, adamw, sgd". */
  rule: string;
}

export interface ResolvedSentimentSettings {
  model: Required<SentimentModelConfig>;
  trainer: Required<TrainerSettings>;
}

export interface SentimentRecipe {
  model: 'bilstm-attention' | 'transformer' | 'bilstm' | 'ngram-attention' | 'bow';
  /** 'real': real reviews (the CLI's defaults, the IMDB preset); 'builtin': the built-in corpus. */
  data: 'real' | 'builtin';
  epochs: number;
  learningRate: number;
  dropout: number;
  wordDropout: number;
  schedule: 'constant' | 'linear' | 'cosine' | 'inverse_sqrt';
  pooling: 'attention' | 'mean' | 'last';
  numWords: number;
  maxlen: number;
  batchSize: number;
  patience: number;
  /** ngram-attention: rows of the hashed bigram table (0 for the other models). */
  bigramBuckets: number;
}

export interface AttnEngineFactoryOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
  ) => object | false;
}

declare function createAttnEngine(options?: AttnEngineFactoryOptions): Promise<AttnEngine>;
export default createAttnEngine;
