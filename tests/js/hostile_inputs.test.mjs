// Hostile and out-of-range input through the JS API of the wasm module: every case throws a JS
// Error with a specific message (never a crash, a hang, an abort of the module or a silent
// wrap-around of wasm32's 32-bit sizes), and the module keeps working afterwards.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, tensor } from './support/engine.mjs';

let engine;
before(async () => {
  engine = await loadEngine();
});

// A tiny, fast toy run with the given settings on top.
function toyRun(settings) {
  return engine.runToyTask(
    JSON.stringify({
      steps: 2,
      train_examples: 16,
      test_examples: 8,
      batch_size: 8,
      embed_dim: 8,
      units: 8,
      ...settings,
    }),
    null,
  );
}

test('hostile: training hyperparameters out of range give specific errors', () => {
  assert.throws(() => toyRun({ max_len: 0 }), /max_len/);
  assert.throws(
    () => toyRun({ vocab_size: 3 }),
    /ToyRunConfig: vocab_size must be a whole number from 4 to 1048576, got 3/,
  );
  assert.throws(() => toyRun({ learning_rate: 0 }), /learning_rate must be finite and > 0, got 0/);
  assert.throws(() => toyRun({ learning_rate: -0.5 }), /learning_rate must be finite and > 0, got -0.5/);
  assert.throws(() => toyRun({ batch_size: 0 }), /batch_size must be a whole number from 1 to 65536, got 0/);
  assert.throws(() => toyRun({ encoder: 'transformer', heads: 3 }), /heads \(3\) must divide embed_dim \(8\)/);
  assert.throws(
    () => toyRun({ encoder: 'transformer', heads: 0 }),
    /ToyRunConfig: heads must be a whole number from 1 to 64, got 0/,
  );
  assert.throws(() => toyRun({ batch_size: -1 }), /batch_size/);
  assert.throws(() => toyRun({ steps: 1.5 }), /steps/);
  assert.throws(() => toyRun({ dropout: 1 }), /dropout must be in \[0, 1\)/);
  // 2^20 words × 4096 dimensions would wrap wasm32's size_t: refused up front.
  assert.throws(
    () => toyRun({ vocab_size: 1 << 20, embed_dim: 4096 }),
    /the embedding table \(vocab_size 1048576 × embed_dim 4096\) must have at most 268435456 values/,
  );
  // The module still works.
  assert.equal(toyRun({}).losses.length, 2);
});

test('hostile: garbage configuration text', () => {
  assert.throws(() => engine.runToyTask('', null), /invalid JSON at offset 0/);
  assert.throws(() => engine.runToyTask('\u0000\u0001\u00ff\ud800garbage', null), /invalid JSON at offset 0/);
  assert.throws(() => engine.runToyTask('{"steps": {"nested": 1}}', null), /invalid JSON/);
  assert.throws(() => engine.runToyTask('{"task": "\ud800"}', null), /./);
  // A megabyte of garbage is named, not echoed: the message shows its start and its size.
  assert.throws(
    () => engine.runToyTask(`{"task": "${'x'.repeat(1 << 20)}"}`, null),
    (e) =>
      /ToyRunConfig: task must be one of contains_token, first_of_two, got 'x{80}…' \(1048576 bytes\)$/.test(e.message),
  );
  assert.throws(() => engine.runToyTask('{"steps": 1e400}', null), /invalid JSON at offset 10: bad number/);
  assert.throws(() => engine.runToyTask(42, null), /./);
  assert.equal(toyRun({}).losses.length, 2);
});

test('hostile: tensors whose shapes would wrap wasm32 sizes or do not match their data', () => {
  // 65536 × 65536 = 2^32 wraps to 0 in a 32-bit size_t: must not pass as an empty tensor.
  assert.throws(
    () => engine.softmax({ shape: [65536, 65536], data: new Float32Array(0) }, null),
    /x\.shape describes 4294967296 values; at most 268435456/,
  );
  assert.throws(() => engine.causalMask(70000), /causalMask: n × n describes 4900000000 values; at most 268435456/);
  assert.throws(() => engine.paddingMask(100000, 100000, 1), /paddingMask: tq × tk describes/);
  assert.throws(
    () => engine.initScoreParams('additive', 1e6, 1e6, 4, 1e6, 1),
    /initScoreParams: attentionDim × max\(ds, dh\)/,
  );
  assert.throws(
    () => engine.softmax({ shape: [2, 2], data: [1, 2, 3] }, null),
    /x\.data has 3 values but its shape needs 4/,
  );
  assert.throws(() => engine.softmax({ shape: [2, -1], data: [] }, null), /x\.shape\[1\] must be a whole number >= 0/);
  assert.throws(
    () => engine.softmax({ shape: [2, 2], data: [1, NaN, 3, 4] }, null),
    /x\.data\[1\] is NaN; softmax scores must be numbers or -Infinity/,
  );
  assert.throws(
    () => engine.softmax({ shape: [2, 2], data: [1, Infinity, 3, 4] }, null),
    /x\.data\[1\] is \+Infinity; softmax scores must be numbers or -Infinity/,
  );
  assert.throws(() => engine.softmax('<img src=x onerror=alert(1)>', null), /x must be a tensor object/);
  // The module still works.
  const out = engine.softmax(tensor([[0, 0]]), null);
  assert.deepEqual(Array.from(out.data), [0.5, 0.5]);
});
