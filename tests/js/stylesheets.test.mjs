// A small lint of the page's stylesheets (web/src/**/*.css) for mistakes a browser forgives
// silently: a comment inside a selector list (6f84b46 left ".predict-tokens .token," in front of a
// comment and the next rule, so the explanation's tokens lost their shading and took the Seq2seq
// source's monospace), an empty item in a selector list, unbalanced braces or an unclosed comment,
// an empty rule, and a custom property read with var() that nothing defines (no fallback, no
// declaration in a stylesheet, no style.setProperty in the views). And the two entry stylesheets
// the pages link (styles.css, course/course.css) are only @import lines of their parts, each part
// imported once and importing nothing: a part no entry imports would be linted here but never
// reach the page.
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

/** The @import targets of a stylesheet, resolved from its own folder, and whether it has anything else. */
export function importsOfSheet(file, css) {
  const text = stripComments(css);
  const imports = [...text.matchAll(/@import\s+(?:url\()?['"]([^'"]+)['"]\)?\s*;/g)].map((m) =>
    path.resolve(path.dirname(file), m[1]),
  );
  const rest = text.replace(/@import\s+(?:url\()?['"][^'"]+['"]\)?\s*;/g, '').trim();
  return { imports, onlyImports: rest === '' };
}

/** What is wrong with entry stylesheets and the folders of their parts (a list of messages). */
export function checkParts(entries, partDirs, read) {
  const problems = [];
  const importedBy = new Map();
  for (const entry of entries) {
    const { imports, onlyImports } = importsOfSheet(entry, read(entry));
    if (!onlyImports) problems.push(`${path.relative(root, entry)} holds rules: only @import lines belong there`);
    for (const target of imports) {
      if (read(target) === null)
        problems.push(`${path.relative(root, entry)} imports a missing ${path.relative(root, target)}`);
      importedBy.set(target, [...(importedBy.get(target) ?? []), entry]);
    }
  }
  for (const [dir, parts] of partDirs)
    for (const part of parts) {
      const name = path.relative(root, path.join(dir, part));
      const count = importedBy.get(path.join(dir, part))?.length ?? 0;
      if (count !== 1) problems.push(`${name} is imported ${count} times (once, by its entry stylesheet)`);
      const text = read(path.join(dir, part));
      if (text !== null && importsOfSheet(path.join(dir, part), text).imports.length)
        problems.push(`${name} imports another stylesheet: only the entry files do`);
    }
  return problems;
}

const entries = [path.join(root, 'web/src/styles.css'), path.join(root, 'web/src/course/course.css')];
const partDirs = ['web/src/styles', 'web/src/course/styles'].map((dir) => [
  path.join(root, dir),
  readdirSync(path.join(root, dir)).filter((name) => name.endsWith('.css')),
]);
const readOrNull = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

test('stylesheets: the entry files import every part once, in files that exist, and hold nothing else', () => {
  assert.ok(
    partDirs.every(([, parts]) => parts.length >= 5),
    'found the parts',
  );
  assert.deepEqual(checkParts(entries, partDirs, readOrNull), []);
});

test('stylesheets: a part left out, imported twice or missing, or a rule in an entry file, is reported', () => {
  const dir = path.join(root, 'web/src/styles');
  const entry = path.join(root, 'web/src/styles.css');
  const fake = (files) => (file) => files[path.relative(root, file)] ?? null;
  const parts = [[dir, ['a.css', 'b.css']]];
  const good = {
    'web/src/styles.css': '@import \'./styles/a.css\';\n@import "./styles/b.css";\n',
    'web/src/styles/a.css': '.a{}',
    'web/src/styles/b.css': '.b{}',
  };
  assert.deepEqual(checkParts([entry], parts, fake(good)), []);
  assert.deepEqual(checkParts([entry], parts, fake({ ...good, 'web/src/styles.css': "@import './styles/a.css';\n" })), [
    'web/src/styles/b.css is imported 0 times (once, by its entry stylesheet)',
  ]);
  assert.deepEqual(
    checkParts(
      [entry],
      parts,
      fake({
        ...good,
        'web/src/styles.css':
          "@import './styles/a.css';\n@import './styles/a.css';\n@import './styles/c.css';\n.x {\n  color: red;\n}\n",
      }),
    ),
    [
      'web/src/styles.css holds rules: only @import lines belong there',
      'web/src/styles.css imports a missing web/src/styles/c.css',
      'web/src/styles/a.css is imported 2 times (once, by its entry stylesheet)',
      'web/src/styles/b.css is imported 0 times (once, by its entry stylesheet)',
    ],
  );
  assert.deepEqual(checkParts([entry], parts, fake({ ...good, 'web/src/styles/b.css': "@import './a.css';\n.b{}" })), [
    'web/src/styles/b.css imports another stylesheet: only the entry files do',
  ]);
});
