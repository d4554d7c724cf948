// Cross-validates candidate recipes with `attn cv --json` and picks one by a fixed rule
// (docs/recipes.md): highest mean accuracy; candidates within one standard error of the best go to
// the cheapest (least training time per fold, as measured). Only the training half of --data is
// ever read (attn cv refuses test sets).
//
//   node scripts/recipe-cv.mjs --data /work/shared/data/aclImdb_train.tar.gz --folds 5 [--seeds 1]
//        [--candidates docs/recipes/candidates.json] [--log recipe-cv.jsonl] [--jobs 1]
//        [--only NAME,NAME] [--attn build/native/attn] [--table-only]
//
// Candidates file: {"candidates": [{"name": "...", "args": {"model": "transformer", "vocab": 10000, ...}}]};
// each args key becomes `--key value` (true: a bare flag). The log gets one JSON line per finished
// candidate (name, args, data, k, seeds, its fold records and summary); a rerun skips candidates already logged with the same
// data, folds, seeds and args, so an interrupted run resumes where it stopped.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// `--name value` pairs and bare flags of this script.
export function parseOptions(argv) {
  const flags = new Set(['table-only']);
  const known = new Set(['data', 'folds', 'seeds', 'candidates', 'log', 'jobs', 'only', 'attn', ...flags]);
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : '';
    if (!known.has(name)) throw new Error(`unknown argument '${argv[i]}' (see the comment at the top of this script)`);
    if (flags.has(name)) options[name] = true;
    else if (i + 1 < argv.length) options[name] = argv[++i];
    else throw new Error(`--${name} needs a value`);
  }
  return options;
}

// The attn cv arguments of one candidate.
export function candidateArgs(candidate, { data, folds, seeds }) {
  const out = ['cv', '--data', data, '--folds', String(folds), '--seeds', String(seeds), '--json'];
  for (const [key, value] of Object.entries(candidate.args ?? {})) {
    if (['data', 'folds', 'seeds', 'json', 'test', 'holdout'].includes(key)) {
      throw new Error(`candidate ${candidate.name}: '${key}' is set by this script, not per candidate`);
    }
    if (value === true) out.push(`--${key}`);
    else out.push(`--${key}`, String(value));
  }
  return out;
}

// What makes two runs the same experiment (a log line with this key is not run again).
export const runKey = (candidate, settings) =>
  JSON.stringify([candidate.name, settings.data, settings.folds, settings.seeds, candidate.args ?? {}]);

// Mean and sample standard deviation (n − 1) of `xs`; sd is 0 for a single value.
export function meanSd(xs) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean, sd };
}

// One row per logged candidate: mean ± sd (and standard error) of its per-fold accuracies and its
// mean training seconds per fold, sorted by mean accuracy (best first). `chosen` marks the rule's
// pick: the cheapest candidate whose mean is within one standard error of the best mean.
export function rank(records) {
  const rows = records.map((r) => {
    const accuracies = r.folds.map((f) => f.accuracy);
    const { mean, sd } = meanSd(accuracies);
    const seconds = r.folds.reduce((a, f) => a + f.train_seconds, 0) / r.folds.length;
    return { name: r.name, runs: accuracies.length, mean, sd, se: sd / Math.sqrt(accuracies.length), seconds };
  });
  rows.sort((a, b) => b.mean - a.mean || a.seconds - b.seconds);
  if (rows.length === 0) return rows;
  const best = rows[0];
  for (const row of rows) row.withinOneSe = row.mean >= best.mean - best.se;
  const chosen = rows.filter((r) => r.withinOneSe).reduce((a, b) => (b.seconds < a.seconds ? b : a));
  chosen.chosen = true;
  return rows;
}

export function table(rows) {
  const lines = [
    'rank  candidate                              mean    sd      se      runs  s/fold   ',
    ...rows.map((r, i) =>
      [
        String(i + 1).padEnd(5),
        r.name.padEnd(38),
        r.mean.toFixed(4).padEnd(7),
        r.sd.toFixed(4).padEnd(7),
        r.se.toFixed(4).padEnd(7),
        String(r.runs).padEnd(5),
        r.seconds.toFixed(1).padEnd(8),
        r.chosen ? '<- chosen' : r.withinOneSe ? '(within 1 se of the best)' : '',
      ].join(' '),
    ),
  ];
  return lines.join('\n');
}

