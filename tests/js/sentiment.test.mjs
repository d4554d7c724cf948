// The sentiment session of the wasm build (engine.SentimentSession), driven directly through
// Embind: the worker (web/src/engine/session_host.ts) calls exactly these methods, in chunks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEngine, SMALL_MODEL, SHORT_TRAINING } from './support/engine.mjs';

const WATCHED = ['the acting was not good', 'a wonderful film'];

let engine;
let dir;
const sessions = [];
function session() {
  const s = new engine.SentimentSession();
  sessions.push(s);
  return s;
}

before(async () => {
  engine = await loadEngine();
  dir = mkdtempSync(path.join(tmpdir(), 'attn-sentiment-'));
});
after(() => {
  for (const s of sessions) s.delete();
  rmSync(dir, { recursive: true, force: true });
});

test('sentiment: chunked training (with snapshots between chunks) is bit-identical to one run', () => {
  const one = session();
  assert.deepEqual(one.loadBuiltin(), {
    source: 'builtin',
    heldOut: false,
    sourceHasTest: true,
    trainExamples: 528,
    testExamples: 132,
    split: 'random',
    groups: 0,
  });
  const info = one.createModel(SMALL_MODEL);
  assert.ok(info.parameters > 0);
  assert.equal(info.maxlen, 64);
  const start = one.startTraining(SHORT_TRAINING);
  assert.equal(start.validationExamples, 52); // round(0.1 · 264) = 26 of each class
  assert.equal(start.batchesPerEpoch, 30); // ceil(476 / 16)
  const whole = one.runSteps(300);
  assert.equal(whole.stepsRun, 300);
  assert.equal(whole.step, 300);
  assert.equal(whole.epochs.length, 10);
  assert.equal(whole.losses.length, 300);

  const chunked = session();
  chunked.loadBuiltin();
  chunked.createModel(SMALL_MODEL);
  chunked.startTraining(SHORT_TRAINING);
  const losses = [];
  let snapshots = 0;
  while (losses.length < 300) {
    const report = chunked.runSteps(Math.min(7, 300 - losses.length));
    losses.push(...report.losses);
    const snap = chunked.snapshot(WATCHED);
    assert.equal(snap.length, 2);
    snapshots++;
  }
  assert.ok(snapshots > 40);
  assert.deepEqual(losses, Array.from(whole.losses));
  assert.deepEqual(chunked.saveModel(), one.saveModel(), 'same parameters, byte for byte');
  assert.ok(whole.losses.at(-1) < whole.losses[0], 'the loss goes down');
});

test('sentiment: evaluate, predict with attention weights that sum to 1, save → load → same predictions', () => {
  const s = session();
  s.loadBuiltin();
  s.createModel(SMALL_MODEL);
  s.startTraining(SHORT_TRAINING);
  s.runSteps(200);
  const metrics = s.evaluate('test');
  assert.equal(metrics.tp + metrics.fp + metrics.tn + metrics.fn, 132);
  assert.ok(metrics.accuracy > 0.6, `test accuracy ${metrics.accuracy}`);
  const e = s.explain('A wonderful, moving film; the acting was superb.');
  assert.equal(e.tokens[0], '<start>');
  assert.equal(e.weights.length, e.tokens.length);
  assert.equal(e.ids.length, e.tokens.length);
  const sum = e.weights.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 1e-5, `weights sum to ${sum}`);
  assert.ok(e.probability > 0 && e.probability < 1);

  const texts = ['dull and far too long', 'a wonderful film', 'not good at all'];
  const predictions = s.predict(texts);
  assert.ok(predictions instanceof Float32Array);
  const bytes = s.saveModel();
  assert.ok(bytes instanceof Uint8Array && bytes.length > 1000);
  const loaded = session();
  const info = loaded.loadModel(bytes.buffer);
  assert.equal(info.parameters, s.modelInfo().parameters);
  assert.deepEqual(loaded.predict(texts), predictions);
  assert.throws(() => loaded.loadModel(new Uint8Array([1, 2, 3])), Error);
});

test('sentiment: CSV from bytes, a malformed CSV names its line, data statistics', () => {
  const file = path.join(dir, 'reviews.csv');
  const rows = ['review,sentiment'];
  for (let i = 0; i < 20; i++) rows.push(`"A fine, warm film number ${i}",positive`, `dull and boring ${i},negative`);
  writeFileSync(file, rows.join('\n') + '\n');
  const s = session();
  const loads = [];
  const summary = s.loadBytes(readFileSync(file), 'reviews.csv', { testFraction: 0.25 }, (read, total, n) =>
    loads.push([read, total, n]),
  );
  assert.deepEqual(summary, {
    source: 'reviews.csv',
    heldOut: true,
    sourceHasTest: false,
    trainExamples: 30,
    testExamples: 10,
    split: 'random',
    groups: 0,
  });
  assert.ok(loads.length > 0 && loads.at(-1)[2] === 40, 'progress reports the examples read');
  const stats = s.dataStats('train', 4);
  assert.equal(stats.examples, 30);
  assert.equal(stats.positive, 15);
  assert.equal(stats.coverage, null, 'no vocabulary before a model exists');
  assert.ok(stats.histogram instanceof Uint32Array);
  assert.equal(
    stats.histogram.reduce((a, b) => a + b, 0),
    30,
  );
  assert.ok(stats.percentiles.p50 >= stats.minTokens && stats.percentiles.p99 <= stats.maxTokens);
  s.createModel({ ...SMALL_MODEL, maxlen: 5 });
  const covered = s.dataStats('test', 4);
  assert.ok(covered.coverage.tokens > 0.5);
  assert.equal(covered.coverage.truncated, 5, 'the "A fine, warm film number i" reviews exceed maxlen 5');

  const bad = path.join(dir, 'bad.csv');
  writeFileSync(bad, 'review,sentiment\ngood film,positive\nmeh,maybe\n');
  assert.throws(() => s.loadBytes(new Uint8Array(readFileSync(bad)), 'bad.csv', null, null), {
    name: 'Error',
    message: "bad.csv:3: label 'maybe' is not one of positive, negative, pos, neg, 1, 0",
  });
  assert.throws(() => s.loadBytes(new Uint8Array([1, 2]), 'x.bin', null, null), /unknown file type/);
});

