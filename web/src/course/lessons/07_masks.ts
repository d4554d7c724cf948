import { viewLink } from '../../app/course_links';
import { randomMatrix, seededRandom } from '../grader';
import { fromTensor, matrix, numbered, toTensor } from './example';
import type { Lesson } from './types';

export const lesson07: Lesson = {
  number: 7,
  slug: 'masks',
  title: 'Masks: padding and causal',
  summary: 'Keep attention away from padding, and from the future.',
  blocks: [
    {
      html: `<p>Sometimes a query must not look at some keys at all. A <em>mask</em> says which
      (query, key) pairs are allowed: a $T_q \\times T_k$ table of 1 (visible) and 0 (hidden).
      Hidden keys are left out of the softmax — equivalently their scores are set to $-\\infty$,
      so $e^{-\\infty} = 0$ — and the visible weights still sum to 1:</p>
      $$\\alpha_{ij} = \\frac{M_{ij} \\, e^{e_{ij} - m_i}}{\\sum_{k} M_{ik} \\, e^{e_{ik} - m_i}},
        \\qquad m_i = \\max_{k:\\,M_{ik} = 1} e_{ik} .$$
      <p><strong>Padding masks.</strong> To train on a batch, sentences of different lengths are
      padded with a filler token up to a common length. The padding carries no meaning, and a
      model that attended to it would behave differently depending on how much padding the batch
      happened to need. A padding mask hides every padded key, for every query.</p>
      <p><strong>Causal masks.</strong> A decoder or a language model generates word $i$ from the
      words before it. During training the whole target sentence is fed at once for speed; without
      a mask, position $i$ could simply look at word $i + 1$ — the very answer it is supposed to
      predict — and learn nothing useful. The causal mask lets query $i$ see keys $1, \\ldots, i$
      (itself included) and hides the future: it is lower-triangular.</p>
      <p>Masks combine with a logical AND: a key is visible only if every mask allows it. A query
      whose row is entirely hidden has nothing to attend to; this engine then returns all-zero
      weights rather than $0/0 = \\text{NaN}$.</p>`,
    },
    {
      figure: {
        caption: `Masks made by the engine for 5 positions of which the last 2 are padding:
          causal, padding, and both combined; then the engine's masked softmax of random scores
          under the combined mask (hidden entries get exactly 0, each row's visible weights sum
          to 1).`,
        async compute(call) {
          const causal = await call('causalMask', 5);
          const padding = await call('paddingMask', 5, 5, 3);
          const both = await call('combineMasks', causal, padding);
          const scores = toTensor(randomMatrix(seededRandom(12), 5, 5, 3));
          const weights = await call('softmax', scores, { mask: both });
          const q = numbered('q', 5);
          const k = numbered('k', 5);
          return [
            { title: 'causal', data: matrix(fromTensor(causal), q, k, [0, 1]) },
            {
              title: 'padding (3 real keys)',
              data: matrix(fromTensor(padding), q, k, [0, 1]),
            },
            { title: 'combined', data: matrix(fromTensor(both), q, k, [0, 1]) },
            {
              title: 'masked softmax',
              data: matrix(fromTensor(weights), q, k, [0, 1]),
            },
          ];
        },
      },
    },
    {
      prediction: {
        id: 'causal-count',
        question: `A causal mask over 6 positions: how many (query, key) pairs are visible?`,
        options: ['36', '21', '15'],
        async reveal(call) {
          const mask = await call('causalMask', 6);
          const visible = mask.data.reduce((a, b) => a + b, 0);
          return {
            answer: ['36', '21', '15'].indexOf(String(visible)),
            explanation: `The engine's mask has ${visible} ones: query $i$ sees $i$ keys, and
              $1 + 2 + \\cdots + 6 = 6 \\cdot 7 / 2 = 21$. The diagonal counts — a word may look at
              itself.`,
            figures: [
              {
                title: 'causal mask, n = 6',
                data: matrix(fromTensor(mask), numbered('q', 6), numbered('k', 6), [0, 1]),
              },
            ],
          };
        },
      },
    },
    { exercise: 'causal_mask' },
    { exercise: 'padding_mask' },
    {
      html: `<p><strong>Where padding comes from.</strong> Reviews have different lengths; to train
      on a batch, Keras' <code>pad_sequences</code> cuts or fills every review to the same length,
      and the mask records which positions are real. Its defaults surprise many: it pads and
      truncates at the <em>front</em>.</p>`,
    },
    { exercise: 'pad_sequences' },
    {
      html: `<p class="go-further"><strong>Go further.</strong> In ${viewLink('lab', 'the Attention Lab')},
      untick an annotation to mask it as padding; ${viewLink('transformer', 'the Transformer view')}
      shows what a trained model's heads do when a causal mask is switched on.</p>`,
    },
  ],
};
