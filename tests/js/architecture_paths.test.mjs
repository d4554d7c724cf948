// docs/architecture.md stays true: every path it names in backticks exists. A path with a
// folder is read from the repository root (or from core/include/attn/ for a floor such as
// `layers/`); a bare file name must be some file's name; a `<placeholder>` stands for any name,
// so the folder before it must exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SKIP = new Set(['node_modules', 'build', 'dist', '.git']);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

/** The backticked tokens of `markdown` that name files or folders. */
export function namedPaths(markdown) {
  const out = new Set();
  for (const [, token] of markdown.matchAll(/`([^`\s]+)`/g)) {
    if (!/^[\w.\-/<>]+$/.test(token)) continue;
    if (token.includes('/') || /\.(ts|mjs|cpp|hpp|md|css|json|wat)$/.test(token)) out.add(token);
  }
  return [...out];
}

/** The named paths that do not exist under `base` (`names`: every file name there). */
export function missingPaths(tokens, base, names) {
  const exists = (p) => existsSync(path.join(base, p)) || existsSync(path.join(base, 'core/include/attn', p));
  return tokens.filter((token) => {
    const placeholder = token.indexOf('<');
    if (placeholder >= 0) return !exists(token.slice(0, token.lastIndexOf('/', placeholder) + 1));
    return token.includes('/') ? !exists(token) : !names.has(token);
  });
}

test('architecture map: every path docs/architecture.md names exists', () => {
  const tokens = namedPaths(readFileSync(path.join(root, 'docs/architecture.md'), 'utf8'));
  assert.ok(tokens.length > 60, `only ${tokens.length} paths found: is the map where the test expects it?`);
  const names = new Set([...files(root)].map((f) => path.basename(f)));
  assert.deepEqual(missingPaths(tokens, root, names), []);
});

test('architecture map: a moved or misspelt path is reported', () => {
  const text =
    'See `web/src/engine/bridge.ts`, `web/src/engine/brige.ts`, `layers/`, `flors/`, `settings.ts`, ' +
    '`setings.ts`, `web/src/views/<name>/index.ts`, `web/src/viewz/<name>/index.ts` and `predict(text)`.';
  const tokens = namedPaths(text);
  assert.deepEqual(tokens, [
    'web/src/engine/bridge.ts',
    'web/src/engine/brige.ts',
    'layers/',
    'flors/',
    'settings.ts',
    'setings.ts',
    'web/src/views/<name>/index.ts',
    'web/src/viewz/<name>/index.ts',
  ]);
  const names = new Set(['settings.ts']);
  assert.deepEqual(missingPaths(tokens, root, names), [
    'web/src/engine/brige.ts',
    'flors/',
    'setings.ts',
    'web/src/viewz/<name>/index.ts',
  ]);
});
