import { randomMatrix, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toMask, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

const causal = (n: number) =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? 1 : 0)));

export const scaledDotProductAttention: Exercise = {
  id: 'scaled_dot_product_attention',
  title: 'Scaled dot-product attention with a mask',
  functionName: 'scaledDotProductAttention',
  prompt: `Complete <code>scaledDotProductAttention(Q, K, V, mask)</code>: return
    <code>{ weights, output }</code> with weights $= \\operatorname{softmax}(Q K^\\top / \\sqrt{d_k})$
    row by row (a $T_q \\times T_k$ matrix) and output $=$ weights $\\cdot V$ ($T_q \\times d_v$).
    <code>mask</code> is <code>null</code> or a $T_q \\times T_k$ matrix of 1 (visible) and 0 (hidden):
    hidden keys get weight exactly 0, and a row with no visible key gets all-zero weights (and so
    an all-zero output) rather than NaN.`,
  starter: `function scaledDotProductAttention(Q, K, V, mask) {
  // Q: [Tq][dk], K: [Tk][dk], V: [Tk][dv], mask: null or [Tq][Tk]
  const dk = Q[0].length;
  const weights = Q.map((q, i) => {
    const scores = K.map((k) => q.reduce((s, q_c, c) => s + q_c * k[c], 0)); // TODO: scale
    // TODO: masked, numerically stable softmax of scores
    return scores;
  });
  const output = weights.map((w) => V[0].map((_, c) => w.reduce((s, w_j, j) => s + w_j * V[j][c], 0)));
  return { weights, output };
}
`,
  solution: `function scaledDotProductAttention(Q, K, V, mask) {
  const dk = Q[0].length;
  const weights = Q.map((q, i) => {
    const visible = (j) => !mask || mask[i][j];
    const scores = K.map((k) => q.reduce((s, q_c, c) => s + q_c * k[c], 0) / Math.sqrt(dk));
    let m = -Infinity;
    scores.forEach((s, j) => { if (visible(j)) m = Math.max(m, s); });
    if (m === -Infinity) return scores.map(() => 0); // nothing visible: all zeros, not NaN
    const exps = scores.map((s, j) => (visible(j) ? Math.exp(s - m) : 0));
    const total = exps.reduce((a, b) => a + b, 0);
    return exps.map((e) => e / total);
  });
  const output = weights.map((w) => V[0].map((_, c) => w.reduce((s, w_j, j) => s + w_j * V[j][c], 0)));
  return { weights, output };
}
`,
  hints: [
    'Scale every score by 1 / Math.sqrt(dk) before the softmax.',
    'For the mask, leave hidden keys out of the maximum and out of the sum, and give them weight 0.',
    'If a row has no visible key at all, return zeros for it instead of dividing 0 by 0.',
  ],
  cases() {
    const random = seededRandom(9);
    const q = randomMatrix(random, 3, 4);
    const k = randomMatrix(random, 3, 4);
    const v = randomMatrix(random, 3, 2);
    const big = [
      [30, 30],
      [-30, 30],
    ];
    return [
      {
        name: 'no mask (Tq = 3, Tk = 3, d_k = 4, seed 9)',
        args: [q, k, v, null],
      },
      { name: 'a causal mask (same inputs)', args: [q, k, v, causal(3)] },
      {
        name: 'a fully masked row: query 2 sees no key, so its weights and output are all 0',
        args: [
          q,
          k,
          v,
          [
            [1, 1, 0],
            [0, 0, 0],
            [1, 0, 1],
          ],
        ],
      },
      { name: 'one key', args: [[[1, 2]], [[3, 4]], [[5, 6, 7]], null] },
      {
        name: 'large scores (1800/√2 ≈ 1273: Math.exp overflows unless the row maximum is subtracted)',
        args: [
          big,
          big,
          [
            [1, 0],
            [0, 1],
          ],
          null,
        ],
      },
      {
        name: 'random (Tq = 2, Tk = 5, d_k = 16, seed 9)',
        args: [randomMatrix(random, 2, 16), randomMatrix(random, 5, 16), randomMatrix(random, 5, 3), null],
      },
    ];
  },
  async reference(call, [q, k, v, mask]) {
    const options = mask ? { mask: toMask(mask) } : null;
    const r = await call('scaledDotProductAttention', toTensor(q), toTensor(k), toTensor(v), options);
    return { weights: fromTensor(r.weights), output: fromTensor(r.output) };
  },
  figure: (value) => {
    const weights = value && typeof value === 'object' ? (value as { weights?: unknown }).weights : undefined;
    return heatmapOf(weights, 'q', 'k', [0, 1]);
  },
  diagnose(expected, got, [q]) {
    const dk = (q as number[][])[0].length;
    const e = (expected as { weights: number[][] }).weights;
    const g = (got as { weights?: unknown } | null)?.weights;
    if (!Array.isArray(g) || !Array.isArray(g[0])) return null;
    if (g.some((row: unknown) => Array.isArray(row) && row.some((x) => typeof x === 'number' && Number.isNaN(x)))) {
      return 'Some weights are NaN: a row with no visible key (0/0), or Math.exp overflowing (subtract the row maximum).';
    }
    // Without the 1/√d_k the softmax is sharper: compare with softmax(√d_k · log w) of the reference.
    const row = e[0];
    const sharper = row.map((w) => Math.pow(w, Math.sqrt(dk)));
    const total = sharper.reduce((a, b) => a + b, 0);
    if (dk > 1 && total > 0 && sharper.every((w, j) => Math.abs(w / total - Number(g[0][j])) < 1e-3)) {
      return `Your weights are too peaked: they match softmax(Q Kᵀ) without the division by √d_k = ${Math.sqrt(dk)}.`;
    }
    return null;
  },
};
