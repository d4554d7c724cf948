import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const alignmentBatch: Exercise = {
  id: 'alignment_batch',
  title: 'The alignment network on a batch, softmax over time',
  functionName: 'alignBatch',
  prompt: `Complete <code>alignBatch(sPrev, annotations, W, v)</code>. For every example $b$ of a batch
    and every source position $t'$, the decoder's alignment network joins the previous decoder
    state and the annotation, $z = [s_{t-1}; h_{t'}]$, passes it through a hidden layer
    $\\tanh(W z)$ ($W$: $A \\times (d_s + d_h)$) and a second layer to one energy
    $e_{t'} = v^\\top \\tanh(W z)$. The weights are a softmax <em>over time</em> (over $t'$, separately
    for each example), and the context is their weighted sum of the annotations: the
    $(1, T_x) \\cdot (T_x, d_h) \\to (1, d_h)$ product. Return
    <code>{ weights, context }</code>: weights $B \\times T_x$, context $B \\times d_h$.`,
  starter: `function alignBatch(sPrev, annotations, W, v) {
  // sPrev: [B][ds], annotations: [B][Tx][dh], W: [A][ds + dh], v: [A]
  const energies = annotations.map((H, b) =>
    H.map((h) => np.dot(v, np.tanh(np.dot(W, np.concatenate([sPrev[b], h])))))); // [B][Tx]
  // TODO: a softmax over time (axis 1), then the contexts
  const weights = energies;
  const context = annotations.map((H) => H[0].map(() => 0));
  return { weights, context };
}
`,
  solution: `function alignBatch(sPrev, annotations, W, v) {
  const energies = annotations.map((H, b) =>
    H.map((h) => np.dot(v, np.tanh(np.dot(W, np.concatenate([sPrev[b], h]))))));
  const weights = energies.map((e) => {
    const exps = np.exp(np.subtract(e, np.max(e))); // stable: the largest exponent is 0
    return np.divide(exps, np.sum(exps));
  });
  const context = weights.map((a, b) => np.dot(a, annotations[b])); // (Tx,)·(Tx, dh) -> (dh,)
  return { weights, context };
}
`,
  hints: [
    'Each example has its own softmax: its T_x weights sum to 1. Do not mix examples.',
    'With a matrix E of energies [B][Tx], the softmax over time normalises each row (axis 1), not each column.',
    'The context of example b is np.dot(weights[b], annotations[b]).',
  ],
  cases() {
    const random = seededRandom(24);
    const make = (b: number, tx: number, ds: number, dh: number, a: number) => [
      randomMatrix(random, b, ds),
      Array.from({ length: b }, () => randomMatrix(random, tx, dh)),
      randomMatrix(random, a, ds + dh, 1),
      randomVector(random, a, 1),
    ];
    return [
      {
        name: 'one example, W reads only h: the weights follow tanh of the annotations',
        args: [[[0]], [[[1], [0], [-1]]], [[0, 1]], [1]],
      },
      { name: 'a batch of 3 (T_x = 4, d_s = 2, d_h = 3, A = 5, seed 24)', args: make(3, 4, 2, 3, 5) },
      {
        name: 'two examples whose energies differ by 100 (a softmax over the batch would give them 0 and 1)',
        args: [
          [[50], [-50]],
          [
            [[1], [2]],
            [[1], [2]],
          ],
          [
            [1, 0],
            [0, 1],
          ],
          [1, 1],
        ],
      },
      { name: 'random batch of 2 (T_x = 6, d_s = 4, d_h = 4, A = 3, seed 24)', args: make(2, 6, 4, 4, 3) },
    ];
  },
  async reference(call, [sPrev, annotations, w, v]) {
    const params = { w: toTensor(w), v: toTensor(v) };
    const rows = await Promise.all(
      (sPrev as number[][]).map((s, b) =>
        call('attend', 'concat', toTensor(s), toTensor((annotations as number[][][])[b]), { params }),
      ),
    );
    return { weights: rows.map((r) => fromTensor(r.weights)), context: rows.map((r) => fromTensor(r.context)) };
  },
  figure: (value) => {
    const weights = value && typeof value === 'object' ? (value as { weights?: unknown }).weights : undefined;
    return heatmapOf(weights, 'b', "t'", [0, 1]);
  },
  diagnose(_expected, got) {
    const w = (got as { weights?: unknown } | null)?.weights;
    if (!Array.isArray(w) || w.length === 0 || !w.every((row) => Array.isArray(row))) return null;
    const rows = w as unknown[][];
    const columnSums = rows[0].map((_, t) => rows.reduce((acc, row) => acc + Number(row[t]), 0));
    const rowSums = rows.map((row) => row.reduce((acc: number, x) => acc + Number(x), 0));
    if (columnSums.every((x) => Math.abs(x - 1) < 1e-4) && rowSums.some((x) => Math.abs(x - 1) > 1e-3)) {
      return 'Your weights sum to 1 down each column: the softmax ran over the batch (axis 0) instead of over time (axis 1).';
    }
    return null;
  },
};
