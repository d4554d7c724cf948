import { idsTableOf } from '../../engine_data';
import type { Exercise } from '../types';

export const padSequences: Exercise = {
  id: 'pad_sequences',
  title: "pad_sequences: Keras' 'pre' defaults",
  functionName: 'padSequences',
  prompt: `Complete <code>padSequences(seqs, maxlen, padding = 'pre', truncating = 'pre')</code>, the
    <code>pad_sequences(maxlen=500)</code> that makes IMDB reviews a rectangle. Every row of the
    result has <code>maxlen</code> ids. A review that is too long is cut: <code>truncating = 'pre'</code>
    (the default) drops its <em>beginning</em> and keeps the last <code>maxlen</code> ids,
    <code>'post'</code> keeps the first ones. A review that is too short is filled with 0:
    <code>padding = 'pre'</code> (the default) puts the zeros <em>before</em> the ids,
    <code>'post'</code> after them.`,
  starter: `function padSequences(seqs, maxlen, padding = 'pre', truncating = 'pre') {
  // seqs: [N][ragged] ids  ->  [N][maxlen]
  return seqs.map((s) => {
    const cut = s.slice(0, maxlen); // TODO: which end does 'pre' truncation drop?
    const zeros = new Array(maxlen - cut.length).fill(0);
    return padding === 'pre' ? [...zeros, ...cut] : [...cut, ...zeros];
  });
}
`,
  solution: `function padSequences(seqs, maxlen, padding = 'pre', truncating = 'pre') {
  return seqs.map((s) => {
    const cut = s.length <= maxlen ? s : truncating === 'pre' ? s.slice(s.length - maxlen) : s.slice(0, maxlen);
    const zeros = new Array(maxlen - cut.length).fill(0);
    return padding === 'pre' ? [...zeros, ...cut] : [...cut, ...zeros];
  });
}
`,
  hints: [
    "'pre' means at the front, for both options: pre-padding adds zeros at the front, pre-truncation removes ids from the front.",
    's.slice(s.length - maxlen) keeps the last maxlen ids.',
  ],
  cases() {
    const seqs = [[1, 14, 22, 16, 43], [1, 530], [], [1, 7, 9]];
    return [
      { name: "defaults ('pre', 'pre'), maxlen = 3: the first review loses its beginning", args: [seqs, 3] },
      { name: 'defaults, maxlen = 6: everything padded at the front', args: [seqs, 6] },
      { name: "padding 'post', truncating 'post', maxlen = 3", args: [seqs, 3, 'post', 'post'] },
      { name: "padding 'post', truncating 'pre', maxlen = 2", args: [seqs, 2, 'post', 'pre'] },
      { name: 'a review exactly maxlen long is left as it is', args: [[[5, 6, 7]], 3] },
    ];
  },
  async reference(call, [seqs, maxlen, padding, truncating]) {
    const r = await call(
      'padSequences',
      seqs as number[][],
      maxlen as number,
      (padding ?? 'pre') as 'pre' | 'post',
      (truncating ?? 'pre') as 'pre' | 'post',
      0,
    );
    return r.ids;
  },
  figure: (value) => idsTableOf(value, 'r', 't'),
  diagnose(expected, got, [seqs, maxlen, , truncating]) {
    const long = (seqs as number[][]).findIndex((s) => s.length > (maxlen as number));
    const row = Array.isArray(got) ? (got as unknown[])[long] : null;
    if (long < 0 || !Array.isArray(row) || (truncating ?? 'pre') !== 'pre') return null;
    const first = (seqs as number[][])[long].slice(0, maxlen as number);
    if (first.every((x, i) => row[i] === x) && (expected as number[][])[long].some((x, i) => x !== first[i])) {
      return "You kept the first maxlen ids; truncating = 'pre' (Keras' default) drops the beginning and keeps the last ones.";
    }
    return null;
  },
};
