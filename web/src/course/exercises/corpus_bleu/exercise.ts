import { mistake } from '../mistakes';
import { randomCorpus, words } from '../bleu_cases';
import type { Exercise } from '../types';

const SOLUTION = `function corpusBleu(hypotheses, references) {
  const grams = (tokens, n) => {
    const counts = new Map();
    for (let i = 0; i + n <= tokens.length; i++) {
      const g = tokens.slice(i, i + n).join(' ');
      counts.set(g, (counts.get(g) || 0) + 1);
    }
    return counts;
  };
  const matches = [0, 0, 0, 0], totals = [0, 0, 0, 0];
  let c = 0, r = 0;
  hypotheses.forEach((hyp, i) => {
    for (let n = 1; n <= 4; n++) {
      const refs = references[i].map((ref) => grams(ref, n));
      for (const [g, count] of grams(hyp, n)) {
        matches[n - 1] += Math.min(count, Math.max(0, ...refs.map((m) => m.get(g) || 0)));
        totals[n - 1] += count;
      }
    }
    c += hyp.length;
    const lens = references[i].map((ref) => ref.length);
    r += lens.reduce((best, l) => {
      const d = Math.abs(l - hyp.length), bd = Math.abs(best - hyp.length);
      return d < bd || (d === bd && l < best) ? l : best;
    });
  });
  if (matches.some((m) => m === 0)) return 0; // log 0: no smoothing
  const logMean = matches.reduce((s, m, k) => s + Math.log(m / totals[k]), 0) / 4;
  const bp = c >= r ? 1 : Math.exp(1 - r / c);
  return 100 * bp * Math.exp(logMean);
}
`;

export const corpusBleu: Exercise = {
  id: 'corpus_bleu',
  title: 'Corpus BLEU-4',
  functionName: 'corpusBleu',
  prompt: `Put it together. Complete <code>corpusBleu(hypotheses, references)</code> for a whole
    test set (hypotheses $[N]$ of tokens, references $[N][R_i]$ of tokens) and return BLEU-4 on a
    0–100 scale:
    $$\\mathrm{BLEU} = 100 \\cdot \\mathrm{BP} \\cdot \\exp\\Big(\\tfrac14 \\sum_{n=1}^{4} \\log p_n\\Big),\\qquad p_n = \\frac{\\sum_i \\text{matches}_{n,i}}{\\sum_i \\text{total}_{n,i}},$$
    with the clipped matches and the brevity penalty of the two exercises before. The sums run over
    the <em>corpus</em> before dividing: BLEU is not the average of sentence scores. When some
    $p_n$ is 0 the score is 0 (no smoothing).`,
  starter: `function corpusBleu(hypotheses, references) {
  // hypotheses: [N][tokens], references: [N][R_i][tokens]  ->  BLEU in [0, 100]
  // TODO: clipped n-gram matches and totals for n = 1..4 summed over the corpus,
  //       the brevity penalty, then 100 · BP · exp(mean of log p_n)
  return 0;
}
`,
  solution: SOLUTION,
  hints: [
    'Keep four running sums of matches and four of totals (n = 1..4) over all sentences, and c and r for the brevity penalty.',
    'Divide only at the end: p_n = (all matches of order n) / (all n-grams of order n).',
    'The mean of the logs of p_1..p_4 is a geometric mean; a single p_n = 0 makes the score 0.',
  ],
  mistakes: [
    mistake(
      SOLUTION,
      'const bp = c >= r ? 1 : Math.exp(1 - r / c);',
      'const bp = 1;',
      'Your score has no brevity penalty: a corpus of short translations must lose points (BP = e^{1 − r/c} when c < r).',
    ),
    mistake(
      SOLUTION,
      'matches[n - 1] += Math.min(count, Math.max(0, ...refs.map((m) => m.get(g) || 0)));',
      'matches[n - 1] += Math.max(0, ...refs.map((m) => m.get(g) || 0)) > 0 ? count : 0;',
      'Your matches are not clipped: an n-gram counts at most as often as it occurs in one reference.',
    ),
  ],
  cases() {
    const a = randomCorpus(123, 6);
    const b = randomCorpus(124, 10);
    return [
      {
        name: 'one perfect translation: 100',
        args: [[words('il aime les pommes .')], [[words('il aime les pommes .')]]],
      },
      {
        name: 'no 4-gram matches anywhere: 0',
        args: [[words('le chat dort sur la chaise')], [[words('le chat dort sous la table')]]],
      },
      {
        name: 'two sentences: one has no 4-gram match but the corpus does (sum first, then divide)',
        args: [
          [words('il aime les pommes rouges'), words('le chat noir')],
          [[words('il aime les pommes rouges')], [words('le chien noir dort')]],
        ],
      },
      {
        name: 'a short translation with two references: brevity penalty from the closest',
        args: [
          [words('le chat est sur la')],
          [[words('le chat est sur la table'), words('le chat est assis sur la table')]],
        ],
      },
      { name: 'random corpus of 6 sentences', args: [a.hypotheses, a.references] },
      { name: 'random corpus of 10 sentences', args: [b.hypotheses, b.references] },
    ];
  },
  async reference(call, [hypotheses, references]) {
    return (await call('corpusBleuTokens', hypotheses as string[][], references as string[][][], 'none')).score;
  },
  figure: (value) =>
    typeof value === 'number'
      ? { values: [value], rows: 1, cols: 1, rowLabels: [''], colLabels: ['BLEU'], range: [0, 100] }
      : null,
};
