import { fromTensor, row, toTensor } from './example';
import type { Lesson } from './types';

const REVIEW = ['a', 'truly', 'wonderful', 'film', '.', '<pad>', '<pad>', '<pad>'];

export const lesson10: Lesson = {
  number: 10,
  slug: 'sentiment',
  title: 'Sentiment with attention',
  summary: 'The IMDB recipe, an attention-pooling classifier, and reading its attention.',
  blocks: [
    {
      html: `<p>Attention is not only for generating sequences. A classifier must condense a whole
      review into one decision, and <em>attention pooling</em> lets it decide which words to
      listen to.</p>
      <p><strong>The IMDB recipe.</strong> The IMDB dataset has 50,000 movie reviews labelled
      positive or negative, split evenly into training and test. The classic preparation keeps
      the 5,000 most frequent words (every other word becomes one "unknown" token), and makes all
      reviews the same length, 500 tokens: longer ones are truncated, shorter ones padded. The
      padding must then be masked (lesson 7), or the model would attend to filler.</p>
      <p><strong>The model.</strong> An embedding turns each token into a vector, a bidirectional
      LSTM turns the sequence into annotations $h_1, \\ldots, h_T$, and attention pooling scores
      each annotation against a <em>learned</em> query — there is no decoder state here, so the
      model learns what "important" looks like:</p>
      $$e_t = v^\\top \\tanh(W h_t + b), \\qquad \\alpha = \\operatorname{softmax}(e) \\text{ over the real tokens}, \\qquad c = \\sum_t \\alpha_t h_t,$$
      $$P(\\text{positive}) = \\sigma(w^\\top c + b_o).$$
      <p><strong>Reading its attention.</strong> The weights $\\alpha_t$ show which words the
      pooled vector was built from; for a trained model they tend to sit on words like
      "wonderful" or "waste". Read them as a hint, not a proof: the BiLSTM has already mixed
      context into every annotation, so a weight on one word may stand for its neighbours too.</p>`,
    },
    {
      figure: {
        caption: `Attention pooling over a padded review of 5 real tokens, computed by the engine's
          masked softmax. The scores are made up for the illustration (a trained model supplies
          them); the three padding positions get weight exactly 0 whatever their score.`,
        async compute(call) {
          const scores = toTensor([0.2, 0.8, 3.1, 1.0, -0.5, 2.5, 2.5, 2.5]);
          const mask = {
            shape: [8],
            data: Uint8Array.from([1, 1, 1, 1, 1, 0, 0, 0]),
          };
          const weights = await call('softmax', scores, { mask });
          return [
            { title: 'scores eₜ', data: row(scores.data, REVIEW) },
            {
              title: 'pooling weights αₜ',
              data: row(fromTensor(weights) as number[], REVIEW, '', [0, 1]),
            },
          ];
        },
      },
    },
    {
      html: `<p><strong>Train one.</strong> The sentiment engine that trains on IMDB itself is
      part of this project (see the README for the command-line recipe and the Attention Lab for
      models in the browser). Here, a small version of the same architecture learns the
      <em>contains token</em> task: a sequence is positive exactly when one special "magic" token
      occurs in it — a miniature of a review turned by one decisive word. After training, the
      engine measures how much of the pooling weight lands on that token.</p>`,
    },
    {
      training: {
        id: 'attention-pooling',
        title: 'BiLSTM + attention pooling on "contains token"',
        description: 'Sequences of 5 to 15 tokens, vocabulary of 20, 200 steps.',
        runs: [
          {
            label: 'BiLSTM + attention pooling',
            config: {
              task: 'contains_token',
              encoder: 'bilstm',
              pooling: 'attention',
              score: 'additive',
              embed_dim: 16,
              units: 16,
              attention_dim: 16,
              steps: 200,
              seed: 7,
            },
          },
        ],
      },
    },
    {
      html: `<p><strong>From text to ids to one vector.</strong> Before any attention, a review
      becomes a list of ids the way <code>imdb.load_data(num_words=5000)</code> makes them; after
      the encoder, attention pooling turns its states into the one vector the classifier reads.</p>`,
    },
    { exercise: 'imdb_vocabulary' },
    { exercise: 'attention_pooling' },
    {
      pooling: {
        id: 'your-pooling',
        model: { embedDim: 16, units: 16, numWords: 2000, maxlen: 64, seed: 3, score: 'dot' },
        training: { epochs: 30, batchSize: 16, learningRate: 0.005, validationSplit: 0.1, seed: 2 },
        quick: { epochs: 3, batchSize: 16, learningRate: 0.005, validationSplit: 0.1, seed: 2 },
        reviews: [
          { text: 'A warm, funny film with a cast that clearly loved every scene.', label: 1 },
          { text: 'The plot drags, the jokes fall flat and the ending makes no sense.', label: 0 },
          { text: 'I expected little and was moved: the best thing I have seen this year.', label: 1 },
          { text: 'Two hours of noise; I checked my watch every ten minutes.', label: 0 },
          { text: 'Not bad at all, and the music is wonderful.', label: 1 },
          { text: 'Beautiful to look at, but dull and far too long.', label: 0 },
        ],
      },
    },
  ],
};
