// The Translation panel's pure parts: the four models and their engine recipes, the chart series drawn
// from finished runs (held-out BLEU per epoch, BLEU by source length — the lecture's figure), one
// head's slice of the Transformer's attention, and the text of a file's summary and of its <unk>
// rates. No DOM here:
// tests/js/translation_view.test.mjs checks these in node.
import type { Seq2SeqBleuBucket, Seq2SeqCreateSettings } from '../../engine/protocol';
import type { Seq2SeqInfo, Seq2SeqRecipe, UnknownRate } from '../../../generated/attn_engine.mjs';
import type { ChartSeries } from '../chart';

export type ModelId = 'none' | 'bahdanau' | 'luong' | 'transformer';

export interface ModelChoice {
  id: ModelId;
  /** The select's label and the chart's legend. */
  label: string;
  /** What the lecture calls it. */
  short: string;
  /** The engine recipe it trains on the built-in corpus and small files (train/seq2seq_recipes.cpp). */
  recipe: string;
  /** The engine recipe it trains on a large file (more than FILE_PRESET_PAIRS pairs). */
  fileRecipe: string;
}

/**
 * Which of a model's two presets a run trains: 'corpus', sized for the built-in corpus (about 3,900
 * pairs) and files of that order, or 'file', sized for a file like Tatoeba's English–French pairs
 * (about 160,000) to train in about five minutes on two workers.
 */
export type PresetSize = 'corpus' | 'file';

/** Files with more pairs than this train the 'file' presets. */
export const FILE_PRESET_PAIRS = 20000;

export function presetSize(pairs: number): PresetSize {
  return pairs > FILE_PRESET_PAIRS ? 'file' : 'corpus';
}

/**
 * Each model's preset is an engine recipe (core train/seq2seq_recipes.cpp, `seq2seqRecipes()`):
 * the table `attn train --recipe translation-<model>-page` trains too. The page adds only the
 * epochs its input asks for (tests/js/seq2seq_recipes.test.mjs holds both to the recipe).
 */
export const MODELS: readonly ModelChoice[] = [
  {
    id: 'none',
    label: 'No attention (RNNenc)',
    short: 'RNNenc',
    recipe: 'translation-rnnenc-page',
    fileRecipe: 'translation-rnnenc-page-file',
  },
  {
    id: 'bahdanau',
    label: 'Bahdanau attention (RNNsearch)',
    short: 'Bahdanau',
    recipe: 'translation-bahdanau-page',
    fileRecipe: 'translation-bahdanau-page-file',
  },
  {
    id: 'luong',
    label: 'Luong attention (LSTM cells)',
    short: 'Luong',
    recipe: 'translation-luong-page',
    fileRecipe: 'translation-luong-page-file',
  },
  {
    id: 'transformer',
    label: 'Transformer encoder–decoder',
    short: 'Transformer',
    recipe: 'translation-transformer-page',
    fileRecipe: 'translation-transformer-page-file',
  },
];

/** The model the tab starts with for data of this size: Bahdanau's RNNsearch on the corpus, the
 *  Transformer on a large file (the one model whose file preset passes 30 held-out BLEU on the
 *  Tatoeba file in five minutes: docs/translation.md, "In the page"). */
export function defaultModel(size: PresetSize): ModelId {
  return size === 'file' ? 'transformer' : 'bahdanau';
}

export function modelChoice(id: string): ModelChoice {
  const found = MODELS.find((m) => m.id === id);
  if (!found) throw new Error(`unknown model '${id}'`);
  return found;
}

/** The engine's recipe rows by name (`seq2seqRecipes()`). */
export type RecipeTable = ReadonlyMap<string, Seq2SeqRecipe>;

export function recipeTable(rows: readonly Seq2SeqRecipe[]): RecipeTable {
  return new Map(rows.map((r) => [r.name, r]));
}

/** The recipe of `id`'s preset of `size` in `recipes`; throws when the engine has no such row. */
export function modelRecipe(recipes: RecipeTable, id: ModelId, size: PresetSize = 'corpus'): Seq2SeqRecipe {
  const choice = modelChoice(id);
  const name = size === 'file' ? choice.fileRecipe : choice.recipe;
  const recipe = recipes.get(name);
  if (!recipe) throw new Error(`the engine has no recipe '${name}'`);
  return recipe;
}

