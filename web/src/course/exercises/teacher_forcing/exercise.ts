import { randomMatrix, seededRandom } from '../../grader';
import { idsTableOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const teacherForcing: Exercise = {
  id: 'teacher_forcing',
  title: 'Teacher forcing versus running free',
  functionName: 'decoderInputs',
  prompt: `Complete <code>decoderInputs(target, logits, teacherForcing)</code>: which token does the
    decoder read at each step? The target is <code>[BOS, y1, …, yn, EOS]</code> (BOS = 1, EOS = 2,
    PAD = 0) and the decoder runs $T_y - 1$ steps; step $t$ reads the token before the one it
    predicts, next to its context: $[c_t; y_{t-1}]$. In training, <em>teacher forcing</em> feeds the
    gold token <code>target[t]</code>. At prediction time there is no gold token: the decoder reads
    BOS at step 0 and then its own previous prediction $\\hat y_{t-1}$, the best token of
    <code>logits[t - 1]</code> — a decoder never emits PAD or BOS, so the best is the largest logit
    among ids $\\ge 2$ (the smallest id on ties). Return the $T_y - 1$ tokens read.`,
  starter: `function decoderInputs(target, logits, teacherForcing) {
  // target: [Ty] token ids, logits: [Ty - 1][V], teacherForcing: boolean  ->  [Ty - 1] token ids
  return target.slice(0, -1); // TODO: what does the decoder read when it runs free?
}
`,
  solution: `function decoderInputs(target, logits, teacherForcing) {
  const best = (z) => {
    let id = 2; // never PAD (0) or BOS (1)
    for (let v = 3; v < z.length; v++) if (z[v] > z[id]) id = v;
    return id;
  };
  return target.slice(0, -1).map((gold, t) => (teacherForcing || t === 0 ? gold : best(logits[t - 1])));
}
`,
  hints: [
    'With teacher forcing the inputs are the target without its last token.',
    'Running free, step 0 still reads BOS; step t reads the prediction of step t − 1.',
    'The prediction is an argmax over ids 2, 3, …, V − 1: PAD and BOS are never predicted.',
  ],
  cases() {
    const random = seededRandom(36);
    const target = [1, 5, 4, 3, 2];
    const logits = [
      [0, 0, 0, 0.2, 0.1, 3],
      [0, 0, 0, 0.5, 2, 0.4],
      [0, 0, 0.1, 0.9, 0, 0],
      [0, 0, 5, 0, 0, 0],
    ];
    return [
      { name: 'teacher forcing: the gold tokens BOS 5 4 3', args: [target, logits, true] },
      { name: 'running free: BOS, then the model’s own predictions 5 4 3', args: [target, logits, false] },
      {
        name: 'running free with a wrong first prediction (3 instead of 5) that the decoder then reads',
        args: [target, [[0, 0, 0, 1, 0, 0], ...logits.slice(1)], false],
      },
      {
        name: 'the largest logits on PAD and BOS: they are never predicted',
        args: [
          [1, 3, 2],
          [
            [9, 9, 0, 1],
            [9, 9, 1, 0],
          ],
          false,
        ],
      },
      { name: 'a target of just BOS EOS: one step, reading BOS', args: [[1, 2], [[0, 0, 1]], false] },
      {
        name: 'random logits (V = 8, T_y = 6, seed 36), running free',
        args: [[1, 4, 7, 5, 6, 2], randomMatrix(random, 5, 8, 3), false],
      },
    ];
  },
  async reference(call, [target, logits, teacherForcing]) {
    return call('decoderInputTokens', toTensor(target), toTensor(logits), teacherForcing as boolean);
  },
  figure: (value) => idsTableOf(value, 'in', 't'),
  diagnose(expected, got, [target, , teacherForcing]) {
    const g = got as unknown[];
    if (!Array.isArray(g) || teacherForcing) return null;
    const gold = (target as number[]).slice(0, -1);
    const e = expected as number[];
    if (g.length === gold.length && gold.every((x, i) => x === g[i]) && e.some((x, i) => x !== gold[i])) {
      return 'Running free, the decoder never sees the target: from step 1 on it reads its own previous prediction.';
    }
    if (g.some((x) => x === 0 || x === 1) && g.slice(1).some((x) => x === 0 || x === 1)) {
      return 'A prediction of PAD (0) or BOS (1): the decoder’s argmax skips those two ids.';
    }
    return null;
  },
};
