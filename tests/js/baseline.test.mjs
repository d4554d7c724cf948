// The wasm build's two-file loader and bag-of-n-grams baseline (SentimentSession.loadSentenceFiles,
// trainBaseline, evaluateBaseline, explainBaseline): results and the engine's messages as JS errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './support/engine.mjs';

let engine;
let session;
before(async () => {
  engine = await loadEngine();
  session = new engine.SentimentSession();
});
after(() => session?.delete());

const bytes = (text) => new TextEncoder().encode(text);
const lines = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`).join('\n') + '\n';

test('baseline.sentence files load with a seeded stratified hold-out; bad files are refused by name', () => {
  const pos = bytes(lines('a warm film', 10));
  const neg = bytes(lines('a dull film', 10));
  const summary = session.loadSentenceFiles(pos, 'rt.pos', neg, 'rt.neg', { testFraction: 0.2, seed: 3 }, null);
  assert.deepEqual(
    [summary.source, summary.trainExamples, summary.testExamples, summary.heldOut, summary.sourceHasTest],
    ['rt.pos + rt.neg', 16, 4, true, false],
  );
  assert.throws(
    () => session.loadSentenceFiles(pos, 'rt.pos', bytes(''), 'rt.neg', null, null),
    /rt\.neg: the file is empty; expected one negative sentence per line/,
  );
  assert.throws(
    () => session.loadSentenceFiles(pos, 'a.txt', pos, 'b.txt', null, null),
    /a\.txt and b\.txt hold the same sentences/,
  );
  assert.throws(
    () => session.loadSentenceFiles(pos, 'rt.pos', new Uint8Array([0x62, 0xe9, 0x0a]), 'rt.neg', null, null),
    /rt\.neg:1: invalid UTF-8 \(byte 0xe9 at column 2\) in the sentence; save the file as UTF-8/,
  );
  assert.throws(
    () => session.loadSentenceFiles(pos, 'rt.pos', neg, 'rt.neg', { testFraction: 1 }, null),
    /testFraction must be in \[0, 1\)/,
  );
});

test('baseline.trains on the loaded data; contributions plus the bias give the logit', () => {
  session.loadBuiltin();
  assert.throws(() => session.explainBaseline('good'), /train the baseline first/);
  const info = session.trainBaseline({ seed: 1, maxNgram: 2 });
  assert.ok(info.features > 0);
  assert.equal(info.parameters, info.features + 1);
  assert.equal(session.hasBaseline(), true);
  const m = session.evaluateBaseline('test');
  assert.equal(m.tp + m.fp + m.tn + m.fn, 132);
  const e = session.explainBaseline('a wonderful film, not boring at all');
  assert.deepEqual(e.tokens, ['a', 'wonderful', 'film', 'not', 'boring', 'at', 'all']);
  assert.ok(e.contributions instanceof Float32Array);
  const z = e.bias + e.contributions.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(1 / (1 + Math.exp(-z)) - e.probability) < 1e-5);
  assert.ok(e.ngrams.every((n) => typeof n.ngram === 'string' && n.length >= 1));
  assert.throws(() => session.trainBaseline({ maxNgram: 0 }), /max_ngram/);
  assert.throws(() => session.evaluateBaseline('validation'), /which must be test or all-train/);
});
