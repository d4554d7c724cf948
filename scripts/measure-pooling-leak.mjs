// Lesson 10's "your pooling in the model" (issue 25): how wide a padded batch must be before the
// starter attentionPool (padding not masked) changes a prediction's class. Padding's encoder
// states are zero, so the starter's pooled vector is the engine's scaled by the weight it leaves on
// the review, and every answer slides toward σ(b). Trains a model of the lesson's shape on the
// built-in corpus in node (wasm engine, web/generated/), then pads the lesson's eight reviews and
// the 132 built-in test reviews to each width and reports the accuracy and the range of P.
//   node scripts/measure-pooling-leak.mjs [seeds=3,4,5] [widths=64,500,5000,20000]
import { readFileSync } from 'node:fs';
import { loadEngine } from '../tests/js/support/engine.mjs';

const seeds = (process.argv[2] ?? '3,4,5').split(',').map(Number);
const widths = (process.argv[3] ?? '64,500,5000,20000').split(',').map(Number);
const root = new URL('..', import.meta.url);
// Lesson 10's reviews (web/src/course/lessons/10_sentiment.ts), label 1 = positive.
const lesson = [
  ['A warm, funny film with a cast that clearly loved every scene.', 1],
  ['The plot drags, the jokes fall flat and the ending makes no sense.', 0],
  ['I expected little and was moved: the best thing I have seen this year.', 1],
  ['Two hours of noise; I checked my watch every ten minutes.', 0],
  ['Not bad at all, and the music is wonderful.', 1],
  ['Beautiful to look at, but dull and far too long.', 0],
  ['Dull, and far too long.', 0],
  [
    'I went in knowing nothing about it and came out grateful. The two leads are wonderful together, the script ' +
      'is sharp and often very funny, and the last half hour moved me more than anything I have seen in a cinema ' +
      'for years. See it.',
    1,
  ],
];
const test = readFileSync(new URL('data/builtin/reviews.tsv', root), 'utf8')
  .split('\n')
  .slice(1)
  .filter((line) => line.startsWith('test\t'))
  .map((line) => {
    const [, label, , text] = line.split('\t');
    return [text, Number(label)];
  });

const engine = await loadEngine();
for (const seed of seeds) {
  const s = new engine.SentimentSession();
  s.loadBuiltin();
  s.createModel({ embedDim: 16, units: 16, numWords: 2000, maxlen: 64, seed, score: 'dot' });
  s.startTraining({ epochs: 30, batchSize: 16, learningRate: 0.005, validationSplit: 0.1, seed: 2 });
  while (s.isTraining()) s.runSteps(500);
  const n = s.poolingProbe('dull').weights.length;
  const none = s.probabilityWithWeights('dull', { shape: [n], data: new Float32Array(n) });
  console.log(`model seed ${seed}: σ(b) = ${none.toFixed(4)}`);
  // The starter's weights: a softmax over every position, padding (score q·0 = 0) included.
  const starter = (items, width) => {
    let right = 0;
    const ps = items.map(([text, label]) => {
      const probe = s.poolingProbe(text);
      const [t, d] = probe.hidden.shape;
      const scores = Array.from({ length: t }, (_, i) => {
        let dot = 0;
        for (let j = 0; j < d; j++) dot += probe.query[j] * probe.hidden.data[i * d + j];
        return dot;
      });
      const m = Math.max(0, ...scores);
      const z = scores.reduce((a, x) => a + Math.exp(x - m), 0) + Math.max(0, width - t) * Math.exp(-m);
      const weights = Float32Array.from(scores, (x) => Math.exp(x - m) / z);
      const p = s.probabilityWithWeights(text, { shape: [t], data: weights });
      if ((p > 0.5 ? 1 : 0) === label) right++;
      return p;
    });
    return `${((100 * right) / items.length).toFixed(1)} %, P ${Math.min(...ps).toFixed(3)}–${Math.max(...ps).toFixed(3)}`;
  };
  for (const width of widths)
    console.log(
      `  width ${width}: lesson's 8 reviews ${starter(lesson, width)}; 132 test reviews ${starter(test, width)}`,
    );
  s.delete();
}
