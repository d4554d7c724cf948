import { viewLink } from '../../app/course_links';
import { ANNOTATION_LABELS, H, S, row, toTensor } from './example';
import type { Lesson } from './types';

// Digit reversal, 3 to 14 digits. Measured on a busy 2-core machine: 4 s without attention and
// 8 s with in Chromium's worker (12 s and 22 s in node); held-out exact match 23% and 97%.
const REVERSAL = {
  task: 'reverse',
  trainSize: 3000,
  testSize: 360,
  minLen: 3,
  maxLen: 14,
  testMinLen: 3,
  testMaxLen: 14,
  epochs: 4,
  learningRate: 0.01,
  earlyStoppingPatience: 0,
  seed: 2,
} as const;
const REVERSAL_QUICK = { trainSize: 300, testSize: 60, epochs: 1 } as const;

export const lesson01: Lesson = {
  number: 1,
  slug: 'why-attention',
  title: 'Why attention?',
  summary: 'The fixed-vector bottleneck of sequence-to-sequence models, and the idea that removes it.',
  blocks: [
    {
      html: `<p>A sequence-to-sequence (seq2seq) model turns one sequence into another: a French
      sentence into English, a question into an answer. The classic design has two recurrent
      networks. The <em>encoder</em> reads the source word by word and updates a hidden state
      $h_t$ at every step. The <em>decoder</em> then writes the output word by word, starting
      from the encoder's <strong>last</strong> state.</p>
      <p>That last state is a vector of fixed size — a few hundred numbers — and it is the only
      thing the decoder ever learns about the source. A five-word sentence and a fifty-word
      sentence must both be squeezed into it. Short sentences fit; long ones do not, and the
      early words are the first to blur. This is the <strong>fixed-vector bottleneck</strong>:
      the translation quality of such models falls off as sentences get longer.</p>
      <p>Attention removes the bottleneck by keeping <em>all</em> the encoder states. We call them
      <em>annotations</em> $h_1, \\ldots, h_T$: one per source word, each describing that word in
      its context. At every output step the decoder looks at its own state $s$, asks "which
      source words matter now?", and takes a weighted average of the annotations:</p>
      $$c = \\sum_{t=1}^{T} \\alpha_t \\, h_t, \\qquad \\alpha = \\operatorname{softmax}\\big(\\operatorname{score}(s, h_1), \\ldots, \\operatorname{score}(s, h_T)\\big).$$
      <p>The weights $\\alpha_t$ are positive and sum to 1, and they are recomputed for every
      output word, so the decoder can read the part of the source it needs, however long the
      source is. The next lessons build this formula piece by piece: the score (lessons 2, 3 and
      6), the softmax (lesson 4), the weighted sum (lesson 5), masks (lesson 7), and then the
      models built from it (lessons 8 to 10).</p>`,
    },
    {
      figure: {
        caption: `A preview of the course's running example, computed by the engine: a decoder
          state $s = [5, 1, 20]$ scores four annotations, and the softmax turns the scores into the
          weights of the average. Almost all the weight goes to $h_1$ and $h_4$; lessons 2 to 5
          explain every number.`,
        async compute(call) {
          const r = await call('attend', 'dot', toTensor(S), toTensor(H), null);
          return [
            { title: 'scores', data: row(r.scores.data, ANNOTATION_LABELS) },
            { title: 'weights α', data: row(r.weights.data, ANNOTATION_LABELS, '', [0, 1]) },
          ];
        },
      },
    },
    {
      html: `<p><strong>See the bottleneck.</strong> The experiment below trains two seq2seq models
      in your browser on a task that needs the whole source: <em>reverse a string of digits</em>
      (4071 → 1704), with strings of 3 to 14 digits. Both have the same bidirectional GRU encoder
      and GRU decoder with 32 units, see the same 3,000 training pairs for the same 4 epochs,
      and differ in one thing only. The first decoder gets the encoder's final state and nothing
      else — the fixed vector. The second attends over all the encoder's states at every
      step (its attention layer adds about 15,000 weights; the recurrent state stays at 32
      units). When training ends, each model reverses 360 strings it has never seen, and we count
      the outputs that are right to the last digit, separately for every length.</p>`,
    },
    {
      seq2seq: {
        id: 'bottleneck',
        title: 'reversal with and without attention',
        description: `Both runs together take 10 to 30 seconds, depending on your machine; the
          engine trains in a worker, so the page stays usable.`,
        runs: [
          {
            label: 'Without attention (final state only)',
            settings: { ...REVERSAL, attention: 'none' },
            quick: REVERSAL_QUICK,
          },
          {
            label: 'With attention (Bahdanau)',
            settings: { ...REVERSAL, attention: 'bahdanau' },
            quick: REVERSAL_QUICK,
          },
        ],
      },
    },
    {
      html: `<p><strong>What to look for.</strong> Both models learn the short strings. Without
      attention the curve then falls steeply: in our runs the fixed-vector model reversed most
      strings of three or four digits, about one in five of six or seven digits, and almost none
      of eight or more. Its 32-number state cannot carry a long string and its order to the
      decoder; the digits read first blur. Training it longer does not remove the limit: with
      10 epochs instead of 4 it got most strings of up to seven digits right, and still almost
      no string of ten or more, because the limit is the size of the vector, not the training
      time.</p>
      <p>With attention the curve stays high across all lengths. Nothing about the model grew —
      the same 32 units — but the decoder no longer needs to carry the whole string in its state:
      at output step $i$ it puts its weight on the input digit it is about to copy, so the length
      of the source costs it almost nothing. (Its last few points may dip: the longest strings are
      the rarest and hardest within the training range.) Lesson 9 trains a model like this one
      and shows you its weights.</p>`,
    },
    {
      html: `<p><strong>When is one vector enough?</strong> The bottleneck is about <em>how much</em>
      must pass through the fixed vector. A reversal must pass every digit and its place. A
      classifier that answers one yes/no question passes a single bit, and a final state carries a
      bit as far as you like. The run below checks this: a BiLSTM reads 20 to 40 tokens and must say
      which of two marker tokens came first, once from its final states only and once with attention
      pooling. Expect both to be right on almost every held-out sequence. (We looked for a setting
      where the final state fails on such tasks — 60 to 120 tokens, states of 4 units, and 100 to
      200 tokens for the presence of one token — and found none; on 60 to 120 tokens it was the
      attention model that had not learned yet after 150 steps. With states of only 2 units and
      150 to 300 tokens, the final state still reached 100% after 600 steps on four seeds, while
      attention pooling was still at chance.) What attention adds here is not accuracy but a view: it reports which
      tokens it read, and nearly all its weight lands on the two markers.</p>`,
    },
    {
      training: {
        id: 'bottleneck',
        title: 'a one-bit question: final state versus attention',
        description:
          'Same data, same BiLSTM encoder, 150 steps each; only the pooling differs. Each run takes a few seconds.',
        runs: [
          {
            label: 'Final states only (no attention)',
            config: {
              task: 'first_of_two',
              encoder: 'bilstm',
              pooling: 'last',
              embed_dim: 16,
              units: 16,
              min_len: 20,
              max_len: 40,
              steps: 150,
              seed: 3,
            },
          },
          {
            label: 'Attention pooling',
            config: {
              task: 'first_of_two',
              encoder: 'bilstm',
              pooling: 'attention',
              score: 'additive',
              embed_dim: 16,
              units: 16,
              attention_dim: 16,
              min_len: 20,
              max_len: 40,
              steps: 150,
              seed: 3,
            },
          },
        ],
      },
    },
    {
      html: `<p><strong>Your turn.</strong> Before attention, the decoder got one fixed summary of
      the source. Compute the simplest such summary yourself; lesson 5 turns it into a weighted
      average whose weights change at every output step.</p>`,
    },
    { exercise: 'mean_context' },
    {
      html: `<p class="go-further"><strong>Go further.</strong> In ${viewLink('seq2seq', 'the Seq2seq Alignment view')}
      you can train the same reversal model with or without attention, then decode a string of your
      own one output digit at a time and watch each row of the alignment appear.</p>`,
    },
  ],
};
