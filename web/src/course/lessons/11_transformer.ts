import { viewLink } from '../../app/course_links';
import { randomMatrix, seededRandom } from '../grader';
import { engineDecoder, type Layer } from '../exercises/no_peeking/exercise';
import { fromTensor, matrix } from './example';
import type { Lesson } from './types';

const TARGET = ['<bos>', 'il', "n'", 'aime', 'pas', 'les', 'pommes'];
const SHORT = ['<bos>', 'je', 'dors', '<pad>', '<pad>', '<pad>', '<pad>'];

/** [t][s] = 1 when changing input s changes output t (the engine's layers, seeded weights). */
async function dependence(call: Parameters<typeof engineDecoder>[0], mask: number[][]): Promise<number[][]> {
  const random = seededRandom(1101);
  const T = mask.length;
  const d = 4;
  const layer: Layer = {
    Wq: randomMatrix(random, d, d, 1),
    Wk: randomMatrix(random, d, d, 1),
    Wv: randomMatrix(random, d, d, 1),
    mask,
  };
  const x = randomMatrix(random, T, d);
  const base = await engineDecoder(call, [layer], x);
  const result = x.map(() => new Array(T).fill(0));
  for (let s = 0; s < T; s++) {
    const out = await engineDecoder(
      call,
      [layer],
      x.map((row, r) => (r === s ? row.map((v) => v + 1) : row)),
    );
    for (let t = 0; t < T; t++) if (out[t].some((v, c) => Math.abs(v - base[t][c]) > 1e-9)) result[t][s] = 1;
  }
  return result;
}

