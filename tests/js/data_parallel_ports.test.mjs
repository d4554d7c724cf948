// The page's data-parallel coordination (web/src/engine/data_parallel.ts) over a real
// MessageChannel between two wasm instances, as the Studio's two engine workers use it: the
// coordinator's sum in shard order, the replica's loop, stop, and the failures that must end a run
// with a message instead of a hang. The engine side is tested in data_parallel.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parallelStep, TRAINING, twoEngineSuite } from './support/data_parallel.mjs';

const MODEL = Object.freeze({ numWords: 2000, maxlen: 64, embedDim: 8, units: 8, seed: 3 });

const suite = twoEngineSuite();

function replica(engine, model = MODEL) {
  const s = suite.keep(new engine.SentimentSession());
  s.loadBuiltin();
  s.createModel(model);
  return { session: s, planned: s.startTraining(TRAINING).plannedSteps };
}

// Replica a coordinates, replica b trains shard 1 of 2, over a fresh MessageChannel.
function connect(a, b) {
  const channel = new MessageChannel();
  return {
    coordinator: new suite.dp.ShardCoordinator(a.session, [channel.port1], a.planned),
    replicaRun: suite.dp.runReplica(b.session, channel.port2, 1, 2, b.planned),
  };
}

test('mergeReports joins single steps', () => {
  const step = (i, epochs) => ({ stepsRun: 1, step: i, loss: i / 10, losses: new Float32Array([i / 10]), epochs });
  const merged = suite.dp.mergeReports([step(1, []), step(2, ['e1']), step(3, [])]);
  assert.equal(merged.stepsRun, 3);
  assert.equal(merged.step, 3);
  assert.deepEqual(Array.from(merged.losses), Array.from(new Float32Array([0.1, 0.2, 0.3])));
  assert.deepEqual(merged.epochs, ['e1']);
});

test('coordinator and replica over a MessageChannel: identical replicas, the same steps as an in-process K = 2', async () => {
  const a = replica(suite.engines[0]);
  const b = replica(suite.engines[1]);
  const { coordinator, replicaRun } = connect(a, b);
  const losses = [];
  let report;
  do {
    report = await coordinator.advance(7);
    losses.push(...report.losses);
  } while (!report.done);
  coordinator.stop();
  assert.deepEqual(await replicaRun, { steps: a.planned, cancelled: false });
  // The speed counts the shards' gradients and the exchange, not only the engine's applyGradient.
  const own = a.session.runSteps(0);
  const timed = coordinator.current();
  assert.ok(timed.elapsed > own.elapsed, `coordinator ${timed.elapsed} s, engine ${own.elapsed} s`);
  assert.equal(timed.examplesPerSecond, timed.examplesSeen / timed.elapsed);
  assert.equal(report.elapsed, timed.elapsed);
  assert.equal(losses.length, a.planned);
  assert.deepEqual(a.session.saveModel(), b.session.saveModel(), 'the replicas are byte-identical');

  // The same run with the buffers exchanged in one thread, summed shard 0 then 1: bit for bit.
  const c = replica(suite.engines[0]);
  const d = replica(suite.engines[1]);
  const direct = [];
  for (let i = 0; i < c.planned; i++) direct.push(parallelStep([c.session, d.session])[0].loss);
  assert.deepEqual(losses, direct, 'every step loss equal, bit for bit');
  assert.deepEqual(a.session.saveModel(), c.session.saveModel());
});

test('stop ends the replica as cancelled; a coordinator that is stopped mid-wait returns at once', async () => {
  const a = replica(suite.engines[0]);
  const b = replica(suite.engines[1]);
  const { coordinator, replicaRun } = connect(a, b);
  const first = await coordinator.advance(3);
  assert.equal(first.stepsRun, 3);
  // Stopped while it waits for the replica's next gradient: no step, no hang.
  const pending = coordinator.advance(1000);
  coordinator.stop();
  const last = await pending;
  assert.ok(last.step < a.planned, `stopped at step ${last.step}`);
  const outcome = await replicaRun;
  assert.equal(outcome.cancelled, true);
  assert.ok(outcome.steps >= 3 && outcome.steps <= last.step, `replica stopped at ${outcome.steps}`);
});

test('a replica of a different run, a failed replica and a crashed one end the run with a message', async () => {
  // A different model: the hello does not match.
  {
    const a = replica(suite.engines[0]);
    const b = replica(suite.engines[1], { ...MODEL, units: 4 });
    const { coordinator, replicaRun: run } = connect(a, b);
    await assert.rejects(coordinator.advance(5), /worker 2 of 2 holds a different run \(\d+ floats/);
    coordinator.stop();
    assert.equal((await run).cancelled, true);
  }
  // The replica's engine throws (its run was never started): the coordinator hears the message.
  {
    const a = replica(suite.engines[0]);
    const fresh = suite.keep(new suite.engines[1].SentimentSession());
    const { coordinator, replicaRun: run } = connect(a, { session: fresh, planned: a.planned });
    await assert.rejects(run, /^Error: worker 2 of 2: .*start training first/);
    await assert.rejects(coordinator.advance(5), /worker 2 of 2: .*start training first/);
    coordinator.stop();
  }
  // The replica's worker crashed (the page tells the coordinator): the waiting step rejects.
  {
    const a = replica(suite.engines[0]);
    const channel = new MessageChannel();
    const coordinator = new suite.dp.ShardCoordinator(a.session, [channel.port1], a.planned);
    const waiting = coordinator.advance(5);
    coordinator.fail('the second worker stopped (RuntimeError: unreachable)');
    await assert.rejects(waiting, /the second worker stopped \(RuntimeError: unreachable\)/);
    await assert.rejects(coordinator.advance(1), /the second worker stopped/, 'and stays failed');
    coordinator.stop();
    channel.port2.close();
  }
});
