// A heatmap's data and the pure functions every drawing and export of one reads: its colour
// scale (which palette, which range, whether the range is fixed or stretched to the data) and how
// a value is written. Kept apart from heatmap.ts (the DOM table) so that the exporters
// (export/export.ts), which heatmap.ts's buttons call, need nothing from the DOM view.
import { formatValue } from './format';
import { diverging, viridis } from './palette';

export { formatValue };

/**
 * What a map's numbers are, which decides its colour scale:
 * - 'probability': weights in [0, 1]; a fixed 0–1 sequential scale, so a uniform 0.167 is always
 *   the same dark colour and never the top of the scale;
 * - 'difference': a difference of two probabilities, in [−1, 1]; a fixed diverging scale centred
 *   at 0, so a difference of 0.002 stays near the neutral middle;
 * - 'signed': any signed value (scores, encodings, weights × V); diverging, centred at 0, out to
 *   the map's largest |value| unless a range is given (the legend says when it is stretched);
 * - 'magnitude': a value with no natural range; sequential from the map's min to its max
 *   (stretched, and the legend says so);
 * - 'ids': token ids, labels rather than amounts (id 7 is not "more" than id 3): no colour scale,
 *   every cell on one plain background.
 */
export type ScaleKind = 'probability' | 'difference' | 'signed' | 'magnitude' | 'ids';

/** The one background of an ids table. */
export const IDS_BACKGROUND: [number, number, number] = [236, 238, 243];

export interface HeatmapData {
  values: ArrayLike<number>; // row-major, rows × cols
  rows: number;
  cols: number;
  rowLabels: string[];
  colLabels: string[];
  /** Fixed colour range (e.g. [0, 1] for probabilities); default: from the data and the scale. */
  range?: [number, number];
  /** The kind of the values (default: probability for a [0, 1] range, signed when values have
   *  both signs, else magnitude). */
  scale?: ScaleKind;
  /** One scale per row, each from that row's values alone: for rows that differ in kind (two
   *  models' weights and their difference) or in size (five scoring functions). */
  rowScales?: ScaleKind[];
}

export interface ColourScale {
  kind: ScaleKind;
  /** The values at the two ends of the scale. */
  range: [number, number];
  diverging: boolean;
  /** True when the range was taken from the data rather than fixed in advance. */
  stretched: boolean;
  colour(value: number): [number, number, number];
}

function extent(values: ArrayLike<number>, from = 0, to = values.length): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = from; i < to; i++) {
    if (!Number.isFinite(values[i])) continue;
    lo = Math.min(lo, values[i]);
    hi = Math.max(hi, values[i]);
  }
  return lo <= hi ? [lo, hi] : [0, 0];
}

/** The kind a map gets when it does not say: from its fixed range, else from its values' signs. */
export function inferScaleKind(values: ArrayLike<number>, range?: [number, number]): ScaleKind {
  if (range) {
    if (range[0] === 0 && range[1] === 1) return 'probability';
    return range[0] < 0 && range[1] > 0 ? 'signed' : 'magnitude';
  }
  const [lo, hi] = extent(values);
  return lo < 0 && hi > 0 ? 'signed' : 'magnitude';
}

/** The scale of values[from, to) of the given kind (a fixed `range` wins over the data's). */
export function colourScale(
  kind: ScaleKind,
  values: ArrayLike<number>,
  fixed?: [number, number],
  from = 0,
  to = values.length,
): ColourScale {
  if (kind === 'ids') {
    return { kind, range: extent(values, from, to), diverging: false, stretched: false, colour: () => IDS_BACKGROUND };
  }
  if (kind === 'probability' || kind === 'magnitude') {
    const range: [number, number] = kind === 'probability' ? (fixed ?? [0, 1]) : (fixed ?? extent(values, from, to));
    const span = range[1] - range[0];
    return {
      kind,
      range,
      diverging: false,
      stretched: kind === 'magnitude' && !fixed,
      colour: (v) => viridis(span > 0 ? (v - range[0]) / span : 0),
    };
  }
  let reach: number;
  if (kind === 'difference') reach = fixed ? Math.max(Math.abs(fixed[0]), Math.abs(fixed[1])) : 1;
  else if (fixed) reach = Math.max(Math.abs(fixed[0]), Math.abs(fixed[1]));
  else {
    const [lo, hi] = extent(values, from, to);
    reach = Math.max(Math.abs(lo), Math.abs(hi));
  }
  return {
    kind,
    range: [-reach, reach],
    diverging: true,
    stretched: kind === 'signed' && !fixed,
    colour: (v) => diverging(reach > 0 ? 0.5 + v / (2 * reach) : 0.5),
  };
}

/**
 * The map's scales and the rows each one covers: one for the whole map, or with rowScales one per
 * row — except that rows of a fixed-range kind (probability, difference) share one scale, and so
 * one legend line.
 */
export function mapScales(data: HeatmapData): { scale: ColourScale; rows: number[] }[] {
  if (data.rowScales) {
    const out: { scale: ColourScale; rows: number[] }[] = [];
    const shared = new Map<ScaleKind, { scale: ColourScale; rows: number[] }>();
    for (let r = 0; r < data.rows; r++) {
      const kind = data.rowScales[r] ?? 'magnitude';
      const fixed = kind === 'probability' || kind === 'difference' || kind === 'ids';
      const group = fixed ? shared.get(kind) : undefined;
      if (group) {
        group.rows.push(r);
        continue;
      }
      const entry = {
        scale: colourScale(kind, data.values, undefined, r * data.cols, (r + 1) * data.cols),
        rows: [r],
      };
      if (fixed) shared.set(kind, entry);
      out.push(entry);
    }
    return out;
  }
  const kind = data.scale ?? inferScaleKind(data.values, data.range);
  return [{ scale: colourScale(kind, data.values, data.range), rows: Array.from({ length: data.rows }, (_, r) => r) }];
}

/** The colour of every cell, row-major. */
export function cellColours(data: HeatmapData): [number, number, number][] {
  const out: [number, number, number][] = new Array(data.rows * data.cols);
  for (const { scale, rows } of mapScales(data))
    for (const r of rows)
      for (let c = 0; c < data.cols; c++) out[r * data.cols + c] = scale.colour(data.values[r * data.cols + c]);
  return out;
}

/** The colour range of a whole map (its first scale's range): what exports print beside the legend. */
export function valueRange(data: HeatmapData): [number, number] {
  return mapScales(data)[0]?.scale.range ?? [0, 0];
}

/** What a scale's colours mean, in words, for the legend next to the map. */
export function describeScale(scale: ColourScale): string {
  const [lo, hi] = scale.range;
  switch (scale.kind) {
    case 'probability':
      return `fixed scale: ${formatValue(lo)} dark purple to ${formatValue(hi)} yellow`;
    case 'difference':
      return `fixed diverging scale: blue below 0, grey at 0, red above, out to ±${formatValue(hi)}`;
    case 'signed':
      return scale.stretched
        ? `diverging, centred at 0 (grey): blue negative, red positive; stretched to this map's largest |value|, ${formatValue(hi)}`
        : `diverging, centred at 0 (grey): blue negative, red positive, out to ±${formatValue(hi)}`;
    case 'ids':
      return 'token ids: labels, not amounts, so they get no colour scale';
    case 'magnitude':
      return scale.stretched
        ? `stretched to this map's range: ${formatValue(lo)} dark purple to ${formatValue(hi)} yellow`
        : `${formatValue(lo)} dark purple to ${formatValue(hi)} yellow`;
  }
}
