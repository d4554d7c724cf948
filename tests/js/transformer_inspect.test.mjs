// The Transformer view's engine queries (SentimentSession.inspectTransformer / headAblation /
// positionalEncoding), driven through Embind as the worker's session host calls them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './support/engine.mjs';

const TEXT = 'the acting was not good but the music was wonderful';
let engine;
let session;

before(async () => {
  engine = await loadEngine();
  session = new engine.SentimentSession();
  session.loadBuiltin();
  session.createModel({
    encoder: 'transformer',
    embedDim: 16,
    layers: 2,
    heads: 2,
    ffDim: 32,
    numWords: 500,
    maxlen: 64,
    pooling: 'mean',
    seed: 2,
  });
});
after(() => session?.delete());

const cell = (r, l, h, q, k) => {
  const t = r.tokens.length;
  return r.attention[((l * r.heads + h) * t + q) * t + k];
};

test('inspectTransformer: [L·H·T·T] copies whose rows sum to 1', () => {
  const r = session.inspectTransformer(TEXT, undefined);
  assert.equal(r.tokens[0], '<start>');
  assert.equal(r.tokens.length, 11);
  assert.equal(r.layers, 2);
  assert.equal(r.heads, 2);
  assert.ok(r.attention instanceof Float32Array);
  assert.equal(r.attention.length, 2 * 2 * 11 * 11);
  for (let l = 0; l < 2; l++)
    for (let h = 0; h < 2; h++)
      for (let q = 0; q < 11; q++) {
        let sum = 0;
        for (let k = 0; k < 11; k++) sum += cell(r, l, h, q, k);
        assert.ok(Math.abs(sum - 1) < 1e-5, `row ${l}/${h}/${q} sums to ${sum}`);
      }
  // A copy: a later call does not change it.
  const before = r.attention.slice();
  session.inspectTransformer('something else entirely', { causal: true });
  assert.deepEqual(r.attention, before);
  // Same forward as explain().
  assert.equal(r.probability, session.explain(TEXT).probability);
  // The scores: softmax of each row is the row of weights.
  assert.equal(r.headDim, 8);
  assert.equal(r.scores.length, r.attention.length);
  for (let l = 0; l < 2; l++)
    for (let h = 0; h < 2; h++)
      for (let q = 0; q < 11; q++) {
        const row = Array.from({ length: 11 }, (_, k) => cell({ ...r, attention: r.scores }, l, h, q, k));
        const max = Math.max(...row);
        const sum = row.reduce((a, s) => a + Math.exp(s - max), 0);
        for (let k = 0; k < 11; k++)
          assert.ok(Math.abs(Math.exp(row[k] - max) / sum - cell(r, l, h, q, k)) < 1e-6, `${l}/${h}/${q}/${k}`);
      }
});

test('inspectTransformer: causal zeroes the upper triangle; ablation changes P(positive)', () => {
  const base = session.inspectTransformer(TEXT, {});
  const causal = session.inspectTransformer(TEXT, { causal: true });
  const t = causal.tokens.length;
  for (let q = 0; q < t; q++) for (let k = q + 1; k < t; k++) assert.equal(cell(causal, 1, 1, q, k), 0);
  assert.notEqual(causal.probability, base.probability);
  const none = session.inspectTransformer(TEXT, { ablated: [] });
  assert.equal(none.probability, base.probability, 'ablating nothing is the normal forward');
  const one = session.inspectTransformer(TEXT, { ablated: [[0, 1]] });
  assert.notEqual(one.probability, base.probability);
  assert.equal(session.inspectTransformer(TEXT, null).probability, base.probability, 'restored afterwards');
  assert.throws(() => session.inspectTransformer(TEXT, { ablated: [[2, 0]] }), {
    message: 'inspect_transformer: ablated layer 2 out of range (the model has 2)',
  });
  assert.throws(() => session.inspectTransformer(TEXT, { ablated: [1] }), /must be a \[layer, head\] pair/);
  assert.throws(() => session.inspectTransformer(TEXT, { causal: 'yes' }), /options.causal must be a boolean/);
});

test('headAblation lists every head with its accuracy change', () => {
  const r = session.headAblation(30, undefined);
  assert.equal(r.examples, 30);
  assert.equal(r.heads.length, 4);
  assert.deepEqual(
    r.heads.map((e) => [e.layer, e.head]),
    [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ],
  );
  for (const e of r.heads) {
    assert.ok(e.accuracy >= 0 && e.accuracy <= 1);
    assert.ok(Math.abs(e.delta - (e.accuracy - r.baselineAccuracy)) < 1e-12);
  }
  assert.equal(session.headAblation(0, false).examples, 132, 'limit 0: the whole built-in test set');
});

test('positionalEncoding: the sinusoidal table', () => {
  const pe = session.positionalEncoding(5);
  assert.equal(pe.kind, 'sinusoidal');
  assert.equal(pe.positions, 5);
  assert.equal(pe.dim, 16);
  assert.equal(pe.values.length, 5 * 16);
  assert.ok(Math.abs(pe.values[16] - Math.sin(1)) < 1e-6, 'PE[1, 0] = sin(1)');
  assert.ok(Math.abs(pe.values[17] - Math.cos(1)) < 1e-6, 'PE[1, 1] = cos(1)');
  assert.throws(() => session.positionalEncoding(0), /positions must be a whole number >= 1/);
});

test('a BiLSTM model is refused with a clear message', () => {
  const s = new engine.SentimentSession();
  try {
    s.loadBuiltin();
    s.createModel({ embedDim: 8, units: 8, attentionDim: 8, numWords: 200, maxlen: 32 });
    assert.throws(() => s.inspectTransformer('good', null), {
      message: "inspect_transformer: the model's encoder is bilstm: the Transformer view needs a transformer model",
    });
  } finally {
    s.delete();
  }
});
