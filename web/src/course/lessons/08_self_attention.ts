import { viewLink } from '../../app/course_links';
import { randomMatrix, seededRandom } from '../grader';
import { fromTensor, matrix, numbered, toTensor } from './example';
import type { Lesson } from './types';

const WORDS = ['the', 'cat', 'sat', 'on', 'the', 'mat'];

export const lesson08: Lesson = {
  number: 8,
  slug: 'self-attention',
  title: 'Self-attention, queries, keys, values and heads',
  summary: 'A sequence attending to itself; several heads at once; why paths get short.',
  blocks: [
    {
      html: `<p>So far a decoder attended to an encoder. In <em>self-attention</em> a sequence
      attends to itself: every position looks at every other position of the same sentence to
      build a better description of its own word ("it" looks at the noun it stands for).</p>
      <p>Each position's vector $x_i$ plays three roles, each through its own learned projection:
      a <em>query</em> $q_i = x_i W_Q$ (what am I looking for?), a <em>key</em> $k_i = x_i W_K$
      (what do I contain, for matching?) and a <em>value</em> $v_i = x_i W_V$ (what do I hand over
      when chosen?). Separating keys from values lets a word be found by one property and
      contribute another. Stacking them as matrices, all positions are computed at once:</p>
      $$\\operatorname{Attention}(Q, K, V) = \\operatorname{softmax}\\!\\left(\\frac{Q K^\\top}{\\sqrt{d_k}}\\right) V .$$
      <p>The softmax runs along each row (over the keys), and a mask (lesson 7) can be applied to
      $QK^\\top$ before it.</p>
      <p><strong>Multiple heads.</strong> One softmax row is one way of distributing attention. A
      word often needs several at once (its subject, the next word, a matching bracket…). So the
      model splits its $D$ dimensions into $H$ heads of $D/H$, runs attention in every head with
      its own projections, concatenates the heads' outputs and mixes them with one more matrix
      $W_O$. The cost is about the same as one big head.</p>
      <p><strong>Path length.</strong> For information to flow from word 1 to word $n$, a recurrent
      network passes it through $n - 1$ sequential steps, each a chance to forget; a convolution
      with kernel width $k$ needs a stack of about $n/k$ layers (or $\\log_k n$ with dilations).
      Self-attention connects any two positions in <em>one</em> step, and all positions are
      computed in parallel. The price is the $n \\times n$ table of scores: time and memory grow
      with $n^2$.</p>`,
    },
    {
      figure: {
        caption: `Two heads of self-attention over six words, computed by the engine: random
          queries and keys (seed 13) split into 2 heads with <code>splitHeads</code>, then
          <code>scaledDotProductAttention</code> per head with a causal mask. Each head
          distributes its attention differently; no row looks to its right.`,
        async compute(call) {
          const random = seededRandom(13);
          const x = toTensor(randomMatrix(random, 6, 8, 2));
          const k = toTensor(randomMatrix(random, 6, 8, 2));
          const q = await call('splitHeads', x, 2);
          const keys = await call('splitHeads', k, 2);
          const mask = await call('causalMask', 6);
          const r = await call('scaledDotProductAttention', q, keys, keys, {
            mask,
          });
          const heads = fromTensor(r.weights) as number[][][];
          return heads.map((weights, h) => ({
            title: `head ${h + 1}`,
            data: matrix(weights, WORDS, WORDS, [0, 1]),
          }));
        },
      },
    },
    {
      prediction: {
        id: 'self-attention-argmax',
        question: `Queries = keys = values $= [[1, 0], [0, 1], [1, 1]]$, no mask. Which key does
          query 3 attend to most?`,
        options: ['key 1', 'key 2', 'key 3', 'keys 1 and 2 equally, more than key 3'],
        async reveal(call) {
          const x = toTensor([
            [1, 0],
            [0, 1],
            [1, 1],
          ]);
          const r = await call('scaledDotProductAttention', x, x, x, null);
          const w = fromTensor(r.weights) as number[][];
          const third = w[2];
          return {
            answer: third.indexOf(Math.max(...third)),
            explanation: `Query 3 is $[1, 1]$: its scores are $[1, 1, 2] / \\sqrt 2$, so key 3 — itself —
              wins with weight ${third[2].toFixed(3)}; keys 1 and 2 tie at ${third[0].toFixed(3)}.`,
            figures: [
              {
                title: 'weights',
                data: matrix(w, numbered('q', 3), numbered('k', 3), [0, 1]),
              },
            ],
          };
        },
      },
    },
    { exercise: 'scaled_dot_product_attention' },
    {
      html: `<p><strong>Heads.</strong> Multi-head attention runs $H$ attentions side by side on
      slices of the model dimension: split the projected queries, keys and values into heads,
      attend in each head, then merge the heads' outputs back into one matrix.</p>`,
    },
    { exercise: 'split_heads' },
    { exercise: 'merge_heads' },
    {
      html: `<p><strong>Positions.</strong> Self-attention treats its input as a set: shuffle the
      tokens and every output is shuffled the same way. A positional encoding added to the
      embeddings tells the model where each token sits.</p>`,
    },
    { exercise: 'positional_encoding' },
    {
      html: `<p class="go-further"><strong>Go further.</strong> ${viewLink('transformer', 'The Transformer view')}
      trains a small Transformer classifier in your browser and opens it up: every layer's and
      head's attention on a sentence you type, heads switched off one at a time, a causal mask,
      and the positional encodings it adds.</p>`,
    },
  ],
};
