import { viewLink } from '../../app/course_links';
import { ANNOTATION_LABELS, H, S, fromTensor, matrix, row, toTensor } from './example';
import type { Lesson } from './types';

export const lesson04: Lesson = {
  number: 4,
  slug: 'softmax',
  title: 'Softmax: from scores to weights',
  summary: 'Turn any scores into positive weights that sum to 1 — without overflowing on 927 and 929.',
  blocks: [
    {
      html: `<p>Scores can be any real numbers. To average the annotations we want weights that are
      positive and add up to 1. The <em>softmax</em> does that by exponentiating and normalising:</p>
      $$\\alpha_t = \\frac{e^{e_t}}{\\sum_{j=1}^{T} e^{e_j}} .$$
      <p>The exponential makes everything positive and keeps the order: a larger score always
      gets a larger weight. It also exaggerates differences: a score 2 higher gets $e^2 \\approx 7.4$
      times the weight, whatever the scores' size. And because $e^{a - m} = e^a / e^m$, subtracting
      the same number $m$ from every score changes nothing — the $e^{-m}$ cancels between top and
      bottom.</p>
      <p><strong>Why that matters.</strong> The course example has scores $[927, 397, 148, 929]$.
      Computed literally, $e^{927}$ is about $4 \\times 10^{402}$, far beyond the largest double
      ($\\approx 1.8 \\times 10^{308}$, reached at $e^{709.8}$; for float32 the limit is already
      $e^{88.7}$). The exponentials become <code>Infinity</code>, and
      <code>Infinity / Infinity</code> is <code>NaN</code>. The fix is that free shift: subtract
      the maximum $m = \\max_j e_j$ first,</p>
      $$\\alpha_t = \\frac{e^{e_t - m}}{\\sum_j e^{e_j - m}} .$$
      <p>Now every exponent is $\\le 0$, so nothing overflows, and the largest term is exactly
      $e^0 = 1$, so the sum is at least 1 and never 0. For the example: $e - 929 = [-2, -532, -781, 0]$,
      giving $\\alpha \\approx [0.119, 0, 0, 0.881]$ ($e^{-2} / (1 + e^{-2}) = 0.119$).</p>
      <p>A <em>temperature</em> $\\tau$ divides the scores first, $\\operatorname{softmax}(e / \\tau)$:
      $\\tau < 1$ sharpens the weights toward the maximum, $\\tau > 1$ flattens them toward uniform.</p>`,
    },
    {
      figure: {
        caption: `The engine's softmax of the course example's scores at three temperatures. At
          $\\tau = 1$ the two-point margin of $h_4$ over $h_1$ already gives it 88% of the weight.`,
        async compute(call) {
          const scores = await call('scores', 'dot', toTensor(S), toTensor(H), null);
          const temperatures = [0.5, 1, 10];
          const rows = [];
          for (const temperature of temperatures) {
            rows.push(fromTensor(await call('softmax', scores, { temperature })) as number[]);
          }
          return [
            { title: 'scores e', data: row(scores.data, ANNOTATION_LABELS) },
            {
              title: 'softmax(e / τ)',
              data: matrix(
                rows,
                temperatures.map((t) => `τ = ${t}`),
                ANNOTATION_LABELS,
                [0, 1],
              ),
            },
          ];
        },
      },
    },
    {
      prediction: {
        id: 'weight-of-929',
        question: `The scores are $[927, 397, 148, 929]$: $h_4$ beats $h_1$ by just 2 points out of
          more than 900. How much of the weight does $h_4$ get?`,
        options: ['About half — 927 and 929 are nearly equal', 'About 88%', 'Essentially 100%'],
        async reveal(call) {
          const weights = await call('softmax', { shape: [4], data: [927, 397, 148, 929] }, null);
          const w = weights.data[3];
          return {
            answer: w > 0.99 ? 2 : w > 0.6 ? 1 : 0,
            explanation: `The engine gives $h_4$ a weight of ${w.toFixed(3)}. Only differences
              between scores matter, not their size: $\\alpha_4 / \\alpha_1 = e^{929 - 927} = e^2 \\approx 7.4$.`,
            figures: [
              {
                title: 'softmax([927, 397, 148, 929])',
                data: row(weights.data, ANNOTATION_LABELS, '', [0, 1]),
              },
            ],
          };
        },
      },
    },
    { exercise: 'softmax' },
    {
      html: `<p class="go-further"><strong>Go further.</strong> ${viewLink('lab', 'The Attention Lab')} opens on
      this lesson's example: change any score's inputs or the temperature $\\tau$ and see the
      weights move, or hover a weight to see the softmax arithmetic behind it.</p>`,
    },
  ],
};
