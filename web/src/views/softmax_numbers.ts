// "Numbers you can touch": the softmax behind one attention weight, worked with the numbers of
// the table, for every view that explains a weight (the lab's weights and self-attention grid,
// the Studio's explain panel, the Transformer's heads). Pure: the views call it from their
// heatmaps' explain callbacks.
import { formatValue } from './heatmap_data';

/** The pieces of softmax(scores / τ) at one position, as the engine computes it. */
export interface SoftmaxParts {
  /** The largest visible score m, subtracted before exp (it cancels in the division). */
  max: number;
  /** e^((score − m) / τ); 0 for a masked position. */
  numerator: number;
  /** Σ e^((score′ − m) / τ) over the visible positions. */
  denominator: number;
  /** numerator / denominator (0 when masked or nothing is visible). */
  weight: number;
}

export interface SoftmaxOptions {
  /** τ (default 1). */
  temperature?: number;
  /** Whether position j takes part (default: all); masked positions get weight 0. */
  visible?: (j: number) => boolean;
}

export function softmaxParts(scores: ArrayLike<number>, i: number, options: SoftmaxOptions = {}): SoftmaxParts {
  const tau = options.temperature ?? 1;
  const visible = options.visible ?? (() => true);
  let max = -Infinity;
  for (let j = 0; j < scores.length; j++) if (visible(j)) max = Math.max(max, scores[j]);
  let denominator = 0;
  for (let j = 0; j < scores.length; j++) if (visible(j)) denominator += Math.exp((scores[j] - max) / tau);
  const numerator = visible(i) ? Math.exp((scores[i] - max) / tau) : 0;
  return { max, numerator, denominator, weight: denominator > 0 ? numerator / denominator : 0 };
}

export interface SoftmaxLineOptions extends SoftmaxOptions {
  /** How the weight is named in the last line: 'weight α2', 'α', 'weight'. */
  name: string;
  /** The positions the sum runs over, in words: 'the visible annotations', '6 tokens'. */
  over: string;
  /** The weight the engine computed (what the table shows); default numerator / denominator. */
  weight?: number;
  format?: (x: number) => string;
}

/**
 * The worked softmax for position i of `scores` (visible): the subtracted maximum, the
 * numerator, the denominator and the weight, each with its numbers. With a temperature the
 * exponents show "/ τ".
 */
export function softmaxLines(scores: ArrayLike<number>, i: number, options: SoftmaxLineOptions): string[] {
  const f = options.format ?? formatValue;
  const p = softmaxParts(scores, i, options);
  const tau = options.temperature;
  const over = (x: string) => (tau === undefined ? x : `(${x}) / ${tau}`);
  return [
    `m = ${f(p.max)}, the largest score over ${options.over}, is subtracted first (it cancels in the division)`,
    `numerator e^(${over(`${f(scores[i])} − ${f(p.max)}`)}) = ${f(p.numerator)}`,
    `denominator Σ e^(${over('s′ − m')}) over ${options.over} = ${f(p.denominator)}`,
    `${options.name} = ${f(p.numerator)} / ${f(p.denominator)} = ${f(options.weight ?? p.weight)}`,
  ];
}
