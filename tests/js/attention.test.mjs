// Node tests of the built wasm module: the course's known answers through the JS API, and
// bad input turned into catchable JS Errors with the engine's message.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadEngine, tensor, wasmPath } from './support/engine.mjs';

let engine;
before(async () => {
  engine = await loadEngine();
});

const decoder = tensor([5, 1, 20]);
const annotations = tensor([
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
]);

function close(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  expected.forEach((x, i) => assert.ok(Math.abs(actual[i] - x) <= tol, `${what}[${i}] = ${actual[i]}, expected ${x}`));
}

test('module: version and SIMD build', () => {
  assert.match(engine.version(), /^attention-playground \d+\.\d+\.\d+$/);
  assert.equal(engine.simdEnabled(), true);
  assert.deepEqual(
    engine.scoreKinds().map((k) => k.name),
    ['dot', 'scaled_dot', 'general', 'additive', 'concat', 'location', 'cosine'],
  );
});

test('module: the .wasm contains SIMD (f32x4) instructions', () => {
  const disassembly = execFileSync('wasm-objdump', ['-d', wasmPath], { maxBuffer: 256 * 1024 * 1024 }).toString();
  const f32x4 = disassembly.match(/\bf32x4\.[a-z_]+/g) ?? [];
  assert.ok(f32x4.length >= 10, `expected f32x4 instructions, found ${f32x4.length}`);
  assert.ok(
    f32x4.some((op) => op === 'f32x4.mul'),
    'expected f32x4.mul',
  );
});

test('known answer: dot scores, softmax weights, context vector', () => {
  const scores = engine.scores('dot', decoder, annotations, undefined);
  assert.deepEqual(scores.shape, [4]);
  close(scores.data, [927, 397, 148, 929], 1e-3, 'scores');
  const weights = engine.softmax(scores, undefined);
  close(weights.data, [0.1192, 0, 0, 0.8808], 1e-4, 'weights');
  const context = engine.contextVector(weights, annotations);
  close(context.data, [3.88, 4.07, 45.26], 0.005, 'context');
  const all = engine.attend('dot', decoder, annotations, {});
  close(all.context.data, context.data, 1e-6, 'attend context');
  assert.deepEqual(all.weighted.shape, [4, 3]);
});

test('softmax of [1000, 1001] in float32 is [0.2689, 0.7311]', () => {
  const y = engine.softmax(tensor([1000, 1001]), null);
  assert.ok(y.data instanceof Float32Array);
  close(y.data, [0.2689, 0.7311], 1e-4, 'softmax');
});

test('softmax: masks, all-masked rows, temperature, axis', () => {
  const masked = engine.softmax(
    tensor([
      [1, 5, 3],
      [2, 2, 2],
    ]),
    {
      mask: { shape: [2, 3], data: [1, 0, 1, 0, 0, 0] },
    },
  );
  close(masked.data, [0.1192, 0, 0.8808, 0, 0, 0], 1e-4, 'masked');
  close(engine.softmax(tensor([0, 1]), { temperature: 0.5 }).data, [0.1192, 0.8808], 1e-4, 'temperature');
  close(
    engine.softmax(
      tensor([
        [1, 4],
        [1, 4],
      ]),
      { axis: 0 },
    ).data,
    [0.5, 0.5, 0.5, 0.5],
    1e-6,
    'axis 0',
  );
});

test('every scoring function runs with initialised parameters and gives weights summing to 1', () => {
  for (const { name, hasParameters } of engine.scoreKinds()) {
    const params = engine.initScoreParams(name, 3, 3, 4, 5, 7);
    assert.equal(Object.keys(params).length > 0, hasParameters, name);
    const r = engine.attend(name, decoder, annotations, { params, temperature: 2 });
    const sum = r.weights.data.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5, `${name}: weights sum to ${sum}`);
  }
});

test('scaled dot-product attention with a causal mask; heads split and merge', () => {
  const x = tensor([
    [1, 0, 0, 1],
    [0, 1, 1, 0],
    [1, 1, 0, 0],
  ]);
  const mask = engine.causalMask(3);
  assert.deepEqual(Array.from(mask.data), [1, 0, 0, 1, 1, 0, 1, 1, 1]);
  const r = engine.scaledDotProductAttention(x, x, x, { mask });
  close(r.output.data.slice(0, 4), [1, 0, 0, 1], 1e-6, 'first query sees only itself');
  assert.equal(r.weights.data[1], 0);
  const heads = engine.splitHeads(x, 2);
  assert.deepEqual(heads.shape, [2, 3, 2]);
  assert.deepEqual(Array.from(engine.mergeHeads(heads).data), Array.from(x.data));
  const multi = engine.scaledDotProductAttention(heads, heads, heads, { mask });
  assert.deepEqual(multi.weights.shape, [2, 3, 3]);
});

test('bad input throws a JS Error with the engine message, and the module keeps working', () => {
  const expectError = (fn, pattern) =>
    assert.throws(fn, (error) => error instanceof Error && pattern.test(error.message));
  expectError(
    () => engine.scores('dot', tensor([1, 2]), annotations, undefined),
    /^dot_scores: keys has shape \[4, 3\] but queries has shape \[1, 2\]; keys must be \[T, 2\]$/,
  );
  expectError(() => engine.scores('bogus', decoder, annotations, undefined), /unknown scoring function 'bogus'/);
  expectError(
    () => engine.softmax({ shape: [3], data: [1, 2] }, undefined),
    /x\.data has 2 values but its shape needs 3/,
  );
  expectError(
    () => engine.softmax({ shape: [2], data: [1, NaN] }, undefined),
    /^x\.data\[1\] is NaN; softmax scores must be numbers or -Infinity \(a masked position\)$/,
  );
  expectError(() => engine.softmax(tensor([1, 2]), { temperature: -1 }), /temperature must be a finite number > 0/);
  expectError(() => engine.softmax('nonsense', undefined), /x must be a tensor object/);
  expectError(() => engine.splitHeads(tensor([[1, 2, 3]]), 2), /must be divisible by the number of heads/);
  expectError(() => engine.attend('general', decoder, annotations, {}), /general_scores: W has shape \[0, 0\]/);
  expectError(
    () => engine.attend('dot', decoder, annotations, { mask: { shape: [2], data: [1, 1] } }),
    /attend: mask has shape \[2\] but there are 4 annotations/,
  );
  // Thousands of failures later the module still answers correctly (no abort, no leak-driven OOM).
  for (let i = 0; i < 5000; i++) {
    try {
      engine.scores('dot', tensor([1, 2]), annotations, undefined);
    } catch {
      /* expected */
    }
  }
  close(engine.scores('dot', decoder, annotations, undefined).data, [927, 397, 148, 929], 1e-3, 'after errors');
});
