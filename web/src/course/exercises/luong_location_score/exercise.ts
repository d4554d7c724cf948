import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const luongLocationScore: Exercise = {
  id: 'luong_location_score',
  title: "Luong's location score",
  functionName: 'locationScore',
  prompt: `Complete <code>locationScore(s, annotations, W)</code>: Luong's <em>location</em> score
    ignores what the annotations say and looks only at the decoder state:
    $\\operatorname{score} = W s$, one number per source position, with $W$ of shape
    $T \\times d_s$ (row $t$ of $W$ scores position $t$). The annotations are passed only so you
    know $T$. Return the $T$ scores.`,
  starter: `function locationScore(s, annotations, W) {
  // s: [ds], annotations: [T][dh] (only T matters), W: [T][ds]  ->  [T]
  return annotations.map((h) => np.dot(s, h)); // TODO: this scores by content
}
`,
  solution: `function locationScore(s, annotations, W) {
  return np.dot(W, s); // row t of W times s
}
`,
  hints: [
    'Nothing in the score reads h_t: only its position t.',
    'np.dot(W, s) multiplies every row of W with s: exactly one score per position.',
  ],
  cases() {
    const random = seededRandom(23);
    return [
      {
        name: 'W picks coordinates: score_t = s_t',
        args: [
          [5, 1, 20],
          [
            [3, 12, 45],
            [59, 2, 5],
            [1, 43, 5],
          ],
          [
            [1, 0, 0],
            [0, 1, 0],
            [0, 0, 1],
          ],
        ],
      },
      {
        name: 'the same annotations in another order get the same scores',
        args: [
          [5, 1, 20],
          [
            [1, 43, 5],
            [3, 12, 45],
            [59, 2, 5],
          ],
          [
            [1, 0, 0],
            [0, 1, 0],
            [0, 0, 1],
          ],
        ],
      },
      {
        name: 'd_s = 2, T = 4 (W is T × d_s, seed 23)',
        args: [randomVector(random, 2), randomMatrix(random, 4, 3), randomMatrix(random, 4, 2)],
      },
      {
        name: 'random (T = 6, d_s = 5, seed 23)',
        args: [randomVector(random, 5), randomMatrix(random, 6, 2), randomMatrix(random, 6, 5)],
      },
    ];
  },
  async reference(call, [s, annotations, w]) {
    return fromTensor(await call('scores', 'location', toTensor(s), toTensor(annotations), { w: toTensor(w) }));
  },
  figure: (value) => heatmapOf(value),
  diagnose(_expected, got, [s, annotations]) {
    const S = s as number[],
      H = annotations as number[][];
    if (!Array.isArray(got) || got.length !== H.length || S.length !== H[0].length) return null;
    const content = H.every((h, t) => Math.abs(h.reduce((acc, x, i) => acc + x * S[i], 0) - Number(got[t])) < 1e-4);
    return content ? 'These scores compare s with the annotations; the location score uses only W and s.' : null;
  },
};
