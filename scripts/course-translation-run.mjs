// Lesson 12's translator outside the page, for the numbers docs/course.md quotes: the lesson's own
// settings (web/src/course/lessons/12_translation.ts) trained by the wasm engine in node on a pairs
// file, then what the page reports — teacher-forced e^−loss and free-running word accuracy and
// exact match per epoch, held-out BLEU greedy and with the lesson's beam (every translation of
// a source a reference, lowercased) — and the training time.
// Usage: node scripts/course-translation-run.mjs [pairs.tsv]   (default web/public/data/pairs-en-fr.tsv)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../tests/js/support/engine.mjs';
import { loadWebModules } from '../tests/js/support/web_modules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2] ?? path.join(root, 'web/public/data/pairs-en-fr.tsv');
const engine = await loadEngine();
const loaded = await loadWebModules('/src/course/lessons/index.ts');
const [{ LESSONS }] = loaded.modules;
await loaded.close();
const demo = LESSONS.find((l) => l.number === 12).blocks.find((b) => 'translation' in b).translation;

const start = Date.now();
const session = engine.Seq2SeqSession.fromParallelText(demo.settings, readFileSync(file), path.basename(file));
const info = session.info();
console.log(
  `${path.basename(file)}: ${info.trainExamples} training pairs, ${info.testExamples} held out, ${info.parameters} parameters`,
);
session.startTraining();
for (;;) {
  const report = session.runSteps(50);
  for (const e of report.epochs) {
    const v = e.validation;
    console.log(
      `epoch ${e.epoch + 1}: teacher-forced loss ${e.validationLoss.toFixed(3)} (e^-loss ${(100 * Math.exp(-e.validationLoss)).toFixed(1)}%), ` +
        `free-running words ${(100 * v.tokenAccuracy).toFixed(1)}%, exact ${(100 * v.exactMatch).toFixed(1)}%`,
    );
  }
  if (report.done) break;
}
const seconds = (Date.now() - start) / 1000;
const groups = new Map();
for (const p of session.samples(demo.heldOut)) {
  if (!groups.has(p.source)) groups.set(p.source, []);
  groups.get(p.source).push(p.target);
}
const sources = [...groups.keys()];
const references = [...groups.values()];
const bleu = (beam) =>
  engine.corpusBleu(
    sources.map((s) => session.translate(s, beam).output),
    references,
    { lowercase: true },
  ).score;
const test = session.evaluate('test', 0);
console.log(
  `trained in ${seconds.toFixed(0)} s; held out: exact match ${(100 * test.exactMatch).toFixed(1)}% of ${test.count}, ` +
    `BLEU greedy ${bleu(1).toFixed(1)}, beam ${demo.beam} ${bleu(demo.beam).toFixed(1)} on ${sources.length} sentences`,
);
session.delete();
