// Data-parallel training of the seq2seq session (the Translation tab's, docs/data-parallel.md)
// between two wasm instances, through the page's coordination code (web/src/engine/data_parallel.ts,
// the Studio's): the replicas end byte-identical, the same seed and worker count repeat the run
// bit for bit (the Transformer with dropout), two workers follow one without dropout (the RNN),
// and the engine's errors. Data: the generated "reverse" task (no data file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parallelStep, twoEngineSuite } from './support/data_parallel.mjs';

const BASE = Object.freeze({
  task: 'reverse',
  trainSize: 120,
  testSize: 10,
  minLen: 3,
  maxLen: 7,
  epochs: 2,
  batch: 16,
  earlyStoppingPatience: 0,
  seed: 4,
});
const TRANSFORMER = Object.freeze({
  ...BASE,
  model: 'transformer',
  dModel: 16,
  heads: 2,
  layers: 1,
  ff: 32,
  dropout: 0.2,
});
const RNN = Object.freeze({ ...BASE, model: 'rnn', embed: 8, units: 12, attentionDim: 12 });

const suite = twoEngineSuite();

function replica(engine, settings) {
  const s = suite.keep(new engine.Seq2SeqSession(settings));
  return { session: s, planned: s.startTraining().plannedSteps };
}

/** A whole run on two workers over a MessageChannel: replica a coordinates, b trains shard 1. */
async function twoWorkerRun(settings) {
  const a = replica(suite.engines[0], settings);
  const b = replica(suite.engines[1], settings);
  const channel = new MessageChannel();
  const coordinator = new suite.dp.ShardCoordinator(a.session, [channel.port1], a.planned);
  const replicaRun = suite.dp.runReplica(b.session, channel.port2, 1, 2, b.planned);
  const losses = [];
  const epochs = [];
  let report;
  do {
    report = await coordinator.advance(5);
    losses.push(...report.losses);
    epochs.push(...report.epochs);
  } while (!report.done);
  coordinator.stop();
  assert.deepEqual(await replicaRun, { steps: a.planned, cancelled: false });
  return { a, b, losses, epochs, report };
}

test('a Transformer run with dropout on two workers: identical replicas, repeated bit for bit', async () => {
  const first = await twoWorkerRun(TRANSFORMER);
  assert.equal(first.losses.length, first.a.planned);
  assert.equal(first.epochs.length, 2);
  assert.ok(first.report.examplesSeen > 0 && first.report.examplesPerSecond > 0);
  assert.deepEqual(first.a.session.saveModel(), first.b.session.saveModel(), 'the replicas are byte-identical');
  const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const k = Math.ceil(first.losses.length / 4);
  assert.ok(mean(first.losses.slice(-k)) < mean(first.losses.slice(0, k)), 'the loss goes down');
  // The same seed and worker count: the same run again, bit for bit.
  const again = await twoWorkerRun(TRANSFORMER);
  assert.deepEqual(again.losses, first.losses);
  assert.deepEqual(again.a.session.saveModel(), first.a.session.saveModel());
  assert.equal(again.a.session.translate('40715', 1).output, first.a.session.translate('40715', 1).output);
  // Through the port it is the same exchange as one done in one thread.
  const c = replica(suite.engines[0], TRANSFORMER);
  const d = replica(suite.engines[1], TRANSFORMER);
  const direct = [];
  for (let i = 0; i < c.planned; i++) direct.push(parallelStep([c.session, d.session])[0].loss);
  assert.deepEqual(first.losses, direct);
});

test('without dropout (the RNN) two workers follow one worker step by step', async () => {
  const two = await twoWorkerRun(RNN);
  const one = replica(suite.engines[0], RNN);
  const single = [];
  let report;
  do {
    report = one.session.runSteps(4);
    single.push(...report.losses);
  } while (!report.done);
  assert.equal(single.length, two.losses.length);
  for (let i = 0; i < single.length; i++) {
    const gap = Math.abs(two.losses[i] - single[i]) / single[i];
    assert.ok(gap < 1e-3, `step ${i + 1}: ${two.losses[i]} on two workers, ${single[i]} on one`);
  }
  assert.equal(
    two.a.session.translate('40715', 1).output,
    one.session.translate('40715', 1).output,
    'the same translation',
  );
});

test('bad shards, buffers and runs give clear errors', () => {
  const s = suite.keep(new suite.engines[0].Seq2SeqSession(RNN));
  assert.throws(() => s.shardGradient(0, 1), /Seq2SeqSession::shard_gradient: start training first/);
  s.startTraining();
  assert.throws(() => s.shardGradient(2, 2), /shard must be in \[0, shards\) with shards >= 1, got shard 2 of 2/);
  assert.throws(() => s.shardGradient(0, 1.5), /shards must be a whole number/);
  const n = s.exchangeSize();
  assert.throws(() => s.applyGradient([]), /compute this replica's shard gradient for the step first/);
  s.shardGradient(1, 2);
  assert.throws(
    () => s.applyGradient([new Float32Array(n - 1)]),
    new RegExp(`the gradient buffer of shard 0 holds ${n - 1} floats, this model exchanges ${n}`),
  );
  assert.throws(() => s.applyGradient([1, 2, 3]), /the other shards' gradients must be an array of Float32Array/);
  assert.throws(() => s.applyGradient([new Float32Array(n), new Float32Array(n)]), /needs the other 1 shards'/);
  assert.equal(s.runSteps(0).step, 0, 'nothing was applied');
});