export const RULE =
  'rule: the highest mean accuracy; candidates within one standard error of the best mean go to the one ' +
  'with the least training time per fold. Fix the chosen recipe, then run it once on the official test half.';

export function readLog(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new Error(`${file}:${i + 1}: not a JSON line`);
      }
    });
}

// Runs attn cv for one candidate; resolves with its fold records and summary.
function runCandidate(attn, candidate, settings) {
  const args = candidateArgs(candidate, settings);
  return new Promise((resolve, reject) => {
    const child = spawn(attn, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(
          new Error(`attn ${args.join(' ')} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`),
        );
        return;
      }
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      const folds = lines.filter((l) => l.event === 'fold');
      const summary = lines.find((l) => l.event === 'summary');
      if (!summary || folds.length === 0) reject(new Error(`attn ${args.join(' ')}: no fold or summary lines`));
      else resolve({ folds, summary });
    });
  });
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  const logFile = path.resolve(o.log ?? 'recipe-cv.jsonl');
  const candidatesFile = path.resolve(o.candidates ?? path.join(root, 'docs/recipes/candidates.json'));
  const all = JSON.parse(readFileSync(candidatesFile, 'utf8')).candidates;
  const only = o.only ? new Set(o.only.split(',')) : null;
  const candidates = only ? all.filter((c) => only.has(c.name)) : all;
  if (only && candidates.length !== only.size) throw new Error(`--only names a candidate not in ${candidatesFile}`);
  let keys = null; // the run's experiments; with --table-only, the last logged record of each candidate
  if (!o['table-only']) {
    if (!o.data) throw new Error('--data PATH is required (a training set: attn cv reads its training half only)');
    const settings = { data: o.data, folds: Number(o.folds ?? 5), seeds: Number(o.seeds ?? 1) };
    const attn = path.resolve(o.attn ?? path.join(root, 'build/native/attn'));
    if (!existsSync(attn)) throw new Error(`${attn} not found: build it (docs/build.md) or pass --attn`);
    const jobs = Math.max(1, Number(o.jobs ?? 1));
    keys = new Set(candidates.map((c) => runKey(c, settings)));
    const done = new Set(readLog(logFile).map((r) => r.key));
    const queue = candidates.filter((c) => !done.has(runKey(c, settings)));
    console.log(`${candidates.length - queue.length} candidate(s) already in ${logFile}; ${queue.length} to run`);
    const failures = [];
    const worker = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const start = Date.now();
        try {
          const { folds, summary } = await runCandidate(attn, c, settings);
          const { data, seeds } = settings;
          const key = runKey(c, settings);
          const record = { key, name: c.name, args: c.args, data, k: settings.folds, seeds, folds, summary };
          appendFileSync(logFile, JSON.stringify(record) + '\n');
          console.log(
            `${c.name}: ${summary.mean_accuracy.toFixed(4)} ± ${summary.sd_accuracy.toFixed(4)} ` +
              `(${folds.length} runs, ${((Date.now() - start) / 1000).toFixed(0)} s)`,
          );
        } catch (e) {
          failures.push(c.name);
          console.error(`${c.name}: ${e.message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: jobs }, worker));
    if (failures.length) process.exitCode = 1;
  }
  const wanted = new Set(candidates.map((c) => c.name));
  const latest = new Map();
  for (const r of readLog(logFile)) {
    if (wanted.has(r.name) && (keys === null || keys.has(r.key))) latest.set(r.name, r);
  }
  const records = [...latest.values()];
  if (records.length === 0) {
    console.log(`no results in ${logFile} yet`);
    return;
  }
  const settingsSeen = new Set(records.map((r) => JSON.stringify([r.data, r.k, r.seeds])));
  if (settingsSeen.size > 1) {
    console.log(`warning: ${logFile} mixes runs of different data/folds/seeds; they are ranked together`);
  }
  console.log(table(rank(records)));
  console.log(RULE);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`recipe-cv: ${e.message}`);
    process.exit(2);
  });
}
