// The Studio's recipes and its hold-out checks (web/src/views/studio/recipes.ts) in node: each
// preset's values, the CLI recipe per encoder, which preset a form follows, when the real-data
// recipe is suggested, and the messages for a bad test share or seed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './support/engine.mjs';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let settings;
let recipes;
let engine;

before(async () => {
  loaded = await loadWebModules('/src/views/studio/settings.ts', '/src/views/studio/recipes.ts');
  [settings, recipes] = loaded.modules;
  engine = await loadEngine();
});
after(async () => {
  await loaded?.close();
});

test('studio_recipes.the IMDB preset is the engine table (the CLI defaults), read before it can be used', () => {
  const { DEFAULTS } = settings;
  const { applyRecipe, matchingRecipe, suggestsRealDataRecipe, useEngineRecipes, cliModel, LARGE_DATA } = recipes;
  // Before the table arrives there is no IMDB preset to match, suggest or apply.
  assert.throws(() => applyRecipe('imdb', DEFAULTS), /has not arrived yet/);
  assert.equal(recipes.baselineRecipe(), null);
  assert.equal(suggestsRealDataRecipe(DEFAULTS, LARGE_DATA + 1), false);
  assert.equal(matchingRecipe(DEFAULTS), 'builtin');
  const table = engine.sentimentRecipes();
  useEngineRecipes(table);
  for (const [encoder, pooling] of [
    ['bilstm', 'attention'],
    ['bigru', 'attention'],
    ['bilstm', 'last'],
    ['bigru', 'mean'],
    ['transformer', 'mean'],
    ['transformer', 'attention'],
    ['none', 'mean'],
  ]) {
    const form = applyRecipe('imdb', { ...DEFAULTS, encoder, pooling });
    const r = table.find((x) => x.model === cliModel({ encoder, pooling }));
    assert.ok(r, `${encoder}/${pooling}`);
    assert.deepEqual(
      [form.epochs, form.learningRate, form.dropout, form.wordDropout, form.schedule, form.maxlen, form.numWords],
      [r.epochs, r.learningRate, r.dropout, r.wordDropout, r.schedule, r.maxlen, r.numWords],
      `${encoder}/${pooling}`,
    );
    assert.deepEqual([form.batchSize, form.patience, form.bigramBuckets], [r.batchSize, r.patience, r.bigramBuckets]);
    assert.equal(form.pooling, encoder === 'transformer' || encoder === 'none' ? r.pooling : pooling);
    assert.equal(form.bigramBuckets > 0, encoder === 'none', `${encoder}: bigrams only without an encoder`);
  }
  assert.equal(cliModel({ encoder: 'bilstm', pooling: 'last' }), 'bilstm');
  assert.equal(cliModel({ encoder: 'none', pooling: 'attention' }), 'ngram-attention');
  const bow = table.find((r) => r.model === 'bow');
  assert.deepEqual(recipes.baselineRecipe(), { epochs: bow.epochs, learningRate: bow.learningRate });
  assert.deepEqual(
    table.map((r) => `${r.model}/${r.data}`),
    [
      'bilstm-attention/real',
      'transformer/real',
      'bilstm/real',
      'ngram-attention/real',
      'bow/real',
      'bilstm-attention/builtin',
      'transformer/builtin',
      'bilstm/builtin',
      'ngram-attention/builtin',
      'bow/builtin',
    ],
  );
});

test('studio_recipes.the built-in preset is the engine built-in row (the CLI with --data builtin), and the defaults are it', () => {
  const { DEFAULTS } = settings;
  const { applyRecipe, matchingRecipe, cliModel } = recipes;
  const table = engine.sentimentRecipes();
  for (const [encoder, pooling] of [
    ['bilstm', 'attention'],
    ['bilstm', 'last'],
    ['transformer', 'mean'],
    ['none', 'attention'],
  ]) {
    const form = applyRecipe('builtin', { ...DEFAULTS, encoder, pooling });
    const r = table.find((x) => x.model === cliModel({ encoder, pooling }) && x.data === 'builtin');
    assert.deepEqual(
      [form.epochs, form.learningRate, form.dropout, form.wordDropout, form.schedule, form.maxlen, form.numWords],
      [r.epochs, r.learningRate, r.dropout, r.wordDropout, r.schedule, r.maxlen, r.numWords],
      `${encoder}/${pooling}`,
    );
    assert.deepEqual([form.batchSize, form.patience, form.bigramBuckets], [r.batchSize, r.patience, r.bigramBuckets]);
  }
  // The page's fallback before the engine's table arrives is the engine's built-in row.
  const ngrams = table.find((x) => x.model === 'ngram-attention' && x.data === 'builtin');
  assert.equal(recipes.BUILTIN_BIGRAM_BUCKETS, ngrams.bigramBuckets);
  // The Studio opens on model (a)'s built-in recipe.
  assert.deepEqual(applyRecipe('builtin', DEFAULTS), DEFAULTS);
  assert.equal(matchingRecipe(DEFAULTS), 'builtin');
});

