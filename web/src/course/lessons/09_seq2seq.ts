import { fromTensor, matrix, toTensor } from './example';
import type { Lesson } from './types';

const SOURCE = ['le', 'chat', 'noir', 'dort', '<eos>'];
const TARGET = ['the', 'black', 'cat', 'sleeps', '<eos>'];

export const lesson09: Lesson = {
  number: 9,
  slug: 'seq2seq',
  title: 'Seq2seq with attention',
  summary: 'Encoder, attentive decoder, teacher forcing and free running.',
  blocks: [
    {
      html: `<p>Now the pieces assemble into the model of lesson 1. The <strong>encoder</strong>, often a
      bidirectional LSTM or GRU, reads the source sentence and emits one annotation $h_t$ per
      word; reading in both directions lets each annotation describe its word together with its
      left and right context.</p>
      <p>The <strong>decoder</strong> is a recurrent network that writes the target one word at a
      time. At output step $i$, with previous state $s_{i-1}$:</p>
      <ol>
        <li>score every annotation against the state: $e_{it} = \\operatorname{score}(s_{i-1}, h_t)$ (lessons 2, 3, 6);</li>
        <li>turn the scores into weights, $\\alpha_i = \\operatorname{softmax}(e_i)$, hiding padded source words (lessons 4, 7);</li>
        <li>form the context $c_i = \\sum_t \\alpha_{it} h_t$ (lesson 5);</li>
        <li>update the state from the previous output word and the context, $s_i = f(s_{i-1}, y_{i-1}, c_i)$, and predict
          the next word from $s_i$ and $c_i$ with a softmax over the vocabulary.</li>
      </ol>
      <p>Stacking the weight rows $\\alpha_1, \\alpha_2, \\ldots$ gives an <em>alignment matrix</em>:
      which source words each target word was built from. For a translation it is close to the
      diagonal, with detours where the languages order words differently.</p>
      <p><strong>Teacher forcing versus free running.</strong> During training, the word fed back
      into step $i$ is the <em>true</em> previous word $y_{i-1}$ from the data (teacher forcing):
      every step learns from a correct history, and all steps' losses are available at once. At
      inference there is no true word; the model feeds back its own prediction (free running). A
      model that never saw its own mistakes in training can drift once it makes one — the
      <em>exposure bias</em>. Mixing the two during training (scheduled sampling: feed the model's
      own prediction with a probability that grows over time) is a common remedy.</p>`,
    },
    {
      figure: {
        caption: `An illustrative alignment matrix: five decoder states attend over five source
          annotations with dot-product scores, computed by the engine. The states and annotations
          are hand-made so that "black" looks at "noir" and "cat" at "chat" — the reordering an
          English–French model has to learn.`,
        async compute(call) {
          const eye = (i: number) => [0, 1, 2, 3, 4].map((j) => (i === j ? 1.5 : 0));
          const annotations = [0, 1, 2, 3, 4].map(eye);
          const states = [0, 2, 1, 3, 4].map(eye); // target word i looks for source word [0, 2, 1, 3, 4][i]
          const scores = await call('scores', 'dot', toTensor(states), toTensor(annotations), null);
          const weights = await call('softmax', scores, null);
          return [
            {
              title: 'α (target × source)',
              data: matrix(fromTensor(weights), TARGET, SOURCE, [0, 1]),
            },
          ];
        },
      },
    },
    {
      todo: `<strong>TODO (needs the seq2seq engine):</strong> "train one" seq2seq model here — a
      small encoder–decoder on a synthetic translation task (e.g. reversing or sorting a
      sequence), trained with teacher forcing, then decoded free running, with its learned
      alignment matrix and accuracy against length with and without attention. The seq2seq engine
      is being built in another part of this project; this block will call it when it exists.`,
    },
    {
      html: `<p>Meanwhile, here is an attention model you can train now. The <em>first of two</em>
      task needs exactly what a decoder's attention provides — finding two specific tokens
      anywhere in a sequence and relating them. A BiGRU encoder with additive (Bahdanau)
      attention pooling learns it; watch how much of its attention lands on the two decisive
      tokens.</p>`,
    },
    {
      training: {
        id: 'bigru-attention',
        title: 'BiGRU + additive attention on "first of two"',
        description: 'Sequences of 5 to 15 tokens; 200 steps of Adam; the engine runs in a worker.',
        runs: [
          {
            label: 'BiGRU + additive attention',
            config: {
              task: 'first_of_two',
              encoder: 'bigru',
              pooling: 'attention',
              score: 'additive',
              embed_dim: 16,
              units: 16,
              attention_dim: 16,
              steps: 200,
              seed: 5,
            },
          },
        ],
      },
    },
  ],
};
