// Lesson 12's in-model exercise in node: a word-level translator with attention trained (in the
// wasm engine, the lesson's model with its quick setting: 2 epochs) on pairs of our own
// (support/course_pairs.mjs), its held-out translations scored by the learner's corpusBleu as the
// page does (translation_demo_view.ts: lowercased French mtTokenize tokens, every translation of
// a held-out source a reference) next to the engine's corpusBleuTokens; the page's held-out
// sentences are the engine's (evaluate's BLEU is corpusBleu of the same greedy translations). The corpus_bleu solution gives
// the engine's score; BLEU without clipping counts the model's repeated words ("ne ne pas pas")
// and scores higher; the starter scores 0. The browser test is
// tests/e2e/course_translation.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';
import { loadEngine } from './support/engine.mjs';
import { coursePairs } from './support/course_pairs.mjs';

let engine;
let loaded;
let EXERCISES;
let LESSONS;
let compileWithNp;

before(async () => {
  engine = await loadEngine();
  loaded = await loadWebModules(
    '/src/course/exercises/index.ts',
    '/src/course/lessons/index.ts',
    '/src/course/np_helper.ts',
  );
  [{ EXERCISES }, { LESSONS }, { compileWithNp }] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

function translationDemo() {
  const block = LESSONS.find((l) => l.number === 12).blocks.find((b) => 'translation' in b);
  return block.translation;
}

/** The lesson's model, quick setting, trained on our pairs; its held-out sources, references and outputs. */
function trainAndTranslate() {
  const demo = translationDemo();
  const session = engine.Seq2SeqSession.fromParallelText(
    { ...demo.settings, ...demo.quick },
    coursePairs(),
    'pairs.tsv',
  );
  try {
    session.startTraining();
    while (!session.runSteps(100).done);
    // As the page: every held-out pair, grouped by source (all translations are references).
    const groups = new Map();
    for (const p of session.samples(session.info().testExamples)) {
      if (!groups.has(p.source)) groups.set(p.source, []);
      groups.get(p.source).push(p.target);
    }
    const sources = [...groups.keys()];
    return {
      evaluation: session.evaluate('test', 0),
      references: [...groups.values()],
      greedy: sources.map((s) => session.translate(s, 1).output),
      beam: sources.map((s) => session.translate(s, demo.beam).output),
    };
  } finally {
    session.delete();
  }
}

const tokens = (text) => engine.mtTokenize(text, { language: 'fr', lowercase: true });

test('lesson 12: the learner’s corpusBleu scores the translator trained in the page — right gives the engine’s BLEU, wrong does not', (t) => {
  const { evaluation, references, greedy, beam } = trainAndTranslate();
  // The page's held-out sentences are the ones the engine scored: its BLEU is corpusBleu (13a
  // tokens, lowercased) of the page's greedy translations against the page's references.
  const demo = translationDemo();
  // testSize sentences, at most half of a small file's (our pairs: 192).
  assert.ok(evaluation.sentences > 0 && evaluation.sentences <= demo.settings.testSize, `${evaluation.sentences}`);
  assert.equal(references.length, evaluation.sentences);
  const greedyBleu = engine.corpusBleu(greedy, references, { lowercase: true }).score;
  t.diagnostic(`engine evaluate BLEU ${evaluation.bleu.toFixed(2)}, corpusBleu ${greedyBleu.toFixed(2)}`);
  assert.ok(Math.abs(evaluation.bleu - greedyBleu) <= 1e-3, `${evaluation.bleu} vs ${greedyBleu}`);
  const refTokens = references.map((refs) => refs.map(tokens));
  const exercise = EXERCISES.corpus_bleu;
  const variants = {
    solution: exercise.solution,
    unclipped: exercise.mistakes[1].code,
    starter: exercise.starter,
  };
  for (const [search, hypotheses] of [
    ['greedy', greedy],
    ['beam', beam],
  ]) {
    const hypTokens = hypotheses.map(tokens);
    const expected = engine.corpusBleuTokens(hypTokens, refTokens, 'none').score;
    const scores = Object.fromEntries(
      Object.entries(variants).map(([name, code]) => [
        name,
        compileWithNp(code, exercise.functionName)(structuredClone(hypTokens), structuredClone(refTokens)),
      ]),
    );
    t.diagnostic(`${search}: engine ${expected.toFixed(2)}, ${JSON.stringify(scores)}`);
    assert.ok(expected > 0 && expected < 100, `${search}: a half-trained model (${expected})`);
    assert.ok(Math.abs(scores.solution - expected) <= 1e-4 + 1e-4 * expected, `${search}: solution ${scores.solution}`);
    assert.ok(scores.unclipped > expected + 0.1, `${search}: unclipped ${scores.unclipped} above ${expected}`);
    assert.equal(scores.starter, 0);
  }
});
