// The cost of one data-parallel step's gradient exchange, measured on the wasm build under node
// with two module instances in one thread (docs/data-parallel.md):
//   node bench/data_parallel_exchange.mjs [steps] [--imdb path/to/aclImdb_train.tar.gz]
//   node bench/data_parallel_exchange.mjs [steps] --seq2seq rnnsearch|transformer
// Model (a) on the built-in corpus by default (short reviews, so the step is short and the
// exchange weighs more); with --imdb the batches are IMDB reviews at maxlen 200, the Studio's case;
// with --seq2seq the translation models at issue 27's sizes on bench/browser/translation_speed.mjs's
// pairs (batch 64, 10 words, vocabularies 6,000).
// Prints one JSON line: the exchange buffer size, and per step (medians, milliseconds of process
// CPU time: the machine is shared) the single worker's step (runSteps(1)), each shard's
// shardGradient (compute + copy out of wasm memory), one applyGradient (the other shard's buffer
// copied in, the two added in shard order with the ÷ count, clip, Adam), and a plain copy of one
// buffer (what postMessage's structured clone costs at least when it is not transferred).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadEngine } from '../tests/js/support/engine.mjs';
import { syntheticPairs, translationSettings } from './browser/translation_speed.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : null;
};
const imdb = option('--imdb');
const seq2seq = option('--seq2seq');
const steps = Number(args[0] ?? 30);
const archive = imdb ? readFileSync(imdb) : null;
const MODEL_A = { numWords: 5000, maxlen: 200, seed: 3 };
const TRAINING = { epochs: 5, batchSize: 32, learningRate: 0.005, validationSplit: 0.1, seed: 2 };
const pairs = seq2seq ? syntheticPairs() : null;

const engines = [await loadEngine(), await loadEngine()];
const start = (engine) => {
  if (seq2seq) {
    const s = engine.Seq2SeqSession.fromParallelText(translationSettings(seq2seq), pairs, 'bench.tsv');
    s.startTraining();
    return s;
  }
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
  const t0 = process.cpuUsage();
  const out = fn();
  const { user, system } = process.cpuUsage(t0);
  return [(user + system) / 1000, out];
};
const t = { single: [], shard0: [], shard1: [], apply: [], copy: [] };
for (let step = 0; step < steps; step++) {
  t.single.push(time(() => single.runSteps(1))[0]);
  const [ms0, g0] = time(() => replicas[0].shardGradient(0, 2));
  const [ms1, g1] = time(() => replicas[1].shardGradient(1, 2));
  t.shard0.push(ms0);
  t.shard1.push(ms1);
  t.copy.push(time(() => structuredClone(g1))[0]);
  t.apply.push(time(() => replicas[0].applyGradient([g1]))[0]);
  replicas[1].applyGradient([g0]);
}
const floats = replicas[0].exchangeSize();
const data = seq2seq ? 'synthetic pairs' : imdb ? 'aclImdb' : 'builtin';
const out = {
  bench: 'data_parallel_exchange',
  model: seq2seq ?? 'a',
  data,
  steps,
  floats,
  bytes: floats * 4,
  clock: 'cpu',
};
for (const [key, xs] of Object.entries(t)) out[`${key}_ms`] = Number(median(xs).toFixed(3));
console.log(JSON.stringify(out));
for (const s of [single, ...replicas]) s.delete();
