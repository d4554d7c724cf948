// The worker's error classification (web/src/engine/errors.ts): the kind each failure carries in
// the protocol's 'error' message, checked on the engine's real messages where the engine can be
// made to produce them (divergence, bad input) and on the allocation and trap errors otherwise.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, SMALL_MODEL } from './support/engine.mjs';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let errors;
let engine;

before(async () => {
  loaded = await loadWebModules('/src/engine/errors.ts');
  [errors] = loaded.modules;
  engine = await loadEngine();
});
after(async () => {
  await loaded?.close();
});

function thrown(body) {
  try {
    body();
  } catch (error) {
    return error;
  }
  assert.fail('expected the engine to throw');
}

test('engine_errors.a diverging run is classified "diverged" with its message kept', () => {
  const s = new engine.SentimentSession();
  try {
    s.loadBuiltin();
    s.createModel(SMALL_MODEL);
    s.startTraining({ epochs: 1, batchSize: 16, learningRate: 1e20 });
    const error = thrown(() => {
      for (let i = 0; i < 100; i++) s.runSteps(10);
    });
    const { kind, message } = errors.classifyError(error);
    assert.equal(kind, 'diverged');
    assert.equal(message, error.message);
    assert.match(message, /^training diverged at epoch 1/);
  } finally {
    s.delete();
  }
});

test('engine_errors.bad input keeps the engine message and kind "engine"', () => {
  const error = thrown(() => engine.causalMask(-1));
  const { kind, message } = errors.classifyError(error);
  assert.equal(kind, 'engine');
  assert.equal(message, error.message);
  assert.ok(message.length > 0);
  assert.deepEqual(errors.classifyError('plain text'), { kind: 'engine', message: 'plain text' });
});

test('engine_errors.allocation failures are "out-of-memory" with a message saying what to do', () => {
  // The engine's own message when an allocation fails is "std::bad_alloc" (seen from createModel
  // with embedDim = units = attentionDim = 4096; not run here: it takes 2 GB and 15 s).
  for (const error of [new Error('std::bad_alloc'), new RangeError('Array buffer allocation failed')]) {
    const { kind, message } = errors.classifyError(error);
    assert.equal(kind, 'out-of-memory');
    assert.match(message, /^the engine ran out of memory \(.+\): try a smaller model/);
    assert.ok(message.includes(error.message));
  }
  // A RangeError about something else is not a memory failure.
  assert.equal(errors.classifyError(new RangeError('Invalid array length x')).kind, 'engine');
});

test('engine_errors.a wasm trap is "crashed"; EngineError carries its kind and errorKind reads it', () => {
  assert.equal(errors.classifyError(new WebAssembly.RuntimeError('unreachable')).kind, 'crashed');
  const e = new errors.EngineError('the engine was shut down', 'unavailable');
  assert.ok(e instanceof Error);
  assert.equal(e.message, 'the engine was shut down');
  assert.equal(errors.errorKind(e), 'unavailable');
  assert.equal(errors.errorKind(new Error('training diverged at epoch 1')), 'engine');
  assert.equal(errors.errorKind(undefined), 'engine');
});
