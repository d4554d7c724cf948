import { viewLink } from '../../app/course_links';
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
      html: `<p><strong>Train one.</strong> A date can be written in many ways — "Thu 3 May, 1979",
      "03/05/79", "3.5.1979" — and the task below is to rewrite it, character by character, in
      the one ISO form, 1979-05-03. The model is the one described above: a bidirectional GRU
      encoder over the input characters, a GRU decoder with additive (Bahdanau) attention that
      emits one output character per step. It trains with teacher forcing on 3,000 dates for
      4 epochs (10 to 30 seconds in the worker, depending on your machine). Then type any date in the box, and the
      model decodes it free running, greedily, showing the alignment matrix: one row per output
      character, one column per input character.</p>`,
    },
    {
      seq2seq: {
        id: 'dates',
        title: 'a date normaliser with attention',
        description: `3,000 training dates in 14 formats, 300 of them held out for validation after
          every epoch; 200 more dates are only used for the final test.`,
        runs: [
          {
            label: 'BiGRU encoder, GRU decoder, Bahdanau attention',
            settings: {
              task: 'dates',
              attention: 'bahdanau',
              trainSize: 3000,
              testSize: 200,
              epochs: 4,
              learningRate: 0.01,
              earlyStoppingPatience: 0,
              seed: 2,
            },
            quick: { trainSize: 400, testSize: 40, epochs: 1 },
          },
        ],
        epochs: true,
        translate: {
          example: 'Thu 3 May, 1979',
          hint: `Type a date in any format you like (the model has seen dates from 1950 to 2049 written in
            14 styles, day before month when both are numbers) and press Translate.`,
        },
      },
    },
    { exercise: 'teacher_forcing', beside: true },
    {
      html: `<p><strong>Reading the alignment.</strong> The year digits of the output look at the
      year in the input — mostly at its last two digits, since the century follows from them —
      the month digits at the month (the letters of its name, or its number), and the day digits
      at the day. The hyphens, which sit at the same place in every output, need no particular
      input character and tend to spread their weight. The rows jump about the input because ISO
      order (year, month, day) is not the order most formats use: this is the reordering that a
      fixed vector would have to memorise and attention simply looks up.</p>
      <p><strong>Teacher forcing versus free running, in numbers.</strong> The table after
      training compares, epoch by epoch, two ways of measuring the same model on the validation
      dates. The loss is computed with teacher forcing (ratio 1: every step is fed the true
      previous character), and $e^{-\\text{loss}}$ is the typical probability the model gives to the
      right next character when its history is correct. The last two columns decode free running,
      as you do in the box: each step is fed the model's own previous output. Early in training a
      model can give the right character a fair probability at most steps and still get almost no
      whole date right — one wrong character anywhere spoils the output, and a wrong character fed
      back can derail the steps after it. The gap closes as the model becomes sure of every step;
      that is why seq2seq models are judged on free-running output, not on their training loss.</p>`,
    },
    {
      html: `<p>Attention is not only for decoders. Here is a classifier with the same additive
      attention, pooling the states of a BiGRU encoder. The <em>first of two</em>
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
    {
      html: `<p><strong>Build the pieces.</strong> The encoder's annotations join two reading
      directions; Bahdanau's decoder scores them with a small network of the previous state; Luong's
      decoder scores with its current state and mixes the context back in.</p>`,
    },
    { exercise: 'bidirectional_annotations' },
    { exercise: 'alignment_batch' },
    {
      html: `<p><strong>Your attention in a trained model.</strong> The function you just wrote is exactly
      the attention step of the decoder above. Below, a small model of that kind learns to reverse digit
      strings; then your <code>alignBatch</code> replaces the engine's attention at every decoding step of
      inputs the model has never seen. With a right function the model writes what it writes with its own
      attention; leave out the softmax, or take it over the batch instead of over time, and watch the
      alignment and the outputs fall apart.</p>`,
    },
    {
      seq2seqStep: {
        id: 'reversal',
        settings: {
          task: 'reverse',
          attention: 'bahdanau',
          cell: 'gru',
          trainSize: 2000,
          testSize: 40,
          minLen: 3,
          maxLen: 6,
          testMinLen: 3,
          testMaxLen: 6,
          embed: 16,
          units: 32,
          attentionDim: 32,
          epochs: 8,
          learningRate: 0.01,
          earlyStoppingPatience: 0,
          seed: 2,
        },
        heldOut: 24,
      },
    },
    { exercise: 'luong_step' },
    { exercise: 'attentional_state' },
    {
      html: `<p><strong>Training and predicting read different inputs.</strong> While training, each
      decoder step reads the gold previous token (teacher forcing); when predicting, it reads its
      own previous output, so one early mistake is carried forward. Greedy decoding is that loop:
      take the best token, feed it back, stop at EOS.</p>`,
    },
    { exercise: 'greedy_decode' },
    {
      html: `<p class="go-further"><strong>Go further.</strong> ${viewLink('seq2seq', 'The Seq2seq Alignment view')}
      trains the reversal and date models of this lesson (with Bahdanau, Luong or no attention,
      for as many epochs as you like), steps through greedy decoding one output character at a time,
      and compares greedy with beam search.</p>`,
    },
  ],
};
