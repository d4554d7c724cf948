// The cost of one data-parallel step's gradient exchange for model (a), measured on the wasm
// build under node with two module instances in one thread (docs/data-parallel.md):
//   node bench/data_parallel_exchange.mjs [steps] [--imdb path/to/aclImdb_train.tar.gz]
// (the built-in corpus by default: short reviews, so the step is short and the exchange weighs more;
// with --imdb the batches are IMDB reviews at maxlen 200, the Studio's case).
// Prints one JSON line: the exchange buffer size, and per step (medians, milliseconds) the single
// worker's step (runSteps(1)), each shard's shardGradient (compute + copy out of wasm memory),
// the JS sum of the two buffers, one applyGradient (copy in + clip + Adam), and a plain copy of
// one buffer (what postMessage's structured clone costs at least when it is not transferred).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadEngine } from '../tests/js/support/engine.mjs';

const args = process.argv.slice(2);
const imdbAt = args.indexOf('--imdb');
const imdb = imdbAt >= 0 ? args.splice(imdbAt, 2)[1] : null;
const steps = Number(args[0] ?? 30);
const archive = imdb ? readFileSync(imdb) : null;
const MODEL_A = { numWords: 5000, maxlen: 200, seed: 3 };
const TRAINING = { epochs: 5, batchSize: 32, learningRate: 0.005, validationSplit: 0.1, seed: 2 };

const engines = [await loadEngine(), await loadEngine()];
const start = (engine) => {
  const s = new engine.SentimentSession();
  if (archive) s.loadBytes(archive, path.basename(imdb), null, null);
  else s.loadBuiltin();
  s.createModel(MODEL_A);
  s.startTraining(TRAINING);
  return s;
};
const single = start(engines[0]);
const replicas = engines.map(start);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => {
  const t0 = performance.now();
  const out = fn();
  return [performance.now() - t0, out];
};
const t = { single: [], shard0: [], shard1: [], sum: [], apply: [], copy: [] };
for (let step = 0; step < steps; step++) {
  t.single.push(time(() => single.runSteps(1))[0]);
  const [ms0, g0] = time(() => replicas[0].shardGradient(0, 2));
  const [ms1, g1] = time(() => replicas[1].shardGradient(1, 2));
  t.shard0.push(ms0);
  t.shard1.push(ms1);
  const [msSum, sum] = time(() => {
    const out = new Float32Array(g0);
    for (let i = 0; i < out.length; i++) out[i] += g1[i];
    return out;
  });
  t.sum.push(msSum);
  t.copy.push(time(() => structuredClone(sum))[0]);
  t.apply.push(time(() => replicas[0].applyGradient(sum))[0]);
  replicas[1].applyGradient(sum);
}
const floats = replicas[0].exchangeSize();
const data = imdb ? 'aclImdb' : 'builtin';
const out = { bench: 'data_parallel_exchange', model: 'a', data, steps, floats, bytes: floats * 4 };
for (const [key, xs] of Object.entries(t)) out[`${key}_ms`] = Number(median(xs).toFixed(3));
console.log(JSON.stringify(out));
for (const s of [single, ...replicas]) s.delete();
