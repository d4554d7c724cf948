// scripts/recipe-cv.mjs (docs/recipes.md): the choice rule, the attn cv arguments it builds, and a
// resumable run against a stand-in for attn that prints attn cv's --json lines (no native build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { candidateArgs, meanSd, rank, readLog } from '../../scripts/recipe-cv.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = path.join(root, 'scripts/recipe-cv.mjs');

const record = (name, accuracies, seconds) => ({
  name,
  folds: accuracies.map((accuracy) => ({ accuracy, train_seconds: seconds })),
});

test('meanSd uses the sample standard deviation', () => {
  const { mean, sd } = meanSd([0.8, 0.82, 0.87]);
  assert.ok(Math.abs(mean - 0.83) < 1e-12);
  // squares: 0.0009 + 0.0001 + 0.0016 = 0.0026; / (3 - 1) = 0.0013
  assert.ok(Math.abs(sd - Math.sqrt(0.0013)) < 1e-12);
  assert.equal(meanSd([0.5]).sd, 0);
});

test('rank sorts by mean and gives near-ties (within one standard error) to the cheaper recipe', () => {
  const rows = rank([
    record('slow-best', [0.88, 0.9, 0.89], 100), // mean 0.89, sd 0.01, se 0.00577
    record('cheap-close', [0.885, 0.886, 0.887], 10), // mean 0.886: within one se of 0.89
    record('cheapest-far', [0.8, 0.81, 0.82], 1), // far below: not eligible however cheap
  ]);
  assert.deepEqual(
    rows.map((r) => r.name),
    ['slow-best', 'cheap-close', 'cheapest-far'],
  );
  assert.deepEqual(
    rows.map((r) => Boolean(r.chosen)),
    [false, true, false],
  );
  assert.equal(rows[2].withinOneSe, false);
  // Without a near-tie the best mean wins.
  const alone = rank([record('a', [0.9, 0.91], 50), record('b', [0.8, 0.81], 1)]);
  assert.equal(alone.find((r) => r.chosen).name, 'a');
});

test('candidateArgs builds attn cv arguments and refuses test-set options', () => {
  assert.deepEqual(
    candidateArgs(
      { name: 'x', args: { model: 'transformer', maxlen: 300, 'word-dropout': 0 } },
      { data: 'd', folds: 5, seeds: 2 },
    ),
    ['cv', '--data', 'd', '--folds', '5', '--seeds', '2', '--json', '--model', 'transformer', '--maxlen', '300'].concat(
      ['--word-dropout', '0'],
    ),
  );
  assert.throws(() => candidateArgs({ name: 'x', args: { test: 't' } }, { data: 'd', folds: 5, seeds: 1 }), /'test'/);
});

test('the shipped candidates have unique names and no option the script sets itself', () => {
  const { candidates } = JSON.parse(readFileSync(path.join(root, 'docs/recipes/candidates.json'), 'utf8'));
  assert.ok(candidates.length >= 10);
  assert.equal(new Set(candidates.map((c) => c.name)).size, candidates.length);
  for (const c of candidates) candidateArgs(c, { data: 'd', folds: 5, seeds: 1 });
});

test('a run logs each candidate once, resumes without rerunning, and prints the ranked table', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recipe-cv-'));
  try {
    // Stand-in for attn: accuracy from --lr, 2 folds, and a count of its calls.
    const fake = path.join(dir, 'attn');
    const calls = path.join(dir, 'calls');
    writeFileSync(
      fake,
      `#!${process.execPath}
const fs = require('fs');
const a = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(calls)}, a.join(' ') + '\\n');
const lr = Number(a[a.indexOf('--lr') + 1]);
for (let f = 0; f < 2; f++) console.log(JSON.stringify({ event: 'fold', fold: f, accuracy: lr + f / 100, train_seconds: 1 / lr }));
console.log(JSON.stringify({ event: 'summary', mean_accuracy: lr + 0.005, sd_accuracy: 0.00707 }));
`,
    );
    chmodSync(fake, 0o755);
    const candidates = path.join(dir, 'candidates.json');
    writeFileSync(
      candidates,
      JSON.stringify({
        candidates: [
          { name: 'low', args: { lr: 0.5 } },
          { name: 'high', args: { lr: 0.8 } },
        ],
      }),
    );
    const log = path.join(dir, 'log.jsonl');
    const run = () =>
      execFileSync(
        process.execPath,
        [script, '--data', 'train.tar.gz', '--folds', '2', '--attn', fake, '--candidates', candidates, '--log', log],
        { encoding: 'utf8' },
      );
    let out = run();
    assert.match(out, /0 candidate\(s\) already in .*; 2 to run/);
    assert.equal(readLog(log).length, 2);
    assert.match(readFileSync(calls, 'utf8'), /^cv --data train.tar.gz --folds 2 --seeds 1 --json --lr 0.5$/m);
    out = run();
    assert.match(out, /2 candidate\(s\) already in .*; 0 to run/);
    assert.equal(readLog(log).length, 2);
    assert.equal(readFileSync(calls, 'utf8').trim().split('\n').length, 2);
    const table = out.split('\n').filter((l) => /^\d+ {2,}/.test(l));
    assert.match(table[0], /^1 +high +0\.8050 .*<- chosen/);
    assert.match(table[1], /^2 +low +0\.5050 /);
    assert.match(out, /rule: the highest mean accuracy/);
    assert.doesNotMatch(out, /warning/); // one data set, K and seed count
    assert.deepEqual(
      readLog(log).map((r) => [r.name, r.data, r.k, r.seeds, r.folds.length]),
      [
        ['low', 'train.tar.gz', 2, 1, 2],
        ['high', 'train.tar.gz', 2, 1, 2],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
