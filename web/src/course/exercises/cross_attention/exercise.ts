import { mistake } from '../mistakes';
import { randomMatrix, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

const SOLUTION = `function crossAttention(decoderStates, encoderStates, sourceLengths, Wq, Wk, Wv) {
  const weights = [], output = [];
  decoderStates.forEach((X, b) => {
    const Q = np.matmul(X, Wq);          // queries from the decoder
    const source = encoderStates[b];     // keys and values from the encoder
    const K = np.matmul(source, Wk);
    const V = np.matmul(source, Wv);
    const dk = Wq[0].length;
    const w = Q.map((q) => {
      const scores = K.map((k) => np.dot(q, k) / Math.sqrt(dk));
      const visible = scores.map((_, j) => j < sourceLengths[b]);
      const m = Math.max(...scores.filter((_, j) => visible[j]));
      const e = scores.map((s, j) => (visible[j] ? Math.exp(s - m) : 0));
      const total = np.sum(e);
      return e.map((x) => x / total);
    });
    weights.push(w);
    output.push(np.matmul(w, V));
  });
  return { weights, output };
}
`;

function batchCase(
  random: () => number,
  name: string,
  B: number,
  tt: number,
  ts: number,
  d: number,
  dk: number,
  lengths?: number[],
) {
  return {
    name,
    args: [
      Array.from({ length: B }, () => randomMatrix(random, tt, d)),
      Array.from({ length: B }, () => randomMatrix(random, ts, d)),
      lengths ?? Array.from({ length: B }, () => 1 + Math.floor(random() * ts)),
      randomMatrix(random, d, dk, 1),
      randomMatrix(random, d, dk, 1),
      randomMatrix(random, d, dk, 1),
    ],
  };
}

export const crossAttention: Exercise = {
  id: 'cross_attention',
  title: 'Cross-attention for a batch',
  functionName: 'crossAttention',
  prompt: `In the decoder's cross-attention the <em>queries</em> come from the decoder and the
    <em>keys and values</em> from the encoder. Complete
    <code>crossAttention(decoderStates, encoderStates, sourceLengths, Wq, Wk, Wv)</code>:
    decoderStates is $B \\times T_{tgt} \\times d$, encoderStates $B \\times T_{src} \\times d$ (padded),
    sourceLengths the real length of each source, and $W_Q, W_K, W_V$ are $d \\times d_k$. For every
    sentence $b$: $Q = X_b W_Q$, $K = H_b W_K$, $V = H_b W_V$, weights
    $= \\operatorname{softmax}(QK^\\top / \\sqrt{d_k})$ over the real source tokens only (padding gets
    weight 0), output $=$ weights $\\cdot V$. Return <code>{ weights, output }</code>, shapes
    $B \\times T_{tgt} \\times T_{src}$ and $B \\times T_{tgt} \\times d_k$. <code>np.matmul</code> and
    <code>np.dot</code> are there to help.`,
  starter: `function crossAttention(decoderStates, encoderStates, sourceLengths, Wq, Wk, Wv) {
  // decoderStates [B][Tt][d], encoderStates [B][Ts][d], sourceLengths [B], W* [d][dk]
  const weights = [], output = [];
  decoderStates.forEach((X, b) => {
    const Q = np.matmul(X, Wq);
    const K = np.matmul(X, Wk); // TODO: where do keys and values come from?
    const V = np.matmul(X, Wv);
    const w = Q.map((q) => {
      const scores = K.map((k) => np.dot(q, k));
      const e = scores.map((s) => Math.exp(s)); // TODO: scale, mask the padding, stable softmax
      return e.map((x) => x / np.sum(e));
    });
    weights.push(w);
    output.push(np.matmul(w, V));
  });
  return { weights, output };
}
`,
  solution: SOLUTION,
  hints: [
    'Queries are the decoder states times W_Q; keys and values are the encoder states times W_K and W_V.',
    'Each weight row has one entry per source token (T_src), not per target token.',
    'Divide the scores by √d_k, give the padding positions (j >= sourceLengths[b]) weight 0, and subtract the row maximum before Math.exp.',
  ],
  mistakes: [
    mistake(
      SOLUTION,
      'const source = encoderStates[b];',
      'const source = X;',
      'Your keys and values come from the decoder states: that is self-attention. In cross-attention they come from the encoder, only the queries from the decoder.',
    ),
    mistake(
      SOLUTION,
      'j < sourceLengths[b]',
      'j < encoderStates[b].length',
      'Padding positions of the source get weight: only keys j < sourceLengths[b] are real source tokens.',
    ),
    mistake(
      SOLUTION,
      'np.dot(q, k) / Math.sqrt(dk)',
      'np.dot(q, k)',
      'The scores are not divided by √d_k (the width of the keys, Wq[0].length).',
    ),
  ],
  cases() {
    const random = seededRandom(112);
    return [
      batchCase(random, 'one decoding step (T_tgt = 1), one sentence, no padding', 1, 1, 4, 3, 2, [4]),
      batchCase(random, 'a source of one token', 1, 3, 1, 3, 2, [1]),
      batchCase(random, 'a batch of 2 with source lengths 5 and 2 (padded to 5)', 2, 3, 5, 4, 3, [5, 2]),
      batchCase(random, 'random batch: B = 3, T_tgt = 4, T_src = 6', 3, 4, 6, 4, 4),
      batchCase(random, 'random batch: B = 2, T_tgt = 5, T_src = 3', 2, 5, 3, 5, 2),
    ];
  },
  async reference(call, args) {
    const [xs, hs, lengths, wq, wk, wv] = args as [
      number[][][],
      number[][][],
      number[],
      number[][],
      number[][],
      number[][],
    ];
    const weights = [];
    const output = [];
    for (let b = 0; b < xs.length; b++) {
      const q = await call('matmul', toTensor(xs[b]), toTensor(wq));
      const k = await call('matmul', toTensor(hs[b]), toTensor(wk));
      const v = await call('matmul', toTensor(hs[b]), toTensor(wv));
      const mask = await call('paddingMask', xs[b].length, hs[b].length, lengths[b]);
      const r = await call('scaledDotProductAttention', q, k, v, { mask });
      weights.push(fromTensor(r.weights));
      output.push(fromTensor(r.output));
    }
    return { weights, output };
  },
  figure(value) {
    const w = (value as { weights?: unknown } | null)?.weights;
    return Array.isArray(w) ? heatmapOf(w[w.length - 1], 'y', 'x', [0, 1]) : null;
  },
};
