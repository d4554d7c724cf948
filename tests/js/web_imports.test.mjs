// The page's modules import each other without cycles (issue 16: export.ts and heatmap.ts once
// did): every relative import among web/src/**/*.ts, type-only imports included, as a graph
// whose strongly connected components must all be single modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const src = path.join(root, 'web/src');

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) yield full;
  }
}

/** Relative imports and re-exports of `text` (a module's source), resolved from `file`. */
export function importsOf(file, text) {
  const out = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gms)) {
    let target = path.resolve(path.dirname(file), m[1]);
    if (!/\.ts$/.test(target)) target = existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, 'index.ts');
    out.push(target);
  }
  return out;
}

/** The cycles of a graph (Map module -> imported modules): its components of more than one module. */
export function cycles(graph) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

test('web imports: no module of web/src imports itself through others', () => {
  const graph = new Map();
  for (const file of files(src)) graph.set(file, importsOf(file, readFileSync(file, 'utf8')));
  assert.ok(graph.size > 50, `only ${graph.size} modules found`);
  const named = cycles(graph).map((c) => c.map((f) => path.relative(src, f)));
  assert.deepEqual(named, []);
});

test('web imports: a cycle is found, whatever its length; an acyclic graph has none', () => {
  const a = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
  ]);
  assert.deepEqual(cycles(a), [['a', 'b', 'c']]);
  assert.deepEqual(cycles(new Map([['a', ['a']]])), [['a']]);
  assert.deepEqual(
    cycles(
      new Map([
        ['a', ['b', 'c']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  );
  const file = path.join(src, 'views/x.ts');
  const text =
    "import { a } from './heatmap';\nimport type {\n  B,\n} from '../engine/protocol';\nexport { c } from './dom';\nimport x from 'vite';\n";
  assert.deepEqual(
    importsOf(file, text).map((f) => path.relative(src, f)),
    ['views/heatmap.ts', 'engine/protocol.ts', 'views/dom.ts'],
  );
});

// The rooms of web/src point down (docs/architecture.md): the engine room (worker, bridge,
// protocol, hosts) imports no view, course, app or storage module; views import no course
// module (the course embeds views' panels, never the reverse).
const ROOM_RULES = [
  ['engine', ['views', 'course', 'app', 'storage', 'export']],
  ['views', ['course']],
];

/** `from -> to` for each import of `graph` that breaks a room rule (paths relative to web/src). */
export function roomBreaches(graph, rules = ROOM_RULES) {
  const roomOf = (file) => path.relative(src, file).split(path.sep)[0];
  const out = [];
  for (const [file, imports] of graph) {
    const banned = rules.find(([room]) => room === roomOf(file))?.[1] ?? [];
    for (const target of imports) {
      if (banned.includes(roomOf(target))) out.push(`${path.relative(src, file)} -> ${path.relative(src, target)}`);
    }
  }
  return out;
}

test('web imports: the engine room imports no view, course or app module; views import no course module', () => {
  const graph = new Map();
  for (const file of files(src)) graph.set(file, importsOf(file, readFileSync(file, 'utf8')));
  assert.deepEqual(roomBreaches(graph), []);
  // The check can fail: a bridge that imported a view, or a view that imported a lesson.
  const made = new Map([
    [path.join(src, 'engine/bridge.ts'), [path.join(src, 'views/format.ts'), path.join(src, 'engine/errors.ts')]],
    [path.join(src, 'views/studio/studio.ts'), [path.join(src, 'course/lessons/example.ts')]],
    [path.join(src, 'course/training_view.ts'), [path.join(src, 'views/heatmap.ts')]],
  ]);
  assert.deepEqual(roomBreaches(made), [
    'engine/bridge.ts -> views/format.ts',
    'views/studio/studio.ts -> course/lessons/example.ts',
  ]);
});
