// The pure part of the link view (views/link_view.ts): which token pairs get a line, and how
// strong each line looks. Kept free of the DOM so node tests can check it (tests/js/links.test.mjs).

/** A weight matrix: `values[row * cols + col]` is the weight from source token `row` to `col`. */
export interface LinkData {
  values: ArrayLike<number>;
  rows: number;
  cols: number;
  /** The tokens on the left (queries, output tokens, pooling nodes), one per row. */
  rowLabels: string[];
  /** The tokens on the right (keys, source tokens), one per column. */
  colLabels: string[];
}

export interface Link {
  row: number;
  col: number;
  weight: number;
  /** Stroke opacity in (0, 1]: the weight over the largest weight of the map. */
  opacity: number;
  /** Stroke width in px, from 1 (weakest) to 4 (the largest weight). */
  width: number;
}

/** The thinnest and thickest line, in px. */
export const LINK_WIDTH: readonly [number, number] = [1, 4];

/**
 * The pairs whose weight is at least `threshold` (and finite), in row-major order, each with its
 * opacity and width. Opacity is relative to the largest weight of the map, so a review whose
 * pooling weights are all small (many tokens) still shows which ones lead; the weight itself is in
 * each line's title and data-weight.
 */
export function linksAbove(data: LinkData, threshold: number): Link[] {
  if (!(threshold >= 0)) throw new RangeError(`link threshold must be a number ≥ 0, got ${threshold}`);
  const n = data.rows * data.cols;
  if (data.values.length < n) {
    throw new RangeError(`link weights: ${data.values.length} values for ${data.rows} × ${data.cols} pairs`);
  }
  let max = 0;
  for (let i = 0; i < n; i++) {
    const w = data.values[i];
    if (Number.isFinite(w) && w > max) max = w;
  }
  const links: Link[] = [];
  if (max <= 0) return links;
  for (let i = 0; i < n; i++) {
    const weight = data.values[i];
    if (!Number.isFinite(weight) || weight < threshold || weight <= 0) continue;
    const relative = Math.min(1, weight / max);
    links.push({
      row: Math.floor(i / data.cols),
      col: i % data.cols,
      weight,
      opacity: relative,
      width: LINK_WIDTH[0] + (LINK_WIDTH[1] - LINK_WIDTH[0]) * relative,
    });
  }
  return links;
}

/** Which side a token is on: 'row' (left column) or 'col' (right column). */
export type LinkSide = 'row' | 'col';

/** Whether a link touches the token `index` on `side` (the links kept when it is isolated). */
export function linkTouches(link: Pick<Link, 'row' | 'col'>, side: LinkSide, index: number): boolean {
  return side === 'row' ? link.row === index : link.col === index;
}

/** For each row, the column it links to most strongly (the summary under the picture). */
export function strongestPerRow(data: LinkData): number[] {
  const best: number[] = [];
  for (let r = 0; r < data.rows; r++) {
    let b = 0;
    for (let c = 1; c < data.cols; c++) if (data.values[r * data.cols + c] > data.values[r * data.cols + b]) b = c;
    best.push(b);
  }
  return best;
}
