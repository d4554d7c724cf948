// A review's prediction must not depend on the reviews it is batched with (issue 18): through the
// wasm module, predict() of a padded batch, evaluate() over padded batches, explain(), snapshot(),
// analyze() and inspectTransformer() agree to 1e-5 for every model kind, with 'pre' and 'post'
// padding, after a short training run (whose batches are padded too). Also the one rule for
// non-finite softmax scores: -Infinity is a masked position, NaN and +Infinity are errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, tensor } from './support/engine.mjs';

const SHORT = 'a wonderful film but the ending was dull';
const LONG1 =
  'the plot wanders for an hour and the acting is flat but the music and the photography are lovely and ' +
  'the last scene almost makes up for the slow start of this long and uneven film';
const LONG2 =
  'i went in expecting a dull costume drama and came out moved by the performances the writing and the ' +
  'quiet way the story lets its characters breathe one of the best films of the year';

// A small TSV of reviews of very different lengths, both classes.
const POSITIVE = ['wonderful', 'moving and funny', LONG2, 'a lovely warm film with a great cast and music', 'great'];
const NEGATIVE = ['dull', 'boring and slow', LONG1, SHORT, 'the worst film i have seen this year flat and lifeless'];
const TSV =
  POSITIVE.map((t) => `${t}\tpositive`)
    .concat(NEGATIVE.map((t) => `${t}\tnegative`))
    .join('\n') + '\n';
const LABELLED = POSITIVE.map((text) => [text, 1]).concat(NEGATIVE.map((text) => [text, 0]));

const SMALL = { numWords: 300, maxlen: 64, embedDim: 8, units: 6, attentionDim: 6, layers: 2, heads: 2, ffDim: 12 };
const KINDS = [
  { encoder: 'bilstm', pooling: 'attention' },
  { encoder: 'bigru', pooling: 'attention', score: 'general' },
  { encoder: 'bilstm', pooling: 'last' },
  { encoder: 'transformer', pooling: 'attention', positional: 'sinusoidal' },
  { encoder: 'transformer', pooling: 'attention', positional: 'learned' },
  { encoder: 'transformer', pooling: 'mean', positional: 'learned' },
  { encoder: 'transformer', pooling: 'attention', positional: 'sinusoidal', causal: true },
  { encoder: 'none', pooling: 'attention', bigramBuckets: 101 },
];

let engine;
before(async () => {
  engine = await loadEngine();
});

function trained(kind, padding) {
  const s = new engine.SentimentSession();
  s.loadBytes(new TextEncoder().encode(TSV), 'reviews.tsv', { testFraction: 0, seed: 1 }, null);
  s.createModel({ ...SMALL, ...kind, padding, seed: 5 });
  // Batches of 4 mix lengths (no bucketing), so training reads padded batches too.
  s.startTraining({ epochs: 3, batchSize: 4, learningRate: 0.02, validationSplit: 0, bucketByLength: false, seed: 3 });
  while (!s.runSteps(100).done);
  return s;
}

const bce = (p, label) => {
  const q = Math.min(Math.max(p, 1e-7), 1 - 1e-7);
  return label === 1 ? -Math.log(q) : -Math.log(1 - q);
};

const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-5, `${what}: ${a} vs ${b}`);

