import { viewLink } from '../../app/course_links';
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
      html: `<p><strong>Train one, on real reviews if you like.</strong> The classifier below is the
      one described above — an embedding, a BiLSTM, additive attention pooling, a logistic output —
      trained here by the engine, in the same worker and with the same recipes as
      ${viewLink('studio', 'the Sentiment Studio')}. On
      the built-in corpus (a few hundred short reviews) it trains in seconds. For the real thing,
      download the IMDB archive <code>aclImdb_v1.tar.gz</code> (about 80 MB, from the Stanford
      large movie review page) and pick it here: the page reads the 25,000 training and 25,000 test
      reviews from the archive itself and trains with the IMDB recipe (5,000 words, 500 tokens,
      four epochs), which takes a few minutes. Nothing is uploaded anywhere. Or open, in one click,
      the same kind of model that we trained on 22,500 IMDB reviews: the button gives its accuracy
      on 2,500 reviews of movies it never saw, and its attention is worth reading (a model trained
      on the few hundred built-in reviews reaches about 70% on their test reviews).</p>
      <p>Then write your own sentences in the box. The model gives $P(\\text{positive})$, and the
      row of weights shows $\\alpha_t$ for every token — which words the pooled vector $c$ was
      built from. Try a review that turns halfway ("dull at first, but the ending is wonderful"),
      or a negation ("not good"), and see where the weight goes.</p>`,
    },
    {
      sentiment: {
        id: 'imdb-attention',
        shape: { encoder: 'bilstm', pooling: 'attention', score: 'additive', embedDim: 32, units: 32 },
        quick: { epochs: 1, embedDim: 8, units: 8, maxlen: 64, numWords: 2000 },
        example: 'A slow start, but the acting is wonderful and the ending moved me.',
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
          { text: 'Dull, and far too long.', label: 0 },
          {
            text:
              'I went in knowing nothing about it and came out grateful. The two leads are wonderful together, ' +
              'the script is sharp and often very funny, and the last half hour moved me more than anything I ' +
              'have seen in a cinema for years. See it.',
            label: 1,
          },
        ],
      },
    },
  ],
};
