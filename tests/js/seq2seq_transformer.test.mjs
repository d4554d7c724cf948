// The seq2seq session of the wasm build with model 'transformer' on a small pairs text written
// here (no data file): training with per-epoch held-out BLEU, evaluate's BLEU fields and
// translate's candidates and per-layer, per-head attention, with the shapes attn_engine.d.ts gives.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './support/engine.mjs';

// English → French phrases: the adjective follows the noun in French; "a ..." has two
// translations (un / une), so those sources carry two references.
function phrasePairs() {
  const nouns = [
    ['cat', 'chat'],
    ['dog', 'chien'],
    ['house', 'maison'],
    ['car', 'voiture'],
    ['bird', 'oiseau'],
    ['tree', 'arbre'],
    ['book', 'livre'],
    ['boat', 'bateau'],
  ];
  const adjectives = [
    ['red', 'rouge'],
    ['big', 'grand'],
    ['small', 'petit'],
    ['old', 'vieux'],
    ['new', 'neuf'],
    ['black', 'noir'],
  ];
  const lines = [];
  for (const [en, fr] of nouns) {
    for (const [ea, fa] of adjectives) {
      lines.push(`the ${ea} ${en} .\tle ${fr} ${fa} .`);
      lines.push(`a ${ea} ${en} .\tun ${fr} ${fa} .`);
      lines.push(`a ${ea} ${en} .\tune ${fr} ${fa} .`);
    }
  }
  return lines.join('\n') + '\n';
}

const SETTINGS = {
  model: 'transformer',
  dModel: 32,
  heads: 4,
  layers: 1,
  dropout: 0,
  labelSmoothing: 0,
  testSize: 24,
  trainSize: 1000,
  epochs: 12,
  batch: 16,
  learningRate: 0.003,
  earlyStoppingPatience: 0,
  bleuSentences: 10,
  seed: 2,
};

let engine;
const sessions = [];
before(async () => {
  engine = await loadEngine();
});
after(() => {
  for (const s of sessions) s.delete();
});
function parallel(settings) {
  const s = engine.Seq2SeqSession.fromParallelText(settings, phrasePairs(), 'phrases.tsv');
  sessions.push(s);
  return s;
}

test('transformer session: bad transformer settings throw JS Errors naming the rule', () => {
  assert.throws(
    () => new engine.Seq2SeqSession({ model: 'cnn' }),
    /Seq2SeqSessionConfig: model must be one of rnn, transformer, got 'cnn'/,
  );
  assert.throws(
    () => new engine.Seq2SeqSession({ model: 'transformer', dModel: 10, heads: 4 }),
    /d_model \(10\) must be divisible by heads \(4\)/,
  );
});

