// Named training recipes for the Studio and the checks of its test-set choice. Pure functions of
// the settings, so node tests cover them without a page.
import type { EngineBridge } from '../../engine/bridge';
import type { SentimentRecipe } from '../../../generated/attn_engine.mjs';
import { DEFAULTS, type StudioSettings } from './settings';

export type RecipeName = 'builtin' | 'imdb' | 'preview';

/** The settings a recipe decides; the model's shape (encoder, score, sizes) and the seed stay. */
export type RecipeValues = Pick<
  StudioSettings,
  | 'maxlen'
  | 'numWords'
  | 'epochs'
  | 'batchSize'
  | 'learningRate'
  | 'dropout'
  | 'wordDropout'
  | 'schedule'
  | 'patience'
  | 'pooling'
  | 'bigramBuckets'
>;

const RECIPE_KEYS = [
  'maxlen',
  'numWords',
  'epochs',
  'batchSize',
  'learningRate',
  'dropout',
  'wordDropout',
  'schedule',
  'patience',
  'pooling',
  'bigramBuckets',
] as const satisfies readonly (keyof RecipeValues)[];

export const RECIPE_LABELS: Record<RecipeName, string> = {
  builtin: 'Built-in corpus',
  imdb: 'IMDB (real reviews)',
  preview: 'Fast preview',
};

/** Reviews (training + test) from which the page suggests the real-data recipe. */
export const LARGE_DATA = 5000;

/** The engine's recipe table (train/recipes.hpp, the CLI's defaults), once it has arrived. */
let engineRecipes: readonly SentimentRecipe[] | null = null;

/** Takes the engine's recipe table (`sentimentRecipes()`): the one table the CLI reads too. */
export function useEngineRecipes(table: readonly SentimentRecipe[]): void {
  engineRecipes = table;
}

/** Fetches the engine's recipe table unless it is here already. */
export async function loadEngineRecipes(engine: Pick<EngineBridge, 'call'>): Promise<void> {
  if (!engineRecipes) useEngineRecipes(await engine.call('sentimentRecipes'));
}

/** True once the engine's table is here ("imdb" needs it). */
export function hasEngineRecipes(): boolean {
  return engineRecipes !== null;
}

/** The CLI's --model name whose recipe fits the Studio's encoder and pooling. */
export function cliModel(s: Pick<StudioSettings, 'encoder' | 'pooling'>): SentimentRecipe['model'] {
  if (s.encoder === 'transformer') return 'transformer';
  if (s.encoder === 'none') return 'ngram-attention';
  return s.pooling === 'last' ? 'bilstm' : 'bilstm-attention';
}

/**
 * The values of `name` for the encoder (and pooling) in `s`. "imdb" is the engine's recipe for
 * that model (cliModel); a recurrent model keeps its pooling, the Transformer and ngram-attention
 * take the recipe's. Without an encoder the bigram table comes with every recipe (the built-in
 * corpus' size before the engine's table arrives), and never with an encoder.
 * Throws for "imdb" before useEngineRecipes.
 */
export function recipeValues(name: RecipeName, s: Pick<StudioSettings, 'encoder' | 'pooling'>): RecipeValues {
  // Before the engine's table arrives the built-in corpus' recipe is the Studio's defaults, which
  // are the engine's built-in recipe for model (a) (a node test holds them equal).
  const base: RecipeValues = {
    ...(Object.fromEntries(RECIPE_KEYS.map((key) => [key, DEFAULTS[key]])) as RecipeValues),
    pooling: s.pooling,
    bigramBuckets:
      s.encoder === 'none' ? (engineRow(cliModel(s), 'builtin')?.bigramBuckets ?? BUILTIN_BIGRAM_BUCKETS) : 0,
  };
  if (name === 'preview') return { ...base, epochs: 2, maxlen: 100 };
  if (name === 'builtin' && !engineRecipes) return base;
  const model = cliModel(s);
  const r = engineRow(model, name === 'builtin' ? 'builtin' : 'real');
  if (!r) throw new Error(`The engine's recipe for ${model} has not arrived yet.`);
  return {
    maxlen: r.maxlen,
    numWords: r.numWords,
    epochs: r.epochs,
    batchSize: r.batchSize,
    learningRate: r.learningRate,
    dropout: r.dropout,
    wordDropout: r.wordDropout,
    schedule: r.schedule as RecipeValues['schedule'],
    patience: r.patience,
    pooling: s.encoder === 'transformer' || s.encoder === 'none' ? (r.pooling as RecipeValues['pooling']) : s.pooling,
    bigramBuckets: r.bigramBuckets,
  };
}

/** ngram-attention's bigram table on the built-in corpus (train/recipes.cpp's builtin row; a node
 *  test holds them equal), used until the engine's table arrives. */
export const BUILTIN_BIGRAM_BUCKETS = 8192;

/** The engine's row of `model` for `data`, once the table is here. */
function engineRow(model: SentimentRecipe['model'], data: 'real' | 'builtin'): SentimentRecipe | undefined {
  return engineRecipes?.find((recipe) => recipe.model === model && recipe.data === data);
}

/** The CLI's `bow` settings from the engine's table (the baseline trains as `attn train --model bow`). */
export function baselineRecipe(): { epochs: number; learningRate: number } | null {
  const r = engineRow('bow', 'real');
  return r ? { epochs: r.epochs, learningRate: r.learningRate } : null;
}

/** `s` with the recipe's values filled in. */
export function applyRecipe(name: RecipeName, s: StudioSettings): StudioSettings {
  return { ...s, ...recipeValues(name, s) };
}

/** Which recipe the settings follow exactly, or null (the learner changed something). */
export function matchingRecipe(s: StudioSettings): RecipeName | null {
  for (const name of Object.keys(RECIPE_LABELS) as RecipeName[]) {
    if (name === 'imdb' && !engineRecipes) continue;
    const values = recipeValues(name, s);
    if ((Object.keys(values) as (keyof RecipeValues)[]).every((key) => values[key] === s[key])) return name;
  }
  return null;
}

/** True when the loaded data is large and the settings do not follow the real-data recipe. */
export function suggestsRealDataRecipe(s: StudioSettings, reviews: number): boolean {
  return hasEngineRecipes() && reviews > LARGE_DATA && matchingRecipe(s) !== 'imdb';
}

export type HoldoutCheck = { fraction: number; seed: number } | { error: string };

/**
 * The hold-out share as typed (a percentage) and its seed, checked: a number above 0 and below
 * 100, and a whole seed from 0 to 4294967295.
 */
export function checkHoldout(percentText: string, seedText: string): HoldoutCheck {
  const percent = percentText.trim() === '' ? NaN : Number(percentText);
  if (!Number.isFinite(percent))
    return { error: `The test share must be a number (a percentage), got "${percentText}".` };
  if (!(percent > 0 && percent < 100)) {
    return { error: `The test share must be above 0% and below 100%, got ${percent}%.` };
  }
  const seed = seedText.trim() === '' ? NaN : Number(seedText);
  if (!Number.isInteger(seed) || seed < 0 || seed > 4294967295) {
    return { error: `The split seed must be a whole number from 0 to 4294967295, got "${seedText}".` };
  }
  return { fraction: percent / 100, seed };
}
