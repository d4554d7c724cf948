// The lab's arithmetic for its explanations: the engine computes every result; these write the
// steps with the numbers (inputs as typed, results as the heatmaps show them) and summarise a
// weight vector. Pure.
import { formatValue } from '../heatmap_data';

export const f = formatValue;

export function tensor(rows: number[][]) {
  return { shape: [rows.length, rows[0].length], data: Float32Array.from(rows.flat()) };
}

export const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
/** Inputs as typed (4 significant digits, no trailing zeros); results use formatValue. */
export const plain = (x: number) => String(Number(x.toPrecision(4)));
export const products = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a, (x, i) => `${plain(x)}×${plain(b[i])}`).join(' + ');
export const plainVector = (xs: ArrayLike<number>) => `[${Array.from(xs, plain).join(', ')}]`;
export const vector = (xs: ArrayLike<number>) => `[${Array.from(xs, f).join(', ')}]`;

/** Entropy in nats and the largest weight of a probability vector. */
export function weightStats(weights: ArrayLike<number>): { entropy: number; max: number } {
  let entropy = 0;
  let max = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (w > 0) entropy -= w * Math.log(w);
    max = Math.max(max, w);
  }
  return { entropy, max };
}
