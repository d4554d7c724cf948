// What a TeX command looks like after a JavaScript string ate its backslash ("\text" in a
// template literal is a tab and "ext"; "\alpha" is "alpha"): KaTeX renders such text without
// complaint ("e^{−extloss}", "alpha_t"), so the course's tests look for it in every formula's
// source — the lesson strings in node (course_tex.test.mjs) and the rendered pages' KaTeX
// annotations in Chromium (tests/e2e/course.test.mjs).

// Command names (and what is left of them after "\t", "\f", "\b", "\r", "\v", "\n" became control
// characters) that must never stand in maths as plain letters.
const SWALLOWED = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'theta',
  'lambda',
  'sigma',
  'tau',
  'omega',
  'phi',
  'frac',
  'sqrt',
  'cdot',
  'cdots',
  'ldots',
  'mathrm',
  'mathbf',
  'operatorname',
  'text',
  'tanh',
  'sum',
  'prod',
  'top',
  'qquad',
  'quad',
  'left',
  'right',
  'exp',
  'log',
  'odot',
  'times',
  'ext',
  'rac',
  'eta',
  'ight',
  'abla',
  'ec',
];
const BARE = new RegExp(`(?<![\\\\a-zA-Z])(${SWALLOWED.join('|')})(?![a-zA-Z])`);

/** The maths of lesson HTML, as renderMath (web/src/views/math.ts) finds it: $$…$$ then $…$. */
export function texSources(html) {
  const sources = [];
  const rest = html.replace(/\$\$([\s\S]+?)\$\$/g, (_, source) => {
    sources.push(source);
    return '';
  });
  for (const m of rest.matchAll(/\$([^$]+?)\$/g)) sources.push(m[1]);
  return sources;
}

/** What is wrong with one formula's TeX source ([] when nothing is). */
export function texProblems(source) {
  const problems = [];
  const control = /[\u0000-\u0009\u000b-\u001f]/.exec(source);
  if (control) {
    problems.push(
      `control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')} (a \\t, \\f, \\b, \\r or \\v eaten by a JavaScript string)`,
    );
  }
  // Words inside \text{…}, \operatorname{…} and \mathrm{…} are meant as words.
  const maths = source.replace(/\\(?:text|operatorname|mathrm)\{[^}]*\}/g, ' ').replace(/\\[a-zA-Z]+/g, ' ');
  const bare = BARE.exec(maths);
  if (bare) problems.push(`“${bare[1]}” as plain letters (a TeX command without its backslash)`);
  return problems;
}