export const lesson11: Lesson = {
  number: 11,
  slug: 'transformer',
  title: 'Attention without RNNs: the Transformer encoder–decoder',
  summary: 'Self-attention instead of recurrence; masked, cross- and cached attention.',
  blocks: [
    {
      html: `<p>Lesson 9's translator still reads and writes with recurrent networks: attention
      only connects them. The Transformer keeps the encoder–decoder and the attention between them,
      and replaces the recurrence itself with attention — "attention in seq2seq <em>without</em>
      RNNs".</p>
      <p><strong>Why drop the recurrence?</strong> Two reasons, both about the path between
      positions.</p>
      <div class="lesson-table-wrap"><table class="lesson-table">
        <caption>Recurrence and self-attention over a sentence of $n$ words</caption>
        <thead><tr><th scope="col">over $n$ words</th><th scope="col">recurrent layer</th><th scope="col">self-attention layer</th></tr></thead>
        <tbody>
          <tr><th scope="row">steps from word 1 to word $n$</th><td>$n - 1$, one state after another</td><td>1: every word looks at every word</td></tr>
          <tr><th scope="row">operations that must wait for each other</th><td>$n$ (step $t$ needs $s_{t-1}$)</td><td>1 (all positions at once)</td></tr>
          <tr><th scope="row">work per layer</th><td>$n \\cdot d^2$</td><td>$n^2 \\cdot d$</td></tr>
        </tbody>
      </table></div>
      <p>A short path means a gradient reaches the words it depends on without fading through
      $n$ multiplications, and a layer whose positions do not wait for each other trains as a few
      big matrix products — fast on the hardware we have. The price is the $n \\times n$ table of
      scores.</p>
      <p><strong>The encoder</strong> is a stack of blocks, each self-attention over the source
      (lesson 8) followed by a small feed-forward network applied to every position, with a
      residual connection and layer normalisation around both. Since attention ignores order, a
      <em>positional encoding</em> (lesson 8's sines and cosines) is added to the word embeddings
      first.</p>
      <p><strong>The decoder</strong> is a stack of blocks with three parts each:</p>
      <ol>
        <li><em>masked self-attention</em> over the target words written so far: position $i$ may
          look at positions $\\le i$ only, because the words after it "have not been predicted
          yet";</li>
        <li><em>cross-attention</em>: the decoder's positions are the <em>queries</em>, the
          encoder's outputs the <em>keys and values</em> — the same lookup as Bahdanau's
          alignment, with $Q K^\\top / \\sqrt{d_k}$ as the score;</li>
        <li>the feed-forward network, then a softmax over the target vocabulary.</li>
      </ol>
      <p><strong>Teacher forcing, all positions at once.</strong> In training the whole target
      is known, so the decoder reads $\\langle bos\\rangle\\, y_1 \\ldots y_{n-1}$ and predicts
      $y_1 \\ldots y_n$ in one pass: one matrix product per layer instead of $n$ recurrent steps.
      The mask is what makes this honest: without it, position $i$ would simply copy $y_{i+1}$
      from its input, score a tiny training loss, and have nothing to copy from when it
      translates word by word.</p>`,
    },
    {
      figure: {
        caption: `What the decoder's self-attention may see in one padded batch, computed by the
          engine (<code>causalMask</code>, <code>paddingMask</code>, <code>combineMasks</code>):
          a seven-token target and a three-token one padded to seven. Rows are queries, columns
          keys; 1 (yellow) is visible, 0 (dark) hidden. The short sentence's padding is hidden from every query.`,
        async compute(call) {
          const T = TARGET.length;
          const full = fromTensor(await call('causalMask', T));
          const short = fromTensor(
            await call('combineMasks', await call('causalMask', T), await call('paddingMask', T, T, 3)),
          );
          return [
            { title: '"il n\'aime pas les pommes"', data: matrix(full, TARGET, TARGET, [0, 1]), compact: true },
            { title: '"je dors" + padding', data: matrix(short, SHORT, SHORT, [0, 1]), compact: true },
          ];
        },
      },
    },
    { exercise: 'decoder_mask' },
    {
      html: `<p><strong>Checking the mask by experiment.</strong> A mask is easy to get subtly wrong
      (off by one, combined with OR instead of AND, forgotten in one layer). The reliable test
      does not read the code: change the input at position $s$ and see which outputs move. An
      output before $s$ that moves has peeked.</p>`,
    },
    {
      figure: {
        caption: `Which outputs change when one input changes, measured on the engine's masked
          self-attention (one layer, seeded weights, each input in turn moved by +1). Row $t$,
          column $s$ is 1 when output $t$ moved. With the causal mask everything above the
          diagonal stays 0; without a mask every output depends on every word.`,
        async compute(call) {
          const T = 6;
          const causal = fromTensor(await call('causalMask', T)) as number[][];
          const open = causal.map((row) => row.map(() => 1));
          const labels = TARGET.slice(0, T);
          return [
            {
              title: 'causal mask',
              data: matrix(await dependence(call, causal), labels, labels, [0, 1]),
              compact: true,
            },
            { title: 'no mask', data: matrix(await dependence(call, open), labels, labels, [0, 1]), compact: true },
          ];
        },
      },
    },
    { exercise: 'no_peeking' },
    {
      html: `<p><strong>What goes wrong without the mask, measured.</strong> Below, the engine trains the
      same small Transformer twice on digit reversal: once with the causal mask, once with no mask at all.
      Trained without it, every target position sees the whole target while it learns, so position $i$ can
      copy $y_{i+1}$ from its own input: the teacher-forced loss falls to almost nothing and the
      teacher-forced accuracy (the whole gold target given at once, as in training) is near perfect. Then the
      model has to translate: it writes one digit at a time, and the next digit it learned to copy does not
      exist yet. Exact match falls to zero. That is why a teacher-forced number alone proves nothing about a
      decoder, and why the mask is part of the model, not a detail of training. (Each model here keeps its
      last epoch, as someone watching only the teacher-forced loss would. Left to itself the engine keeps the
      epoch that decodes best on the validation pairs; for the unmasked model that is one of its first epochs,
      before the copying is learnt, and its teacher-forced numbers would blur the point.)
      Last, your <code>decoderMask</code> from the exercise above trains a third model.</p>`,
    },
    {
      transformerMask: {
        id: 'reversal',
        settings: {
          task: 'reverse',
          model: 'transformer',
          trainSize: 2000,
          testSize: 100,
          minLen: 3,
          maxLen: 6,
          testMinLen: 3,
          testMaxLen: 6,
          dModel: 32,
          heads: 2,
          layers: 1,
          ff: 64,
          dropout: 0,
          labelSmoothing: 0,
          epochs: 20,
          batch: 32,
          learningRate: 0.003,
          earlyStoppingPatience: 0,
          // The table shows each model after its last epoch (see the text above).
          restoreBest: false,
          seed: 2,
        },
        quick: { trainSize: 1000, epochs: 8 },
        examples: 3,
      },
    },
    {
      html: `<p><strong>Cross-attention.</strong> Every decoder layer looks up the source the way
      Bahdanau's decoder did, only with projections and a scaled dot product: queries $Q = X W_Q$
      from the decoder's positions ($T_{tgt}$ of them), keys $K = H W_K$ and values $V = H W_V$ from
      the encoder's outputs ($T_{src}$). The weights form a $T_{tgt} \\times T_{src}$ matrix per
      sentence and head — the Transformer's alignment. No causal mask here: the whole source is
      known. Only the source's padding is hidden.</p>`,
    },
    { exercise: 'cross_attention' },
    {
      html: `<p><strong>Your cross-attention in a trained Transformer.</strong> The function you just wrote is
      the cross-attention of every decoder block. Below, a Transformer with two blocks on each side learns to
      reverse digit strings; then your <code>crossAttention</code> replaces the engine's in both decoder
      blocks, head by head, at every step of decoding inputs the model has never seen, padded to one batch.
      With a right function the model writes exactly what it writes with its own. Take the softmax over the
      wrong axis (over the target positions: with one query per step every source word then gets weight 1)
      and it writes nothing right. Forgetting the source's padding or the $\\sqrt{d_k}$ hurts this small,
      sharply trained model far less than you might expect — try them and compare the maps.</p>`,
    },
    {
      transformerCross: {
        id: 'reversal',
        settings: {
          task: 'reverse',
          model: 'transformer',
          trainSize: 2000,
          testSize: 100,
          minLen: 3,
          maxLen: 6,
          testMinLen: 3,
          testMaxLen: 6,
          dModel: 32,
          heads: 2,
          layers: 2,
          ff: 64,
          dropout: 0,
          labelSmoothing: 0,
          epochs: 20,
          batch: 32,
          learningRate: 0.003,
          earlyStoppingPatience: 0,
          seed: 2,
        },
        quick: { trainSize: 1000, epochs: 6 },
        heldOut: 24,
      },
    },
    {
      html: `<p><strong>Decoding one token at a time.</strong> Translating, the decoder runs once
      per output word. At step $t$ its self-attention needs the keys and values of positions
      $0 \\ldots t$; positions before $t$ have not changed since the last step (the mask made them
      independent of what came later), so a decoder keeps them in a <em>cache</em> and computes
      only the new position's query, key and value. The step's output must be exactly what the
      training pass computes for position $t$ — a test the engine's Transformer decoder passes,
      and the one your code below is graded by.</p>`,
    },
    { exercise: 'cached_decoding_step' },
    {
      html: `<p><strong>Positions.</strong> Nothing above knows word order: the encoder would give
      "le chat mange la souris" and "la souris mange le chat" the same set of outputs. The sines
      and cosines of lesson 8, added to the embeddings of both sides, give each position its own
      pattern, and a fixed offset between two positions is a rotation that attention can learn to
      recognise.</p>`,
    },
    {
      figure: {
        caption: `The sinusoidal positional encodings the engine adds (<code>sinusoidalPositionalEncoding</code>,
          12 positions × 16 dimensions): fast waves in the first columns, slow ones in the last.`,
        async compute(call) {
          const pe = fromTensor(await call('sinusoidalPositionalEncoding', 12, 16)) as number[][];
          return [
            {
              title: 'PE (position × dimension)',
              data: matrix(
                pe,
                pe.map((_, i) => `${i}`),
                pe[0].map((_, j) => `${j}`),
                [-1, 1],
              ),
              compact: true,
            },
          ];
        },
      },
    },
    {
      html: `<p class="go-further"><strong>Go further.</strong> ${viewLink('transformer', 'The Transformer view')}
      trains a Transformer encoder in your browser and shows every layer's and head's attention,
      with and without a causal mask. ${viewLink('seq2seq', 'The Seq2seq Alignment view')} trains
      encoder–decoders; lesson 12 trains one on real sentence pairs.</p>`,
    },
  ],
};
