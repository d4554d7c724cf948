import { viewLink } from '../../app/course_links';
import { ANNOTATION_LABELS, H, S, fromTensor, matrix, row, toTensor } from './example';
import type { Lesson } from './types';

export const lesson05: Lesson = {
  number: 5,
  slug: 'context-vector',
  title: 'Applying the weights: the context vector',
  summary: 'Scale each annotation by its weight and add them up.',
  blocks: [
    {
      html: `<p>With the weights $\\alpha_1, \\ldots, \\alpha_T$ in hand, attention finishes in two
      small steps. First each annotation is scaled by its own weight, $\\alpha_t h_t$: the
      relevant ones keep their size, the irrelevant ones shrink toward zero. Then the scaled
      annotations are added up into the <em>context vector</em></p>
      $$c = \\sum_{t=1}^{T} \\alpha_t \\, h_t = H^\\top \\alpha ,$$
      <p>which has the size $d$ of one annotation. Since the weights are positive and sum to 1,
      $c$ is a <em>weighted average</em> of the annotations: it lies "between" them, close to the
      ones with large weights. In the course example, $\\alpha \\approx [0.119, 0, 0, 0.881]$, so
      $c \\approx 0.119\\, h_1 + 0.881\\, h_4 \\approx [3.88, 4.07, 45.26]$.</p>
      <p>Be careful with the axis: the sum runs over the annotations ($t$), once for each of the
      $d$ features. Summing along the features instead would give $T$ numbers — one per
      annotation — which is not a context vector at all.</p>
      <p>In a seq2seq decoder, $c$ is then combined with the decoder state (for instance
      concatenated, $[c; s]$) to predict the next word. Everything from the score to $c$ is
      differentiable, so the network learns where to look from the translation loss alone.</p>`,
    },
    {
      figure: {
        caption: `The whole pipeline on the course example, computed by the engine's
          <code>attend</code>: weights, the weighted annotations $\\alpha_t h_t$ (one row per
          annotation) and their column sums, the context vector.`,
        async compute(call) {
          const r = await call('attend', 'dot', toTensor(S), toTensor(H), null);
          return [
            {
              title: 'weights α',
              data: row(r.weights.data, ANNOTATION_LABELS, '', [0, 1]),
            },
            {
              title: 'weighted annotations αₜ hₜ',
              data: matrix(fromTensor(r.weighted), ANNOTATION_LABELS, ['d1', 'd2', 'd3']),
            },
            {
              title: 'context c = Σₜ αₜ hₜ',
              data: row(r.context.data, ['d1', 'd2', 'd3']),
            },
          ];
        },
      },
    },
    {
      prediction: {
        id: 'context-third-entry',
        question: `The third entries of the annotations are $45, 5, 5, 45.3$ and the weights are
          $[0.119, 0, 0, 0.881]$. What is the third entry of the context vector?`,
        options: ['About 25 (the plain average)', 'About 45', 'About 90 (the sum of the two big ones)'],
        async reveal(call) {
          const c = await call('contextVector', { shape: [4], data: [0.119, 0, 0, 0.881] }, toTensor(H));
          return {
            answer: c.data[2] > 60 ? 2 : c.data[2] > 35 ? 1 : 0,
            explanation: `The engine gives ${c.data[2].toFixed(2)}: a weighted <em>average</em> of
              45 and 45.3, because the weights sum to 1.`,
            figures: [{ title: 'context c', data: row(c.data, ['d1', 'd2', 'd3']) }],
          };
        },
      },
    },
    { exercise: 'apply_weights' },
    { exercise: 'attention_context' },
    {
      html: `<p class="go-further"><strong>Go further.</strong> In ${viewLink('lab', 'the Attention Lab')} the
      context vector is the last step of the pipeline: edit an annotation, or untick one to mask
      it, and watch the weighted sum follow.</p>`,
    },
  ],
};
