import { mistake } from '../mistakes';
import { randomMatrix, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

// The driver the learner is given: one call of attendStep per position, with the cache.
const DRIVER = `// Given: decodes position after position, as a translator does, with one cache.
function decodeWithCache(X, Wq, Wk, Wv) {
  const cache = { keys: [], values: [] };
  return X.map((x) => attendStep(cache, x, Wq, Wk, Wv));
}
`;

const SOLUTION = `function attendStep(cache, x, Wq, Wk, Wv) {
  const q = np.dot(x, Wq);
  cache.keys.push(np.dot(x, Wk)); // only the new position's key and value are computed
  cache.values.push(np.dot(x, Wv));
  const scores = cache.keys.map((k) => np.dot(q, k) / Math.sqrt(q.length));
  const m = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - m));
  const total = np.sum(e);
  return np.dot(e.map((v) => v / total), cache.values);
}

${DRIVER}`;

export const cachedDecodingStep: Exercise = {
  id: 'cached_decoding_step',
  title: 'One decoding step with cached keys and values',
  functionName: 'decodeWithCache',
  prompt: `Training runs the decoder's masked self-attention on all target positions at once. A
    translator cannot: it produces one token per step. Recomputing the keys and values of the
    whole prefix at every step wastes work, so a decoder keeps a <em>cache</em>: the keys and
    values of the positions already decoded. Complete <code>attendStep(cache, x, Wq, Wk, Wv)</code>
    for one new position with input $x$ ($d$ numbers): compute its query $q = x W_Q$, append its key
    $x W_K$ and value $x W_V$ to <code>cache.keys</code> and <code>cache.values</code>, and return
    the attention output $\\operatorname{softmax}(q K^\\top / \\sqrt{d_k}) V$ over every cached position
    (itself included). <code>decodeWithCache</code> (given) calls it position by position; it is
    checked against the engine's <em>uncached</em> masked self-attention over the whole sequence
    (<code>scaledDotProductAttention</code> with a causal mask): the outputs must be equal.`,
  starter: `function attendStep(cache, x, Wq, Wk, Wv) {
  // cache: { keys: [t][dk], values: [t][dv] } of the positions before; x: [d]  ->  output [dv]
  const q = np.dot(x, Wq);
  const k = np.dot(x, Wk);
  const v = np.dot(x, Wv);
  // TODO: keep k and v in the cache and attend over every cached position, not only this one
  return v;
}

${DRIVER}`,
  solution: SOLUTION,
  hints: [
    'Push the new key and value onto the cache before attending: a position attends to itself.',
    'The scores are q · k_j / √d_k for every cached key j, then a softmax (subtract the maximum first).',
    'No mask is needed here: the cache only holds the past, so there is no future to hide.',
  ],
  mistakes: [
    mistake(
      SOLUTION,
      'np.dot(q, k) / Math.sqrt(q.length)',
      'np.dot(q, k)',
      'The scores are not divided by √d_k, so the cached step differs from the engine’s attention.',
    ),
  ],
  cases() {
    const random = seededRandom(113);
    const make = (name: string, t: number, d: number, dk: number) => ({
      name,
      args: [
        randomMatrix(random, t, d),
        randomMatrix(random, d, dk, 1),
        randomMatrix(random, d, dk, 1),
        randomMatrix(random, d, dk, 1),
      ],
    });
    return [
      make('the first step only (one position)', 1, 3, 2),
      make('two positions', 2, 3, 2),
      {
        name: 'large scores (inputs ×20): the softmax must subtract its maximum',
        args: (() => {
          const c = make('', 4, 3, 3).args as number[][][];
          return [c[0].map((r) => r.map((v) => Math.round(v * 20 * 100) / 100)), c[1], c[2], c[3]];
        })(),
      },
      make('random: 6 positions, d = 4, d_k = 3', 6, 4, 3),
      make('random: 8 positions, d = 5, d_k = 4', 8, 5, 4),
    ];
  },
  async reference(call, [x, wq, wk, wv]) {
    const xs = toTensor(x);
    const q = await call('matmul', xs, toTensor(wq));
    const k = await call('matmul', xs, toTensor(wk));
    const v = await call('matmul', xs, toTensor(wv));
    const mask = await call('causalMask', (x as unknown[]).length);
    return fromTensor((await call('scaledDotProductAttention', q, k, v, { mask })).output);
  },
  figure: (value) => heatmapOf(value, 't', 'c'),
};
