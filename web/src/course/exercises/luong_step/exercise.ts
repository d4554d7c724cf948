import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor, transposed } from '../../engine_data';
import type { Exercise } from '../types';

export const luongStep: Exercise = {
  id: 'luong_step',
  title: "One step of Luong's global attention",
  functionName: 'luongStep',
  prompt: `Complete <code>luongStep(s, annotations, Wa, Wc)</code>: Luong's decoder attends with its
    <em>current</em> state $s_t$. Score every annotation with the general score
    $e_j = s_t^\\top W_a h_j$ ($W_a$: $d_s \\times d_h$), take the softmax
    $a = \\operatorname{softmax}(e)$ and the context $c_t = \\sum_j a_j h_j$; then the
    <em>attentional hidden state</em> $\\tilde h_t = \\tanh(W_c [c_t; s_t])$ ($W_c$:
    $d_s \\times (d_h + d_s)$, context first) is what predicts the next word. Return
    <code>{ weights, context, attentional }</code>.`,
  starter: `function luongStep(s, annotations, Wa, Wc) {
  // s: [ds], annotations: [T][dh], Wa: [ds][dh], Wc: [ds][dh + ds]
  const sWa = np.dot(s, Wa);
  const e = annotations.map((h) => np.dot(sWa, h));
  const exps = np.exp(np.subtract(e, np.max(e)));
  const weights = np.divide(exps, np.sum(exps));
  const context = np.dot(weights, annotations);
  const attentional = np.dot(Wc, np.concatenate([s, context])); // TODO
  return { weights, context, attentional };
}
`,
  solution: `function luongStep(s, annotations, Wa, Wc) {
  const sWa = np.dot(s, Wa);
  const e = annotations.map((h) => np.dot(sWa, h));
  const exps = np.exp(np.subtract(e, np.max(e)));
  const weights = np.divide(exps, np.sum(exps));
  const context = np.dot(weights, annotations);
  const attentional = np.tanh(np.dot(Wc, np.concatenate([context, s]))); // [c_t; s_t]
  return { weights, context, attentional };
}
`,
  hints: [
    'The scores, weights and context in the starter are right; look at the last line.',
    'The concatenation is [c_t; s_t]: context first, state second.',
    'The attentional state goes through a tanh.',
  ],
  cases() {
    const random = seededRandom(33);
    const make = (t: number, ds: number, dh: number) => [
      randomVector(random, ds),
      randomMatrix(random, t, dh),
      randomMatrix(random, ds, dh, 1),
      randomMatrix(random, ds, dh + ds, 1),
    ];
    return [
      {
        name: 'one annotation: the context is that annotation (d_s = d_h = 1)',
        args: [[1], [[2]], [[1]], [[1, -1]]],
      },
      { name: 'T = 3, d_s = 2, d_h = 3 (seed 33)', args: make(3, 2, 3) },
      { name: 'random (T = 5, d_s = d_h = 4, seed 33)', args: make(5, 4, 4) },
      {
        name: 'large scores (Math.exp overflows unless the maximum is subtracted)',
        args: [[30], [[30], [-30], [29]], [[1]], [[0.5, 0.5]]],
      },
    ];
  },
  async reference(call, [s, annotations, wa, wc]) {
    const r = await call(
      'luongAttentionStep',
      'general',
      toTensor([s]),
      toTensor([annotations]),
      {
        wA: toTensor(wa),
        wC: toTensor(transposed(wc as number[][])),
      },
      null,
    );
    const first = (t: ReturnType<typeof fromTensor>) => (t as number[][])[0];
    return {
      weights: first(fromTensor(r.weights)),
      context: first(fromTensor(r.context)),
      attentional: first(fromTensor(r.attentional)),
    };
  },
  figure: (value) => {
    const weights = value && typeof value === 'object' ? (value as { weights?: unknown }).weights : undefined;
    return heatmapOf(weights, 's', 'h', [0, 1]);
  },
  diagnose(expected, got, [s, , , wc]) {
    const g = (got as { attentional?: unknown; context?: unknown } | null)?.attentional;
    const c = (expected as { context: number[] }).context;
    if (!Array.isArray(g)) return null;
    const W = wc as number[][],
      S = s as number[];
    const layer = (z: number[], squash: (x: number) => number) =>
      W.map((row) => squash(row.reduce((acc, w, j) => acc + w * z[j], 0)));
    const close = (x: number[]) => x.every((v, i) => Math.abs(v - Number(g[i])) < 1e-4);
    if (close(layer([...S, ...c], Math.tanh)))
      return 'You concatenated [s_t; c_t]: the context comes first, [c_t; s_t].';
    if (close(layer([...c, ...S], (x) => x))) return 'The tanh is missing from the attentional state.';
    return null;
  },
};
