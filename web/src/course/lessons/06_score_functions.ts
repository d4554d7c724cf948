import { viewLink } from '../../app/course_links';
import type { ScoreKindName } from '../../../generated/attn_engine.mjs';
import { seededRandom } from '../grader';
import { ANNOTATION_LABELS, H, S, matrix, row, toTensor } from './example';
import type { Lesson } from './types';

export const lesson06: Lesson = {
  number: 6,
  slug: 'score-functions',
  title: 'Families of scoring functions',
  summary: 'Dot, general, additive/concat, location, cosine and scaled dot-product — and why √dₖ.',
  blocks: [
    {
      html: `<p>The dot product is one way to score; the literature has several, differing in how
      many parameters they learn and what they can compare.</p>
      <ul>
        <li><strong>Dot</strong> (Luong): $\\operatorname{score}(s, h) = s^\\top h$. No parameters;
          $s$ and $h$ must have the same size.</li>
        <li><strong>General</strong> (Luong): $s^\\top W h$, with a learned $W$ of shape
          $d_s \\times d_h$. The model learns which coordinates of $s$ should match which of
          $h$, and the sizes may differ.</li>
        <li><strong>Additive</strong> (Bahdanau): $v^\\top \\tanh(W_1 s + W_2 h)$. A small
          one-hidden-layer network of width $A$ judges the pair; it can express matches a single
          product cannot. <strong>Concat</strong> (Luong) is the same idea written as
          $v^\\top \\tanh(W [s; h])$ on the concatenated vector.</li>
        <li><strong>Location</strong> (Luong): $\\operatorname{score}(s)_t = (W s)_t$ ignores the
          annotations' content and predicts directly which <em>positions</em> to look at from
          the decoder state.</li>
        <li><strong>Scaled dot-product</strong> (Transformer): $s^\\top h / \\sqrt{d_k}$.</li>
        <li><strong>Cosine</strong>: $s^\\top h / (\\lVert s \\rVert\\, \\lVert h \\rVert)$, the dot
          product of the two directions with their lengths divided out. It only asks whether $s$
          and $h$ point the same way, so every score lies between $-1$ and $1$; a softmax over
          such close scores stays nearly uniform unless the model multiplies them by a learned
          or fixed sharpness first (as cosine-similarity attention in some later models does).</li>
      </ul>
      <p><strong>Why divide by $\\sqrt{d_k}$?</strong> Suppose the entries of a query $q$ and a key
      $k$ are independent, with mean 0 and variance 1. Each product $q_i k_i$ then has mean 0 and
      variance 1, and their sum $q^\\top k$ has variance $d_k$: its typical size grows like
      $\\sqrt{d_k}$. With $d_k = 256$ the scores are spread 8 times wider than with $d_k = 4$, and a
      softmax over widely spread scores puts nearly all its weight on one key. Such a saturated
      softmax has gradients close to zero, so learning stalls. Dividing by $\\sqrt{d_k}$ brings the
      variance back to 1 whatever the size of the heads.</p>`,
    },
    {
      figure: {
        caption: `The course example scored by all seven functions the engine has, computed by the
          engine; each score row has its own colour scale (their sizes differ by a factor of a
          thousand), and the last map puts the softmax of every row on one scale from 0 to 1.
          Dot and scaled dot rank the annotations the same way; the scaled one divides every score
          by $\\sqrt 3$, so its weights are less extreme. Cosine scores stay within $[-1, 1]$, so
          its weights stay far flatter than the dot product's (0.34 at most, against 0.88). General, additive, concat and location use parameters drawn by the engine's
          initialiser (seed 1): these are the scores of an <em>untrained</em> model, which is why
          they look arbitrary. Location does not read the annotations at all: its four scores
          come from $W s$ alone, one per position.`,
        async compute(call) {
          const kinds: ScoreKindName[] = ['dot', 'scaled_dot', 'cosine', 'general', 'additive', 'concat', 'location'];
          const rows: number[][] = [];
          for (const kind of kinds) {
            const params = await call('initScoreParams', kind, 3, 3, 4, 4, 1);
            rows.push(Array.from((await call('scores', kind, toTensor(S), toTensor(H), params)).data));
          }
          const weights: number[][] = [];
          for (const r of rows) weights.push(Array.from((await call('softmax', { shape: [4], data: r }, null)).data));
          return [
            ...kinds.map((kind, i) => ({
              title: `${kind} scores`,
              data: { ...row(rows[i], ANNOTATION_LABELS, kind), scale: 'signed' as const },
            })),
            {
              title: 'softmax(scores), every row',
              data: matrix(weights, kinds, ANNOTATION_LABELS, [0, 1]),
            },
          ];
        },
      },
    },
    {
      prediction: {
        id: 'why-sqrt-dk',
        question: `Draw a random query and 8 random keys with unit-variance entries. Compared with
          $d_k = 4$, what does the <em>unscaled</em> dot-product softmax look like at $d_k = 256$?`,
        options: ['About as spread out', 'Much more peaked on one key', 'Flatter, closer to uniform'],
        async reveal(call) {
          const random = seededRandom(11);
          const gaussian = () => {
            const u = Math.max(random(), 1e-12);
            return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
          };
          const draw = (rows: number, d: number) =>
            Array.from({ length: rows }, () => Array.from({ length: d }, gaussian));
          const rows: number[][] = [];
          const labels: string[] = [];
          for (const d of [4, 256]) {
            const q = draw(1, d)[0];
            const k = draw(8, d);
            for (const kind of ['dot', 'scaled_dot'] as const) {
              const scores = await call('scores', kind, toTensor(q), toTensor(k), null);
              rows.push(Array.from((await call('softmax', scores, null)).data));
              labels.push(`d=${d} ${kind === 'dot' ? 'dot' : 'scaled'}`);
            }
          }
          const peak = (r: number[]) => Math.max(...r);
          return {
            answer: peak(rows[2]) > peak(rows[0]) + 0.2 ? 1 : peak(rows[2]) < peak(rows[0]) - 0.2 ? 2 : 0,
            explanation: `The largest weight is ${peak(rows[0]).toFixed(2)} at $d_k = 4$ but
              ${peak(rows[2]).toFixed(2)} at $d_k = 256$ without scaling; with the $1/\\sqrt{d_k}$
              it is ${peak(rows[3]).toFixed(2)}. (One random draw, seed 11: the engine computed
              every number.)`,
            figures: [
              {
                title: 'softmax weights over 8 keys',
                data: matrix(
                  rows,
                  labels,
                  Array.from({ length: 8 }, (_, i) => `k${i + 1}`),
                  [0, 1],
                ),
              },
            ],
          };
        },
      },
    },
    { exercise: 'scaled_dot_scores' },
    { exercise: 'additive_score' },
    {
      html: `<p>Luong et al. (2015) compare three more scores, each a one-line change to the
      ones above: <em>general</em> ($s^\\top W h$), <em>concat</em> ($v^\\top \\tanh(W[s; h])$) and
      <em>location</em> ($W s$, which ignores the annotations' content). Write all three; the engine
      implements them in <code>attention/scores</code>.</p>`,
    },
    { exercise: 'luong_general_score' },
    { exercise: 'luong_concat_score' },
    { exercise: 'luong_location_score' },
    {
      html: `<p class="go-further"><strong>Go further.</strong> ${viewLink('lab', 'The Attention Lab')} switches
      between these scoring functions on the same inputs, and its scaling experiment repeats the
      $\\sqrt{d_k}$ question above for many sizes of $d_k$.</p>`,
    },
  ],
};
