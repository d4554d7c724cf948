import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const luongConcatScore: Exercise = {
  id: 'luong_concat_score',
  title: "Luong's concat score",
  functionName: 'concatScore',
  prompt: `Complete <code>concatScore(s, annotations, W, v)</code>: Luong's <em>concat</em> score
    stacks the decoder state on top of the annotation and runs one small layer,
    $\\operatorname{score}(s, h_t) = v^\\top \\tanh\\big(W [s; h_t]\\big)$, with $W$ of shape
    $A \\times (d_s + d_h)$ and $v$ of length $A$. The order matters: $s$ first, then $h_t$.
    Return the $T$ scores.`,
  starter: `function concatScore(s, annotations, W, v) {
  // s: [ds], annotations: [T][dh], W: [A][ds + dh], v: [A]  ->  [T]
  return annotations.map((h) => {
    const z = np.concatenate([h, s]); // TODO: check the order
    return np.dot(v, np.dot(W, z)); // TODO: something is missing
  });
}
`,
  solution: `function concatScore(s, annotations, W, v) {
  return annotations.map((h) => {
    const z = np.concatenate([s, h]); // [s; h], length ds + dh
    return np.dot(v, np.tanh(np.dot(W, z)));
  });
}
`,
  hints: [
    'np.concatenate([s, h]) is [s; h]: the first d_s entries come from s.',
    'W z is a vector of A numbers; apply tanh to each before the dot product with v.',
  ],
  cases() {
    const random = seededRandom(22);
    return [
      {
        name: 'd_s = d_h = 1, W = [[1, 0], [0, 1]]: score = tanh(s) + tanh(h)',
        args: [
          [1],
          [[0], [2], [-1]],
          [
            [1, 0],
            [0, 1],
          ],
          [1, 1],
        ],
      },
      {
        name: 'W reads only s: every annotation gets the same score',
        args: [
          [1, -1],
          [
            [3, 0],
            [0, 3],
          ],
          [
            [1, 0, 0, 0],
            [0, 1, 0, 0],
          ],
          [1, 2],
        ],
      },
      {
        name: 'state and annotations of different sizes (d_s = 2, d_h = 3, A = 4, seed 22)',
        args: [
          randomVector(random, 2),
          randomMatrix(random, 4, 3),
          randomMatrix(random, 4, 5, 1),
          randomVector(random, 4, 1),
        ],
      },
      {
        name: 'random (T = 6, d_s = d_h = 3, A = 5, seed 22)',
        args: [
          randomVector(random, 3),
          randomMatrix(random, 6, 3),
          randomMatrix(random, 5, 6, 1),
          randomVector(random, 5, 1),
        ],
      },
    ];
  },
  async reference(call, [s, annotations, w, v]) {
    const params = { w: toTensor(w), v: toTensor(v) };
    return fromTensor(await call('scores', 'concat', toTensor(s), toTensor(annotations), params));
  },
  figure: (value) => heatmapOf(value),
  diagnose(_expected, got, [s, annotations, w, v]) {
    const S = s as number[],
      H = annotations as number[][],
      W = w as number[][],
      V = v as number[];
    if (!Array.isArray(got) || got.length !== H.length) return null;
    const score = (z: number[], squash: (x: number) => number) =>
      V.reduce((acc, va, a) => acc + va * squash(W[a].reduce((x, wj, j) => x + wj * z[j], 0)), 0);
    const close = (f: (h: number[]) => number) => H.every((h, t) => Math.abs(f(h) - Number(got[t])) < 1e-4);
    if (close((h) => score([...h, ...S], Math.tanh)))
      return 'You concatenated [h; s]: the decoder state comes first, [s; h].';
    if (close((h) => score([...S, ...h], (x) => x)))
      return 'The tanh is missing: apply it to W[s; h] before the dot product with v.';
    return null;
  },
};
