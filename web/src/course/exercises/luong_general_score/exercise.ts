import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const luongGeneralScore: Exercise = {
  id: 'luong_general_score',
  title: "Luong's general score",
  functionName: 'generalScore',
  prompt: `Complete <code>generalScore(s, annotations, W)</code>: Luong's <em>general</em> score puts a
    learned matrix between the decoder state and each annotation,
    $\\operatorname{score}(s, h_t) = s^\\top W h_t$, with $W$ of shape $d_s \\times d_h$. Unlike the
    dot product, $s$ and $h_t$ may have different sizes. Return the $T$ scores.
    (<code>np.dot</code> is available: <code>np.dot(W, h)</code> is $W h$.)`,
  starter: `function generalScore(s, annotations, W) {
  // s: [ds], annotations: [T][dh], W: [ds][dh]  ->  [T]
  return annotations.map((h) => np.dot(s, h)); // TODO: W is missing
}
`,
  solution: `function generalScore(s, annotations, W) {
  const sW = np.dot(s, W); // the row vector sᵀW, [dh]: the same for every annotation
  return annotations.map((h) => np.dot(sW, h));
}
`,
  hints: [
    'W h_t is a vector of d_s numbers; its dot product with s is the score.',
    'sᵀW does not depend on t: compute np.dot(s, W) once, then dot it with every annotation.',
  ],
  cases() {
    const random = seededRandom(21);
    return [
      {
        name: 'W = identity: the general score is the dot score (927 for h₁)',
        args: [
          [5, 1, 20],
          [
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
        name: 'a non-symmetric W: sᵀWh differs from hᵀWs',
        args: [
          [1, 0],
          [
            [0, 1],
            [1, 0],
          ],
          [
            [0, 2],
            [0, 0],
          ],
        ],
      },
      {
        name: 'state and annotations of different sizes (d_s = 2, d_h = 4, seed 21)',
        args: [randomVector(random, 2), randomMatrix(random, 3, 4), randomMatrix(random, 2, 4)],
      },
      {
        name: 'random (T = 5, d_s = 3, d_h = 3, seed 21)',
        args: [randomVector(random, 3), randomMatrix(random, 5, 3), randomMatrix(random, 3, 3)],
      },
    ];
  },
  async reference(call, [s, annotations, w]) {
    return fromTensor(await call('scores', 'general', toTensor(s), toTensor(annotations), { w: toTensor(w) }));
  },
  figure: (value) => heatmapOf(value),
  diagnose(_expected, got, [s, annotations, w]) {
    const S = s as number[],
      H = annotations as number[][],
      W = w as number[][];
    if (!Array.isArray(got) || got.length !== H.length) return null;
    const close = (a: number[], b: unknown[]) =>
      a.every((x, i) => typeof b[i] === 'number' && Math.abs(x - (b[i] as number)) < 1e-4);
    if (
      S.length === H[0].length &&
      close(
        H.map((h) => h.reduce((acc, x, i) => acc + x * S[i], 0)),
        got,
      )
    ) {
      return 'These are plain dot products sᵀh: the matrix W between s and h is missing.';
    }
    if (W.length === W[0].length) {
      const swapped = H.map((h) => h.reduce((acc, x, i) => acc + x * W[i].reduce((a, wij, j) => a + wij * S[j], 0), 0));
      if (close(swapped, got))
        return 'These are hᵀW s: W is used the other way round (transposed). The score is sᵀ(W h).';
    }
    return null;
  },
};
