// The link view's pure part (web/src/views/links.ts): which pairs get a line and how strong it
// looks. The drawing itself is checked in the browser (tests/e2e/link_view.test.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let links;

before(async () => {
  loaded = await loadWebModules('/src/views/links.ts');
  [links] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

const data = (values, rows, cols) => ({
  values,
  rows,
  cols,
  rowLabels: Array.from({ length: rows }, (_, i) => `q${i}`),
  colLabels: Array.from({ length: cols }, (_, i) => `k${i}`),
});

test('linksAbove keeps the pairs at or above the threshold, row-major, with opacity weight / max', () => {
  const got = links.linksAbove(data([0.5, 0.25, 0.25, 0.05, 0.9, 0.05], 2, 3), 0.1);
  assert.deepEqual(
    got.map((l) => [l.row, l.col, l.weight]),
    [
      [0, 0, 0.5],
      [0, 1, 0.25],
      [0, 2, 0.25],
      [1, 1, 0.9],
    ],
  );
  assert.deepEqual(
    got.map((l) => l.opacity),
    [0.5 / 0.9, 0.25 / 0.9, 0.25 / 0.9, 1],
  );
  const [thin, thick] = links.LINK_WIDTH;
  assert.equal(got[3].width, thick, 'the largest weight gets the widest line');
  assert.ok(Math.abs(got[0].width - (thin + (thick - thin) * (0.5 / 0.9))) < 1e-12);
  assert.ok(got.every((l) => l.width >= thin && l.width <= thick));
});

test('linksAbove: the threshold is inclusive; zero, negative and non-finite weights get no line', () => {
  assert.equal(links.linksAbove(data([0.1, 0.0999], 1, 2), 0.1).length, 1);
  assert.deepEqual(links.linksAbove(data([0, 0, 0, 0], 2, 2), 0), []);
  const odd = links.linksAbove(data([NaN, -0.5, Infinity, 0.2], 2, 2), 0);
  assert.deepEqual(
    odd.map((l) => [l.row, l.col, l.opacity]),
    [[1, 1, 1]],
  );
});

test('linksAbove rejects a bad threshold and too few weights with a clear message', () => {
  assert.throws(() => links.linksAbove(data([1], 1, 1), -1), /threshold must be a number ≥ 0/);
  assert.throws(() => links.linksAbove(data([1], 1, 1), NaN), /threshold/);
  assert.throws(() => links.linksAbove(data([1, 2, 3], 2, 2), 0), /3 values for 2 × 2 pairs/);
});

test('linkTouches isolates one token: a query keeps its row, a key its column', () => {
  const all = links.linksAbove(data([0.6, 0.4, 0.3, 0.7], 2, 2), 0);
  assert.deepEqual(
    all.filter((l) => links.linkTouches(l, 'row', 1)).map((l) => [l.row, l.col]),
    [
      [1, 0],
      [1, 1],
    ],
  );
  assert.deepEqual(
    all.filter((l) => links.linkTouches(l, 'col', 0)).map((l) => [l.row, l.col]),
    [
      [0, 0],
      [1, 0],
    ],
  );
});

test('strongestPerRow names each row’s largest weight (the first one on ties)', () => {
  assert.deepEqual(links.strongestPerRow(data([0.2, 0.5, 0.3, 0.4, 0.4, 0.2], 2, 3)), [1, 0]);
});