for (const kind of KINDS) {
  for (const padding of ['pre', 'post']) {
    const name = `${kind.encoder}/${kind.pooling}${kind.positional ? '/' + kind.positional : ''}${kind.causal ? '/causal' : ''}`;
    test(`padding: ${name}, '${padding}': every path gives a review the same P and attention`, () => {
      const s = trained(kind, padding);
      try {
        const alone = s.predict([SHORT])[0];
        const batched = s.predict([LONG1, SHORT, LONG2]);
        close(batched[1], alone, 'batched predict vs alone');
        close(batched[0], s.predict([LONG1])[0], 'long review 1');
        close(batched[2], s.predict([LONG2])[0], 'long review 2');

        // evaluate() pads its batches: its loss is the mean of the reviews' losses alone.
        const expected = LABELLED.reduce((sum, [text, label]) => sum + bce(s.predict([text])[0], label), 0);
        close(s.evaluate('all-train').loss, expected / LABELLED.length, 'evaluate loss');

        const e = s.explain(SHORT);
        close(e.probability, alone, 'explain');
        const weights = Array.from(e.weights);
        const [snap] = s.snapshot([SHORT]);
        close(snap.probability, alone, 'snapshot');
        const analysis = s.analyze(SHORT, { shuffles: 0 });
        close(analysis.probability, alone, 'analyze');
        if (kind.pooling === 'attention') {
          assert.equal(weights.length, 9);
          weights.forEach((w, t) => close(analysis.weights[t], w, `analyze weight ${t}`));
        }
        if (kind.encoder === 'transformer') {
          const inspection = s.inspectTransformer(SHORT, undefined);
          close(inspection.probability, alone, 'inspectTransformer');
          assert.equal(inspection.tokens.length, 9);
        }
      } finally {
        s.delete();
      }
    });
  }
}

test('padding: a pre-padded and a post-padded model with the same parameters agree', () => {
  // Same seed, same data, same batches: the two runs differ only in the side of the padding, so
  // their parameters and predictions agree (they diverged when positions counted from column 0).
  for (const positional of ['sinusoidal', 'learned']) {
    const kind = { encoder: 'transformer', pooling: 'attention', positional };
    const pre = trained(kind, 'pre');
    const post = trained(kind, 'post');
    try {
      const a = pre.predict([LONG1, SHORT, LONG2]);
      const b = post.predict([LONG1, SHORT, LONG2]);
      for (let i = 0; i < 3; i++)
        assert.ok(Math.abs(a[i] - b[i]) <= 1e-3, `${positional} review ${i}: ${a[i]} vs ${b[i]}`);
    } finally {
      pre.delete();
      post.delete();
    }
  }
});

test('softmax scores: -Infinity is a masked position; NaN and +Infinity are refused', () => {
  // softmax([-inf, 0, 0]) = [0, 0.5, 0.5], as a mask of [0, 1, 1] gives.
  const masked = engine.softmax({ shape: [3], data: [-Infinity, 0, 0] }, null);
  assert.deepEqual(Array.from(masked.data), [0, 0.5, 0.5]);
  const viaMask = engine.softmax(tensor([5, 0, 0]), { mask: { shape: [3], data: new Uint8Array([0, 1, 1]) } });
  assert.deepEqual(Array.from(viaMask.data), Array.from(masked.data));
  // A row with every score masked gives zeros, not NaN; the other row is unaffected.
  const rows = engine.softmax({ shape: [2, 2], data: [-Infinity, -Infinity, 1, 1] }, null);
  assert.deepEqual(Array.from(rows.data), [0, 0, 0.5, 0.5]);
  assert.throws(
    () => engine.softmax({ shape: [2], data: [NaN, 0] }, null),
    /^Error: x\.data\[0\] is NaN; softmax scores must be numbers or -Infinity \(a masked position\)$/,
  );
  assert.throws(
    () => engine.softmax({ shape: [2], data: [0, Infinity] }, null),
    /^Error: x\.data\[1\] is \+Infinity; softmax scores must be numbers or -Infinity \(a masked position\)$/,
  );
  // Only scores accept -Infinity: every other tensor input still needs finite numbers.
  assert.throws(
    () => engine.contextVector({ shape: [2], data: [-Infinity, 1] }, tensor([[1], [2]])),
    /weights\.data\[0\] is not a finite number/,
  );
  assert.throws(
    () => engine.scores('dot', { shape: [1], data: [-Infinity] }, tensor([[1], [2]]), null),
    /query\.data\[0\] is not a finite number/,
  );
});
