import { mistake } from '../mistakes';
import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

const DOT_SCORES_SOLUTION = `function dotAttentionScore(dec, annotations) {
  return annotations.map((h) => h.reduce((sum, h_i, i) => sum + h_i * dec[i], 0));
}
`;

export const dotScores: Exercise = {
  id: 'dot_scores',
  title: 'Score every annotation at once',
  functionName: 'dotAttentionScore',
  prompt: `Complete <code>dotAttentionScore(dec, annotations)</code>: <code>annotations</code> is a
    $T \\times d$ matrix $H$ (an array of $T$ rows, one annotation per row). Return the $T$ scores
    $H s$, i.e. entry $t$ is $h_t^\\top s$.`,
  starter: `function dotAttentionScore(dec, annotations) {
  // dec: [d], annotations: [T][d]  ->  scores: [T]
  // TODO
  return [];
}
`,
  solution: DOT_SCORES_SOLUTION,
  hints: [
    'There is one score per row of annotations, so the result has annotations.length entries.',
    'Each entry is the dot product from the previous exercise between dec and one row: annotations.map(row => …).',
  ],
  mistakes: [
    mistake(
      DOT_SCORES_SOLUTION,
      'h_i * dec[i]',
      'h_i + dec[i]',
      'Your scores add matching entries; a dot product multiplies them and then sums the products.',
    ),
  ],
  cases() {
    const random = seededRandom(3);
    return [
      {
        name: 'the course example (4 annotations of size 3)',
        args: [
          [5, 1, 20],
          [
            [3, 12, 45],
            [59, 2, 5],
            [1, 43, 5],
            [4, 3, 45.3],
          ],
        ],
      },
      { name: 'one annotation', args: [[1, 2], [[3, 4]]] },
      {
        name: 'two equal annotations (a tie)',
        args: [
          [1, -1, 2],
          [
            [0.5, 1, 1],
            [0.5, 1, 1],
          ],
        ],
      },
      ...[
        [2, 6],
        [7, 3],
      ].map(([t, d], i) => ({
        name: `random #${i + 1} (T = ${t}, d = ${d}, seed 3)`,
        args: [randomVector(random, d), randomMatrix(random, t, d)],
      })),
    ];
  },
  async reference(call, [dec, annotations]) {
    return fromTensor(await call('scores', 'dot', toTensor(dec), toTensor(annotations), null));
  },
  figure: (value) => heatmapOf(value),
};
