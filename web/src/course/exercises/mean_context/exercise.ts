import { randomMatrix, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const meanContext: Exercise = {
  id: 'mean_context',
  title: 'One summary for every step: the average annotation',
  functionName: 'meanContext',
  prompt: `Complete <code>meanContext(annotations)</code>: the simplest way to hand the decoder the whole
    source is one fixed summary, the average $\\bar h = \\frac{1}{T} \\sum_{t=1}^{T} h_t$ of the
    $T$ annotations. It is what attention computes when every weight is $1/T$ — whatever the
    decoder is about to write. Return the $d$ numbers of $\\bar h$.`,
  starter: `function meanContext(annotations) {
  // annotations: [T][d]  ->  [d]
  return annotations.map((h) => np.sum(h) / h.length); // TODO: which axis?
}
`,
  solution: `function meanContext(annotations) {
  return np.mean(annotations, 0); // average over time, one number per feature
}
`,
  hints: [
    'The result has one entry per feature (d numbers), not one per annotation.',
    'Average down the columns: np.mean(annotations, 0), or add the rows and divide by T.',
  ],
  cases() {
    const random = seededRandom(28);
    return [
      {
        name: 'the course example (4 annotations of size 3)',
        args: [
          [
            [3, 12, 45],
            [59, 2, 5],
            [1, 43, 5],
            [4, 3, 45.3],
          ],
        ],
      },
      { name: 'one annotation: the summary is that annotation', args: [[[1, -2, 3]]] },
      {
        name: 'opposite annotations cancel out',
        args: [
          [
            [1, 2],
            [-1, -2],
          ],
        ],
      },
      { name: 'random (T = 7, d = 5, seed 28)', args: [randomMatrix(random, 7, 5)] },
    ];
  },
  async reference(call, [annotations]) {
    const t = (annotations as number[][]).length;
    const uniform = Array.from({ length: t }, () => 1 / t);
    return fromTensor(await call('contextVector', toTensor(uniform), toTensor(annotations)));
  },
  figure: (value) => heatmapOf(value, 'c', 'd'),
  diagnose(expected, got) {
    const e = expected as number[];
    if (Array.isArray(got) && got.length !== e.length) {
      return 'You averaged each annotation over its features; the summary averages the annotations over time, feature by feature.';
    }
    return null;
  },
};
