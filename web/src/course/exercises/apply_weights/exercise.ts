import { mistake } from '../mistakes';
import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise, ExerciseCase } from '../types';

function weightsOf(random: () => number, t: number): number[] {
  const raw = randomVector(random, t, 1).map((v) => Math.abs(v) + 0.01);
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((v) => Math.round((v / total) * 1000) / 1000);
}

/** Shared by this exercise and attention_context: weights [T] with annotations [T, d]. */
export function weightCases(seed: number): ExerciseCase[] {
  const random = seededRandom(seed);
  return [
    {
      name: 'the course example (weights 0.119 and 0.881 on h₁ and h₄)',
      args: [
        [0.119, 0, 0, 0.881],
        [
          [3, 12, 45],
          [59, 2, 5],
          [1, 43, 5],
          [4, 3, 45.3],
        ],
      ],
    },
    { name: 'one annotation with weight 1', args: [[1], [[2, -3, 4]]] },
    {
      name: 'uniform weights over two annotations',
      args: [
        [0.5, 0.5],
        [
          [1, 2, 3, 4],
          [5, 6, 7, 8],
        ],
      ],
    },
    ...[
      [5, 2],
      [3, 6],
    ].map(([t, d], i) => ({
      name: `random #${i + 1} (T = ${t}, d = ${d}, seed ${seed})`,
      args: [weightsOf(random, t), randomMatrix(random, t, d)],
    })),
  ];
}

const APPLY_SOLUTION = `function applyAttentionScores(weights, annotations) {
  return annotations.map((h, t) => h.map((value) => weights[t] * value));
}
`;

export const applyWeights: Exercise = {
  id: 'apply_weights',
  title: 'Scale each annotation by its weight',
  functionName: 'applyAttentionScores',
  prompt: `Complete <code>applyAttentionScores(weights, annotations)</code>: multiply every
    annotation $h_t$ (row $t$ of the $T \\times d$ matrix) by its own weight $\\alpha_t$ and
    return the $T \\times d$ matrix whose row $t$ is $\\alpha_t h_t$.`,
  starter: `function applyAttentionScores(weights, annotations) {
  // weights: [T], annotations: [T][d]  ->  [T][d]
  // TODO
  return annotations;
}
`,
  solution: APPLY_SOLUTION,
  hints: [
    'The result has the same shape as annotations.',
    'Row t is scaled by weights[t]: the weight index follows the row, not the column.',
  ],
  mistakes: [
    mistake(
      APPLY_SOLUTION,
      'weights[t] * value',
      'weights[t] + value',
      'Your result adds the weight to every entry; the weight scales the annotation: multiply, αₜ · hₜ.',
    ),
  ],
  cases: () => weightCases(5),
  async reference(call, [weights, annotations]) {
    return fromTensor(await call('weightedAnnotations', toTensor(weights), toTensor(annotations)));
  },
  figure: (value) => heatmapOf(value, 'h', 'd'),
};
