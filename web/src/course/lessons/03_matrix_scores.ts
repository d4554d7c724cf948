import { ANNOTATION_LABELS, H, S, fromTensor, matrix, row, toTensor } from './example';
import type { Lesson } from './types';

export const lesson03: Lesson = {
  number: 3,
  slug: 'matrix-scores',
  title: 'Scoring all annotations with a matrix product',
  summary: 'Stack the annotations into a matrix and score them all in one product.',
  blocks: [
    {
      html: `<p>We need a score for every annotation, not just one. Write the $T$ annotations as the
      rows of a matrix $H$ of shape $T \\times d$. Multiplying it by the decoder state gives all
      the scores at once:</p>
      $$e = H s, \\qquad e_t = h_t^\\top s \\quad (t = 1, \\ldots, T).$$
      <p>Nothing new is computed — it is the same dot product $T$ times — but written as a matrix
      product it runs as one call to a fast matrix-multiplication routine (in this project, the
      engine's GEMM kernel, vectorised with WebAssembly SIMD). The idea goes further: with $Q$
      decoder states stacked as the rows of $S$ ($Q \\times d$), the whole table of scores is
      $$E = S H^\\top \\qquad (Q \\times T),$$
      where row $q$ holds the scores of query $q$ against every annotation. We will meet this
      table again as $Q K^\\top$ in self-attention.</p>`,
    },
    {
      figure: {
        caption: `The score table $S H^\\top$ for three decoder states (rows) against the four
          annotations of the course example (columns), computed by the engine in one call.
          The first row is the course example: $[927, 397, 148, 929]$.`,
        async compute(call) {
          const queries = [S, [1, 1, 1], [0, 1, 0]];
          const scores = await call('scores', 'dot', toTensor(queries), toTensor(H), null);
          return [
            {
              title: 'E = S Hᵀ',
              data: matrix(fromTensor(scores), ['s = [5, 1, 20]', '[1, 1, 1]', '[0, 1, 0]'], ANNOTATION_LABELS),
            },
          ];
        },
      },
    },
    {
      prediction: {
        id: 'close-annotations',
        question: `$h_1 = [3, 12, 45]$ and $h_4 = [4, 3, 45.3]$ look alike. Which scores higher
          against $s = [5, 1, 20]$?`,
        options: ['$h_1$', '$h_4$', 'They tie'],
        async reveal(call) {
          const scores = await call('scores', 'dot', toTensor(S), toTensor(H), null);
          return {
            answer: scores.data[3] > scores.data[0] ? 1 : scores.data[3] < scores.data[0] ? 0 : 2,
            explanation: `$h_4$ wins, $929$ to $927$. Entry by entry $h_4 - h_1 = [1, -9, 0.3]$, so
              $s^\\top (h_4 - h_1) = 5 - 9 + 20 \\cdot 0.3 = 2$: the extra $0.3$ sits where $s$
              is large, and that outweighs $h_1$'s bigger second entry. The softmax of the next
              lesson turns this two-point margin into a large difference in weight.`,
            figures: [{ title: 'e = H s', data: row(scores.data, ANNOTATION_LABELS) }],
          };
        },
      },
    },
    { exercise: 'dot_scores' },
  ],
};
