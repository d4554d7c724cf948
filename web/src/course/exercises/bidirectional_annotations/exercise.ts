import { randomMatrix, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const bidirectionalAnnotations: Exercise = {
  id: 'bidirectional_annotations',
  title: 'Bidirectional annotations',
  functionName: 'bidirectionalAnnotations',
  prompt: `Complete <code>bidirectionalAnnotations(forwardStates, backwardOutputs)</code>. The encoder
    reads the source twice: a forward RNN from $x_1$ to $x_{T}$ gives $\\overrightarrow{h}_i$ in
    order (<code>forwardStates[i]</code>), and a backward RNN reads from $x_{T}$ back to $x_1$, so
    its <em>first</em> output belongs to the <em>last</em> word: <code>backwardOutputs[k]</code> is
    $\\overleftarrow{h}$ at position $T - 1 - k$. The annotation of word $i$ joins both,
    $h_i = [\\overrightarrow{h}_i; \\overleftarrow{h}_i]$: what came before word $i$ and what comes after
    it. Return the $T \\times 2U$ annotations.`,
  starter: `function bidirectionalAnnotations(forwardStates, backwardOutputs) {
  // forwardStates: [T][U] by position, backwardOutputs: [T][U] in the backward RNN's reading order
  return forwardStates.map((f, i) => np.concatenate([f, backwardOutputs[i]])); // TODO
}
`,
  solution: `function bidirectionalAnnotations(forwardStates, backwardOutputs) {
  const T = forwardStates.length;
  return forwardStates.map((f, i) => np.concatenate([f, backwardOutputs[T - 1 - i]]));
}
`,
  hints: [
    'backwardOutputs[0] was computed after reading only the last word: it belongs to position T − 1.',
    'Forward half first, backward half second: [→h_i; ←h_i].',
  ],
  cases() {
    const random = seededRandom(35);
    return [
      { name: 'one word: [→h₁; ←h₁]', args: [[[1, 2]], [[3, 4]]] },
      {
        name: 'three words, U = 1 (forward 1, 2, 3; backward read 30, 20, 10)',
        args: [
          [[1], [2], [3]],
          [[30], [20], [10]],
        ],
      },
      { name: 'random (T = 5, U = 3, seed 35)', args: [randomMatrix(random, 5, 3), randomMatrix(random, 5, 3)] },
      { name: 'random (T = 8, U = 2, seed 35)', args: [randomMatrix(random, 8, 2), randomMatrix(random, 8, 2)] },
    ];
  },
  async reference(call, [forwardStates, backwardOutputs]) {
    // The engine's backward direction stores its states by source position (the order this
    // exercise asks you to restore), so they are handed over that way.
    const byPosition = [...(backwardOutputs as number[][])].reverse();
    const joined = await call('concatDirections', toTensor([forwardStates]), toTensor([byPosition]));
    return (fromTensor(joined) as number[][][])[0];
  },
  figure: (value) => heatmapOf(value, 'h', 'u'),
  diagnose(_expected, got, [forwardStates, backwardOutputs]) {
    if (!Array.isArray(got) || !Array.isArray(got[0])) return null;
    const F = forwardStates as number[][],
      B = backwardOutputs as number[][];
    const u = F[0].length;
    const unreversed = F.every(
      (_, i) => Array.isArray(got[i]) && B[i].every((x, j) => (got[i] as unknown[])[u + j] === x),
    );
    return F.length > 1 && unreversed
      ? 'The backward halves are in the reading order of the backward RNN: position i needs backwardOutputs[T − 1 − i].'
      : null;
  },
};
