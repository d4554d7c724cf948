import { randomMatrix, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const splitHeads: Exercise = {
  id: 'split_heads',
  title: 'Splitting the model dimension into heads',
  functionName: 'splitHeads',
  prompt: `Complete <code>splitHeads(X, heads)</code>: multi-head attention cuts each row of the
    projected matrix $X$ ($T \\times D$) into <code>heads</code> consecutive slices of
    $d_{head} = D / H$ columns. Head $k$ gets columns $k \\cdot d_{head}$ to
    $(k + 1) \\cdot d_{head} - 1$ of every row. Return an array of $H$ matrices, each
    $T \\times d_{head}$ (the shape $H \\times T \\times d_{head}$).`,
  starter: `function splitHeads(X, heads) {
  // X: [T][D], heads: H (D divisible by H)  ->  [H][T][D / H]
  const dHead = X[0].length / heads;
  return Array.from({ length: heads }, (_, k) =>
    X.map((row) => row.filter((_, j) => j % heads === k))); // TODO: is this the right slice?
}
`,
  solution: `function splitHeads(X, heads) {
  const dHead = X[0].length / heads;
  return Array.from({ length: heads }, (_, k) =>
    X.map((row) => row.slice(k * dHead, (k + 1) * dHead)));
}
`,
  hints: [
    'Head k owns a block of d_head neighbouring columns, not every H-th column.',
    'row.slice(k * dHead, (k + 1) * dHead) is head k’s part of one row.',
  ],
  cases() {
    const random = seededRandom(25);
    const counting = (t: number, d: number) =>
      Array.from({ length: t }, (_, i) => Array.from({ length: d }, (_, j) => 10 * i + j));
    return [
      { name: 'one head: the matrix itself', args: [counting(2, 3), 1] },
      { name: 'T = 2, D = 4, two heads (entries 10·t + j)', args: [counting(2, 4), 2] },
      { name: 'D = heads: one column per head', args: [counting(3, 3), 3] },
      { name: 'random (T = 3, D = 8, four heads, seed 25)', args: [randomMatrix(random, 3, 8), 4] },
    ];
  },
  async reference(call, [x, heads]) {
    return fromTensor(await call('splitHeads', toTensor(x), heads as number));
  },
  figure: (value) => (Array.isArray(value) ? heatmapOf(value[0], 't', 'c') : null),
  diagnose(_expected, got, [x, heads]) {
    const X = x as number[][],
      H = heads as number;
    if (!Array.isArray(got) || got.length !== H || H < 2) return null;
    const interleaved = X[0].filter((_, j) => j % H === 0);
    const first = Array.isArray(got[0]) && Array.isArray(got[0][0]) ? (got[0][0] as unknown[]) : null;
    if (first && first.length === interleaved.length && first.every((v, j) => v === interleaved[j])) {
      return 'You dealt the columns out in turn (column j to head j mod H); each head takes a block of d_head neighbouring columns.';
    }
    return null;
  },
};