const clampEpochs = (epochs: number) => Math.min(50, Math.max(1, Math.round(epochs)));

/** The engine settings of one run: the model's preset of `size`, and the epochs asked for (1..50;
 *  not a number: the preset's). */
export function runSettings(
  recipes: RecipeTable,
  id: ModelId,
  epochs: number,
  size: PresetSize = 'corpus',
): Seq2SeqCreateSettings {
  const { settings } = modelRecipe(recipes, id, size);
  return { ...settings, epochs: clampEpochs(Math.round(epochs) || settings.epochs) };
}

/**
 * The epochs the tab proposes for data with `trainPairs` training pairs: the preset's, or, where
 * the data has fewer pairs than a 'file' preset is sized for (its train_size), as many more as
 * keep the pairs trained on — and so the minutes — about the same (a 40,000-pair file gets 4
 * epochs of a preset sized at 1 epoch of 160,000).
 */
export function presetEpochs(recipes: RecipeTable, id: ModelId, size: PresetSize, trainPairs: number): number {
  const { settings } = modelRecipe(recipes, id, size);
  if (size === 'corpus' || settings.trainSize === 0 || !(trainPairs > 0) || trainPairs >= settings.trainSize)
    return settings.epochs;
  return clampEpochs((settings.epochs * settings.trainSize) / trainPairs);
}

/** The preset's line under the Train button, from the recipes' numbers. */
export function presetSummary(recipes: RecipeTable, size: PresetSize = 'corpus'): string {
  const rnn = modelRecipe(recipes, 'bahdanau', size).settings;
  const t = modelRecipe(recipes, 'transformer', size).settings;
  const sized =
    size === 'file'
      ? `A large file: presets for up to ${rnn.trainSize.toLocaleString('en-US')} training pairs and ` +
        `${rnn.sourceVocab.toLocaleString('en-US')} words a side, about five minutes on 2 workers (more epochs ` +
        'for a smaller file). '
      : '';
  return (
    `${sized}Preset: RNNs with ${rnn.cell.toUpperCase()} cells ` +
    `(${modelRecipe(recipes, 'luong', size).settings.cell.toUpperCase()} ` +
    `for Luong), embeddings of ${rnn.embed} and ${rnn.units} units a direction; the Transformer with d = ${t.dModel}, ` +
    `${t.heads} heads, ${t.layers} encoder and ${t.layers} decoder blocks; ${rnn.epochs} ` +
    `epoch${rnn.epochs === 1 ? '' : 's'}, batches of ` +
    `${rnn.batch}; BLEU after each epoch on ${rnn.bleuSentences} held-out sentences. With 2 workers each batch is ` +
    'split between two engine workers (one core each) that add their gradients: the same seed gives the same run ' +
    'again for a given worker count.'
  );
}

/** A finished run's numbers, kept per model for the charts. */
export interface RunResult {
  model: ModelId;
  /** Held-out BLEU after each epoch (null where not measured). */
  epochBleu: (number | null)[];
  bleu: number;
  bleuByLength: Seq2SeqBleuBucket[];
}

/** "1–5", "6–10", "21+": a bucket's words. */
export function bucketLabel(b: Seq2SeqBleuBucket): string {
  return b.maxLength > 0 ? `${b.minLength}–${b.maxLength}` : `${b.minLength}+`;
}

/** Where a bucket sits on the length axis: its middle (the open bucket: its start + 2). */
export function bucketCentre(b: Seq2SeqBleuBucket): number {
  return b.maxLength > 0 ? (b.minLength + b.maxLength) / 2 : b.minLength + 2;
}

/**
 * The lecture's figure: one line per model, BLEU against source length. Empty buckets are left out
 * (a point at 0 BLEU for "no sentences" would read as a model that failed); models in MODELS order.
 */
export function bleuByLengthSeries(runs: ReadonlyMap<ModelId, RunResult>): ChartSeries[] {
  return MODELS.filter((m) => runs.has(m.id)).map((m) => lengthLine(m.short, runs.get(m.id)!.bleuByLength));
}

/** One model's line of that figure (the Translation tab's and lesson 12's): BLEU at each bucket's
 *  middle, the buckets without sentences left out. */
