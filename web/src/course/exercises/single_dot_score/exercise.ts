import { mistake } from '../mistakes';
import { randomVector, seededRandom } from '../../grader';
import { heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

const SINGLE_DOT_SOLUTION = `function singleDotAttentionScore(dec, enc) {
  let score = 0;
  for (let i = 0; i < dec.length; i++) score += dec[i] * enc[i];
  return score;
}
`;

export const singleDotScore: Exercise = {
  id: 'single_dot_score',
  title: 'Score one annotation',
  functionName: 'singleDotAttentionScore',
  prompt: `Complete <code>singleDotAttentionScore(dec, enc)</code>: given the decoder state
    <code>dec</code> ($s$, an array of $d$ numbers) and one annotation <code>enc</code> ($h$, also $d$ numbers),
    return the single number $s^\\top h = \\sum_{i} s_i h_i$.`,
  starter: `function singleDotAttentionScore(dec, enc) {
  // dec and enc are arrays of the same length.
  let score = 0;
  // TODO: add up the products dec[i] * enc[i]
  return score;
}
`,
  solution: SINGLE_DOT_SOLUTION,
  hints: [
    'Walk over the positions i = 0 … d−1 with a for loop.',
    'Multiply dec[i] by enc[i] and add the product to a running total; return the total (a number, not an array).',
  ],
  mistakes: [
    mistake(
      SINGLE_DOT_SOLUTION,
      'dec[i] * enc[i]',
      'dec[i] + enc[i]',
      'Your score adds matching entries; a dot product multiplies them and then sums the products.',
    ),
  ],
  cases() {
    const random = seededRandom(2);
    return [
      {
        name: 'the course example: s = [5, 1, 20], h₁ = [3, 12, 45]',
        args: [
          [5, 1, 20],
          [3, 12, 45],
        ],
      },
      {
        name: 'orthogonal vectors (score 0)',
        args: [
          [1, 0],
          [0, 3],
        ],
      },
      { name: 'one dimension', args: [[-2], [4.5]] },
      ...[3, 5, 8].map((d, i) => ({
        name: `random vectors #${i + 1} (d = ${d}, seed 2)`,
        args: [randomVector(random, d), randomVector(random, d)],
      })),
    ];
  },
  async reference(call, [dec, enc]) {
    const out = await call('scores', 'dot', toTensor(dec), toTensor([enc]), null);
    return out.data[0];
  },
  figure: (value) => heatmapOf(value),
};
