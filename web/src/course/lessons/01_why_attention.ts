import { ANNOTATION_LABELS, H, S, row, toTensor } from './example';
import type { Lesson } from './types';

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
      todo: `<strong>TODO (needs the seq2seq engine):</strong> a figure of accuracy against source
      length for a seq2seq model with and without attention, trained by the seq2seq engine that is
      being added to this project. Until it lands, the experiment below trains two classifiers with
      the engine that exists today.`,
    },
    {
      html: `<p><strong>Try it on a classifier.</strong> While the seq2seq engine is on its way,
      the engine can already train sequence classifiers on synthetic tasks. In the <em>first of
      two</em> task every sequence holds two special tokens A and B somewhere among 20 to 40
      tokens, and the label says whether A comes first. Below, two BiLSTM models learn it. The
      first keeps only the final states — a fixed vector, like the classic encoder; the second
      pools all its states with attention, and the engine reports how much of its weight lands on
      A and B.</p>
      <p>Expect both to succeed: a classifier only has to carry <em>one bit</em> to its output,
      and a fixed vector holds one bit easily. The bottleneck bites when the whole source must
      come out again, word by word, as in translation — that is the figure the seq2seq engine
      will provide. What this experiment does show is the other half of the story: the attention
      model's weights tell you where it looked, and they sit on A and B.</p>`,
    },
    {
      training: {
        id: 'bottleneck',
        title: 'final state versus attention',
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
  ],
};
