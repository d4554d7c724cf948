// What the data-parallel tests share (data_parallel.test.mjs: the engine side;
// data_parallel_ports.test.mjs and seq2seq_data_parallel.test.mjs: the page's coordination over
// MessagePorts, web/src/engine/data_parallel.ts).
import { after, before } from 'node:test';
import { loadEngine } from './engine.mjs';
import { loadWebModules } from './web_modules.mjs';

/**
 * A suite's two wasm instances (two workers' engines) and the page's data_parallel.ts module,
 * loaded before its tests; `keep(session)` deletes the session after them. Fields are set once
 * the suite's `before` ran.
 */
export function twoEngineSuite() {
  const suite = { dp: null, engines: [], keep: (session) => (sessions.push(session), session) };
  const sessions = [];
  let loaded;
  before(async () => {
    loaded = await loadWebModules('/src/engine/data_parallel.ts');
    suite.dp = loaded.modules[0];
    suite.engines = [await loadEngine(), await loadEngine()];
  });
  after(async () => {
    for (const s of sessions) s.delete();
    await loaded?.close();
  });
  return suite;
}

/** Two epochs of the built-in corpus, no early stopping: the run both suites train. */
export const TRAINING = Object.freeze({
  epochs: 2,
  batchSize: 32,
  learningRate: 0.005,
  validationSplit: 0.1,
  earlyStoppingPatience: 0,
  seed: 2,
});

/**
 * One data-parallel step done in one thread: shard r on replica r, then every replica applies its
 * own buffer with the others' (its engine adds the K in shard order), as the workers do. Returns
 * each replica's step report.
 */
export function parallelStep(replicas) {
  const parts = replicas.map((s, r) => s.shardGradient(r, replicas.length));
  return replicas.map((s, r) => s.applyGradient(parts.filter((_, j) => j !== r)));
}
