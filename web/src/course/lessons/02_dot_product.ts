import { ANNOTATION_LABELS, H, S, row, toTensor } from './example';
import type { Lesson } from './types';

export const lesson02: Lesson = {
  number: 2,
  slug: 'dot-product',
  title: 'Scoring one annotation with a dot product',
  summary: 'How well does one annotation match the decoder state? Multiply and add.',
  blocks: [
    {
      html: `<p>Attention needs a number for each annotation that says how relevant it is to the
      decoder right now. The simplest choice compares the decoder state $s$ with an annotation
      $h$ coordinate by coordinate, multiplies, and adds up:</p>
      $$\\operatorname{score}(s, h) = s^\\top h = \\sum_{i=1}^{d} s_i \\, h_i .$$
      <p>This is the <em>dot product</em>. It is large and positive when the two vectors point the
      same way and have large entries, zero when they are orthogonal, and negative when they
      point in opposite directions. Geometrically $s^\\top h = \\lVert s \\rVert \\, \\lVert h \\rVert \\cos\\theta$:
      the angle between the vectors, scaled by their lengths. It needs $s$ and $h$ to have the
      same size $d$, and it has no parameters of its own — the encoder and decoder must learn to
      produce states whose dot products mean something.</p>
      <p>In the course example $s = [5, 1, 20]$ and $h_1 = [3, 12, 45]$, so
      $s^\\top h_1 = 5 \\cdot 3 + 1 \\cdot 12 + 20 \\cdot 45 = 15 + 12 + 900 = 927$. The third
      coordinate dominates: both vectors are big there.</p>`,
    },
    {
      figure: {
        caption: `Dot-product scores of $s = [5, 1, 20]$ with $h_1$, with $2h_1$ (twice as long:
          twice the score), with $-h_1$ (opposite: the negated score) and with $[20, 0, -5]$
          (orthogonal to $s$: zero), computed by the engine.`,
        async compute(call) {
          const keys = [H[0], H[0].map((v) => 2 * v), H[0].map((v) => -v), [20, 0, -5]];
          const scores = await call('scores', 'dot', toTensor(S), toTensor(keys), null);
          return [
            {
              title: 'score(s, ·)',
              data: row(scores.data, ['h₁', '2h₁', '−h₁', '⊥']),
            },
          ];
        },
      },
    },
    {
      prediction: {
        id: 'highest-single-score',
        question: `With $s = [5, 1, 20]$, which annotation gets the highest dot-product score?`,
        options: ['$h_2 = [59, 2, 5]$ (the largest first entry)', '$h_1 = [3, 12, 45]$', '$h_3 = [1, 43, 5]$'],
        async reveal(call) {
          const keys = [H[1], H[0], H[2]];
          const scores = await call('scores', 'dot', toTensor(S), toTensor(keys), null);
          const best = scores.data.indexOf(Math.max(...scores.data));
          return {
            answer: best,
            explanation: `The engine computes $397$, $927$ and $148$. $h_2$ has the biggest entry,
              but it sits where $s$ is small (5); $h_1$ is large where $s$ is large (20), and that
              product, $20 \\cdot 45 = 900$, outweighs everything else.`,
            figures: [
              {
                title: 'score(s, h)',
                data: row(scores.data, [ANNOTATION_LABELS[1], ANNOTATION_LABELS[0], ANNOTATION_LABELS[2]]),
              },
            ],
          };
        },
      },
    },
    { exercise: 'single_dot_score' },
  ],
};
