// The course's running example (the same numbers as the Attention Lab's default state):
// a decoder state s and four annotations h₁…h₄ whose dot-product scores are 927, 397, 148, 929.
import type { HeatmapData } from '../../views/heatmap';
import { fromTensor, toTensor, type Nested } from '../engine_data';

export const S = [5, 1, 20];
export const H = [
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
];
export const ANNOTATION_LABELS = ['h₁', 'h₂', 'h₃', 'h₄'];

export { fromTensor, toTensor };

export function row(
  values: ArrayLike<number>,
  colLabels: string[],
  rowLabel = '',
  range?: [number, number],
): HeatmapData {
  return {
    values: Array.from(values),
    rows: 1,
    cols: values.length,
    rowLabels: [rowLabel],
    colLabels,
    range,
  };
}

export function matrix(
  values: Nested,
  rowLabels: string[],
  colLabels: string[],
  range?: [number, number],
): HeatmapData {
  const rows = values as number[][];
  return {
    values: rows.flat(),
    rows: rows.length,
    cols: rows[0].length,
    rowLabels,
    colLabels,
    range,
  };
}

export const numbered = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