test('transformer session: trains with held-out BLEU per epoch; evaluate and translate have the documented shapes', () => {
  const s = parallel(SETTINGS);
  const info = s.info();
  assert.equal(info.model, 'transformer');
  assert.equal(info.attention, 'transformer');
  assert.ok(info.parameters > 0);
  // The step API is the RNN's.
  assert.throws(() => s.stepEncode(['the red cat .']), /this session trains a Transformer/);

  s.startTraining();
  const epochs = [];
  let report;
  do {
    report = s.runSteps(40);
    epochs.push(...report.epochs);
  } while (!report.done);
  assert.equal(epochs.length, 12);
  for (const e of epochs) {
    assert.equal(typeof e.bleu, 'number');
    assert.ok(e.bleu >= 0 && e.bleu <= 100);
  }
  assert.ok(epochs.at(-1).bleu > epochs[0].bleu, `BLEU ${epochs[0].bleu} -> ${epochs.at(-1).bleu}`);
  assert.ok(epochs.at(-1).bleu >= 50, `last epoch's held-out BLEU ${epochs.at(-1).bleu}`);

  const m = s.evaluate('test', 0);
  assert.equal(m.sentences, 24, 'test_size counts held-out source sentences');
  assert.ok(m.count > 24, 'with all their translations');
  for (const key of ['bleu', 'chrf', 'exactMatch', 'pairExactMatch', 'teacherForcedAccuracy', 'tokenAccuracy']) {
    assert.equal(typeof m[key], 'number', key);
  }
  assert.ok(m.bleu >= 0 && m.bleu <= 100);
  assert.ok(m.teacherForcedAccuracy > 0.5 && m.teacherForcedAccuracy <= 1);
  assert.deepEqual(
    m.bleuByLength.map((b) => [b.minLength, b.maxLength]),
    [
      [1, 5],
      [6, 10],
      [11, 15],
      [16, 20],
      [21, 0],
    ],
  );
  assert.equal(m.bleuByLength[0].sentences, 24, 'every phrase has 4 words');

  const t = s.translate('the red cat .', 3);
  assert.ok(t.candidates.length >= 1 && t.candidates.length <= 3);
  assert.equal(t.candidates[0].text, t.output);
  for (let i = 1; i < t.candidates.length; i++) assert.ok(t.candidates[i - 1].score >= t.candidates[i].score);
  const ty = t.outputTokens.length;
  const tx = t.sourceTokens.length;
  assert.deepEqual(t.crossShape, [1, 4, ty, tx]);
  assert.deepEqual(t.selfShape, [1, 4, ty, ty]);
  assert.ok(t.crossAttention instanceof Float32Array);
  assert.equal(t.crossAttention.length, 4 * ty * tx);
  assert.equal(t.selfAttention.length, 4 * ty * ty);
  for (let h = 0; h < 4; h++) {
    for (let r = 0; r < ty; r++) {
      const cross = t.crossAttention.subarray((h * ty + r) * tx, (h * ty + r + 1) * tx);
      assert.ok(Math.abs(cross.reduce((a, b) => a + b, 0) - 1) < 1e-4);
      const self = t.selfAttention.subarray((h * ty + r) * ty, (h * ty + r + 1) * ty);
      for (let j = r + 1; j < ty; j++) assert.equal(self[j], 0, 'the decoder never attends ahead');
    }
  }
  // alignment: the last layer's head mean, the view the RNN's alignment uses.
  for (let r = 0; r < ty; r++) {
    for (let j = 0; j < tx; j++) {
      let mean = 0;
      for (let h = 0; h < 4; h++) mean += t.crossAttention[(h * ty + r) * tx + j] / 4;
      assert.ok(Math.abs(mean - t.alignment.data[r * tx + j]) < 1e-5);
    }
  }

  // A saved Transformer loads into an RNN session, which becomes a Transformer session.
  const file = s.saveModel();
  const other = parallel({ testSize: 24, seed: 2 });
  assert.equal(other.info().model, 'rnn');
  assert.equal(other.translate('the red cat .', 1).crossAttention, null);
  assert.equal(other.loadModel(file).model, 'transformer');
  assert.equal(other.translate('the red cat .', 3).output, t.output);
});

test('built-in tasks: no BLEU (one token per output), chrF and teacher-forced accuracy still given', () => {
  const s = new engine.Seq2SeqSession({
    task: 'reverse',
    model: 'transformer',
    dModel: 16,
    heads: 2,
    layers: 1,
    trainSize: 60,
    testSize: 10,
    minLen: 3,
    maxLen: 4,
    epochs: 1,
  });
  sessions.push(s);
  s.startTraining();
  let report;
  do report = s.runSteps(100);
  while (!report.done);
  assert.equal(report.epochs[0].bleu, null);
  const m = s.evaluate('test', 0);
  assert.equal(m.bleu, null);
  assert.deepEqual(m.bleuByLength, []);
  assert.equal(m.exactMatch, m.pairExactMatch, 'a built-in task keeps the per-pair exact match');
  assert.equal(typeof m.chrf, 'number');
  assert.equal(typeof m.teacherForcedAccuracy, 'number');
  const t = s.translate('123', 2);
  assert.equal(t.crossShape[0], 1);
  assert.equal(t.crossShape[3], 3);
});
