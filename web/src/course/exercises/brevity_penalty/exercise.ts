import { mistake } from '../mistakes';
import { seededRandom } from '../../grader';
import type { Exercise } from '../types';

const SOLUTION = `function brevityPenalty(hypothesisLengths, referenceLengths) {
  let c = 0, r = 0;
  hypothesisLengths.forEach((len, i) => {
    c += len;
    // the closest reference length; on a tie, the shorter one
    let best = referenceLengths[i][0];
    for (const ref of referenceLengths[i]) {
      const d = Math.abs(ref - len), bd = Math.abs(best - len);
      if (d < bd || (d === bd && ref < best)) best = ref;
    }
    r += best;
  });
  const bp = c >= r ? 1 : c === 0 ? 0 : Math.exp(1 - r / c);
  return { c, r, bp };
}
`;

export const brevityPenalty: Exercise = {
  id: 'brevity_penalty',
  title: 'The brevity penalty',
  functionName: 'brevityPenalty',
  prompt: `Precision alone rewards saying little: "il" against "il aime les pommes" has unigram
    precision 1. BLEU multiplies by a <em>brevity penalty</em> computed over the whole corpus.
    Complete <code>brevityPenalty(hypothesisLengths, referenceLengths)</code>: hypothesisLengths[i]
    is the length (in tokens) of translation $i$, referenceLengths[i] the lengths of its
    references. Return <code>{ c, r, bp }</code> with $c$ the total hypothesis length, $r$ the sum,
    sentence by sentence, of the reference length <em>closest</em> to the hypothesis' length (on a
    tie, the shorter reference), and
    $$\\mathrm{BP} = \\begin{cases} 1 & c \\ge r \\\\ e^{\\,1 - r/c} & 0 \\lt c \\lt r \\\\ 0 & c = 0. \\end{cases}$$`,
  starter: `function brevityPenalty(hypothesisLengths, referenceLengths) {
  // hypothesisLengths: [N], referenceLengths: [N][R_i]  ->  { c, r, bp }
  let c = 0, r = 0;
  hypothesisLengths.forEach((len, i) => {
    c += len;
    r += referenceLengths[i][0]; // TODO: the closest reference length (ties: the shorter)
  });
  const bp = Math.exp(1 - r / c); // TODO: no penalty when c >= r; 0 for an empty corpus
  return { c, r, bp };
}
`,
  solution: SOLUTION,
  hints: [
    'For each sentence pick the reference length with the smallest |ref − hyp|; if two are equally close, take the shorter.',
    'Sum c and r over the corpus first, then compute one penalty: BLEU is a corpus measure.',
    'Translations at least as long as r are not penalised (BP = 1); an empty output gets 0, not NaN.',
  ],
  mistakes: [
    mistake(
      SOLUTION,
      '(d === bd && ref < best)',
      '(d === bd && ref > best)',
      'On a tie between two reference lengths equally close to the hypothesis, take the shorter one.',
    ),
    mistake(
      SOLUTION,
      'const bp = c >= r ? 1 : c === 0 ? 0 : Math.exp(1 - r / c);',
      'const bp = c === 0 ? 0 : Math.exp(1 - r / c);',
      'A translation longer than its references is not penalised: BP = 1 when c ≥ r (e^{1 − r/c} would exceed 1).',
    ),
  ],
  cases() {
    const random = seededRandom(122);
    const randomCase = (k: number) => {
      const n = 3 + Math.floor(random() * 4);
      const hyps = Array.from({ length: n }, () => 1 + Math.floor(random() * 12));
      const refs = hyps.map((h) =>
        Array.from({ length: 1 + Math.floor(random() * 3) }, () => Math.max(1, h + Math.floor(random() * 7) - 4)),
      );
      return { name: `random corpus ${k} of ${n} sentences`, args: [hyps, refs] };
    };
    return [
      { name: 'one short translation: 1 token against a 4-token reference', args: [[1], [[4]]] },
      { name: 'a tie: hypothesis of 4 tokens, references of 3 and 5 (take 3)', args: [[4], [[5, 3]]] },
      { name: 'longer than every reference: no penalty', args: [[9], [[6, 7]]] },
      {
        name: 'an empty corpus output (every translation empty)',
        args: [
          [0, 0],
          [[3], [2, 4]],
        ],
      },
      {
        name: 'three sentences, several references each',
        args: [
          [5, 7, 2],
          [[6, 4, 9], [8], [2, 3]],
        ],
      },
      randomCase(1),
      randomCase(2),
    ];
  },
  async reference(call, [hypothesisLengths, referenceLengths]) {
    const tokens = (n: number, w: string) => Array.from({ length: n }, () => w);
    const parts = await call(
      'corpusBleuTokens',
      (hypothesisLengths as number[]).map((n) => tokens(n, 'a')),
      (referenceLengths as number[][]).map((refs) => refs.map((n) => tokens(n, 'b'))),
      'none',
    );
    return { c: parts.hypothesisLength, r: parts.referenceLength, bp: parts.brevityPenalty };
  },
  figure(value) {
    const v = value as { bp?: unknown } | null;
    return v && typeof v.bp === 'number'
      ? { values: [v.bp], rows: 1, cols: 1, rowLabels: [''], colLabels: ['BP'], range: [0, 1] }
      : null;
  },
};
