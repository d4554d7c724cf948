// A small lint of the page's stylesheets (web/src/**/*.css) for mistakes a browser forgives
// silently: a comment inside a selector list (6f84b46 left ".predict-tokens .token," in front of a
// comment and the next rule, so the explanation's tokens lost their shading and took the Seq2seq
// source's monospace), an empty item in a selector list, unbalanced braces or an unclosed comment,
// an empty rule, and a custom property read with var() that nothing defines (no fallback, no
// declaration in a stylesheet, no style.setProperty in the views).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function* files(dir, pattern) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full, pattern);
    else if (pattern.test(name)) yield full;
  }
}

/**
 * The rules of a stylesheet as {prelude, body, line}: `prelude` is the text before a `{` as written
 * (comments kept), `body` the text up to its matching `}` when it holds no nested block. Throws on
 * an unclosed comment or unbalanced braces.
 */
export function parseRules(css) {
  const rules = [];
  const stack = [];
  let start = 0;
  let line = 1;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c === '\n') line++;
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`line ${line}: a comment is never closed`);
      line += css.slice(i, end).split('\n').length - 1;
      i = end + 1;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = css.indexOf(c, i + 1);
      if (end < 0) throw new Error(`line ${line}: a string is never closed`);
      i = end;
      continue;
    }
    if (c === '{') {
      stack.push({ prelude: css.slice(start, i), open: i, line, nested: false });
      if (stack.length > 1) stack[stack.length - 2].nested = true;
      start = i + 1;
    } else if (c === '}') {
      const rule = stack.pop();
      if (!rule) throw new Error(`line ${line}: a } closes nothing`);
      rules.push({ prelude: rule.prelude, body: rule.nested ? null : css.slice(rule.open + 1, i), line: rule.line });
      start = i + 1;
    } else if (c === ';' && stack.length === 0) {
      start = i + 1; // an at-rule without a block (@import)
    }
  }
  if (stack.length) throw new Error(`line ${stack[stack.length - 1].line}: a { is never closed`);
  return rules;
}

const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '');

/** What is wrong with one stylesheet's rules (a list of messages). */
export function lintRules(rules) {
  const problems = [];
  for (const { prelude, body, line } of rules) {
    // A comment may precede a rule, not sit inside its selector list.
    const afterSelectorStarts = prelude.replace(/^(\s|\/\*[\s\S]*?\*\/)*/, '');
    if (afterSelectorStarts.includes('/*'))
      problems.push(`line ${line}: a comment inside the selector "${stripComments(afterSelectorStarts).trim()}"`);
    const selector = stripComments(prelude).trim();
    if (selector.startsWith('@')) continue;
    if (selector.split(',').some((part) => part.trim() === ''))
      problems.push(`line ${line}: an empty item in the selector list "${selector}"`);
    if (body !== null && stripComments(body).trim() === '') problems.push(`line ${line}: "${selector}" is empty`);
  }
  return problems;
}

/** Custom properties read with var(--x) without a fallback. */
const readsWithoutFallback = (css) => [...stripComments(css).matchAll(/var\(\s*(--[\w-]+)\s*\)/g)].map((m) => m[1]);
const declared = (css) => [...stripComments(css).matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]);

const sheets = [...files(path.join(root, 'web/src'), /\.css$/)];

test('stylesheets: the lint catches the dangling selector of 6f84b46 and its kind', () => {
  const broken = `.a .token,\n/* the next rule */\n.b {\n  color: red;\n}\n`;
  assert.deepEqual(lintRules(parseRules(broken)), ['line 3: a comment inside the selector ".a .token,\n\n.b"']);
  assert.deepEqual(lintRules(parseRules('.a,\n.b, {\n  color: red;\n}\n')), [
    'line 2: an empty item in the selector list ".a,\n.b,"',
  ]);
  assert.deepEqual(lintRules(parseRules('.a {\n}\n')), ['line 1: ".a" is empty']);
  assert.throws(() => parseRules('.a { color: red;\n'), /never closed/);
  assert.throws(() => parseRules('.a { color: red; /* open\n}\n'), /comment is never closed/);
  // A comment before a rule, inside a block or in a media query's body is fine.
  assert.deepEqual(
    lintRules(
      parseRules('/* note */\n.a {\n  /* why */ color: red;\n}\n@media (x) {\n  .b {\n    margin: 0;\n  }\n}\n'),
    ),
    [],
  );
});

test('stylesheets: no selector list spans a comment, no empty selector or rule, braces balance', () => {
  assert.ok(sheets.length >= 5, `found the stylesheets (${sheets.length})`);
  for (const file of sheets) {
    const problems = lintRules(parseRules(readFileSync(file, 'utf8')));
    assert.deepEqual(problems, [], path.relative(root, file));
  }
});

test('stylesheets: every custom property read without a fallback is defined', () => {
  const css = sheets.map((f) => readFileSync(f, 'utf8'));
  const defined = new Set(css.flatMap(declared));
  // Properties the views set on elements (style.setProperty('--weight', …)).
  for (const file of files(path.join(root, 'web/src'), /\.ts$/))
    for (const m of readFileSync(file, 'utf8').matchAll(/setProperty\(\s*'(--[\w-]+)'/g)) defined.add(m[1]);
  const missing = [...new Set(css.flatMap(readsWithoutFallback))].filter((name) => !defined.has(name));
  assert.deepEqual(missing, []);
});

test('stylesheets: every class a selector names is written somewhere in the page’s code', () => {
  // Views build class names from string literals (className: 'token-strip diff-strip',
  // classList.add('dragging'), `series-${i}`); a class no source file spells can match nothing.
  // KaTeX and CodeMirror draw their own (katex-*, cm-*).
  const library = /^(katex|cm-)/;
  const sources = [...files(path.join(root, 'web'), /\.(ts|html)$/)]
    .filter((f) => !f.includes(`${path.sep}generated${path.sep}`))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const unused = new Set();
  for (const file of sheets)
    for (const { prelude } of parseRules(readFileSync(file, 'utf8'))) {
      const selector = stripComments(prelude)
        .replace(/\[[^\]]*\]/g, '')
        .replace(/'[^']*'|"[^"]*"/g, '');
      if (selector.trim().startsWith('@')) continue;
      for (const m of selector.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)) {
        if (library.test(m[1])) continue;
        const spelled = new RegExp(`(^|[^\\w-])${m[1]}($|[^\\w-])`);
        const numbered = /^(.*-)\d+$/.exec(m[1]);
        const templated = numbered && sources.includes(`${numbered[1]}\${`);
        if (!spelled.test(sources) && !templated) unused.add(`${path.relative(root, file)}: .${m[1]}`);
      }
    }
  assert.deepEqual([...unused], []);
});
