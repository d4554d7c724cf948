// The Studio's settings: the model and trainer hyperparameters and the data choice, their
// defaults (model (a)), and their URL form, so that a link reproduces the view. Values are not
// range-checked here: the engine checks them and its message is shown next to the form.
import type { SentimentModelConfig, TrainerSettings } from '../../../generated/attn_engine.mjs';
import { defaultWorkers } from '../../engine/data_parallel';

export interface StudioSettings {
  /** 'none': the pooling reads the embeddings themselves (words and hashed bigrams). */
  encoder: 'bilstm' | 'bigru' | 'transformer' | 'none';
  pooling: 'attention' | 'last' | 'mean';
  score: 'additive' | 'dot' | 'scaled_dot' | 'general';
  embedDim: number;
  units: number;
  /** Rows of the hashed bigram embedding table added to the word embeddings; 0 = words only. */
  bigramBuckets: number;
  maxlen: number;
  numWords: number;
  epochs: number;
  batchSize: number;
  learningRate: number;
  dropout: number;
  wordDropout: number;
  schedule: 'constant' | 'linear' | 'cosine' | 'inverse_sqrt';
  /** Epochs without validation improvement before stopping; 0 = off. */
  patience: number;
  seed: number;
  data: 'builtin' | 'synthetic' | 'file';
  syntheticCount: number;
  syntheticSeed: number;
  /** Where the test set of a loaded file comes from: its own test half, or a held-out share. */
  testSet: 'source' | 'holdout';
  /** The held-out share in percent, and the seed of the stratified draw. */
  holdoutPercent: number;
  splitSeed: number;
  /** Engine workers one run trains on (data parallel: docs/data-parallel.md). A run is
   *  deterministic for a given seed and worker count. */
  workers: '1' | '2';
}

export { defaultWorkers };

/**
 * Model (a): embeddings (32) → BiLSTM (32 each way) → additive attention pooling → one unit,
 * trained with the engine's built-in-corpus recipe for it (train/recipes.cpp, the CLI's
 * `attn train --data builtin`; tests/js/studio_recipes.test.mjs holds the two equal).
 */
export const DEFAULTS: StudioSettings = {
  encoder: 'bilstm',
  pooling: 'attention',
  score: 'additive',
  embedDim: 32,
  units: 32,
  bigramBuckets: 0,
  maxlen: 64,
  numWords: 5000,
  epochs: 15,
  batchSize: 32,
  learningRate: 0.002,
  dropout: 0.3,
  wordDropout: 0.2,
  schedule: 'cosine',
  patience: 0,
  seed: 1,
  data: 'builtin',
  syntheticCount: 1000,
  syntheticSeed: 7,
  testSet: 'source',
  holdoutPercent: 10,
  splitSeed: 1,
  workers: defaultWorkers(),
};

export const CHOICES = {
  encoder: ['bilstm', 'bigru', 'transformer', 'none'],
  pooling: ['attention', 'last', 'mean'],
  score: ['additive', 'dot', 'scaled_dot', 'general'],
  data: ['builtin', 'synthetic', 'file'],
  schedule: ['constant', 'linear', 'cosine', 'inverse_sqrt'],
  testSet: ['source', 'holdout'],
  workers: ['1', '2'],
} as const;

/** URL parameter of each setting (short, stable names). */
export const PARAM: Record<keyof StudioSettings, string> = {
  encoder: 'enc',
  pooling: 'pool',
  score: 'score',
  embedDim: 'embed',
  units: 'units',
  bigramBuckets: 'bigrams',
  maxlen: 'maxlen',
  numWords: 'words',
  epochs: 'epochs',
  batchSize: 'batch',
  learningRate: 'lr',
  dropout: 'dropout',
  wordDropout: 'wdrop',
  schedule: 'sched',
  patience: 'patience',
  seed: 'seed',
  data: 'data',
  syntheticCount: 'n',
  syntheticSeed: 'dseed',
  testSet: 'test',
  holdoutPercent: 'holdout',
  splitSeed: 'sseed',
  workers: 'workers',
};

/** Settings from URL parameters: unknown choices and non-numbers fall back to the defaults. */
export function settingsFromParams(params: URLSearchParams, base: StudioSettings = DEFAULTS): StudioSettings {
  const out = { ...base } as Record<string, string | number>;
  for (const [key, name] of Object.entries(PARAM) as [keyof StudioSettings, string][]) {
    const raw = params.get(name);
    if (raw === null) continue;
    if (key in CHOICES) {
      if ((CHOICES[key as keyof typeof CHOICES] as readonly string[]).includes(raw)) out[key] = raw;
    } else if (raw.trim() !== '' && Number.isFinite(Number(raw))) {
      out[key] = Number(raw);
    }
  }
  return out as unknown as StudioSettings;
}

