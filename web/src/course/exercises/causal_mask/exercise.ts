import { fromTensor, heatmapOf } from '../../engine_data';
import type { Exercise } from '../types';

export const causalMask: Exercise = {
  id: 'causal_mask',
  title: 'A causal mask',
  functionName: 'causalMask',
  prompt: `Complete <code>causalMask(n)</code>: return an $n \\times n$ matrix of 1s and 0s
    (<code>true</code>/<code>false</code> also work) where row $i$ (a query) has a 1 in column $j$
    (a key) exactly when position $i$ may look at position $j$: itself and everything before it,
    never the future.`,
  starter: `function causalMask(n) {
  // -> [n][n], 1 = visible
  const mask = [];
  for (let i = 0; i < n; i++) {
    mask.push(new Array(n).fill(1)); // TODO: hide the future
  }
  return mask;
}
`,
  solution: `function causalMask(n) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? 1 : 0)));
}
`,
  hints: [
    'Row i is the query at position i; column j is the key at position j.',
    'Visible when j <= i: the diagonal (a word sees itself) stays visible.',
  ],
  cases: () => [1, 2, 4, 7].map((n) => ({ name: `n = ${n}`, args: [n] })),
  async reference(call, [n]) {
    return fromTensor(await call('causalMask', n as number));
  },
  figure: (value) => heatmapOf(value, 'q', 'k', [0, 1]),
  diagnose(expected, got) {
    if (!Array.isArray(got) || !Array.isArray(got[0]) || !Array.isArray(expected)) return null;
    if (Number(got[0][0]) === 0)
      return 'The diagonal is hidden: a position may always attend to itself (j <= i, not j < i).';
    if (expected.length > 1 && Number(got[0][1]) === 1)
      return 'Query 1 can see key 2, which comes after it: hide every column j > i.';
    return null;
  },
};
