// Files stay a size one can read (issue 26, item 6): no web source file (TypeScript module or
// stylesheet) over 400 lines, no core source or header over 600. A view is a coordinator and
// panels, a stylesheet an entry file of @import lines and its parts. A file over its limit is split into cohesive units (the review
// loaders, one format per source, are the example: docs/architecture.md). Generated tables
// (core/src/text/nfc_table.inc) are not sources and are not counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// [folder from the repository root, the file names it counts, the most lines a file may have].
export const LIMITS = [
  ['web/src', /\.(ts|css)$/, 400],
  ['core', /\.(cpp|hpp)$/, 600],
];

function* files(dir, pattern) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full, pattern);
    else if (pattern.test(name)) yield full;
  }
}

/** Lines as `wc -l` counts them, plus an unterminated last line. */
export const lineCount = (text) => (text.match(/\n/g) ?? []).length + (text === '' || text.endsWith('\n') ? 0 : 1);

/** "<file>: N lines (limit L)" for every [file, text, limit] over its limit. */
export function oversized(entries) {
  return entries
    .map(([file, text, limit]) => [file, lineCount(text), limit])
    .filter(([, lines, limit]) => lines > limit)
    .map(([file, lines, limit]) => `${file}: ${lines} lines (limit ${limit})`);
}

test('file sizes: no web/src *.ts or *.css over 400 lines, no core *.cpp/*.hpp over 600', () => {
  const entries = [];
  for (const [folder, pattern, limit] of LIMITS) {
    for (const file of files(path.join(root, folder), pattern)) {
      entries.push([path.relative(root, file), readFileSync(file, 'utf8'), limit]);
    }
  }
  for (const [folder, pattern] of LIMITS) {
    const count = entries.filter(([file]) => file.startsWith(`${folder}/`) && pattern.test(file)).length;
    assert.ok(count > 50, `only ${count} files found under ${folder}: is the tree where the test expects it?`);
  }
  const found = oversized(entries);
  assert.deepEqual(found, [], `split these files into cohesive units:\n${found.join('\n')}`);
});

test('file sizes: a file over its limit is reported with its line count, one at the limit is not', () => {
  assert.equal(lineCount(''), 0);
  assert.equal(lineCount('a\nb\n'), 2);
  assert.equal(lineCount('a\nb'), 2);
  const lines = (n) => 'x;\n'.repeat(n);
  assert.deepEqual(
    oversized([
      ['web/src/views/at_limit.ts', lines(400), 400],
      ['web/src/views/over.ts', lines(401), 400],
      ['web/src/styles/over.css', lines(1040), 400],
      ['core/src/data/review_loaders.cpp', lines(764), 600],
      ['core/src/data/at_limit.cpp', lines(600), 600],
    ]),
    [
      'web/src/views/over.ts: 401 lines (limit 400)',
      'web/src/styles/over.css: 1040 lines (limit 400)',
      'core/src/data/review_loaders.cpp: 764 lines (limit 600)',
    ],
  );
});