/** Only the settings that differ from the defaults, so links stay short. */
export function settingsToParams(settings: StudioSettings): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, name] of Object.entries(PARAM) as [keyof StudioSettings, string][]) {
    if (settings[key] === DEFAULTS[key]) continue;
    params.set(name, key === 'learningRate' ? formatRate(settings[key]) : String(settings[key]));
  }
  return params;
}

export function modelConfig(s: StudioSettings): SentimentModelConfig {
  return {
    encoder: s.encoder,
    pooling: s.pooling,
    score: s.score,
    embedDim: s.embedDim,
    units: s.units,
    attentionDim: s.units,
    bigramBuckets: s.bigramBuckets,
    numWords: s.numWords,
    maxlen: s.maxlen,
    dropout: s.dropout,
    wordDropout: s.wordDropout,
    seed: s.seed,
  };
}

/** The share of the training reviews the trainer sets aside, at random, to validate each epoch. */
export const VALIDATION_SHARE = 0.1;

export function trainerSettings(s: StudioSettings): TrainerSettings {
  return {
    epochs: s.epochs,
    batchSize: s.batchSize,
    learningRate: s.learningRate,
    schedule: s.schedule,
    validationSplit: VALIDATION_SHARE,
    earlyStoppingPatience: s.patience,
    seed: s.seed,
  };
}

/** A learning rate as people write it: 0.005, 5e-4, 1e+19. */
export function formatRate(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1e4 || abs < 1e-3) return x.toExponential().replace(/\.?0+e/, 'e');
  return String(Number(x.toPrecision(6)));
}

/** The challenger of each race: the current settings with one thing changed. */
export const RACES = {
  score: {
    label: 'Additive vs scaled-dot scoring',
    challenger: (s: StudioSettings): StudioSettings => ({
      ...s,
      score: s.score === 'scaled_dot' ? 'additive' : 'scaled_dot',
      pooling: 'attention',
    }),
  },
  encoder: {
    label: 'BiLSTM vs BiGRU',
    challenger: (s: StudioSettings): StudioSettings => ({ ...s, encoder: s.encoder === 'bigru' ? 'bilstm' : 'bigru' }),
  },
  attention: {
    label: 'Attention vs mean pooling (no attention)',
    challenger: (s: StudioSettings): StudioSettings => ({ ...s, pooling: s.pooling === 'mean' ? 'attention' : 'mean' }),
  },
} as const;
export type RaceKind = keyof typeof RACES;

/** What differs between two settings, as "score scaled_dot" etc. (for labels). */
export function describeDifference(a: StudioSettings, b: StudioSettings): string {
  const parts: string[] = [];
  for (const key of ['encoder', 'pooling', 'score'] as const) if (a[key] !== b[key]) parts.push(`${key} ${b[key]}`);
  return parts.join(', ') || 'same settings';
}

/**
 * The settings a loaded model was built with (ModelInfo: maxlen and vocabulary, and the
 * classifier's flat JSON in snake_case); the trainer settings and the data stay as they were.
 */
export function settingsFromModel(
  base: StudioSettings,
  info: { maxlen: number; vocabulary: number; classifier: string },
): StudioSettings {
  const out = { ...base, maxlen: info.maxlen, numWords: info.vocabulary };
  let c: Record<string, unknown> = {};
  try {
    c = JSON.parse(info.classifier) as Record<string, unknown>;
  } catch {
    return out;
  }
  const pick = <K extends keyof typeof CHOICES>(key: K, value: unknown) =>
    (CHOICES[key] as readonly unknown[]).includes(value) ? (value as StudioSettings[K]) : out[key];
  out.encoder = pick('encoder', c.encoder);
  out.pooling = pick('pooling', c.pooling);
  out.score = pick('score', c.score);
  if (typeof c.embed_dim === 'number') out.embedDim = c.embed_dim;
  if (typeof c.units === 'number') out.units = c.units;
  out.bigramBuckets = typeof c.bigram_buckets === 'number' ? c.bigram_buckets : 0;
  // Rates are stored as float32 (0.2 reads back as 0.200000003): shown as written.
  if (typeof c.dropout === 'number') out.dropout = Number(c.dropout.toPrecision(6));
  if (typeof c.word_dropout === 'number') out.wordDropout = Number(c.word_dropout.toPrecision(6));
  return out;
}
