import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor, transposed } from '../../engine_data';
import type { Exercise } from '../types';

export const attentionalState: Exercise = {
  id: 'attentional_state',
  title: 'The attentional hidden state',
  functionName: 'attentionalState',
  prompt: `Complete <code>attentionalState(c, s, Wc)</code>: after attention has produced the context
    $c_t$, Luong's decoder mixes it with its state $s_t$ into the attentional hidden state
    $\\tilde h_t = \\tanh(W_c [c_t; s_t])$, with $W_c$ of shape $d_s \\times (d_c + d_s)$: the
    context's columns first. Return the $d_s$ numbers of $\\tilde h_t$.`,
  starter: `function attentionalState(c, s, Wc) {
  // c: [dc], s: [ds], Wc: [ds][dc + ds]  ->  [ds]
  return np.dot(Wc, np.concatenate([s, c])); // TODO
}
`,
  solution: `function attentionalState(c, s, Wc) {
  return np.tanh(np.dot(Wc, np.concatenate([c, s])));
}
`,
  hints: ['[c_t; s_t] puts the context first.', 'Apply tanh to every entry of W_c [c_t; s_t].'],
  cases() {
    const random = seededRandom(34);
    return [
      {
        name: 'W_c reads only the context: h̃ = tanh(c)',
        args: [
          [1, -2],
          [5, 5],
          [
            [1, 0, 0, 0],
            [0, 1, 0, 0],
          ],
        ],
      },
      {
        name: 'W_c reads only the state: h̃ = tanh(s)',
        args: [
          [1, -2],
          [0.5, 3],
          [
            [0, 0, 1, 0],
            [0, 0, 0, 1],
          ],
        ],
      },
      {
        name: 'context and state of different sizes (d_c = 3, d_s = 2, seed 34)',
        args: [randomVector(random, 3), randomVector(random, 2), randomMatrix(random, 2, 5, 1)],
      },
      {
        name: 'random (d_c = d_s = 4, seed 34)',
        args: [randomVector(random, 4), randomVector(random, 4), randomMatrix(random, 4, 8, 1)],
      },
    ];
  },
  async reference(call, [c, s, wc]) {
    // The engine's Luong step with one annotation h = c: its weight is 1, so its context is c
    // exactly, and the step's attentional state is tanh(W_c [c; s]).
    const ds = (s as number[]).length,
      dc = (c as number[]).length;
    const r = await call(
      'luongAttentionStep',
      'general',
      toTensor([s]),
      toTensor([[c]]),
      {
        wA: toTensor(Array.from({ length: ds }, () => new Array(dc).fill(0))),
        wC: toTensor(transposed(wc as number[][])),
      },
      null,
    );
    return (fromTensor(r.attentional) as number[][])[0];
  },
  figure: (value) => heatmapOf(value, 'h̃', 'd', [-1, 1]),
  diagnose(_expected, got, [c, s, wc]) {
    if (!Array.isArray(got)) return null;
    const W = wc as number[][];
    const swapped = W.map((row) =>
      Math.tanh(row.reduce((acc, w, j) => acc + w * [...(s as number[]), ...(c as number[])][j], 0)),
    );
    const linear = W.map((row) => row.reduce((acc, w, j) => acc + w * [...(c as number[]), ...(s as number[])][j], 0));
    const close = (x: number[]) => x.every((v, i) => Math.abs(v - Number(got[i])) < 1e-4);
    if (close(swapped)) return 'You concatenated [s_t; c_t]: the context comes first, [c_t; s_t].';
    if (close(linear)) return 'The tanh is missing.';
    return null;
  },
};
