// The Translation tab's pure parts in node (web/src/views/translation/models.ts): the settings a
// run sends the engine (its recipe's), the lecture's figure (BLEU by source length, one line per model, empty
// buckets left out), the BLEU-per-epoch lines, one head's slice of a [layers, heads, rows, cols]
// attention tensor and the heads' mean. What the browser draws from these is checked in
// tests/e2e/translation.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let models;

before(async () => {
  loaded = await loadWebModules('/src/views/translation/models.ts');
  [models] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

// A stand-in for the engine's recipe table (seq2seqRecipes(); tests/js/seq2seq_recipes.test.mjs
// checks the real one against the CLI): the view takes each model's row and the epochs only.
const row = (name, settings) => ({ name, use: 'page', base: '', summary: '', task: 'parallel', settings });
const RECIPES = [
  row('translation-rnnenc-page', { model: 'rnn', attention: 'none', epochs: 6, batch: 32, cell: 'gru' }),
  row('translation-bahdanau-page', {
    model: 'rnn',
    attention: 'bahdanau',
    epochs: 6,
    batch: 32,
    cell: 'gru',
    embed: 64,
    units: 64,
    bleuSentences: 200,
  }),
  row('translation-luong-page', { model: 'rnn', attention: 'luong', epochs: 6, batch: 32, cell: 'lstm' }),
  row('translation-transformer-page', { model: 'transformer', dModel: 64, heads: 4, layers: 2, epochs: 6, batch: 32 }),
];
// Each model's preset for a large file (the engine's `translation-<model>-page-file`).
const fileRow = (model, settings) =>
  row(`translation-${model}-page-file`, { trainSize: 160000, sourceVocab: 6000, epochs: 1, batch: 64, ...settings });
const FILE_RECIPES = [
  fileRow('rnnenc', { model: 'rnn', attention: 'none', cell: 'gru' }),
  fileRow('bahdanau', { model: 'rnn', attention: 'bahdanau', cell: 'gru', embed: 64, units: 64, bleuSentences: 200 }),
  fileRow('luong', { model: 'rnn', attention: 'luong', cell: 'lstm' }),
  fileRow('transformer', { model: 'transformer', dModel: 128, heads: 4, layers: 2 }),
];

test('translation.runSettings: the model’s engine recipe, epochs clamped to 1..50', () => {
  const table = models.recipeTable(RECIPES);
  const rnn = models.runSettings(table, 'bahdanau', 4);
  assert.deepEqual(rnn, { ...RECIPES[1].settings, epochs: 4 });
  assert.equal(models.runSettings(table, 'none', 0).epochs, 6, '0 or NaN: the recipe’s');
  assert.equal(models.runSettings(table, 'none', NaN).epochs, 6);
  assert.equal(models.runSettings(table, 'none', 500).epochs, 50);
  assert.equal(models.runSettings(table, 'luong', 3.4).epochs, 3);
  assert.equal(models.runSettings(table, 'transformer', 2).model, 'transformer');
  assert.deepEqual(models.MODELS.map((m) => m.recipe).sort(), RECIPES.map((r) => r.name).sort());
  assert.throws(() => models.modelChoice('gpt'), /unknown model 'gpt'/);
  assert.throws(
    () => models.runSettings(models.recipeTable([]), 'none', 1),
    /the engine has no recipe 'translation-rnnenc-page'/,
  );
  assert.match(
    models.presetSummary(table),
    /GRU cells \(LSTM for Luong\), embeddings of 64 and 64 units .* d = 64, 4 heads, 2 encoder/,
  );
  assert.match(models.presetSummary(table), /6 epochs, batches of 32; BLEU after each epoch on 200 held-out/);
});

test('translation presets: a file of more than 20,000 pairs trains the file presets, the Transformer first', () => {
  const table = models.recipeTable([...RECIPES, ...FILE_RECIPES]);
  assert.equal(models.presetSize(3900), 'corpus');
  assert.equal(models.presetSize(20000), 'corpus');
  assert.equal(models.presetSize(20001), 'file');
  assert.equal(models.defaultModel('corpus'), 'bahdanau');
  assert.equal(models.defaultModel('file'), 'transformer');
  // Each size's row of each model; the corpus' when no size is named.
  assert.deepEqual(models.runSettings(table, 'transformer', NaN, 'file'), FILE_RECIPES[3].settings);
  assert.deepEqual(models.runSettings(table, 'luong', 2, 'file'), { ...FILE_RECIPES[2].settings, epochs: 2 });
  assert.equal(models.runSettings(table, 'transformer', NaN).dModel, 64);
  assert.deepEqual(models.MODELS.map((m) => m.fileRecipe).sort(), FILE_RECIPES.map((r) => r.name).sort());
  assert.throws(
    () => models.runSettings(models.recipeTable(RECIPES), 'none', 1, 'file'),
    /no recipe 'translation-rnnenc-page-file'/,
  );
  // The epochs proposed: the preset's for a file at least as large as it is sized for; for a smaller
  // one as many as keep the pairs trained on about the same; the corpus presets' always their own.
  assert.equal(models.presetEpochs(table, 'transformer', 'file', 156079), 1);
  assert.equal(models.presetEpochs(table, 'transformer', 'file', 400000), 1);
  assert.equal(models.presetEpochs(table, 'transformer', 'file', 40000), 4);
  assert.equal(models.presetEpochs(table, 'transformer', 'file', 23000), 7);
  assert.equal(models.presetEpochs(table, 'transformer', 'file', 1000), 50, 'at most 50');
  assert.equal(models.presetEpochs(table, 'bahdanau', 'corpus', 3500), 6);
  assert.equal(models.presetEpochs(table, 'bahdanau', 'corpus', 40000), 6);
  // The hint says which presets and why.
  const hint = models.presetSummary(table, 'file');
  assert.match(
    hint,
    /^A large file: presets for up to 160,000 training pairs and 6,000 words a side, about five minutes/,
  );
  assert.match(hint, /d = 128, 4 heads, 2 encoder and 2 decoder blocks; 1 epoch, batches of 64;/);
  assert.doesNotMatch(models.presetSummary(table), /large file/);
});

const bucket = (minLength, maxLength, sentences, bleu) => ({ minLength, maxLength, sentences, bleu });

test('translation.bleuByLengthSeries: one line per model in the menu’s order, empty buckets left out', () => {
  const runs = new Map([
    [
      'transformer',
      {
        model: 'transformer',
        epochBleu: [],
        bleu: 60,
        bleuByLength: [bucket(1, 5, 10, 70), bucket(6, 10, 4, 55), bucket(11, 15, 0, 0), bucket(21, 0, 2, 30)],
      },
    ],
    ['none', { model: 'none', epochBleu: [], bleu: 20, bleuByLength: [bucket(1, 5, 10, 40), bucket(6, 10, 4, 12)] }],
  ]);
  const series = models.bleuByLengthSeries(runs);
  assert.deepEqual(
    series.map((s) => s.name),
    ['RNNenc', 'Transformer'],
  );
  assert.deepEqual(series[1].xs, [3, 8, 23], 'bucket centres; the empty 11–15 is not drawn at 0; 21+ at 23');
  assert.deepEqual(series[1].ys, [70, 55, 30]);
  assert.equal(models.bucketLabel(bucket(6, 10, 1, 0)), '6–10');
  assert.equal(models.bucketLabel(bucket(21, 0, 1, 0)), '21+');
  assert.deepEqual(models.bleuByLengthSeries(new Map()), []);
});

test('translation.epochBleuSeries: epochs counted from 1, unmeasured epochs skipped', () => {
  const runs = new Map([['bahdanau', { model: 'bahdanau', epochBleu: [12.5, null, 40], bleu: 40, bleuByLength: [] }]]);
  const [line] = models.epochBleuSeries(runs);
  assert.equal(line.name, 'Bahdanau');
  assert.deepEqual(line.xs, [1, 3]);
  assert.deepEqual(line.ys, [12.5, 40]);
});

test('translation.headSlice / headMean: [layers, heads, rows, cols] row-major', () => {
  // 2 layers × 2 heads × 2 rows × 3 cols; value = layer*100 + head*10 + row*3 + col.
  const shape = [2, 2, 2, 3];
  const data = new Float32Array(24);
  for (let l = 0; l < 2; l++)
    for (let h = 0; h < 2; h++)
      for (let r = 0; r < 2; r++)
        for (let c = 0; c < 3; c++) data[((l * 2 + h) * 2 + r) * 3 + c] = l * 100 + h * 10 + r * 3 + c;
  const one = models.headSlice(data, shape, 1, 0);
  assert.equal(one.rows, 2);
  assert.equal(one.cols, 3);
  assert.deepEqual([...one.values], [100, 101, 102, 103, 104, 105]);
  const mean = models.headMean(data, shape, 0);
  assert.deepEqual([...mean.values], [5, 6, 7, 8, 9, 10], 'heads 0 and 1 of layer 0 averaged');
  assert.throws(() => models.headSlice(data, shape, 2, 0), /outside 2 layers × 2 heads/);
  assert.throws(() => models.headSlice(data, shape, 0, -1), RangeError);
});

test('translation.dataSummary: pairs, the split and the vocabularies in words', () => {
  assert.equal(
    models.dataSummary('pairs.tsv', 3729, 400, 272, 484),
    'pairs.tsv: 4,129 pairs — 3,729 to train on, 400 held out; vocabularies of 272 source and 484 target words ' +
      '(with <unk> and the markers).',
  );
});

test('translation.unknownRows: each side with its tokenizer, training and held out; unknownCell in words', () => {
  const rate = (tokens, unknownTokens, sentences, sentencesWithUnknown) => ({
    tokens,
    unknownTokens,
    sentences,
    sentencesWithUnknown,
    tokenRate: tokens ? unknownTokens / tokens : 0,
    sentenceRate: sentences ? sentencesWithUnknown / sentences : 0,
  });
  const info = {
    sourceTokenizer: 'English rules, lowercased',
    targetTokenizer: 'French rules, lowercased',
    unknown: {
      train: { source: rate(20000, 0, 3000, 0), target: rate(24000, 12, 3000, 11) },
      test: { source: rate(2000, 50, 400, 40), target: rate(2400, 96, 400, 77) },
    },
  };
  const rows = models.unknownRows(info);
  assert.deepEqual(
    rows.map((r) => [r.side, r.label, r.tokenizer]),
    [
      ['source', 'Source words', 'English rules, lowercased'],
      ['target', 'Target words', 'French rules, lowercased'],
    ],
  );
  assert.equal(rows[1].test, info.unknown.test.target);
  assert.deepEqual(models.unknownCell(rows[1].test), {
    words: '4.00% of words',
    sentences: '19.25% of sentences',
    counts: '96 of 2,400 words; 77 of 400 sentences',
  });
  assert.equal(models.unknownCell(rows[0].train).words, '0.00% of words');
  // A rate too small for two decimals still shows it is not zero.
  assert.equal(models.unknownCell(rate(1e6, 3, 10, 1)).words, '0.0003% of words');
});
