// Where a translation model's training step spends its time in wasm (issue 27): runs `steps`
// training steps of the model at issue 27's sizes (bench/browser/translation_speed.mjs's pairs and
// settings) under node's sampling profiler and prints the wasm functions' self time, largest
// first. Needs an engine build with function names (a one-off build, not the shipped one):
//   cmake -S . -B build/wasm-prof <the wasm build's options> -DCMAKE_EXE_LINKER_FLAGS=--profiling-funcs \
//     -DATTN_WASM_OUTPUT_DIR=$PWD/build/wasm-prof/out && cmake --build build/wasm-prof --target attn_engine -j2
//   node --cpu-prof --cpu-prof-dir=build/prof bench/profile_seq2seq.mjs build/wasm-prof/out rnnsearch 12
//   node bench/profile_seq2seq.mjs --report build/prof/<file>.cpuprofile
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { syntheticPairs, translationSettings } from './browser/translation_speed.mjs';

const args = process.argv.slice(2);
if (args[0] === '--report') {
  const file = args[1].endsWith('.cpuprofile')
    ? args[1]
    : path.join(
        args[1],
        readdirSync(args[1])
          .filter((f) => f.endsWith('.cpuprofile'))
          .sort()
          .pop(),
      );
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const name = byId.get(id).callFrame.functionName || '(anonymous)';
    const t = dt[i] ?? 0;
    self.set(name, (self.get(name) ?? 0) + t);
    total += t;
  });
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(args[2] ?? 30));
  for (const [name, t] of rows) console.log(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${name}`);
  process.exit(0);
}
const [dir, model = 'rnnsearch', steps = '12'] = args;
globalThis.require ??= createRequire(import.meta.url);
globalThis.__dirname ??= path.resolve(dir);
const { default: create } = await import(path.resolve(dir, 'attn_engine.mjs'));
const engine = await create({ wasmBinary: readFileSync(path.resolve(dir, 'attn_engine.wasm')) });
const session = engine.Seq2SeqSession.fromParallelText(translationSettings(model), syntheticPairs(), 'bench.tsv');
session.startTraining();
session.runSteps(3); // warm-up
const t0 = process.cpuUsage();
session.runSteps(Number(steps));
const { user, system } = process.cpuUsage(t0);
console.log(`${model}: ${((user + system) / 1000 / Number(steps)).toFixed(1)} ms CPU per step over ${steps} steps`);
