// The course's grader and exercises in node, against the wasm engine: for every exercise the
// reference solution matches the engine on every case and the starter code does not; the grader's
// tolerance and messages behave as documented. The TypeScript modules are loaded through Vite's
// SSR loader (the same transform the page build uses); the learner's code runs here with
// new Function, without the browser sandbox, which tests/e2e/course.test.mjs covers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';
import { loadEngine } from './support/engine.mjs';

let engine;
let loaded;
let EXERCISES;
let grader;

before(async () => {
  engine = await loadEngine();
  loaded = await loadWebModules('/src/course/exercises/index.ts', '/src/course/grader.ts');
  let exercises;
  [exercises, grader] = loaded.modules;
  ({ EXERCISES } = exercises);
});
after(async () => {
  await loaded?.close();
});

// The page's EngineCall, answered by the wasm module directly.
const call = async (method, ...args) => engine[method](...args);

function run(code, functionName, args) {
  const fn = new Function(`"use strict";\n${code}\n;return ${functionName};`)();
  try {
    return { value: fn(...structuredClone(args)) };
  } catch (error) {
    return { error: String(error) };
  }
}

async function grade(exercise, code) {
  const failures = [];
  for (const c of exercise.cases()) {
    const expected = await exercise.reference(call, c.args);
    const got = run(code, exercise.functionName, c.args);
    const mismatch = 'error' in got ? { kind: 'threw', error: got.error } : grader.compare(expected, got.value);
    if (mismatch) failures.push({ name: c.name, mismatch, expected, got: got.value });
  }
  return failures;
}

test('course exercises: at least 8, each with hints and fixed plus random cases that are reproducible', () => {
  const all = Object.values(EXERCISES);
  assert.ok(all.length >= 8, `${all.length} exercises`);
  for (const exercise of all) {
    assert.ok(exercise.hints.length >= 1, exercise.id);
    const cases = exercise.cases();
    assert.ok(cases.length >= 4, `${exercise.id}: ${cases.length} cases`);
    assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, `${exercise.id}: case names are distinct`);
    assert.deepEqual(exercise.cases(), cases, `${exercise.id}: the same cases every time`);
    assert.doesNotThrow(() => JSON.stringify(cases), `${exercise.id}: JSON-safe arguments`);
  }
});

test('course exercises: every reference solution matches the engine on every case', async () => {
  for (const exercise of Object.values(EXERCISES)) {
    assert.deepEqual(await grade(exercise, exercise.solution), [], exercise.id);
  }
});

test('course exercises: no starter code passes as it stands', async () => {
  for (const exercise of Object.values(EXERCISES)) {
    const failures = await grade(exercise, exercise.starter);
    assert.ok(failures.length > 0, `${exercise.id}: the starter should fail`);
  }
});

test('course exercises: the softmax starter (no max-subtraction) first fails on 927/929 with NaN', async () => {
  const [first] = await grade(EXERCISES.softmax, EXERCISES.softmax.starter);
  assert.match(first.name, /927, 397, 148, 929/);
  assert.equal(first.mismatch.kind, 'not-finite');
  assert.ok(Number.isNaN(first.mismatch.got));
  assert.match(
    EXERCISES.softmax.diagnose(first.expected, first.got, [[927, 397, 148, 929]]),
    /subtract the largest score/,
  );
});

test('course exercises: the engine agrees with hand-worked values used in the lessons', async () => {
  // s = [5, 1, 20]: 5·3 + 1·12 + 20·45 = 927, and softmax([927, 397, 148, 929]) ≈ [e⁻²/(1+e⁻²), 0, 0, 1/(1+e⁻²)].
  assert.equal(
    await EXERCISES.single_dot_score.reference(call, [
      [5, 1, 20],
      [3, 12, 45],
    ]),
    927,
  );
  const weights = await EXERCISES.softmax.reference(call, [[927, 397, 148, 929]]);
  const w1 = Math.exp(-2) / (1 + Math.exp(-2));
  assert.equal(grader.compare([w1, 0, 0, 1 - w1], weights), null);
  // A fully masked row gives zero weights and a zero output.
  const sdpa = EXERCISES.scaled_dot_product_attention;
  const masked = sdpa.cases().find((c) => /fully masked row/.test(c.name));
  const result = await sdpa.reference(call, masked.args);
  assert.deepEqual(result.weights[1], [0, 0, 0]);
  assert.deepEqual(result.output[1], [0, 0]);
});

test('grader: tolerance |got − expected| <= 1e-4 + 1e-4·|expected|, booleans as 0/1, shapes and types named', () => {
  const { compare, describeMismatch, formatData } = grader;
  assert.equal(compare(1000, 1000.1), null);
  assert.deepEqual(compare(1000, 1000.2), { kind: 'value', path: '', expected: 1000, got: 1000.2 });
  assert.equal(compare(0, 9e-5), null);
  assert.equal(compare(0, 2e-4)?.kind, 'value');
  assert.equal(compare([[1, 0]], [[true, false]]), null);
  assert.deepEqual(compare([1, 2, 3], [1, 2]), { kind: 'length', path: '', expected: 3, got: 2 });
  assert.deepEqual(compare([[1, 2]], [[1, NaN]]), { kind: 'not-finite', path: '[0][1]', expected: 2, got: NaN });
  assert.equal(compare({ weights: [1], output: [2] }, { weights: [1], output: [3] })?.path, '.output[0]');
  assert.equal(describeMismatch(compare(927, [1, 2, 3])), 'expected a number, got an array of 3');
  assert.equal(describeMismatch(compare(5, undefined)), 'expected a number, got undefined (did you forget to return?)');
  assert.match(
    describeMismatch(compare([0.5], [Infinity])),
    /^at \[0\]: expected 0\.5, got Infinity — a NaN or Infinity/,
  );
  assert.equal(formatData([0.119202922, NaN, -Infinity, 1e-7, [1, 2]]), '[0.1192, NaN, -Infinity, 1.000e-7, [1, 2]]');
});

test('grader: seeded random inputs are reproducible and differ between seeds', () => {
  const { seededRandom, randomMatrix } = grader;
  const a = randomMatrix(seededRandom(4), 3, 5);
  assert.deepEqual(randomMatrix(seededRandom(4), 3, 5), a);
  assert.notDeepEqual(randomMatrix(seededRandom(5), 3, 5), a);
  for (const v of a.flat()) {
    assert.ok(v >= -2 && v <= 2);
    assert.equal(Math.round(v * 100) / 100, v, 'two decimals');
  }
});
