// "Is attention an explanation?" through the wasm build's Embind API (engine.SentimentSession's
// analyze / predictTokens / misclassified): the worker (web/src/engine/session_host.ts) calls
// exactly these. Also prints what the numbers look like for model (a)-like settings on the
// built-in corpus (median |Δp| under shuffled attention, Kendall τ between attributions).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, SMALL_MODEL, SHORT_TRAINING } from './support/engine.mjs';

const REVIEW = 'the acting was not good but the story was wonderful';

let engine;
let trained;
const sessions = [];
function session() {
  const s = new engine.SentimentSession();
  sessions.push(s);
  return s;
}

function kendallTau(a, b) {
  let score = 0;
  const n = a.length;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) score += Math.sign(a[i] - a[j]) * Math.sign(b[i] - b[j]);
  return score / ((n * (n - 1)) / 2);
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

before(async () => {
  engine = await loadEngine();
  trained = session();
  trained.loadBuiltin();
  trained.createModel(SMALL_MODEL);
  trained.startTraining(SHORT_TRAINING);
  trained.runSteps(300);
});
after(() => {
  for (const s of sessions) s.delete();
});

test('explanations: analyze returns consistent per-token numbers (copies)', () => {
  const a = trained.analyze(REVIEW, { shuffles: 10, seed: 3 });
  const T = a.tokens.length;
  assert.equal(T, 11);
  assert.equal(a.tokens[0], '<start>');
  for (const key of ['ids', 'weights', 'scores', 'contributions', 'saliency', 'leaveOneOut']) {
    assert.equal(a[key].length, T, key);
  }
  assert.ok(a.weights instanceof Float32Array && a.ids instanceof Int32Array);
  assert.equal(a.shuffledProbabilities.length, 10);
  // logit = Σ_t w_outᵀ(α_t h_t) + b
  const sum = a.contributions.reduce((x, y) => x + y, a.outputBias);
  assert.ok(Math.abs(sum - a.logit) < 1e-4, `Σ contributions + bias = ${sum}, logit ${a.logit}`);
  assert.ok(Math.abs(1 / (1 + Math.exp(-a.logit)) - a.probability) < 1e-6);
  assert.ok(Math.abs(trained.predict([REVIEW])[0] - a.probability) < 1e-6);
  assert.equal(a.leaveOneOut[0], 0, '<start> is not left out');
  const changes = Array.from(a.shuffledProbabilities, (p) => Math.abs(p - a.probability));
  assert.ok(Math.abs(median(changes) - a.shuffleMedianChange) < 1e-6);
  assert.ok(a.uniformProbability > 0 && a.uniformProbability < 1);
  // Copies: a later call does not overwrite them.
  const kept = Array.from(a.weights);
  trained.analyze('dull and far too long', null);
  assert.deepEqual(Array.from(a.weights), kept);
  // Same seed, same permutations.
  assert.deepEqual(trained.analyze(REVIEW, { shuffles: 10, seed: 3 }).shuffledProbabilities, a.shuffledProbabilities);
});

test('explanations: predictTokens gives counterfactuals that match leave-one-out', () => {
  const a = trained.analyze(REVIEW, undefined);
  const same = trained.predictTokens(a.tokens);
  assert.equal(same.probability, a.probability);
  assert.deepEqual(same.weights, a.weights);
  const good = a.tokens.indexOf('good');
  const masked = trained.predictTokens(a.tokens.map((t, i) => (i === good ? '<mask>' : t)));
  assert.ok(Math.abs(masked.probability - a.probability - a.leaveOneOut[good]) < 1e-5);
  assert.equal(masked.ids[good], 2, '<mask> is the <oov> id');
  const replaced = trained.predictTokens(a.tokens.map((t, i) => (i === good ? 'Bad' : t)));
  assert.notEqual(replaced.ids[good], 2, 'a typed replacement is looked up (lowercased)');
  assert.notEqual(replaced.probability, a.probability);
});

test('explanations: misclassified test reviews, most confidently wrong first', () => {
  const metrics = trained.evaluate('test');
  const all = trained.misclassified('test', 0);
  assert.equal(all.length, metrics.fp + metrics.fn);
  const five = trained.misclassified('test', 5);
  assert.equal(five.length, Math.min(5, all.length));
  for (const [i, r] of all.entries()) {
    assert.notEqual(r.probability > 0.5 ? 1 : 0, r.label);
    assert.equal(r.tokens.length, r.weights.length);
    assert.equal(typeof r.text, 'string');
    if (i > 0) assert.ok(Math.abs(all[i - 1].probability - 0.5) >= Math.abs(r.probability - 0.5));
  }
  assert.deepEqual(
    five.map((r) => r.text),
    all.slice(0, 5).map((r) => r.text),
  );
});

test('explanations: errors name the problem; models without attention pooling', () => {
  const empty = session();
  assert.throws(() => empty.analyze('good', null), /no model yet/);
  assert.throws(() => trained.analyze('', null), /the text has no words to analyse/);
  assert.throws(() => trained.analyze('good', { shuffles: -1 }), /options.shuffles must be a whole number/);
  assert.throws(() => trained.predictTokens([]), /the token list is empty/);
  assert.throws(() => trained.predictTokens('good'), /tokens must be an array of strings/);
  assert.throws(() => trained.misclassified('validation', 1), /which must be 'test' or 'train'/);

  const mean = session();
  mean.loadBuiltin();
  mean.createModel({ ...SMALL_MODEL, pooling: 'mean' });
  const a = mean.analyze(REVIEW, null);
  assert.equal(a.weights.length, 0);
  assert.equal(a.scores.length, 0);
  assert.equal(a.uniformProbability, null);
  assert.equal(a.shuffleMedianChange, null);
  assert.equal(a.saliency.length, 11);
  assert.equal(a.leaveOneOut.length, 11);
});

test('explanations: the numbers on the built-in test reviews', (t) => {
  const metrics = trained.evaluate('test');
  const texts = [
    'a wonderful film with a moving story',
    'the acting was not good',
    'dull and far too long',
    'I loved every minute of it, the cast is superb',
    'a waste of time: boring plot and wooden acting',
    'not bad at all, quite enjoyable',
    'the worst movie I have seen this year',
    'beautifully shot but the script is weak',
  ];
  const medians = [];
  const uniformChanges = [];
  const tauGradient = [];
  const tauLoo = [];
  for (const text of texts) {
    const a = trained.analyze(text, { shuffles: 20, seed: 1 });
    medians.push(a.shuffleMedianChange);
    uniformChanges.push(Math.abs(a.uniformProbability - a.probability));
    const w = Array.from(a.weights.slice(1));
    tauGradient.push(kendallTau(w, Array.from(a.saliency.slice(1), Math.abs)));
    tauLoo.push(kendallTau(w, Array.from(a.leaveOneOut.slice(1), Math.abs)));
    for (const key of ['weights', 'saliency', 'leaveOneOut']) assert.ok(a[key].every(Number.isFinite), key);
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  t.diagnostic(
    `test accuracy ${(metrics.accuracy * 100).toFixed(1)}%; over ${texts.length} reviews: median |Δp| under 20 ` +
      `shuffles ${median(medians).toFixed(3)} (per review ${medians.map((x) => x.toFixed(3)).join(' ')}); ` +
      `|P(uniform) − P| median ${median(uniformChanges).toFixed(3)}; Kendall τ(attention, |grad×input|) mean ` +
      `${mean(tauGradient).toFixed(2)}, τ(attention, |LOO|) mean ${mean(tauLoo).toFixed(2)}`,
  );
});
