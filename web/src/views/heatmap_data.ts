// A heatmap's data and the two pure functions every drawing and export of one reads: its colour
// range and how a value is written. Kept apart from heatmap.ts (the DOM table) so that the
// exporters (export/export.ts), which heatmap.ts's buttons call, need nothing from the DOM view.
export interface HeatmapData {
  values: ArrayLike<number>; // row-major, rows × cols
  rows: number;
  cols: number;
  rowLabels: string[];
  colLabels: string[];
  /** Fixed colour range (e.g. [0, 1] for probabilities); default: the data's min and max. */
  range?: [number, number];
}

/** The colour range of a heatmap: its fixed `range`, else the data's min and max. */
export function valueRange(data: HeatmapData): [number, number] {
  if (data.range) return data.range;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < data.values.length; i++) {
    lo = Math.min(lo, data.values[i]);
    hi = Math.max(hi, data.values[i]);
  }
  return [lo, hi];
}

export function formatValue(x: number): string {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1000 || abs < 0.001) return x.toExponential(2);
  return x.toFixed(abs >= 100 ? 1 : abs >= 10 ? 2 : 3);
}
