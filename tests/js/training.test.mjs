// Training in the wasm build: the same seed gives the same per-step losses as the native build
// (tests/fixtures/toy_run_losses.json is written by the native doctest suite and compared there
// with the same bound), run to run identical, and bad settings throw JS Errors.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from './support/engine.mjs';

const fixtures = new URL('../fixtures/', import.meta.url);
const configJson = readFileSync(new URL('toy_run_config.json', fixtures), 'utf8');
const nativeLosses = JSON.parse(readFileSync(new URL('toy_run_losses.json', fixtures), 'utf8'));

let engine;
before(async () => {
  engine = await loadEngine();
});

test('training: wasm losses match the native build step by step (|Δ| <= 1e-4·|loss| + 1e-6)', () => {
  const steps = [];
  const result = engine.runToyTask(configJson, (step, loss) => steps.push([step, loss]));
  assert.equal(result.losses.length, nativeLosses.length);
  assert.equal(steps.length, nativeLosses.length);
  assert.deepEqual(
    steps.map(([s]) => s),
    nativeLosses.map((_, i) => i),
  );
  result.losses.forEach((loss, i) => {
    const want = nativeLosses[i];
    assert.ok(Math.abs(loss - want) <= 1e-4 * Math.abs(want) + 1e-6, `step ${i}: wasm ${loss} vs native ${want}`);
  });
  assert.ok(result.losses.at(-1) < result.losses[0], 'the loss goes down');
  const again = engine.runToyTask(configJson, null);
  assert.deepEqual(Array.from(again.losses), Array.from(result.losses), 'run to run identical');
});

test('training: bad settings throw JS Errors with the engine message', () => {
  assert.throws(() => engine.runToyTask('{"stepz": 1}', null), /ToyRunConfig: unknown setting 'stepz'/);
  assert.throws(
    () => engine.runToyTask('{"heads": 3, "encoder": "transformer"}', null),
    /heads \(3\) must divide embed_dim/,
  );
  assert.throws(() => engine.runToyTask('not json', null), /invalid JSON at offset 0/);
  assert.throws(
    () => engine.runToyTask('{"learning_rate": 0}', null),
    /ToyRunConfig: learning_rate must be finite and > 0, got 0/,
  );
});

test('training: ToyRun in uneven chunks gives runToyTask’s losses and result exactly', () => {
  const whole = engine.runToyTask(configJson, null);
  const run = new engine.ToyRun(configJson);
  try {
    const losses = [];
    const first = run.runSteps(0);
    assert.deepEqual([first.step, first.done, first.losses.length], [0, false, 0]);
    assert.equal(first.plannedSteps, whole.losses.length);
    let report;
    for (const n of [1, 2, 7, 3, 1000]) {
      report = run.runSteps(n);
      losses.push(...report.losses);
      if (report.done) break;
    }
    assert.equal(report.done, true);
    assert.equal(report.step, whole.losses.length);
    assert.equal(run.runSteps(5).losses.length, 0, 'a finished run runs no more steps');
    assert.deepEqual(losses, Array.from(whole.losses));
    const result = run.result();
    assert.deepEqual(Array.from(result.losses), Array.from(whole.losses));
    assert.equal(result.testAccuracy, whole.testAccuracy);
    assert.equal(result.decisiveAttention, whole.decisiveAttention);
    assert.equal(result.decisiveArgmaxRate, whole.decisiveArgmaxRate);
  } finally {
    run.delete();
  }
  assert.throws(() => new engine.ToyRun('{"stepz": 1}'), /ToyRunConfig: unknown setting 'stepz'/);
  assert.throws(
    () => new engine.ToyRun('{"learning_rate": 0}'),
    /ToyRunConfig: learning_rate must be finite and > 0, got 0/,
  );
  const bad = new engine.ToyRun(configJson);
  assert.throws(() => bad.runSteps(-1), /steps must be a whole number/);
  bad.delete();
});
