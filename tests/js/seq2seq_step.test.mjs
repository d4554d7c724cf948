// Issue 17, item 2 (the seq2seq half): the engine's step API (Seq2SeqSession.stepEncode /
// stepAttend / decoderStep / targetText) lets attention computed outside the engine drive greedy
// decoding of a trained Bahdanau model. Driven with the engine's own attention it must give
// translate()'s outputs and alignments; driven by the course's alignment_batch solution it must
// give the engine's exact match; typical mistakes (no softmax, a softmax over the batch) must
// lower it. The loop is the page's own (web/src/course/seq2seq_step_decode.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, tensor } from './support/engine.mjs';
import { loadWebModules } from './support/web_modules.mjs';

// Digit reversal of 3-6 digits: a few seconds of training learn it.
const REVERSAL = {
  task: 'reverse',
  trainSize: 2000,
  testSize: 60,
  minLen: 3,
  maxLen: 6,
  testMinLen: 3,
  testMaxLen: 6,
  attention: 'bahdanau',
  embed: 16,
  units: 32,
  attentionDim: 32,
  epochs: 8,
  batch: 32,
  learningRate: 0.01,
  earlyStoppingPatience: 0,
  seed: 2,
};

let engine;
let session;
let loaded;
let EXERCISES;
let compileWithNp;
let step;
let held;

/** The wasm session as the loop's (async) StepEngine. */
const stepEngine = () => ({
  stepEncode: async (texts) => session.stepEncode(texts),
  stepAttend: async (encoding, s) => session.stepAttend(encoding, s),
  decoderStep: async (previous, state, context) => session.decoderStep(previous, state, context),
  targetText: async (ids) => session.targetText(ids),
});

/** A learner's alignBatch, run here directly (the page runs it in the sandbox). */
function learner(code) {
  const alignBatch = compileWithNp(code, 'alignBatch');
  return async (batches) =>
    batches.map((args) => {
      try {
        return alignBatch(...args);
      } catch (error) {
        return { error: error.message };
      }
    });
}

before(async () => {
  engine = await loadEngine();
  loaded = await loadWebModules(
    '/src/course/exercises/index.ts',
    '/src/course/np_helper.ts',
    '/src/course/seq2seq_step_decode.ts',
  );
  [{ EXERCISES }, { compileWithNp }, step] = loaded.modules;
  session = new engine.Seq2SeqSession(REVERSAL);
  session.startTraining();
  while (!session.runSteps(1000).done);
  held = session.samples(60);
});
after(async () => {
  session?.delete();
  await loaded?.close();
});

test('step API: stepEncode hands out annotations, mask, s_0 and the alignment network', () => {
  const e = session.stepEncode(['4071', '12']);
  assert.deepEqual(e.sourceTokens, [
    ['4', '0', '7', '1'],
    ['1', '2'],
  ]);
  assert.deepEqual(e.annotations.shape, [2, 4, 64]);
  assert.deepEqual(Array.from(e.mask.data), [1, 1, 1, 1, 1, 1, 0, 0]);
  assert.deepEqual(e.state.s.shape, [2, 64]);
  assert.deepEqual(e.state.c.shape, [2, 64]);
  assert.deepEqual(e.alignment.w.shape, [32, 128]);
  assert.deepEqual(e.alignment.v.shape, [32]);
  assert.ok(e.maxLen >= 8);
  const a = session.stepAttend(e, e.state.s);
  assert.deepEqual(a.weights.shape, [2, 4]);
  assert.equal(a.weights.data[6], 0); // padding gets no weight
  const next = session.decoderStep([1, 1], e.state, a.context);
  assert.deepEqual(next.probabilities.shape, [2, session.info().targetVocabulary]);
  assert.equal(next.tokens.length, 2);
});

test('step API: bad input throws JS Errors that say what is wrong', () => {
  const e = session.stepEncode(['4071']);
  const context = session.stepAttend(e, e.state.s).context;
  assert.throws(() => session.stepEncode([]), /no texts/);
  assert.throws(() => session.stepEncode('4071'), /texts must be an array of strings/);
  assert.throws(
    () => session.decoderStep([1, 1], e.state, context),
    /the state s has shape \[1, 64\]; expected \[2, 64\]/,
  );
  assert.throws(() => session.decoderStep([1.5], e.state, context), /previous\[0\] must be a whole number/);
  assert.throws(() => session.decoderStep([999], e.state, context), /target id 999/);
  const nan = tensor([[...Array(64)].map(() => NaN)]);
  assert.throws(() => session.decoderStep([1], e.state, nan), /context.data\[0\] is not a finite number/);
  const luong = new engine.Seq2SeqSession({ ...REVERSAL, trainSize: 20, testSize: 4, attention: 'luong' });
  try {
    assert.throws(() => luong.stepEncode(['12']), /only 'bahdanau' models/);
  } finally {
    luong.delete();
  }
});

