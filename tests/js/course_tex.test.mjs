// Every formula the course typesets, read from the lesson and exercise strings: no TeX command
// lost its backslash to a JavaScript string (lesson 9 rendered "e^{−extloss}" and lesson 10
// "P(extpositive)" and "alpha_t" from single backslashes in template literals). The rendered
// pages are checked the same way in Chromium (tests/e2e/course.test.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';
import { texProblems, texSources } from './support/tex_check.mjs';

let loaded;
let LESSONS;
let EXERCISES;

before(async () => {
  loaded = await loadWebModules('/src/course/lessons/index.ts', '/src/course/exercises/index.ts');
  [{ LESSONS }, { EXERCISES }] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

/** [where, text] for every string of a lesson that may hold maths. */
function lessonTexts(lesson) {
  const texts = [];
  lesson.blocks.forEach((block, i) => {
    const where = `lesson ${lesson.number}, block ${i + 1}`;
    if ('html' in block) texts.push([where, block.html]);
    if ('todo' in block) texts.push([where, block.todo]);
    if ('figure' in block) texts.push([`${where} (figure caption)`, block.figure.caption]);
    if ('prediction' in block) {
      texts.push([`${where} (question)`, block.prediction.question]);
      for (const option of block.prediction.options) texts.push([`${where} (option)`, option]);
    }
    if ('training' in block) texts.push([`${where} (training)`, block.training.description]);
    if ('seq2seq' in block) {
      texts.push([`${where} (seq2seq)`, block.seq2seq.description]);
      if (block.seq2seq.translate) texts.push([`${where} (seq2seq hint)`, block.seq2seq.translate.hint]);
    }
    if ('exercise' in block) {
      const exercise = EXERCISES[block.exercise];
      texts.push([`${where} (${exercise.id} prompt)`, exercise.prompt]);
      for (const hint of exercise.hints) texts.push([`${where} (${exercise.id} hint)`, hint]);
    }
  });
  return texts;
}

test('tex: no formula in any lesson or exercise has a command without its backslash', () => {
  let formulas = 0;
  for (const lesson of LESSONS) {
    for (const [where, text] of lessonTexts(lesson)) {
      for (const source of texSources(text)) {
        formulas++;
        assert.deepEqual(texProblems(source), [], `${where}: $${source}$`);
      }
    }
  }
  assert.ok(formulas > 100, `${formulas} formulas read`);
});

test('tex: the check finds what a single backslash does in a template literal', () => {
  assert.deepEqual(texProblems('e^{-\\text{loss}}'), []);
  assert.deepEqual(texProblems('\\alpha_t = \\operatorname{softmax}(e)_t'), []);
  assert.deepEqual(texProblems('P(\\text{top})'), [], 'words inside \\text are words');
  assert.equal(texProblems(`e^{-\text{loss}}`).length, 2, 'a tab, then "ext"');
  assert.equal(texProblems(`\alpha_t`).length, 1);
  assert.equal(texProblems(`\frac{a}{b}`).length, 2, 'a form feed, then "rac"');
  assert.equal(texProblems('\\sqrt{d_k} \\cdot sqrt{2}').length, 1);
  assert.deepEqual(texSources('a $x$ and $$y$$ and $z$'), ['y', 'x', 'z']);
});
