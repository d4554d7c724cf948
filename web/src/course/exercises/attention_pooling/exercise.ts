import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toMask, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const attentionPooling: Exercise = {
  id: 'attention_pooling',
  title: 'Attention pooling with a learned query',
  functionName: 'attentionPool',
  prompt: `Complete <code>attentionPool(hidden, q, mask)</code>. A classifier has no decoder state to
    ask with, so it learns a query vector $q$: for review $b$, the score of token $t$ is
    $q^\\top h_{b,t}$, the weights are a softmax over the review's <em>real</em> tokens
    (<code>mask[b][t]</code> is 1 for a real token, 0 for padding: padding gets weight exactly 0),
    and the pooled vector is $\\sum_t a_{b,t} h_{b,t}$. Return <code>{ weights, pooled }</code>:
    weights $B \\times T$, pooled $B \\times D$.`,
  starter: `function attentionPool(hidden, q, mask) {
  // hidden: [B][T][D], q: [D], mask: [B][T] of 0/1
  const weights = hidden.map((H, b) => {
    const scores = H.map((h) => np.dot(q, h));
    const exps = np.exp(np.subtract(scores, np.max(scores)));
    return np.divide(exps, np.sum(exps)); // TODO: padding still gets weight
  });
  const pooled = weights.map((a, b) => np.dot(a, hidden[b]));
  return { weights, pooled };
}
`,
  solution: `function attentionPool(hidden, q, mask) {
  const weights = hidden.map((H, b) => {
    const scores = H.map((h) => np.dot(q, h));
    const real = scores.filter((_, t) => mask[b][t]);
    if (real.length === 0) return scores.map(() => 0); // an empty review: no weights
    const m = np.max(real);
    const exps = scores.map((x, t) => (mask[b][t] ? Math.exp(x - m) : 0));
    return np.divide(exps, np.sum(exps));
  });
  const pooled = weights.map((a, b) => np.dot(a, hidden[b]));
  return { weights, pooled };
}
`,
  hints: [
    'Padding positions must not take part in the maximum, in the sum, or get any weight.',
    'Give a padded position an exponential of 0 (it then drops out of the normalisation by itself).',
    'A review that is all padding gets all-zero weights and a zero pooled vector, not NaN.',
  ],
  cases() {
    const random = seededRandom(27);
    const h = Array.from({ length: 2 }, () => randomMatrix(random, 4, 3));
    return [
      {
        name: 'one review, no padding, q = [1, 0]',
        args: [
          [
            [
              [1, 0],
              [0, 1],
              [2, 2],
            ],
          ],
          [1, 0],
          [[1, 1, 1]],
        ],
      },
      {
        name: "pre-padding (Keras' default): the first two positions are padding",
        args: [
          [
            [
              [9, 9],
              [9, 9],
              [1, 0],
              [0, 1],
            ],
          ],
          [1, 1],
          [[0, 0, 1, 1]],
        ],
      },
      {
        name: 'two reviews of different lengths (T = 4, D = 3, seed 27)',
        args: [
          h,
          randomVector(random, 3),
          [
            [1, 1, 1, 1],
            [0, 1, 1, 1],
          ],
        ],
      },
      {
        name: 'an empty review (all padding) gets zero weights and a zero pooled vector',
        args: [
          h,
          randomVector(random, 3),
          [
            [1, 1, 0, 0],
            [0, 0, 0, 0],
          ],
        ],
      },
    ];
  },
  async reference(call, [hidden, q, mask]) {
    const rows = await Promise.all(
      (hidden as number[][][]).map((h, b) =>
        call('attend', 'dot', toTensor(q), toTensor(h), { mask: toMask((mask as number[][])[b]) }),
      ),
    );
    return { weights: rows.map((r) => fromTensor(r.weights)), pooled: rows.map((r) => fromTensor(r.context)) };
  },
  figure: (value) => {
    const weights = value && typeof value === 'object' ? (value as { weights?: unknown }).weights : undefined;
    return heatmapOf(weights, 'b', 't', [0, 1]);
  },
  diagnose(_expected, got, [, , mask]) {
    const w = (got as { weights?: unknown } | null)?.weights;
    if (!Array.isArray(w)) return null;
    const leaked = (mask as number[][]).some(
      (row, b) => Array.isArray(w[b]) && row.some((m, t) => !m && Math.abs(Number((w[b] as unknown[])[t])) > 1e-6),
    );
    return leaked ? 'Padding positions got weight: leave them out of the softmax (weight exactly 0).' : null;
  },
};
