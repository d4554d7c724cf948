import { randomMatrix, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const mergeHeads: Exercise = {
  id: 'merge_heads',
  title: 'Merging the heads back',
  functionName: 'mergeHeads',
  prompt: `Complete <code>mergeHeads(X)</code>, the inverse of splitting: $X$ holds one output matrix
    per head ($H \\times T \\times d_{head}$). Row $t$ of the result is the concatenation of row
    $t$ of every head, head 0 first: a $T \\times (H \\cdot d_{head})$ matrix, which the output
    projection $W_O$ then mixes.`,
  starter: `function mergeHeads(X) {
  // X: [H][T][dHead]  ->  [T][H * dHead]
  return X.flat(); // TODO: this stacks the heads' rows underneath each other
}
`,
  solution: `function mergeHeads(X) {
  const T = X[0].length;
  return Array.from({ length: T }, (_, t) => np.concatenate(X.map((head) => head[t])));
}
`,
  hints: [
    'The result has T rows, the same number as each head has.',
    'Row t is np.concatenate([X[0][t], X[1][t], …]).',
  ],
  cases() {
    const random = seededRandom(26);
    return [
      {
        name: 'one head: the matrix itself',
        args: [
          [
            [
              [1, 2],
              [3, 4],
            ],
          ],
        ],
      },
      {
        name: 'two heads, T = 2, d_head = 2',
        args: [
          [
            [
              [1, 2],
              [3, 4],
            ],
            [
              [5, 6],
              [7, 8],
            ],
          ],
        ],
      },
      {
        name: 'three heads of one column each (T = 2)',
        args: [
          [
            [[1], [2]],
            [[3], [4]],
            [[5], [6]],
          ],
        ],
      },
      {
        name: 'random (four heads, T = 3, d_head = 2, seed 26)',
        args: [Array.from({ length: 4 }, () => randomMatrix(random, 3, 2))],
      },
    ];
  },
  async reference(call, [x]) {
    return fromTensor(await call('mergeHeads', toTensor(x)));
  },
  figure: (value) => heatmapOf(value, 't', 'c'),
  diagnose(expected, got) {
    const e = expected as number[][];
    if (Array.isArray(got) && got.length !== e.length && got.length % e.length === 0) {
      return `You have ${got.length} rows instead of ${e.length}: the heads were stacked along time; join them side by side, row by row.`;
    }
    return null;
  },
};
