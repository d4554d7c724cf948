#!/usr/bin/env node
// Trains the models the page ships (web/public/models/): with the CLI, on the IMDB training half
// (aclImdb_train.tar.gz), holding out 10 % of it BY MOVIE (the archive's urls_*.txt name each
// review's movie; attn splits by group by default), so the held-out accuracy is measured on
// reviews of movies the model never saw. Each model must reach MIN_ACCURACY there and get the
// obvious sentences right, else the script fails and ships nothing for it. Writes each model's
// .attn file and web/public/models/manifest.json (name, recipe, held-out accuracy, reviews,
// parameters, bytes, date, command).
//
//   node scripts/train-shipped-models.mjs --data ../shared/data/aclImdb_train.tar.gz \
//        [--attn build/release/attn] [--only bilstm-attention]
//
// One model at a time (training is CPU-heavy); the CLI's progress goes to stderr.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'web/public/models');
const MIN_ACCURACY = 0.85;
// The sentences every shipped model must get right: the two obvious ones and a handful of
// reviews we wrote (the same file the shipped-model tests read).
const CHECKS = readFileSync(path.join(root, 'tests/fixtures/shipped_model_checks.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [text, label] = line.split('\t');
    return { text, label };
  });
const MAX_BYTES = 2 * 1024 * 1024;

// The shipped models: file name, what the page calls it, and the CLI options beyond the shared
// ones. Both use the CLI's recipe for their model (train/recipes.cpp, "real" rows).
export const SHIPPED = [
  {
    file: 'imdb-bilstm-attention.attn',
    title: 'BiLSTM + attention, trained on IMDB',
    model: 'bilstm-attention',
    options: ['--model', 'bilstm-attention'],
  },
  {
    file: 'imdb-transformer.attn',
    title: 'Transformer, trained on IMDB',
    model: 'transformer',
    options: ['--model', 'transformer'],
  },
];

function argValue(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

function attnBinary() {
  const given = argValue('attn', null);
  if (given) return path.resolve(given);
  for (const candidate of ['build/release/attn', 'build/native/attn']) {
    if (existsSync(path.join(root, candidate))) return path.join(root, candidate);
  }
  throw new Error('no attn binary: build it (docs/cli.md) or pass --attn PATH');
}

function run(binary, args) {
  const r = spawnSync(binary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${path.basename(binary)} ${args.join(' ')} exited with ${r.status}`);
  return r.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

// The settings line of `attn train --json`: the classifier's and the trainer's configuration.
function recipeOf(settings) {
  if (!settings) throw new Error('attn train --json printed no settings line');
  return {
    vocabulary: settings.vocab,
    maxlen: settings.maxlen,
    classifier: JSON.parse(settings.classifier),
    trainer: JSON.parse(settings.trainer),
  };
}

function main() {
  const data = argValue('data', null);
  if (!data) throw new Error('usage: node scripts/train-shipped-models.mjs --data aclImdb_train.tar.gz [--attn PATH]');
  const only = argValue('only', null);
  const binary = attnBinary();
  mkdirSync(outDir, { recursive: true });
  const manifestPath = path.join(outDir, 'manifest.json');
  const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : { models: [] };
  for (const spec of SHIPPED) {
    if (only && spec.model !== only) continue;
    const saved = path.join(outDir, `${spec.file}.tmp`);
    const shared = ['--data', data, '--holdout', '0.1', '--seed', '1'];
    const args = ['train', ...shared, ...spec.options, '--save', saved, '--json'];
    const command = `attn train --data aclImdb_train.tar.gz ${[...shared.slice(2), ...spec.options].join(' ')} --save ${spec.file}`;
    console.error(`training ${spec.model}: ${command}`);
    const started = Date.now();
    const events = run(binary, args);
    const dataEvent = events.find((e) => e.event === 'data');
    const done = events.find((e) => e.event === 'done');
    if (dataEvent?.split !== 'by group') throw new Error(`${spec.model}: the hold-out was not split by movie`);
    const checks = CHECKS.map(({ text, label }) => {
      const [p] = run(binary, ['predict', '--model-file', saved, '--text', text, '--json']);
      return { text, expected: label, probability: Number(p.probability.toFixed(4)), ok: p.label === label };
    });
    const bytes = statSync(saved).size;
    const problems = [];
    if (done.test_accuracy < MIN_ACCURACY) problems.push(`held-out accuracy ${done.test_accuracy} < ${MIN_ACCURACY}`);
    for (const c of checks) if (!c.ok) problems.push(`"${c.text}" gives P(positive) ${c.probability}`);
    if (bytes > MAX_BYTES) problems.push(`${bytes} bytes > ${MAX_BYTES}`);
    if (problems.length) {
      rmSync(saved);
      throw new Error(`${spec.model} is not shipped: ${problems.join('; ')}`);
    }
    renameSync(saved, path.join(outDir, spec.file));
    const entry = {
      file: spec.file,
      title: spec.title,
      model: spec.model,
      recipe: recipeOf(events.find((e) => e.event === 'settings')),
      heldOutAccuracy: Number(done.test_accuracy.toFixed(4)),
      heldOutReviews: done.test_examples,
      trainingReviews: done.train_examples,
      split: `by movie: the archive's ${dataEvent.groups.toLocaleString('en')} movies each on one side; no held-out review's movie is in the training part`,
      parameters: done.params,
      bytes,
      epochsRun: done.epochs_run,
      trainSeconds: Math.round(done.train_seconds),
      date: new Date(started).toISOString().slice(0, 10),
      command,
      checks,
    };
    manifest.models = [...manifest.models.filter((m) => m.file !== spec.file), entry];
    manifest.models.sort(
      (a, b) => SHIPPED.findIndex((s) => s.file === a.file) - SHIPPED.findIndex((s) => s.file === b.file),
    );
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    console.error(
      `${spec.model}: held-out ${entry.heldOutAccuracy} on ${entry.heldOutReviews} reviews, ${bytes} bytes`,
    );
  }
}

main();
