// The chunked-run machine both worker hosts train with (web/src/engine/chunk_loop.ts), driven by
// a scripted session in place of the engine: every step's loss is posted once and in order,
// chunks stop at checkpoints, pause / resume / stop behave, an engine error rejects the run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let ChunkedRunner;
let nextChunkSize;
const runners = [];

before(async () => {
  loaded = await loadWebModules('/src/engine/chunk_loop.ts');
  ({ ChunkedRunner, nextChunkSize } = loaded.modules[0]);
});
after(async () => {
  for (const r of runners) r.close();
  await loaded?.close();
});

function runner() {
  const r = new ChunkedRunner();
  runners.push(r);
  return r;
}

/** A session of `planned` steps with an epoch every `epochSteps`; step i's loss is i. */
function scripted(planned, epochSteps, { failAt = Infinity, onStep = () => {} } = {}) {
  const session = {
    step: 0,
    asked: [],
    cancelled: false,
    runSteps(n) {
      if (n > 0) session.asked.push(n);
      const from = session.step;
      const to = Math.min(planned, from + n);
      if (to > failAt) throw new Error('training diverged at epoch 1, step ' + failAt);
      const losses = [];
      const epochs = [];
      for (let s = from; s < to; s++) {
        losses.push(s);
        if ((s + 1) % epochSteps === 0) epochs.push({ epoch: (s + 1) / epochSteps });
        session.step = s + 1;
        onStep(s + 1);
      }
      return {
        stepsRun: to - from,
        step: session.step,
        elapsed: session.step / 1000,
        losses: Float32Array.from(losses),
        epochs,
        done: session.step >= planned,
      };
    },
    cancelTraining() {
      session.cancelled = true;
    },
  };
  return session;
}

function spec(session, posts, extra = {}) {
  return {
    runSteps: (n) => session.runSteps(n),
    cancelTraining: () => session.cancelTraining(),
    post: (p) => posts.push({ ...p, step: p.report.step, losses: [...p.losses] }),
    outcome: (final, run) => ({ steps: final.step, done: final.done, ...run }),
    ...extra,
  };
}

test('chunk_loop.nextChunkSize aims at chunkMs and grows at most 4x', () => {
  assert.equal(nextChunkSize(10, 10, 10, 40), 40);
  assert.equal(nextChunkSize(1, 1, 0, 40), 4);
  assert.equal(nextChunkSize(100, 100, 1000, 40), 4);
  assert.equal(nextChunkSize(5, 5, 1e9, 40), 1);
});

test('chunk_loop.a run posts every loss once in order; checkpoints bound the chunks', async () => {
  const session = scripted(103, 20);
  const posts = [];
  const outcome = await runner().start(spec(session, posts, { checkpointEvery: 10, progressMs: 1e9 }));
  assert.deepEqual(outcome, { steps: 103, done: true, cancelled: false, epochs: 5, elapsed: 0.103 });
  assert.deepEqual(
    posts.flatMap((p) => p.losses),
    Array.from({ length: 103 }, (_, i) => i),
  );
  assert.deepEqual(
    posts.filter((p) => p.checkpoint).map((p) => p.step),
    [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 103],
  );
  // With progressMs out of reach, nothing is posted between checkpoints; no chunk crosses one.
  assert.ok(posts.every((p) => p.checkpoint));
  let at = 0;
  for (const n of session.asked) {
    assert.ok(Math.floor(at / 10) === Math.floor((at + Math.min(n, 103 - at) - 1) / 10), `chunk ${at}+${n}`);
    at += Math.min(n, 103 - at);
  }
  assert.equal(posts.at(-1).report.done, true);
  assert.deepEqual(
    posts.flatMap((p) => p.epochs.map((e) => e.epoch)),
    [1, 2, 3, 4, 5],
  );
});

test('chunk_loop.without checkpoints chunks grow; postOnEpoch posts right after each epoch', async () => {
  const session = scripted(400, 50);
  const posts = [];
  await runner().start(spec(session, posts, { postOnEpoch: true, progressMs: 1e9 }));
  assert.ok(Math.max(...session.asked) > 16, `chunks ${session.asked}`);
  assert.ok(posts.every((p) => !p.checkpoint));
  for (const p of posts) assert.ok(p.epochs.length > 0 || p.report.done);
  assert.deepEqual(
    posts.flatMap((p) => p.losses),
    Array.from({ length: 400 }, (_, i) => i),
  );
});

/** Resolves once `ready()` holds, checking between the runner's chunks. */
function until(ready) {
  return new Promise((resolve) => {
    const poll = () => (ready() ? resolve() : setImmediate(poll));
    poll();
  });
}

const ENDLESS = 1e12;

