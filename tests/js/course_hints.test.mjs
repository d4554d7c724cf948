// The course's feedback on a wrong answer, in node (no engine needed): a wrong length is blamed
// on a wrong axis only when the inputs have an axis of that length; the known-mistake hints (no
// tanh, `+` for `*`, …) fire when the learner's result is the mistake's and not otherwise; the
// feedback's sentences end with one mark; a syntax error is placed at its line and column. The
// drawn marker and the messages in the page are checked in tests/e2e/course.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let grader;
let EXERCISES;
let compileWithNp;
let findSyntaxError;

before(async () => {
  loaded = await loadWebModules(
    '/src/course/grader.ts',
    '/src/course/exercises/index.ts',
    '/src/course/np_helper.ts',
    '/src/course/syntax_error.ts',
  );
  let exercises;
  [grader, exercises, { compileWithNp }, { findSyntaxError }] = loaded.modules;
  ({ EXERCISES } = exercises);
});
after(async () => {
  await loaded?.close();
});

const run = (code, exercise, args) => compileWithNp(code, exercise.functionName)(...structuredClone(args));

test('hints: a wrong length suggests a wrong axis only when an input has an axis of that length', () => {
  const { compare, describeMismatch } = grader;
  const H = [
    [3, 12, 45],
    [59, 2, 5],
    [1, 43, 5],
    [4, 3, 45.3],
  ];
  const s = [5, 1, 20];
  // One score per feature (3) instead of one per annotation (4): 3 is the length of s and of every h.
  const perFeature = describeMismatch(compare([927, 397, 148, 929], [1, 2, 3]), [s, H]);
  assert.match(
    perFeature,
    /expected 4 entries, got 3 — 3 is the length of another axis of the inputs: is it summed or indexed along the wrong axis\?$/,
  );
  // An empty result, or one entry too many, is no evidence of an axis mix-up.
  for (const got of [[], [1, 2, 3, 4, 5]]) {
    const text = describeMismatch(compare([927, 397, 148, 929], got), [s, H]);
    assert.match(text, /^expected 4 entries, got \d$/);
    assert.doesNotMatch(text, /axis/);
  }
  // Without the arguments, no guess either.
  assert.doesNotMatch(describeMismatch(compare([1, 2, 3, 4], [1, 2, 3])), /axis/);
});

test('hints: the feedback ends each sentence with one mark', () => {
  const { sentence } = grader;
  assert.equal(sentence('is it summed along the wrong axis?'), 'is it summed along the wrong axis?');
  assert.equal(sentence('expected 4 entries, got 3'), 'expected 4 entries, got 3.');
  assert.equal(sentence('threw TypeError: h.map is not a function.'), 'threw TypeError: h.map is not a function.');
  assert.equal(sentence('Unexpected end of input '), 'Unexpected end of input.');
});

test('hints: every known mistake differs from the solution, and its hint fires on its result only', () => {
  const withMistakes = Object.values(EXERCISES).filter((e) => e.mistakes?.length);
  assert.ok(withMistakes.length >= 5, `${withMistakes.length} exercises with known mistakes`);
  const ids = withMistakes.map((e) => e.id);
  for (const id of ['additive_score', 'apply_weights', 'attention_context', 'single_dot_score', 'dot_scores']) {
    assert.ok(ids.includes(id), `${id} has known mistakes`);
  }
  for (const exercise of withMistakes) {
    const { mistakes } = exercise;
    for (const [k, mistake] of mistakes.entries()) {
      assert.notEqual(mistake.code, exercise.solution, `${exercise.id}: mistake ${k} edits the solution`);
      // The solution's result stands in for the engine's (course_exercises.test.mjs checks they agree).
      const failing = exercise.cases().find((c) => {
        const right = run(exercise.solution, exercise, c.args);
        return grader.compare(right, run(mistake.code, exercise, c.args)) !== null;
      });
      assert.ok(failing, `${exercise.id}: mistake ${k} fails some case`);
      const expected = run(exercise.solution, exercise, failing.args);
      const variants = mistakes.map((m) => run(m.code, exercise, failing.args));
      const got = run(mistake.code, exercise, failing.args);
      assert.equal(
        grader.matchMistake(mistakes, variants, expected, got),
        mistake.hint,
        `${exercise.id}: mistake ${k}`,
      );
      // The right answer, and a wrong answer that is not this mistake, get no such hint.
      assert.equal(grader.matchMistake(mistakes, variants, expected, expected), null);
      const otherWrong = structuredClone(expected);
      const scramble = (v) => (Array.isArray(v) ? v.map(scramble) : typeof v === 'number' ? v + 7.5 : v);
      assert.equal(grader.matchMistake(mistakes, variants, expected, scramble(otherWrong)), null);
    }
  }
});

test('hints: additive scores without the tanh, or with W₁s · W₂h, get their own hint', () => {
  const exercise = EXERCISES.additive_score;
  // A learner's own code for the mistake (not the variant's text): the same result, the same hint.
  const noTanh = `function additiveScore(s, H, W1, W2, v) {
  const matVec = (M, x) => M.map((row) => row.reduce((acc, m, j) => acc + m * x[j], 0));
  const a = matVec(W1, s);
  return H.map((h) => { const b = matVec(W2, h); return v.reduce((acc, v_a, i) => acc + v_a * (a[i] + b[i]), 0); });
}`;
  const [first] = exercise.cases();
  const expected = run(exercise.solution, exercise, first.args);
  const variants = exercise.mistakes.map((m) => run(m.code, exercise, first.args));
  const got = run(noTanh, exercise, first.args);
  assert.notEqual(grader.compare(expected, got), null, 'the mistake fails the first case');
  assert.match(grader.matchMistake(exercise.mistakes, variants, expected, got), /without the tanh/);
});

test('syntax errors: the first place the code stops parsing, with its line and column', () => {
  assert.equal(findSyntaxError('function f(x) {\n  return x + 1;\n}\n'), null);
  const code = 'function f(x) {\n  const y = x +;\n  return y;\n}\n';
  const place = findSyntaxError(code);
  assert.deepEqual([place.line, place.column], [2, 16]);
  assert.equal(code[place.from], ';');
  // A missing closing brace: the end of the code is marked (a non-empty range inside the code).
  const open = 'function f(x) {\n  return x;\n';
  const end = findSyntaxError(open);
  assert.ok(end.from < end.to && end.to <= open.length, JSON.stringify(end));
  assert.ok(end.line >= 2);
  // A stray token in the middle.
  const stray = 'function f(x) {\n  return x;\n}\n)\nfunction g() {}\n';
  assert.equal(findSyntaxError(stray).line, 4);
});
