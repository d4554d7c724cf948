// Checks of a link view (web/src/views/link_view.ts) against the weights it was given, shared by
// the view tests. Every read happens in one page.evaluate, so a view that redraws while a model
// trains is compared with the weights of the same draw.
import assert from 'node:assert/strict';

/**
 * The link view's lines and the weights of the heatmap showing the same data (`mapId`, where
 * `{head}` stands for the view's data-head "l,h" as "l-h"; `mapRows`: how many of its rows), read
 * in one go.
 */
export async function readLinks(page, testId, mapId, mapRows = Infinity) {
  return page.evaluate(
    ([id, map, rowCount]) => {
      const view = document.querySelector(`[data-testid="${id}"]`);
      const mapTestId = map.replace('{head}', (view.dataset.head ?? '').replace(',', '-'));
      const weights = [...document.querySelectorAll(`[data-testid="${mapTestId}"] tbody tr`)]
        .slice(0, rowCount ?? undefined)
        .map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value)));
      const lines = [...view.querySelectorAll('svg.link-lines line')].map((line) => ({
        row: Number(line.dataset.row),
        col: Number(line.dataset.col),
        weight: Number(line.dataset.weight),
        opacity: Number(getComputedStyle(line).strokeOpacity),
        width: Number(line.getAttribute('stroke-width')),
        on: line.classList.contains('on'),
      }));
      return {
        weights,
        lines,
        rows: view.querySelectorAll('.link-rows .link-token').length,
        cols: view.querySelectorAll('.link-cols .link-token').length,
        isolated: view.dataset.isolated ?? null,
        explain: view.querySelector('.link-explain')?.textContent ?? '',
      };
    },
    [testId, mapId, Number.isFinite(mapRows) ? mapRows : null],
  );
}

/**
 * Asserts one line per pair with weight ≥ threshold (weights: rows of numbers, the same the view
 * was given), in row-major order, with opacity weight / max weight and width growing with it.
 */
export function assertLinksMatch(drawn, threshold) {
  const { weights } = drawn;
  assert.ok(weights.length > 0, 'the heatmap has rows');
  const max = Math.max(...weights.flat());
  const want = [];
  weights.forEach((row, r) =>
    row.forEach((w, c) => {
      if (w >= threshold && w > 0) want.push({ row: r, col: c, weight: w });
    }),
  );
  assert.equal(drawn.rows, weights.length, 'one token button per row');
  assert.equal(drawn.lines.length, want.length, `one line per pair ≥ ${threshold}`);
  want.forEach((pair, i) => {
    const line = drawn.lines[i];
    assert.deepEqual([line.row, line.col], [pair.row, pair.col], `line ${i}`);
    assert.ok(Math.abs(line.weight - pair.weight) < 1e-6, `line ${i} weight ${line.weight} vs ${pair.weight}`);
    assert.ok(
      Math.abs(line.opacity - pair.weight / max) < 2e-3,
      `line ${i} opacity ${line.opacity}, weight / max = ${pair.weight / max}`,
    );
  });
  for (let i = 1; i < want.length; i++) {
    const [a, b] = [drawn.lines[i - 1], drawn.lines[i]];
    if (a.weight < b.weight) assert.ok(a.width <= b.width, 'a heavier line is at least as wide');
  }
}