test('chunk_loop.pause posts what is pending and stops stepping until resume', async () => {
  const r = runner();
  const session = scripted(ENDLESS, 1e6);
  const posts = [];
  const run = r.start(spec(session, posts));
  await until(() => session.step > 37);
  assert.equal(await r.pause(), true);
  const stepWhenPaused = session.step;
  assert.equal(posts.at(-1).paused, true);
  assert.equal(posts.at(-1).step, stepWhenPaused);
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(session.step, stepWhenPaused, 'no steps while paused');
  assert.equal(await r.pause(), true, 'pausing twice changes nothing');
  r.resume();
  await until(() => session.step > stepWhenPaused);
  assert.equal(r.stop(), true);
  const outcome = await run;
  assert.equal(outcome.cancelled, true);
  assert.equal(session.cancelled, true);
  assert.deepEqual(
    posts.flatMap((p) => p.losses),
    Array.from({ length: session.step }, (_, i) => i),
  );
});

test('chunk_loop.stop cancels the run; a new start cancels the previous; stop without a run is false', async () => {
  const r = runner();
  const first = scripted(ENDLESS, 1e6);
  const a = r.start(spec(first, []));
  assert.equal(r.active, true);
  await until(() => first.step > 0);
  const second = scripted(10, 5);
  const b = r.start(spec(second, []));
  const outcomeA = await a;
  assert.equal(outcomeA.cancelled, true);
  assert.equal(first.cancelled, true);
  const outcomeB = await b;
  assert.equal(outcomeB.cancelled, false);
  assert.equal(outcomeB.steps, 10);
  assert.equal(second.cancelled, false);
  assert.equal(r.active, false);
  assert.equal(r.stop(), false);
});

test('chunk_loop.an engine error rejects the run with its error and frees the runner', async () => {
  const r = runner();
  const session = scripted(1000, 100, { failAt: 250 });
  await assert.rejects(r.start(spec(session, [])), /^Error: training diverged at epoch 1, step 250$/);
  assert.equal(r.active, false);
  assert.equal(session.cancelled, false);
});

/** The scripted session's steps behind an `advance` that resolves only when the test says so. */
function gated(session) {
  const gate = { open: [], calls: 0, inFlight: 0, maxInFlight: 0 };
  gate.advance = (n) =>
    new Promise((resolve) => {
      gate.calls += 1;
      gate.inFlight += 1;
      gate.maxInFlight = Math.max(gate.maxInFlight, gate.inFlight);
      gate.open.push(() => {
        gate.inFlight -= 1;
        resolve(session.runSteps(n));
      });
    });
  gate.release = () => gate.open.shift()?.();
  return gate;
}

test('chunk_loop.asynchronous steps (advance): one chunk at a time through pause / resume; stop while one runs', async () => {
  const r = runner();
  const session = scripted(ENDLESS, 1e6);
  const gate = gated(session);
  const posts = [];
  const run = r.start(spec(session, posts, { advance: gate.advance }));
  await until(() => gate.open.length === 1);
  gate.release();
  await until(() => gate.open.length === 1 && session.step > 0);
  // Paused and resumed while a chunk is out: no second chunk starts beside it.
  const pausing = r.pause();
  r.resume();
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(gate.inFlight, 1);
  gate.release();
  assert.equal(await pausing, false, 'resumed before the chunk under way ended');
  await until(() => gate.open.length === 1);
  assert.equal(gate.maxInFlight, 1, 'never two chunks at once');
  // Stopped while a chunk is out: the run ends cancelled at once; the chunk's late steps are dropped.
  const stepAtStop = session.step;
  assert.equal(r.stop(), true);
  const outcome = await run;
  assert.equal(outcome.cancelled, true);
  assert.equal(outcome.steps, stepAtStop);
  const posted = posts.length;
  gate.release();
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(posts.length, posted, 'nothing posted after the run ended');
  assert.equal(gate.open.length, 0, 'no chunk after the run ended');
});

test('chunk_loop.a pause while asynchronous steps run answers after them, with them posted: none follow', async () => {
  const r = runner();
  const session = scripted(ENDLESS, 1e6);
  const gate = gated(session);
  const posts = [];
  const run = r.start(spec(session, posts, { advance: gate.advance }));
  await until(() => gate.open.length === 1);
  gate.release();
  await until(() => gate.open.length === 1 && session.step > 0);
  let answered = false;
  const pausing = r.pause().then((paused) => ((answered = true), paused));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(answered, false, 'the pause waits for the steps under way');
  gate.release();
  assert.equal(await pausing, true);
  const stepWhenPaused = session.step;
  assert.equal(posts.at(-1).paused, true);
  assert.equal(posts.at(-1).step, stepWhenPaused, "the last post has the chunk's steps");
  const posted = posts.length;
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(session.step, stepWhenPaused, 'no steps while paused');
  assert.equal(posts.length, posted, 'nothing posted while paused');
  assert.equal(gate.open.length, 0, 'no chunk while paused');
  assert.equal(r.stop(), true);
  assert.equal((await run).cancelled, true);
});

test('chunk_loop.an asynchronous step that rejects rejects the run (a worker of a data-parallel run failed)', async () => {
  const r = runner();
  const session = scripted(ENDLESS, 1e6);
  const run = r.start(spec(session, [], { advance: async () => Promise.reject(new Error('worker 2 of 2: gone')) }));
  await assert.rejects(run, /^Error: worker 2 of 2: gone$/);
  assert.equal(r.active, false);
});
