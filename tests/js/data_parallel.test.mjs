// Data-parallel training across two wasm instances (stand-ins for two workers): each computes its
// shard's gradient, JS sums the two exchange buffers in a fixed order (replica 0, then 1) and both
// apply the sum. The replicas must stay byte-identical and learn like the single-worker run
// (docs/data-parallel.md).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parallelStep, TRAINING } from './support/data_parallel.mjs';
import { loadEngine } from './support/engine.mjs';

// Model (a) at its default sizes (vocabulary 5000, E = U = A = 32), maxlen 200; no dropout, so
// K = 2 computes the K = 1 step up to float rounding.
const MODEL_A = Object.freeze({ numWords: 5000, maxlen: 200, seed: 3 });

const sessions = [];
let engines;
before(async () => {
  engines = [await loadEngine(), await loadEngine()];
});
after(() => {
  for (const s of sessions) s.delete();
});

function startRun(engine) {
  const s = new engine.SentimentSession();
  sessions.push(s);
  s.loadBuiltin();
  s.createModel(MODEL_A);
  return { session: s, start: s.startTraining(TRAINING) };
}

test('data parallel: two instances with K = 2 stay byte-identical and learn like K = 1', () => {
  assert.notEqual(engines[0], engines[1], 'two module instances');
  const runs = engines.map(startRun);
  const single = startRun(engines[0]).session;
  const replicas = runs.map((r) => r.session);
  const steps = runs[0].start.plannedSteps;
  assert.equal(steps, 30); // 2 epochs of ceil(476 / 32) = 15 batches

  const size = replicas[0].exchangeSize();
  assert.equal(size, replicas[0].modelInfo().parameters + 2, 'every parameter, then loss sum and correct count');

  const parallelLosses = [];
  let last;
  for (let step = 0; step < steps; step++) {
    const [p0, p1] = parallelStep(replicas);
    assert.equal(p0.loss, p1.loss, `step ${step}: both replicas report the same loss`);
    parallelLosses.push(p0.loss);
    last = p0;
  }
  assert.equal(last.done, true);
  assert.equal(last.epochs.length, 1, 'the last step closed epoch 2');
  const singleLosses = Array.from(single.runSteps(steps).losses);

  assert.deepEqual(replicas[0].saveModel(), replicas[1].saveModel(), 'same parameters, byte for byte');
  const texts = ['a wonderful, moving film', 'dull and far too long', 'not bad at all'];
  assert.deepEqual(replicas[0].predict(texts), replicas[1].predict(texts));

  // K = 2 follows K = 1 step by step (float rounding only: the shards' sums and the × N / N).
  parallelLosses.forEach((loss, i) => {
    const want = singleLosses[i];
    assert.ok(Math.abs(loss - want) <= 1e-3 * Math.abs(want), `step ${i}: K=2 ${loss} vs K=1 ${want}`);
  });
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(mean(parallelLosses.slice(-5)) < mean(parallelLosses.slice(0, 5)), 'the loss goes down');
  const accuracy = (s) => s.evaluate('validation').accuracy;
  assert.ok(Math.abs(accuracy(replicas[0]) - accuracy(single)) <= 0.02, 'same validation accuracy');
});

test('data parallel: bad shards and buffers throw JS Errors with the engine message', () => {
  const { session } = startRun(engines[1]);
  assert.throws(() => session.shardGradient(2, 2), /shard must be in \[0, shards\) with shards >= 1, got shard 2 of 2/);
  assert.throws(() => session.shardGradient(0, 0), /got shard 0 of 0/);
  assert.throws(() => session.shardGradient(-1, 2), /shard must be a whole number/);
  assert.throws(() => session.applyGradient([]), /compute this replica's shard gradient for the step first/);
  session.shardGradient(0, 2);
  assert.throws(() => session.applyGradient([1, 2, 3]), /must be an array of Float32Array/);
  assert.throws(() => session.applyGradient(new Float32Array(3)), /must be an array of Float32Array/);
  assert.throws(() => session.applyGradient([]), /needs the other 1 shards' buffers, got 0/);
  assert.throws(
    () => session.applyGradient([new Float32Array(3)]),
    new RegExp(`shard 1 holds 3 floats, this model exchanges ${session.exchangeSize()}`),
  );
  const fresh = new engines[1].SentimentSession();
  sessions.push(fresh);
  assert.throws(() => fresh.shardGradient(0, 1), /start training first/);
});
