// Conversions between the plain nested arrays learners write and the engine's {shape, data}.
import type { OutMask, OutTensor } from '../../generated/attn_engine.mjs';
import type { HeatmapData } from '../views/heatmap';

export type Nested = number | Nested[];

export function shapeOf(value: unknown): number[] {
  const shape: number[] = [];
  for (let level = value; Array.isArray(level); level = level[0]) shape.push(level.length);
  return shape;
}

/** Nested arrays of numbers -> engine tensor. */
export function toTensor(nested: unknown): {
  shape: number[];
  data: Float32Array;
} {
  const shape = shapeOf(nested);
  return {
    shape,
    data: Float32Array.from((nested as unknown[]).flat(Infinity) as number[]),
  };
}

/** Nested arrays of 0/1 -> engine mask. */
export function toMask(nested: unknown): { shape: number[]; data: Uint8Array } {
  const shape = shapeOf(nested);
  return {
    shape,
    data: Uint8Array.from((nested as unknown[]).flat(Infinity) as number[]),
  };
}

/** Engine tensor or mask -> nested arrays of plain numbers. */
export function fromTensor(t: OutTensor | OutMask): Nested {
  const data = Array.from(t.data, Number);
  const build = (dim: number, offset: number): Nested => {
    if (dim === t.shape.length) return data[offset];
    const stride = t.shape.slice(dim + 1).reduce((a, b) => a * b, 1);
    return Array.from({ length: t.shape[dim] }, (_, i) => build(dim + 1, offset + i * stride));
  };
  return t.shape.length === 0 ? data[0] : build(0, 0);
}

const labels = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

/**
 * A number, vector or matrix as heatmap data; null for anything else (e.g. a learner's result of
 * the wrong type). Non-finite entries are kept so the heatmap shows them.
 */
/** Token ids as a table (heatmapOf's layout): ids are labels, not amounts, so no colour scale. */
export function idsTableOf(value: unknown, rowPrefix?: string, colPrefix?: string): HeatmapData | null {
  const data = heatmapOf(value, rowPrefix, colPrefix);
  return data && { ...data, scale: 'ids' };
}

export function heatmapOf(
  value: unknown,
  rowPrefix = 'q',
  colPrefix = 'h',
  range?: [number, number],
): HeatmapData | null {
  const num = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
  if (typeof num(value) === 'number') {
    return {
      values: [num(value) as number],
      rows: 1,
      cols: 1,
      rowLabels: [''],
      colLabels: [''],
      range,
    };
  }
  if (!Array.isArray(value) || value.length === 0) return null;
  if (value.every((v) => typeof num(v) === 'number')) {
    return {
      values: value.map(num) as number[],
      rows: 1,
      cols: value.length,
      rowLabels: [''],
      colLabels: labels(colPrefix, value.length),
      range,
    };
  }
  const cols = Array.isArray(value[0]) ? value[0].length : 0;
  if (cols === 0) return null;
  const ok = value.every(
    (row) => Array.isArray(row) && row.length === cols && row.every((v) => typeof num(v) === 'number'),
  );
  if (!ok) return null;
  return {
    values: (value as unknown[][]).flat().map(num) as number[],
    rows: value.length,
    cols,
    rowLabels: labels(rowPrefix, value.length),
    colLabels: labels(colPrefix, cols),
    range,
  };
}

/** Rows become columns: the course writes W_c as [out][in], the engine's layers store [in, out]. */
export function transposed(m: number[][]): number[][] {
  return m.length === 0 ? [] : m[0].map((_, j) => m.map((row) => row[j]));
}