test('in the model: the engine’s attention through the step API decodes exactly as translate', async () => {
  const texts = held.map((p) => p.source);
  const decoded = await step.decodeWithAttention(stepEngine(), texts, step.engineAttention(stepEngine()));
  for (const d of decoded) {
    const t = session.translate(d.source, 1);
    assert.equal(d.output, t.output, d.source);
    assert.deepEqual(d.outputTokens, t.outputTokens);
    const flat = d.alignment.flat();
    assert.equal(flat.length, t.alignment.data.length);
    flat.forEach((x, k) => assert.ok(Math.abs(x - t.alignment.data[k]) <= 1e-6, `${d.source} weight ${k}`));
  }
  const accuracy = step.exactMatch(
    decoded,
    held.map((p) => p.target),
  );
  assert.ok(accuracy >= 0.9, `engine exact match ${accuracy}`);
});

test('in the model: the alignment_batch solution gives the engine’s outputs and accuracy', async () => {
  const texts = held.map((p) => p.source);
  const targets = held.map((p) => p.target);
  const engineRun = await step.decodeWithAttention(stepEngine(), texts, step.engineAttention(stepEngine()));
  const mine = await step.decodeWithAttention(stepEngine(), texts, learner(EXERCISES.alignment_batch.solution));
  assert.equal(step.exactMatch(mine, targets), step.exactMatch(engineRun, targets));
  mine.forEach((d, i) => {
    assert.equal(d.failure, null);
    assert.equal(d.output, engineRun[i].output);
    d.alignment.flat().forEach((x, k) => assert.ok(Math.abs(x - engineRun[i].alignment.flat()[k]) <= 1e-4));
  });
});

test('in the model: typical mistakes in the attention step visibly break the model', async (t) => {
  const texts = held.map((p) => p.source);
  const targets = held.map((p) => p.target);
  const engineAccuracy = step.exactMatch(
    await step.decodeWithAttention(stepEngine(), texts, step.engineAttention(stepEngine())),
    targets,
  );
  const solution = EXERCISES.alignment_batch.solution;
  const mistakes = {
    'no softmax (raw energies as weights)': solution.replace(
      /const weights = energies\.map\(\(e\) => \{[\s\S]*?\n {2}\}\);/,
      'const weights = energies;',
    ),
    'softmax over the batch (axis 0) instead of over time': solution.replace(
      /const weights = energies\.map\(\(e\) => \{[\s\S]*?\n {2}\}\);/,
      'const sums = np.sum(np.exp(energies), 0);\n  const weights = energies.map((e) => np.divide(np.exp(e), sums));',
    ),
    'uniform weights (no alignment at all)': solution.replace(
      /const weights = energies\.map\(\(e\) => \{[\s\S]*?\n {2}\}\);/,
      'const weights = energies.map((e) => e.map(() => 1 / e.length));',
    ),
  };
  for (const [name, code] of Object.entries(mistakes)) {
    assert.notEqual(code, solution, `${name}: the mutation applies`);
    const accuracy = step.exactMatch(await step.decodeWithAttention(stepEngine(), texts, learner(code)), targets);
    t.diagnostic(`${name}: exact match ${accuracy} (engine ${engineAccuracy})`);
    assert.ok(accuracy <= engineAccuracy - 0.3, `${name}: exact match ${accuracy} vs the engine's ${engineAccuracy}`);
  }
});

test('in the model: an attention step that throws or returns the wrong shape is reported, not decoded', async () => {
  const texts = held.slice(0, 6).map((p) => p.source);
  const broken = learner('function alignBatch(s, h) { return { weights: [[1]], context: [[0]] }; }');
  const decoded = await step.decodeWithAttention(stepEngine(), texts, broken);
  for (const d of decoded) assert.match(d.failure, /^step 1: its weights are not \d+ × \d+ finite numbers$/);
  const throwing = learner('function alignBatch() { throw new Error("nope"); }');
  for (const d of await step.decodeWithAttention(stepEngine(), texts, throwing)) {
    assert.equal(d.failure, 'step 1: nope');
  }
});
