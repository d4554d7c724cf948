import { fromTensor, heatmapOf } from '../../engine_data';
import type { Exercise } from '../types';

export const paddingMask: Exercise = {
  id: 'padding_mask',
  title: 'A padding mask',
  functionName: 'paddingMask',
  prompt: `Complete <code>paddingMask(tq, tk, validKeys)</code>: a batch pads short sentences to
    the same length, and no query should attend to padding. Return a $t_q \\times t_k$ matrix of
    1s and 0s where every query sees keys $0 \\ldots \\text{validKeys} - 1$ and none after.`,
  starter: `function paddingMask(tq, tk, validKeys) {
  // -> [tq][tk], 1 = visible
  // TODO
  return [];
}
`,
  solution: `function paddingMask(tq, tk, validKeys) {
  return Array.from({ length: tq }, () => Array.from({ length: tk }, (_, j) => (j < validKeys ? 1 : 0)));
}
`,
  hints: ['Every row (query) is the same.', 'Column j (a key) is visible when j < validKeys.'],
  cases: () => [
    { name: '2 queries, 5 keys of which 3 are real', args: [2, 5, 3] },
    { name: 'no padding (4 of 4 keys real)', args: [1, 4, 4] },
    { name: 'everything is padding (0 real keys)', args: [3, 3, 0] },
    { name: '4 queries, 6 keys of which 1 is real', args: [4, 6, 1] },
  ],
  async reference(call, [tq, tk, valid]) {
    return fromTensor(await call('paddingMask', tq as number, tk as number, valid as number));
  },
  figure: (value) => heatmapOf(value, 'q', 'k', [0, 1]),
  diagnose(_expected, got, [tq, tk]) {
    if (Array.isArray(got) && got.length === tk && tq !== tk) {
      return `Your mask has ${got.length} rows: it should have one row per query (${tq}) and one column per key (${tk}).`;
    }
    return null;
  },
};