test('sentiment: synthetic data, and errors carry the engine message', () => {
  const s = session();
  assert.deepEqual(s.loadSynthetic({ count: 100, seed: 4, testFraction: 0.2 }), {
    source: 'synthetic',
    heldOut: true,
    sourceHasTest: false,
    trainExamples: 80,
    testExamples: 20,
    split: 'random',
    groups: 0,
  });
  assert.throws(() => s.runSteps(1), /no model yet|start training first/);
  assert.throws(() => s.createModel({ embedDim: 8, layerz: 2 }), /SentimentModelConfig: unknown setting 'layerz'/);
  // The CLI recipe's word dropout is a model setting here too; it is range-checked.
  assert.ok(s.createModel({ embedDim: 8, units: 8, attentionDim: 8, maxlen: 32, wordDropout: 0.2 }).parameters > 0);
  assert.throws(() => s.createModel({ embedDim: 8, units: 8, wordDropout: 1.5 }), /word_dropout/);
  assert.throws(() => s.createModel({ encoder: 'transformer', embedDim: 10, heads: 3 }), /heads \(3\) must divide/);
  s.createModel({ embedDim: 8, units: 8, attentionDim: 8, maxlen: 32 });
  assert.throws(() => s.runSteps(1), /SentimentSession::run_steps: start training first/);
  assert.throws(() => s.startTraining({ learningRate: 0 }), /TrainerConfig: learning_rate must be finite and > 0/);
  assert.throws(() => s.startTraining({ batchSize: 'big' }), /batch_size/);
  assert.throws(() => s.evaluate('dev'), /which must be test, train, validation or all-train/);
  s.startTraining({ epochs: 2, batchSize: 16 });
  assert.equal(s.isTraining(), true);
  s.runSteps(3);
  s.cancelTraining();
  assert.equal(s.isTraining(), false);
  assert.equal(s.runSteps(5).stepsRun, 0);
});

test('sentiment: the wasm heap does not grow over 10,000 training steps after warm-up', (t) => {
  const s = session();
  s.loadBuiltin();
  s.createModel({
    embedDim: 8,
    units: 8,
    attentionDim: 8,
    numWords: 1000,
    maxlen: 16,
    seed: 1,
  });
  s.startTraining({
    epochs: 1000,
    batchSize: 8,
    earlyStoppingPatience: 0,
    validationSplit: 0.1,
  });
  // Bytes in use are compared at the same point of an epoch (its first step done): an epoch's end
  // holds transient buffers (the validation pass, the next epoch's batches) for a step or so.
  const toEpochStart = () => {
    for (let steps = 0; steps < 1000; ++steps) {
      if (s.runSteps(1).epochs.length > 0) {
        s.runSteps(1);
        return;
      }
    }
    assert.fail('no epoch ended within 1,000 steps');
  };
  // Warm-up: every batch shape, the validation pass and the snapshot buffers have been seen.
  s.runSteps(600);
  toEpochStart();
  s.snapshot(WATCHED);
  const heap = () => engine.HEAPU8.buffer.byteLength;
  const before = heap();
  const inUseBefore = engine.heapBytesInUse();
  for (let done = 0; done < 10000; done += 500) {
    const report = s.runSteps(500);
    assert.equal(report.stepsRun, 500);
    s.snapshot(WATCHED);
  }
  toEpochStart();
  s.snapshot(WATCHED);
  assert.equal(heap(), before, `heap grew from ${before} to ${heap()} bytes`);
  // The only thing allowed to accumulate is the run's epoch history (~170 epochs here, under
  // 32 KB with vector slack): a leak of 8 bytes per step would exceed the bound.
  const grown = engine.heapBytesInUse() - inUseBefore;
  t.diagnostic(`heap ${before} bytes throughout; bytes in use grew by ${grown}`);
  assert.ok(grown < 64 * 1024, `bytes in use grew by ${grown} over 10,000 steps`);
});

test('sentiment: model (a) training speed on the built-in corpus (reported, not asserted)', (t) => {
  const s = session();
  s.loadBuiltin();
  s.createModel({
    encoder: 'bilstm',
    embedDim: 32,
    units: 32,
    attentionDim: 32,
    numWords: 5000,
    maxlen: 200,
  });
  s.startTraining({ epochs: 5, batchSize: 32 });
  s.runSteps(3);
  const startedAt = performance.now();
  const report = s.runSteps(30);
  const seconds = (performance.now() - startedAt) / 1000;
  t.diagnostic(`model (a), builtin corpus, batch 32: ${(report.stepsRun / seconds).toFixed(1)} steps/s`);
  assert.equal(report.stepsRun, 30);
});
