// The Studio's training curves and attention snapshots as plain data: what a progress message
// adds to them, and the chart series and heatmap rows drawn from them. No DOM here, so node
// tests (tests/js/studio_units.test.mjs) check the arithmetic directly.
import type { TrainingProgress, WatchedAttention } from '../../engine/protocol';
import { SERIES_COLOURS, SERIES_DASHES, type ChartSeries } from '../chart';

/** About this many attention snapshots per run (the worker spaces them by the planned steps). */
export const SNAPSHOTS_PER_RUN = 100;

/** At most this many snapshots on the timeline; beyond it every second one goes. */
export const MAX_SNAPSHOTS = 500;

/** One side of a run (A: the main engine; B: the race challenger). */
export interface Curves {
  label: string;
  /** Per step: the step number and the bias-corrected moving average of the batch losses. */
  steps: number[];
  smoothed: number[];
  ema: number;
  seen: number;
  /** Per epoch: the step it ended at and its accuracies / validation loss (NaN: no validation). */
  epochX: number[];
  valLoss: number[];
  valAccuracy: number[];
  trainAccuracy: number[];
  latest: TrainingProgress | null;
}

/** The watched reviews' attention at one step, from either side of a race (or both). */
export interface Snapshot {
  step: number;
  a?: WatchedAttention[];
  b?: WatchedAttention[];
}

export function newCurves(label: string): Curves {
  return {
    label,
    steps: [],
    smoothed: [],
    ema: 0,
    seen: 0,
    epochX: [],
    valLoss: [],
    valAccuracy: [],
    trainAccuracy: [],
    latest: null,
  };
}

/**
 * Adds a progress message's losses and finished epochs to `c`. The loss curve is an exponential
 * moving average (0.9) with bias correction, so the first steps are not pulled towards 0; an
 * epoch is placed at its share of the planned steps.
 */
export function addProgress(c: Curves, p: TrainingProgress, epochs: number): void {
  c.latest = p;
  const first = p.step - p.losses.length + 1;
  for (let i = 0; i < p.losses.length; i++) {
    c.seen += 1;
    c.ema = 0.9 * c.ema + 0.1 * p.losses[i];
    c.steps.push(first + i);
    c.smoothed.push(c.ema / (1 - 0.9 ** c.seen));
  }
  for (const e of p.epochs) {
    c.epochX.push(((e.epoch + 1) * p.plannedSteps) / Math.max(1, epochs));
    c.trainAccuracy.push(e.trainAccuracy);
    c.valLoss.push(e.validation?.loss ?? NaN);
    c.valAccuracy.push(e.validation?.accuracy ?? NaN);
  }
}

/** The loss and accuracy charts' series: per side, training then validation (dashes tell them apart). */
export function chartSeries(curves: Curves[]): { loss: ChartSeries[]; accuracy: ChartSeries[] } {
  const loss: ChartSeries[] = [];
  const accuracy: ChartSeries[] = [];
  curves.forEach((c, side) => {
    const colour = SERIES_COLOURS[side];
    const dash = (validation: number) => SERIES_DASHES[side * 2 + validation];
    loss.push({ name: `${c.label}: training (smoothed)`, xs: c.steps, ys: c.smoothed, colour, dash: dash(0) });
    loss.push({ name: `${c.label}: validation`, xs: c.epochX, ys: c.valLoss, colour, dash: dash(1) });
    accuracy.push({ name: `${c.label}: training`, xs: c.epochX, ys: c.trainAccuracy, colour, dash: dash(0) });
    accuracy.push({ name: `${c.label}: validation`, xs: c.epochX, ys: c.valAccuracy, colour, dash: dash(1) });
  });
  return { loss, accuracy };
}

/** Keeps at most `max` snapshots: beyond it every second one goes (the newest always stays). */
export function thinSnapshots<T>(list: T[], max: number): T[] {
  if (list.length <= max) return list;
  const kept = list.filter((_, i) => i % 2 === 0);
  if (kept.at(-1) !== list.at(-1)) kept.push(list.at(-1)!);
  return kept;
}

/** `list` with side `side`'s attention at `step` added (in step order, thinned to MAX_SNAPSHOTS). */
export function addSnapshot(list: Snapshot[], side: number, step: number, items: WatchedAttention[]): Snapshot[] {
  let entry = list.find((s) => s.step === step);
  if (!entry) {
    entry = { step };
    list.push(entry);
    list.sort((x, y) => x.step - y.step);
  }
  if (side === 0) entry.a = items;
  else entry.b = items;
  return thinSnapshots(list, MAX_SNAPSHOTS);
}

/** Identifies what a redraw of snapshot `index` would show: a new step or the other side's half. */
export function snapshotKey(list: Snapshot[], index: number): string {
  const snap = list[index];
  return `${snap?.step}:${snap?.a ? 1 : 0}${snap?.b ? 1 : 0}:${index}/${list.length}`;
}

/** One labelled row of a watched review's heatmap. */
export interface WeightRow {
  label: string;
  values: ArrayLike<number>;
  /** Pooling weights (a fixed 0–1 scale) or a difference of two sides' weights (diverging, ±1). */
  kind: 'probability' | 'difference';
}

/**
 * A watched review's heatmap rows: A's pooling weights, and in a race B's and B − A (where
 * both exist). `tokens` is the longer side's token list (the sides tokenise the same text).
 */
export function watchedRows(a: ArrayLike<number>, b: ArrayLike<number>, tokens: string[], race: boolean): WeightRow[] {
  const rows: WeightRow[] = [];
  if (a.length) rows.push({ label: 'A', values: a, kind: 'probability' });
  if (race && b.length) rows.push({ label: 'B', values: b, kind: 'probability' });
  if (race && a.length && b.length)
    rows.push({ label: 'B − A', values: weightDifference(a, b, tokens.length), kind: 'difference' });
  return rows;
}

/** B − A per token (a missing weight counts as 0). */
export function weightDifference(a: ArrayLike<number>, b: ArrayLike<number>, length: number): number[] {
  return Array.from({ length }, (_, t) => (b[t] ?? 0) - (a[t] ?? 0));
}

/**
 * How strongly to tint each token of the B − A strip, in [0, 1]: |B − A| over the largest weight
 * either side gives any token — the scale the A and B strips are tinted on — so a difference of
 * 0.002 between near-uniform weights of 0.167 stays almost untinted instead of saturating.
 */
export function differenceStrength(diff: ArrayLike<number>, a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  let largest = 1e-9;
  for (const side of [a, b]) for (let i = 0; i < side.length; i++) largest = Math.max(largest, side[i]);
  return Array.from(diff, (d) => Math.min(1, Math.abs(d) / largest));
}

/** Row-major values of `rows` over `cols` columns (a missing value counts as 0), for a heatmap. */
export function flatten(rows: WeightRow[], cols: number): number[] {
  const values: number[] = [];
  for (const r of rows) for (let t = 0; t < cols; t++) values.push(r.values[t] ?? 0);
  return values;
}
