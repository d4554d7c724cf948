import { mistake } from '../mistakes';
import { seededRandom } from '../../grader';
import { fromTensor, heatmapOf } from '../../engine_data';
import type { Exercise } from '../types';

const SOLUTION = `function decoderMask(lengths, T) {
  return lengths.map((len) =>
    Array.from({ length: T }, (_, i) =>
      Array.from({ length: T }, (_, j) => (j <= i && j < len ? 1 : 0)),
    ),
  );
}
`;

export const decoderMask: Exercise = {
  id: 'decoder_mask',
  title: "The decoder's mask: causal and padding together",
  functionName: 'decoderMask',
  prompt: `A batch of target sentences padded to $T$ tokens goes through the decoder's masked
    self-attention all at once (teacher forcing). Complete <code>decoderMask(lengths, T)</code>:
    return a $B \\times T \\times T$ array of 1 (visible) and 0 (hidden), one $T \\times T$ mask per
    sentence, where query $i$ may see key $j$ only when $j$ is not in the future ($j \\le i$)
    <em>and</em> key $j$ is a real token of that sentence (<code>j &lt; lengths[b]</code>).
    Rows of padding queries follow the same rule (their outputs are never used by the loss).`,
  starter: `function decoderMask(lengths, T) {
  // lengths: [B] real tokens per sentence, T: padded length  ->  [B][T][T], 1 = visible
  return lengths.map((len) =>
    Array.from({ length: T }, (_, i) =>
      Array.from({ length: T }, (_, j) => (j <= i ? 1 : 0)), // TODO: hide the padding keys too
    ),
  );
}
`,
  solution: SOLUTION,
  hints: [
    'Build the two masks separately in your head: the causal one (j <= i) and the padding one (j < length); a key is visible only when both say so.',
    'Combining masks is an AND, not an OR: a padding key stays hidden even for the last query.',
    'Each sentence of the batch has its own length, so each gets its own T × T mask.',
  ],
  mistakes: [
    mistake(
      SOLUTION,
      'j <= i && j < len',
      'j <= i || j < len',
      'Your masks let a query see a key when either mask allows it; a key must pass both (AND, not OR), or the decoder sees the future of short sentences.',
    ),
    mistake(
      SOLUTION,
      'j <= i && j < len',
      'j < i && j < len',
      'The diagonal is hidden: a target position may attend to itself (j <= i), it just must not see later positions.',
    ),
  ],
  cases() {
    const random = seededRandom(111);
    const randomCase = (k: number) => {
      const T = 4 + Math.floor(random() * 4);
      const lengths = Array.from({ length: 3 }, () => 1 + Math.floor(random() * T));
      return { name: `random batch ${k}: T = ${T}, lengths ${lengths.join(', ')}`, args: [lengths, T] };
    };
    return [
      { name: 'one sentence of one token, T = 1', args: [[1], 1] },
      { name: 'no padding (length = T = 4): only the causal mask', args: [[4], 4] },
      { name: 'one real token then 3 padding positions (length 1, T = 4)', args: [[1], 4] },
      { name: 'a batch of lengths 5, 2 and 3 padded to T = 5', args: [[5, 2, 3], 5] },
      randomCase(1),
      randomCase(2),
    ];
  },
  async reference(call, [lengths, T]) {
    const out = [];
    for (const len of lengths as number[]) {
      const mask = await call(
        'combineMasks',
        await call('causalMask', T as number),
        await call('paddingMask', T as number, T as number, len),
      );
      out.push(fromTensor(mask));
    }
    return out;
  },
  figure: (value) => (Array.isArray(value) ? heatmapOf(value[value.length - 1], 'q', 'k', [0, 1]) : null),
};
