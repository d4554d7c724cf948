// No web source file over 400 lines (issue 26, item 6; docs/architecture.md, "Add a view"): a
// view is a coordinator and panels, a stylesheet an entry file of @import lines and its parts.
// Every TypeScript module and stylesheet under web/src counts (the generated engine module is not
// there).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MAX_LINES = 400;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|css)$/.test(name)) yield full;
  }
}

/** The number of lines of a text as an editor shows them (a final newline ends the last one). */
export const lineCount = (text) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

/** The files over the limit, as "path: N lines". */
export function oversized(entries, max = MAX_LINES) {
  return entries.filter(([, text]) => lineCount(text) > max).map(([name, text]) => `${name}: ${lineCount(text)} lines`);
}

test('web sources: no TypeScript module or stylesheet under web/src is over 400 lines', () => {
  const entries = [...files(path.join(root, 'web/src'))].map((f) => [path.relative(root, f), readFileSync(f, 'utf8')]);
  assert.ok(entries.length > 50, `found the sources (${entries.length})`);
  assert.deepEqual(oversized(entries), []);
});

test('web sources: a file one line over the limit is named; one at the limit passes', () => {
  const at = 'x\n'.repeat(MAX_LINES);
  assert.equal(lineCount(at), MAX_LINES);
  assert.equal(lineCount(''), 0);
  assert.equal(lineCount('a\nb'), 2);
  assert.deepEqual(
    oversized([
      ['at.ts', at],
      ['over.css', `${at}y\n`],
    ]),
    ['over.css: 401 lines'],
  );
});
