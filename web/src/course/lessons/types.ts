// What a lesson page is made of. Lesson text is HTML with $…$ TeX (see ../math.ts).
import type { Seq2SeqSettings } from '../../../generated/attn_engine.mjs';
import type { HeatmapData } from '../../views/heatmap';
import type { StudioSettings } from '../../views/studio/settings';
import type { EngineCall } from '../exercises/types';

export interface TitledHeatmap {
  title: string;
  data: HeatmapData;
  /** Colours only, each cell's number on demand (a 0/1 pattern, or a map too big for numbers). */
  compact?: boolean;
}

/** A figure computed by the engine when the page opens. */
export interface LiveFigure {
  caption: string;
  compute(call: EngineCall): Promise<TitledHeatmap[]>;
}

/** A question answered by clicking; the engine's computation then reveals the answer. */
export interface Prediction {
  id: string;
  question: string;
  options: string[];
  reveal(call: EngineCall): Promise<{ answer: number; explanation: string; figures: TitledHeatmap[] }>;
}

/** A training run of a small model on a synthetic task (runToyTask in the engine). */
export interface TrainingDemo {
  id: string;
  title: string;
  description: string;
  /** One or more runs, compared side by side; flat runToyTask settings (snake_case keys). */
  runs: { label: string; config: Record<string, string | number> }[];
}

/**
 * Seq2seq models trained in the engine worker (its Seq2SeqSession), one after the other. After
 * training, each run's held-out exact match is shown, by source length (a chart and a table) when
 * there are several runs; `translate` then lets the learner decode an input with the last run's
 * model and see its alignment; `epochs` tabulates teacher-forced loss against free-running
 * accuracy per epoch.
 */
export interface Seq2SeqDemo {
  id: string;
  title: string;
  description: string;
  runs: {
    label: string;
    settings: Seq2SeqSettings;
    /** Overrides for a page opened with ?s2s-quick (the browser tests): a run of a few seconds. */
    quick?: Seq2SeqSettings;
  }[];
  translate?: { example: string; hint: string };
  epochs?: boolean;
}

/**
 * The learner's attention_pooling function inside a classifier trained in the page (the engine
 * worker's sentiment session on the built-in corpus, dot-product pooling with a learned query):
 * their weights and P(positive) next to the engine's on `reviews`, and both accuracies.
 */
export interface PoolingDemo {
  id: string;
  /** Flat SentimentModelConfig settings (score must be dot or scaled_dot). */
  model: Record<string, string | number>;
  /** Trainer settings; `quick` replaces them for pages opened with ?s2s-quick (the browser tests). */
  training: Record<string, number>;
  quick?: Record<string, number>;
  reviews: { text: string; label: 0 | 1 }[];
}

/**
 * The learner's alignment_batch function as the decoder attention of a seq2seq model trained in
 * the page (the worker's Seq2SeqSession, Bahdanau attention): greedy decoding of the first
 * `heldOut` held-out inputs with their function next to the engine's own (seq2seq_step_view.ts).
 */
export interface Seq2SeqStepDemo {
  id: string;
  settings: Seq2SeqSettings;
  /** Overrides for a page opened with ?s2s-quick (the browser tests). */
  quick?: Seq2SeqSettings;
  heldOut: number;
}

/**
 * Lesson 11's decoder mask in a Transformer trained in the page (the worker's Seq2SeqSession,
 * model 'transformer'): trained with the causal mask and with none, then with the learner's
 * decoderMask; teacher-forced loss and accuracy next to free-running exact match
 * (transformer_mask_view.ts).
 */
export interface TransformerMaskDemo {
  id: string;
  settings: Seq2SeqSettings;
  /** Overrides for a page opened with ?s2s-quick (the browser tests). */
  quick?: Seq2SeqSettings;
  /** Held-out inputs whose outputs the table shows. */
  examples: number;
}

/**
 * The learner's cross_attention function as every decoder block's cross-attention of a
 * Transformer trained in the page: greedy decoding of the first `heldOut` held-out inputs with
 * their function next to the engine's own (transformer_cross_view.ts).
 */
export interface TransformerCrossDemo {
  id: string;
  settings: Seq2SeqSettings;
  /** Overrides for a page opened with ?s2s-quick (the browser tests). */
  quick?: Seq2SeqSettings;
  heldOut: number;
}

/**
 * A sentiment classifier trained in the page (the engine worker's sentiment session) with the
 * Studio's recipe for the data the learner picks — the built-in corpus or an aclImdb archive —
 * then read on the learner's own sentences: P(positive) and each token's attention weight.
 */
export interface SentimentDemo {
  id: string;
  /** The model's shape over the Studio's defaults (encoder, pooling, score, sizes). */
  shape: Partial<StudioSettings>;
  /** Overrides for a page opened with ?s2s-quick (the browser tests): a run of a few seconds. */
  quick?: Partial<StudioSettings>;
  /** The sentence the text box starts with. */
  example: string;
}

/**
 * A word-level translator trained in the page on sentence pairs (the worker's Seq2SeqSession,
 * task 'parallel'): the built-in pairs file or one the learner picks. After training: teacher-forced
 * loss per epoch next to free-running exact match, held-out BLEU greedy and with beam search, BLEU
 * by source length, a box to translate the learner's own sentence with its alignment — and the
 * learner's corpus_bleu draft scoring the model's translations next to the engine's BLEU
 * (translation_demo_view.ts).
 */
export interface TranslationDemo {
  id: string;
  /** The built-in "source<TAB>target" file, relative to course.html. */
  pairsUrl: string;
  /** The target language of the learner's corpusBleu tokens (mtTokenize). */
  targetLanguage: 'fr' | 'en' | 'generic';
  /** The engine's settings; testSize is the English sentences held out, each with all its translations. */
  settings: Seq2SeqSettings;
  /** Overrides for a page opened with ?s2s-quick (the browser tests). */
  quick?: Seq2SeqSettings;
  /** The Transformer the learner may train instead (laid over `settings`, model 'transformer'). */
  transformer?: Seq2SeqSettings;
  /** Beam width compared with greedy decoding. */
  beam: number;
  example: string;
}

export type Block =
  | { html: string }
  /** `beside`: shown next to the block before it (side by side when the screen is wide). */
  | { exercise: string; beside?: boolean }
  | { prediction: Prediction }
  | { figure: LiveFigure }
  | { training: TrainingDemo }
  | { seq2seq: Seq2SeqDemo }
  | { pooling: PoolingDemo }
  | { seq2seqStep: Seq2SeqStepDemo }
  | { transformerMask: TransformerMaskDemo }
  | { transformerCross: TransformerCrossDemo }
  | { sentiment: SentimentDemo }
  | { translation: TranslationDemo }
  | { todo: string };

export interface Lesson {
  number: number;
  slug: string;
  title: string;
  summary: string;
  blocks: Block[];
}
