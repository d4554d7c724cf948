import { randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const softmax: Exercise = {
  id: 'softmax',
  title: 'A softmax that survives large scores',
  functionName: 'softmax',
  prompt: `Complete <code>softmax(x)</code>: return the array of weights
    $\\alpha_t = e^{x_t - m} / \\sum_j e^{x_j - m}$ with $m = \\max_j x_j$. The result must be
    right for the course example's scores $[927, 397, 148, 929]$, where $e^{927}$ alone is far
    beyond the largest number a double can hold.`,
  starter: `function softmax(x) {
  // x: [T] scores  ->  [T] weights that are >= 0 and sum to 1
  const exps = x.map((v) => Math.exp(v));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}
`,
  solution: `function softmax(x) {
  const m = Math.max(...x);
  const exps = x.map((v) => Math.exp(v - m));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}
`,
  hints: [
    'The starter works on small numbers; try it in your head on [927, 929]: what is Math.exp(927)?',
    'Subtracting the same number from every score does not change the weights (it cancels between numerator and denominator).',
    'Subtract m = Math.max(...x): every exponent becomes <= 0, and the largest one is exactly e⁰ = 1.',
  ],
  cases() {
    const random = seededRandom(4);
    return [
      { name: 'small scores [1, 2, 3]', args: [[1, 2, 3]] },
      {
        name: 'large scores [927, 397, 148, 929] (the course example: Math.exp(927) is Infinity)',
        args: [[927, 397, 148, 929]],
      },
      {
        name: 'very negative scores [-1000, -1001] (Math.exp underflows to 0)',
        args: [[-1000, -1001]],
      },
      { name: 'a tie [2, 2, 2, 2]', args: [[2, 2, 2, 2]] },
      { name: 'one score [5]', args: [[5]] },
      ...[3, 6, 10].map((n, i) => ({
        name: `random scores #${i + 1} (T = ${n}, seed 4)`,
        args: [randomVector(random, n, 10)],
      })),
    ];
  },
  async reference(call, [x]) {
    return fromTensor(await call('softmax', toTensor(x), null));
  },
  figure: (value) => heatmapOf(value, 'q', 'h', [0, 1]),
  diagnose(_expected, got, [x]) {
    const bad = Array.isArray(got) && got.some((v) => typeof v === 'number' && !Number.isFinite(v));
    const extreme = (x as number[]).some((v) => Math.abs(v) > 700);
    if (bad && extreme) {
      return 'Math.exp of a score this large (or this negative) overflows to Infinity (or underflows to 0), and Infinity/Infinity or 0/0 is NaN: subtract the largest score from every score before exponentiating.';
    }
    return null;
  },
};