test('studio_recipes.the built-in recipe is the defaults; IMDB is the CLI recipe per encoder; preview is short', () => {
  const { DEFAULTS } = settings;
  const { applyRecipe, matchingRecipe } = recipes;
  assert.deepEqual(applyRecipe('builtin', DEFAULTS), DEFAULTS);
  assert.equal(matchingRecipe(DEFAULTS), 'builtin');
  const imdb = applyRecipe('imdb', DEFAULTS);
  assert.deepEqual(
    [imdb.epochs, imdb.learningRate, imdb.schedule, imdb.dropout, imdb.wordDropout, imdb.maxlen, imdb.numWords],
    [4, 0.002, 'cosine', 0.2, 0.2, 500, 5000],
  );
  assert.equal(imdb.patience, 2);
  assert.equal(imdb.pooling, 'attention');
  assert.equal(matchingRecipe(imdb), 'imdb');
  const gru = applyRecipe('imdb', { ...DEFAULTS, encoder: 'bigru', pooling: 'last' });
  assert.equal(gru.pooling, 'last', 'a recurrent model keeps its pooling');
  const transformer = applyRecipe('imdb', { ...DEFAULTS, encoder: 'transformer' });
  assert.deepEqual(
    [transformer.epochs, transformer.learningRate, transformer.schedule, transformer.dropout, transformer.pooling],
    [6, 0.0005, 'constant', 0.3, 'mean'],
  );
  assert.equal(transformer.wordDropout, 0);
  const preview = applyRecipe('preview', imdb);
  assert.ok(preview.epochs < DEFAULTS.epochs && preview.maxlen < imdb.maxlen);
  assert.equal(matchingRecipe(preview), 'preview');
  // The model's shape and seed are not the recipe's.
  const shaped = applyRecipe('imdb', { ...DEFAULTS, units: 8, embedDim: 16, seed: 4, score: 'dot' });
  assert.deepEqual([shaped.units, shaped.embedDim, shaped.seed, shaped.score], [8, 16, 4, 'dot']);
  assert.equal(matchingRecipe({ ...imdb, epochs: 3 }), null);
});

test('studio_recipes.large data suggests the real-data recipe unless the form follows it', () => {
  const { DEFAULTS } = settings;
  const { applyRecipe, suggestsRealDataRecipe, LARGE_DATA } = recipes;
  assert.equal(suggestsRealDataRecipe(DEFAULTS, LARGE_DATA + 1), true);
  assert.equal(suggestsRealDataRecipe(DEFAULTS, LARGE_DATA), false);
  assert.equal(suggestsRealDataRecipe(applyRecipe('imdb', DEFAULTS), 25000), false);
});

test('studio_recipes.the hold-out share and seed are checked with a clear message', () => {
  const { checkHoldout } = recipes;
  assert.deepEqual(checkHoldout('10', '1'), { fraction: 0.1, seed: 1 });
  assert.deepEqual(checkHoldout(' 25 ', '0'), { fraction: 0.25, seed: 0 });
  assert.match(checkHoldout('0', '1').error, /above 0% and below 100%, got 0%/);
  assert.match(checkHoldout('100', '1').error, /above 0% and below 100%, got 100%/);
  assert.match(checkHoldout('150', '1').error, /below 100%/);
  assert.match(checkHoldout('-5', '1').error, /above 0%/);
  assert.match(checkHoldout('ten', '1').error, /must be a number \(a percentage\), got "ten"/);
  assert.match(checkHoldout('', '1').error, /must be a number/);
  assert.match(checkHoldout('10', '1.5').error, /seed must be a whole number/);
  assert.match(checkHoldout('10', '').error, /seed must be a whole number/);
  assert.match(checkHoldout('10', '-1').error, /seed must be a whole number/);
});
