// Lesson 12's translator outside the page, for the numbers docs/course.md quotes: the lesson's own
// settings (web/src/course/lessons/12_translation.ts; `transformer`: its Transformer laid over
// them, as the page's model menu does) trained by the wasm engine in node on a pairs file, then
// what the page reports, every number the engine's — per epoch the teacher-forced validation loss,
// free-running word accuracy and exact match on the validation pairs and the held-out BLEU; at the
// end evaluate()'s teacher-forced token accuracy, free-running BLEU, chrF, exact match (by
// sentence and by pair) and BLEU by source length — plus the beam's BLEU (corpusBleu, lowercased)
// and the training time.
// Usage: node scripts/course-translation-run.mjs [rnn|transformer] [pairs.tsv]
//   (default rnn, web/public/data/pairs-en-fr.tsv)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../tests/js/support/engine.mjs';
import { loadWebModules } from '../tests/js/support/web_modules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const model = process.argv[2] ?? 'rnn';
if (model !== 'rnn' && model !== 'transformer') throw new Error(`model '${model}': expected rnn or transformer`);
const file = process.argv[3] ?? path.join(root, 'web/public/data/pairs-en-fr.tsv');
const engine = await loadEngine();
const loaded = await loadWebModules('/src/course/lessons/index.ts');
const [{ LESSONS }] = loaded.modules;
await loaded.close();
const demo = LESSONS.find((l) => l.number === 12).blocks.find((b) => 'translation' in b).translation;
const settings = model === 'transformer' ? { ...demo.settings, ...demo.transformer } : demo.settings;
const pct = (x) => `${(100 * x).toFixed(1)}%`;

const start = Date.now();
const session = engine.Seq2SeqSession.fromParallelText(settings, readFileSync(file), path.basename(file));
const info = session.info();
console.log(
  `${model} on ${path.basename(file)}: ${info.trainExamples} training pairs, ${info.testExamples} held-out pairs, ` +
    `${info.parameters} parameters`,
);
session.startTraining();
let report;
for (;;) {
  report = session.runSteps(50);
  for (const e of report.epochs) {
    const v = e.validation;
    console.log(
      `epoch ${e.epoch + 1}: validation loss ${e.validationLoss.toFixed(3)} (teacher-forced), ` +
        `free-running words ${pct(v.tokenAccuracy)}, exact ${pct(v.exactMatch)}; held-out BLEU ${e.bleu.toFixed(1)}`,
    );
  }
  if (report.done) break;
}
const seconds = (Date.now() - start) / 1000;
const test = session.evaluate('test', 0);
const groups = new Map();
for (const p of session.samples(info.testExamples)) {
  if (!groups.has(p.source)) groups.set(p.source, []);
  groups.get(p.source).push(p.target);
}
const beam = engine.corpusBleu(
  [...groups.keys()].map((s) => session.translate(s, demo.beam).output),
  [...groups.values()],
  { lowercase: true },
).score;
console.log(
  `trained in ${seconds.toFixed(0)} s; kept epoch ${report.bestEpoch + 1}; teacher-forced token accuracy ` +
    `${pct(test.teacherForcedAccuracy)} on ${test.count} pairs; free running: BLEU ${test.bleu.toFixed(1)}, ` +
    `chrF ${test.chrf.toFixed(1)} on ${test.sentences} sentences, exact match ${pct(test.exactMatch)} of the ` +
    `sentences, ${pct(test.pairExactMatch)} of the pairs; beam ${demo.beam} BLEU ${beam.toFixed(1)}`,
);
console.log(
  `BLEU by source length: ${test.bleuByLength
    .map(
      (b) =>
        `${b.minLength}${b.maxLength ? `-${b.maxLength}` : '+'} ${b.sentences ? b.bleu.toFixed(1) : '–'} (${b.sentences})`,
    )
    .join(', ')}`,
);
session.delete();
