// Known mistakes written as one edit of an exercise's solution (see KnownMistake in ../grader.ts):
// the edit is checked when the module loads, so a solution rewritten without updating its
// mistakes fails loudly (tests/js/course_exercises.test.mjs loads every exercise) instead of
// leaving a "mistake" that is the solution itself.
import type { KnownMistake } from '../grader';

/** `solution` with `right` replaced by `wrong` (exactly one occurrence), and its hint. */
export function mistake(solution: string, right: string, wrong: string, hint: string): KnownMistake {
  const at = solution.indexOf(right);
  if (at < 0 || solution.indexOf(right, at + 1) >= 0) {
    throw new Error(`a known mistake must edit exactly one place of the solution: '${right}'`);
  }
  return { hint, code: solution.slice(0, at) + wrong + solution.slice(at + right.length) };
}
