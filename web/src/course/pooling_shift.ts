// Lesson 10's "your pooling in the model", drawn: every review's P(positive) with the engine's
// pooling (a filled dot) and with the learner's (a ring), joined, on one 0–1 axis with the 0.5
// line and the model's answer from no evidence, σ(b). A pooling that leaks weight to padding
// scales each review's evidence by k < 1, so its rings slide from the dots toward σ(b): the
// collapse the table's numbers describe, visible at a glance (pooling_demo_view.ts draws it).

const SVG_NS = 'http://www.w3.org/2000/svg';
const WIDTH = 480;
const LEFT = 28;
const RIGHT = 12;
const ROW = 20;
const TOP = 8;
const AXIS = 30;

/** One review: P(positive) with the engine's pooling and with the learner's (null: unusable). */
export interface PoolingShift {
  text: string;
  engine: number;
  mine: number | null;
}

/** The x of a probability on the drawing's axis. */
export function shiftX(p: number): number {
  return LEFT + (WIDTH - LEFT - RIGHT) * Math.min(1, Math.max(0, p));
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  className?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) e.setAttribute(name, String(value));
  if (className) e.setAttribute('class', className);
  return e;
}

/** The drawing: one row per review, numbered as the table's rows are. */
export function drawPoolingShift(rows: PoolingShift[], noEvidence: number): SVGSVGElement {
  const height = TOP + rows.length * ROW + AXIS;
  const root = svg('svg', { viewBox: `0 0 ${WIDTH} ${height}`, role: 'img' }, 'pooling-shift');
  root.setAttribute(
    'aria-label',
    `P(positive) of ${rows.length} reviews with the engine’s pooling and with yours, on a 0 to 1 axis; ` +
      `the model’s answer from no evidence is ${noEvidence.toFixed(3)}`,
  );
  root.dataset.testid = 'pooling-shift';
  const bottom = TOP + rows.length * ROW;
  root.append(
    svg('line', { x1: shiftX(0.5), x2: shiftX(0.5), y1: TOP - 4, y2: bottom }, 'shift-half'),
    svg('line', { x1: shiftX(noEvidence), x2: shiftX(noEvidence), y1: TOP - 4, y2: bottom }, 'shift-none'),
    svg('line', { x1: shiftX(0), x2: shiftX(1), y1: bottom, y2: bottom }, 'shift-axis'),
  );
  for (const [p, anchor] of [
    [0, 'start'],
    [0.5, 'middle'],
    [1, 'end'],
  ] as const) {
    const label = svg('text', { x: shiftX(p), y: bottom + 13, 'text-anchor': anchor });
    label.textContent = p === 0.5 ? '0.5' : String(p);
    root.append(label);
  }
  const none = svg('text', { x: shiftX(noEvidence), y: bottom + 26, 'text-anchor': 'middle' }, 'shift-none-label');
  none.textContent = `σ(b) = ${noEvidence.toFixed(3)}: no evidence`;
  root.append(none);
  rows.forEach((r, i) => {
    const y = TOP + i * ROW + ROW / 2;
    const row = svg('g', {}, 'shift-row');
    const title = svg('title', {});
    title.textContent =
      `${i + 1}. ${r.text}: P engine ${r.engine.toFixed(3)}` + (r.mine === null ? '' : `, yours ${r.mine.toFixed(3)}`);
    const number = svg('text', { x: 4, y: y + 4 });
    number.textContent = String(i + 1);
    row.append(title, number);
    if (r.mine !== null)
      row.append(svg('line', { x1: shiftX(r.engine), x2: shiftX(r.mine), y1: y, y2: y }, 'shift-move'));
    const dot = svg('circle', { cx: shiftX(r.engine), cy: y, r: 5 }, 'shift-engine');
    dot.dataset.p = String(r.engine);
    row.append(dot);
    if (r.mine !== null) {
      const ring = svg('circle', { cx: shiftX(r.mine), cy: y, r: 5 }, 'shift-mine');
      ring.dataset.p = String(r.mine);
      row.append(ring);
    }
    root.append(row);
  });
  return root;
}
