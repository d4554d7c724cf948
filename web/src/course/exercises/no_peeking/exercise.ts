import { mistake } from '../mistakes';
import { randomMatrix, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toMask, toTensor } from '../../engine_data';
import type { EngineCall, Exercise } from '../types';

export interface Layer {
  Wq: number[][];
  Wk: number[][];
  Wv: number[][];
  mask: number[][];
}

// The decoder the learner probes, as plain JavaScript (the same maths as the engine's reference).
const RUN_DECODER = `function runDecoder(layers, X) { // given: Y = X + attention(X), layer by layer
  for (const { Wq, Wk, Wv, mask } of layers) {
    const Q = np.matmul(X, Wq), K = np.matmul(X, Wk), V = np.matmul(X, Wv);
    X = np.add(X, Q.map((q, i) => {
      const s = K.map((k, j) => (mask[i][j] ? np.dot(q, k) / Math.sqrt(q.length) : -Infinity));
      const m = Math.max(...s), e = s.map((v) => Math.exp(v - m));
      return m === -Infinity ? V[0].map(() => 0) : np.dot(np.divide(e, np.sum(e)), V);
    }));
  }
  return X;
}
`;

const SOLUTION = `function peeks(layers, X) {
  const T = X.length;
  const base = runDecoder(layers, X);
  const result = X.map(() => new Array(T).fill(0));
  for (let s = 0; s < T; s++) {
    // perturb token s
    const changed = X.map((row, r) => (r === s ? row.map((v) => v + 1) : row));
    const out = runDecoder(layers, changed);
    for (let t = 0; t < s; t++) {
      if (out[t].some((v, c) => Math.abs(v - base[t][c]) > 1e-9)) result[t][s] = 1;
    }
  }
  return result;
}

${RUN_DECODER}`;

const causal = (n: number) =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? 1 : 0)));
const full = (n: number) => Array.from({ length: n }, () => new Array(n).fill(1));

function layer(random: () => number, d: number, mask: number[][]): Layer {
  return {
    Wq: randomMatrix(random, d, d, 1),
    Wk: randomMatrix(random, d, d, 1),
    Wv: randomMatrix(random, d, d, 1),
    mask,
  };
}

/** The engine's decoder output: per layer X + scaledDotProductAttention(XWq, XWk, XWv, mask). */
export async function engineDecoder(call: EngineCall, layers: Layer[], x: number[][]): Promise<number[][]> {
  let xs = x;
  for (const l of layers) {
    const t = toTensor(xs);
    const q = await call('matmul', t, toTensor(l.Wq));
    const k = await call('matmul', t, toTensor(l.Wk));
    const v = await call('matmul', t, toTensor(l.Wv));
    const out = fromTensor(
      (await call('scaledDotProductAttention', q, k, v, { mask: toMask(l.mask) })).output,
    ) as number[][];
    xs = xs.map((row, i) => row.map((value, c) => value + out[i][c]));
  }
  return xs;
}

export const noPeeking: Exercise = {
  id: 'no_peeking',
  title: 'A "no peeking" checker',
  functionName: 'peeks',
  prompt: `How do you know a decoder cannot see the future? Not by reading its code: by
    experiment. Change the input at position $s$ and watch the outputs at positions $t \\lt s$:
    if any of them moves, position $t$ peeked at $s$. Complete <code>peeks(layers, X)</code>:
    <code>runDecoder(layers, X)</code> (given) runs a stack of masked self-attention layers on
    $X$ ($T \\times d$). Return a $T \\times T$ matrix with a 1 at $[t][s]$ when $s \\gt t$ and changing
    token $s$ (add 1 to each of its numbers) changes output $t$ by more than $10^{-9}$, and 0
    everywhere else. Treat the decoder as a black box: some layers' masks let the future in
    through weights that ignore it, and a leak can pass through two layers.`,
  starter: `function peeks(layers, X) {
  // -> [T][T]: 1 where output t moves when a later token s changes (t < s)
  const base = runDecoder(layers, X);
  const result = X.map(() => X.map(() => 0));
  // TODO: for each s, add 1 to each number of X[s], rerun, compare rows t < s (1e-9)
  return result;
}

${RUN_DECODER}`,
  solution: SOLUTION,
  hints: [
    'For each position s: copy X, add 1 to every number of row s, run runDecoder on the copy.',
    'Only the outputs before s matter (t < s): later outputs are allowed to depend on s.',
    'Compare output rows with a tolerance of 1e-9 rather than ===, and leave the diagonal and below at 0.',
  ],
  mistakes: [
    mistake(
      SOLUTION,
      'for (let t = 0; t < s; t++)',
      'for (let t = 0; t <= s; t++)',
      'Your matrix marks position s as peeking at itself: only earlier outputs (t < s) count, a position may always see its own token.',
    ),
  ],
  cases() {
    const random = seededRandom(114);
    const T = 5;
    const d = 3;
    const x = () => randomMatrix(random, T, d);
    const offByOne = Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (j <= i + 1 ? 1 : 0)));
    const oneLeak = (t: number, s: number) =>
      causal(T).map((row, i) => row.map((v, j) => (i === t && j === s ? 1 : v)));
    const blind: Layer = {
      Wq: randomMatrix(random, d, d, 1),
      Wk: Array.from({ length: d }, () => new Array(d).fill(0)),
      Wv: Array.from({ length: d }, () => new Array(d).fill(0)),
      mask: full(T),
    };
    return [
      { name: 'one causal layer: no peeking anywhere', args: [[layer(random, d, causal(T))], x()] },
      { name: 'no mask at all: every earlier position sees every later one', args: [[layer(random, d, full(T))], x()] },
      { name: 'a mask off by one (j <= i + 1)', args: [[layer(random, d, offByOne)], x()] },
      {
        name: 'an open mask on a layer with W_K = W_V = 0 (it ignores its input) then a causal layer: no leak',
        args: [[blind, layer(random, d, causal(T))], x()],
      },
      {
        name: 'a leak through two layers: 3 sees 4 in layer 1, 1 sees 3 in layer 2',
        args: [[layer(random, d, oneLeak(3, 4)), layer(random, d, oneLeak(1, 3))], x()],
      },
      {
        name: 'random: two causal layers, T = 5',
        args: [[layer(random, d, causal(T)), layer(random, d, causal(T))], x()],
      },
    ];
  },
  async reference(call, [layers, x]) {
    const xs = x as number[][];
    const ls = layers as Layer[];
    const base = await engineDecoder(call, ls, xs);
    const result = xs.map(() => new Array(xs.length).fill(0));
    for (let s = 0; s < xs.length; s++) {
      const changed = xs.map((row, r) => (r === s ? row.map((v) => v + 1) : row));
      const out = await engineDecoder(call, ls, changed);
      for (let t = 0; t < s; t++) {
        if (out[t].some((v, c) => Math.abs(v - base[t][c]) > 1e-9)) result[t][s] = 1;
      }
    }
    return result;
  },
  figure: (value) => heatmapOf(value, 't', 's', [0, 1]),
};
