import { mistake } from '../mistakes';
import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

const ADDITIVE_SOLUTION = `function additiveScore(s, annotations, W1, W2, v) {
  const matVec = (M, x) => M.map((row) => row.reduce((acc, m, j) => acc + m * x[j], 0));
  const fromState = matVec(W1, s); // the same for every annotation: compute it once
  return annotations.map((h) => {
    const fromAnnotation = matVec(W2, h);
    return v.reduce((acc, v_a, a) => acc + v_a * Math.tanh(fromState[a] + fromAnnotation[a]), 0);
  });
}
`;

export const additiveScore: Exercise = {
  id: 'additive_score',
  title: 'Additive (Bahdanau) scores',
  functionName: 'additiveScore',
  prompt: `Complete <code>additiveScore(s, annotations, W1, W2, v)</code>: the score of annotation
    $h_t$ is $v^\\top \\tanh(W_1 s + W_2 h_t)$, with $W_1$ of shape $A \\times d_s$, $W_2$ of shape
    $A \\times d_h$ and $v$ of length $A$ (all plain nested arrays, row-major). Return the $T$ scores.`,
  starter: `function additiveScore(s, annotations, W1, W2, v) {
  // s: [ds], annotations: [T][dh], W1: [A][ds], W2: [A][dh], v: [A]  ->  [T]
  const matVec = (M, x) => M.map((row) => row.reduce((acc, m, j) => acc + m * x[j], 0));
  // TODO
  return annotations.map(() => 0);
}
`,
  solution: ADDITIVE_SOLUTION,
  hints: [
    'matVec(W1, s) gives the A numbers of W₁s; matVec(W2, h) gives W₂h for one annotation.',
    'Add the two vectors, apply Math.tanh to each entry, then take the dot product with v.',
  ],
  mistakes: [
    mistake(
      ADDITIVE_SOLUTION,
      'Math.tanh(fromState[a] + fromAnnotation[a])',
      '(fromState[a] + fromAnnotation[a])',
      'Your scores are those of v·(W₁s + W₂h) without the tanh: apply Math.tanh to each entry of W₁s + W₂h before the dot product with v.',
    ),
    mistake(
      ADDITIVE_SOLUTION,
      'Math.tanh(fromState[a] + fromAnnotation[a])',
      'Math.tanh(fromState[a] * fromAnnotation[a])',
      'Your scores multiply W₁s and W₂h entry by entry; additive attention adds them: tanh(W₁s + W₂h).',
    ),
  ],
  cases() {
    const random = seededRandom(8);
    const make = (t: number, ds: number, dh: number, a: number) => [
      randomVector(random, ds),
      randomMatrix(random, t, dh),
      randomMatrix(random, a, ds, 1),
      randomMatrix(random, a, dh, 1),
      randomVector(random, a, 1),
    ];
    return [
      {
        name: 'identity-like weights (A = 2, d = 2)',
        args: [
          [1, 0],
          [
            [0, 1],
            [1, 0],
            [2, 2],
          ],
          [
            [1, 0],
            [0, 1],
          ],
          [
            [1, 0],
            [0, 1],
          ],
          [1, 1],
        ],
      },
      { name: 'one annotation (seed 8)', args: make(1, 3, 3, 4) },
      {
        name: 'state and annotations of different sizes (d_s = 3, d_h = 5, A = 4, seed 8)',
        args: make(4, 3, 5, 4),
      },
      {
        name: 'random (T = 6, d_s = d_h = 4, A = 8, seed 8)',
        args: make(6, 4, 4, 8),
      },
    ];
  },
  async reference(call, [s, annotations, w1, w2, v]) {
    const params = { w1: toTensor(w1), w2: toTensor(w2), v: toTensor(v) };
    return fromTensor(await call('scores', 'additive', toTensor(s), toTensor(annotations), params));
  },
  figure: (value) => heatmapOf(value),
};