export function lengthLine(name: string, buckets: readonly Seq2SeqBleuBucket[]): ChartSeries {
  const drawn = buckets.filter((b) => b.sentences > 0);
  return { name, xs: drawn.map(bucketCentre), ys: drawn.map((b) => b.bleu) };
}

/** Held-out BLEU per epoch, one line per model (finished runs and the one training now). */
export function epochBleuSeries(runs: ReadonlyMap<ModelId, RunResult>): ChartSeries[] {
  return MODELS.filter((m) => runs.has(m.id)).map((m) => {
    const xs: number[] = [];
    const ys: number[] = [];
    runs.get(m.id)!.epochBleu.forEach((bleu, i) => {
      if (bleu !== null) {
        xs.push(i + 1);
        ys.push(bleu);
      }
    });
    return { name: m.short, xs, ys };
  });
}

/** One head's [rows × cols] matrix out of a [layers, heads, rows, cols] row-major tensor. */
export function headSlice(
  data: Float32Array,
  shape: readonly [number, number, number, number],
  layer: number,
  head: number,
): { values: Float32Array; rows: number; cols: number } {
  const [layers, heads, rows, cols] = shape;
  if (layer < 0 || layer >= layers || head < 0 || head >= heads)
    throw new RangeError(`layer ${layer}, head ${head} is outside ${layers} layers × ${heads} heads`);
  const size = rows * cols;
  const from = (layer * heads + head) * size;
  return { values: data.subarray(from, from + size), rows, cols };
}

/** The heads' mean of one layer (what the engine's `alignment` is for the last layer). */
export function headMean(
  data: Float32Array,
  shape: readonly [number, number, number, number],
  layer: number,
): { values: Float32Array; rows: number; cols: number } {
  const [, heads, rows, cols] = shape;
  const values = new Float32Array(rows * cols);
  for (let h = 0; h < heads; h++) {
    const one = headSlice(data, shape, layer, h).values;
    for (let i = 0; i < values.length; i++) values[i] += one[i] / heads;
  }
  return { values, rows, cols };
}

/** The data card's line for a loaded file. */
export function dataSummary(name: string, trainPairs: number, heldOut: number, source: number, target: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `${name}: ${n(trainPairs + heldOut)} pairs — ${n(trainPairs)} to train on, ${n(heldOut)} held out; ` +
    `vocabularies of ${n(source)} source and ${n(target)} target words (with <unk> and the markers).`
  );
}

/** A token as drawn in a map's label ("<eos>" spelled out, a space visible). */
export function shownToken(token: string): string {
  return token === ' ' ? '␣' : token;
}

/** One side of the data card's <unk> table: how its words are split, and the share of its tokens
 *  (and of its sentences) the vocabulary turns into <unk>, in the training and the held-out pairs. */
export interface UnknownRow {
  side: 'source' | 'target';
  /** "Source words". */
  label: string;
  /** "English rules, lowercased". */
  tokenizer: string;
  train: UnknownRate;
  test: UnknownRate;
}

export function unknownRows(info: Pick<Seq2SeqInfo, 'unknown' | 'sourceTokenizer' | 'targetTokenizer'>): UnknownRow[] {
  return (['source', 'target'] as const).map((side) => ({
    side,
    label: side === 'source' ? 'Source words' : 'Target words',
    tokenizer: side === 'source' ? info.sourceTokenizer : info.targetTokenizer,
    train: info.unknown.train[side],
    test: info.unknown.test[side],
  }));
}

/** A cell of that table: two short lines ("0.02% of words", "0.16% of sentences") and the counts
 *  for its tooltip ("1 of 4,741 words; 1 of 608 sentences"). */
export function unknownCell(rate: UnknownRate): { words: string; sentences: string; counts: string } {
  const pct = (x: number) => `${(100 * x).toFixed(x > 0 && x < 0.0001 ? 4 : 2)}%`;
  const n = (x: number) => x.toLocaleString('en-US');
  return {
    words: `${pct(rate.tokenRate)} of words`,
    sentences: `${pct(rate.sentenceRate)} of sentences`,
    counts:
      `${n(rate.unknownTokens)} of ${n(rate.tokens)} words; ` +
      `${n(rate.sentencesWithUnknown)} of ${n(rate.sentences)} sentences`,
  };
}
