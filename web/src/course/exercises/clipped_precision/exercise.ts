import { mistake } from '../mistakes';
import { randomCorpus, words } from '../bleu_cases';
import type { Exercise } from '../types';

const SOLUTION = `function clippedPrecision(hypothesis, references, n) {
  const grams = (tokens) => {
    const counts = new Map();
    for (let i = 0; i + n <= tokens.length; i++) {
      const g = tokens.slice(i, i + n).join(' ');
      counts.set(g, (counts.get(g) || 0) + 1);
    }
    return counts;
  };
  const hyp = grams(hypothesis);
  const refs = references.map(grams);
  let matches = 0, total = 0;
  for (const [g, count] of hyp) {
    // the most times any one reference has it
    const most = Math.max(0, ...refs.map((r) => r.get(g) || 0));
    matches += Math.min(count, most);
    total += count;
  }
  return { matches, total };
}
`;

export const clippedPrecision: Exercise = {
  id: 'clipped_precision',
  title: 'Clipped n-gram precision',
  functionName: 'clippedPrecision',
  prompt: `BLEU's first ingredient. Complete <code>clippedPrecision(hypothesis, references, n)</code>
    for one translation (an array of tokens) and its references (arrays of tokens): return
    <code>{ matches, total }</code>, where <code>total</code> counts the hypothesis' $n$-grams
    (consecutive runs of $n$ tokens, repeats counted) and <code>matches</code> counts how many of
    them a reference contains, each $n$-gram's count <em>clipped</em> to the largest number of
    times it occurs in any single reference:
    $$\\text{matches}_n = \\sum_{g} \\min\\big(\\operatorname{count}_{hyp}(g),\\ \\max_r \\operatorname{count}_r(g)\\big).$$
    Without clipping, "the the the the" would score 4/4 against "the cat is on the mat".`,
  starter: `function clippedPrecision(hypothesis, references, n) {
  // hypothesis: [tokens], references: [R][tokens], n: 1..4  ->  { matches, total }
  let matches = 0, total = 0;
  for (let i = 0; i + n <= hypothesis.length; i++) {
    const g = hypothesis.slice(i, i + n).join(' ');
    total += 1;
    if (references.some((r) => r.join(' ').includes(g))) matches += 1; // TODO: clip the counts
  }
  return { matches, total };
}
`,
  solution: SOLUTION,
  hints: [
    'Count each distinct n-gram of the hypothesis, and the same n-gram in every reference.',
    "An n-gram's matches are min(its count in the hypothesis, its largest count in one reference) — not the sum over references.",
    'A hypothesis shorter than n has no n-grams: total 0, matches 0.',
  ],
  mistakes: [
    mistake(
      SOLUTION,
      'matches += Math.min(count, most);',
      'matches += most > 0 ? count : 0;',
      'Your matches are not clipped: an n-gram repeated in the hypothesis counts only as often as it appears in one reference.',
    ),
  ],
  cases() {
    const { hypotheses, references } = randomCorpus(121, 3);
    return [
      {
        name: 'unigrams of "the the the the the the the" against two references: 2 of 7',
        args: [
          words('the the the the the the the'),
          [words('the cat is on the mat'), words('there is a cat on the mat')],
          1,
        ],
      },
      {
        name: 'bigrams: the count is clipped per reference, not summed over references',
        args: [words('le chat le chat le chat'), [words('le chat dort'), words('un chat le chat noir')], 2],
      },
      {
        name: 'a hypothesis shorter than n (2 tokens, n = 3): total 0',
        args: [words('il dort'), [words('il dort bien')], 3],
      },
      {
        name: '4-grams of a perfect match',
        args: [words('il aime les pommes rouges'), [words('il aime les pommes rouges')], 4],
      },
      ...hypotheses.map((h, i) => ({
        name: `random sentence ${i + 1}, n = ${i + 1}`,
        args: [h, references[i], i + 1],
      })),
    ];
  },
  async reference(call, [hypothesis, references, n]) {
    const parts = await call('corpusBleuTokens', [hypothesis as string[]], [references as string[][]], 'none');
    return { matches: parts.matches[(n as number) - 1], total: parts.totals[(n as number) - 1] };
  },
  figure(value) {
    const v = value as { matches?: unknown; total?: unknown } | null;
    if (!v || typeof v.matches !== 'number' || typeof v.total !== 'number') return null;
    return { values: [v.matches, v.total], rows: 1, cols: 2, rowLabels: [''], colLabels: ['matches', 'total'] };
  },
};
