// The seq2seq session of the wasm build (engine.Seq2SeqSession), driven directly through Embind:
// the worker (web/src/engine/seq2seq_host.ts) calls exactly these methods, in chunks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from './support/engine.mjs';

// Digit reversal of 3-5 digits: a few hundred steps of a small attention model learn it.
const TINY = {
  task: 'reverse',
  trainSize: 2000,
  testSize: 200,
  minLen: 3,
  maxLen: 5,
  attention: 'bahdanau',
  embed: 16,
  units: 32,
  attentionDim: 32,
  epochs: 6,
  batch: 32,
  learningRate: 0.01,
  earlyStoppingPatience: 0,
  seed: 2,
};

let engine;
const sessions = [];
function session(settings) {
  const s = new engine.Seq2SeqSession(settings);
  sessions.push(s);
  return s;
}

before(async () => {
  engine = await loadEngine();
});
after(() => {
  for (const s of sessions) s.delete();
});

test('seq2seq session: bad settings throw JS Errors naming the setting', () => {
  assert.throws(() => new engine.Seq2SeqSession({ colour: 'red' }), /Seq2SeqSessionConfig: unknown setting 'colour'/);
  assert.throws(
    () => new engine.Seq2SeqSession({ task: 'poems' }),
    /Seq2SeqSessionConfig: task must be one of reverse, sort, copy, dates, parallel, got 'poems'/,
  );
  assert.throws(
    () => new engine.Seq2SeqSession({ attention: 'luong', score: 'additive' }),
    /attention 'luong' supports score/,
  );
  const s = session({ ...TINY, trainSize: 50 });
  assert.throws(() => s.runSteps(1), /start training first/);
  assert.throws(() => s.translate('', 1), /the text is empty/);
});

test('seq2seq session: chunked training learns to reverse; translate gives an alignment whose rows sum to 1', () => {
  const s = session(TINY);
  const info = s.info();
  assert.equal(info.task, 'reverse');
  assert.equal(info.attention, 'bahdanau');
  assert.equal(info.sourceVocabulary, 14, 'PAD BOS EOS UNK and ten digits');
  const samples = s.samples(3);
  assert.equal(samples.length, 3);
  assert.equal(samples[0].target, [...samples[0].source].reverse().join(''));

  const start = s.startTraining();
  assert.equal(start.trainExamples, 1800);
  assert.equal(start.validationExamples, 200);
  assert.equal(start.plannedSteps, 6 * Math.ceil(1800 / 32));
  const losses = [];
  const epochs = [];
  let report;
  do {
    report = s.runSteps(25);
    losses.push(...report.losses);
    epochs.push(...report.epochs);
  } while (!report.done);
  assert.equal(losses.length, start.plannedSteps);
  assert.equal(report.step, start.plannedSteps);
  assert.equal(epochs.length, 6);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(mean(losses.slice(-20)) < mean(losses.slice(0, 20)) / 4, 'the loss falls');
  assert.ok(
    epochs.at(-1).validation.exactMatch >= 0.9,
    `validation exact match ${epochs.at(-1).validation.exactMatch}`,
  );
  assert.equal(s.isTraining(), false);

  const metrics = s.evaluate('test', 0);
  assert.equal(metrics.count, 200);
  assert.ok(metrics.exactMatch >= 0.9, `held-out exact match ${metrics.exactMatch}`);
  assert.deepEqual(
    metrics.byLength.map((l) => l.sourceLength),
    [3, 4, 5],
  );

  const t = s.translate('40713', 1);
  assert.equal(t.sourceTokens.join(''), '40713');
  assert.equal(t.outputTokens.at(-1), '<eos>');
  assert.equal(t.alignment.cols, 5);
  assert.equal(t.alignment.rows, t.outputTokens.length);
  assert.equal(t.alignment.data.length, t.alignment.rows * 5);
  for (let r = 0; r < t.alignment.rows; r++) {
    const row = t.alignment.data.subarray(r * 5, r * 5 + 5);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, `row ${r} sums to 1`);
    for (const w of row) assert.ok(w >= 0 && w <= 1);
  }
  // Beam search: its own alignment, one row per decoder step.
  const beam = s.translate('40713', 4);
  assert.equal(beam.alignment.rows, beam.outputTokens.length);
});

test('seq2seq session: pause by not stepping, cancel ends the run; attention none has no alignment', () => {
  const s = session({ ...TINY, trainSize: 300, attention: 'none', epochs: 3 });
  s.startTraining();
  const first = s.runSteps(2);
  assert.equal(first.stepsRun, 2);
  assert.equal(s.isTraining(), true);
  s.cancelTraining();
  assert.equal(s.isTraining(), false);
  const after = s.runSteps(5);
  assert.equal(after.stepsRun, 0);
  assert.equal(after.done, true);
  const t = s.translate('123', 1);
  assert.equal(t.alignment.rows, 0);
  assert.equal(t.alignment.cols, 0);
  assert.equal(t.alignment.data.length, 0);
});

test('seq2seq session: saveModel → loadModel in a fresh session gives identical translations; damage is refused', () => {
  const small = { ...TINY, trainSize: 400, testSize: 20, epochs: 2 };
  const trained = session(small);
  trained.startTraining();
  while (!trained.runSteps(50).done);
  const file = trained.saveModel();
  assert.ok(file instanceof Uint8Array);
  assert.equal(file.byteOffset, 0);
  assert.equal(file.buffer.byteLength, file.length, 'a copy that owns its buffer, not a view of wasm memory');

  const fresh = session({ ...small, seed: 9 });
  const inputs = ['40713', '123', '99881'];
  const translate = (s) =>
    inputs.map((text) => {
      const t = s.translate(text, 1);
      return { output: t.output, alignment: Array.from(t.alignment.data) };
    });
  const before = translate(trained);
  assert.notDeepEqual(translate(fresh), before, 'another seed decodes differently before loading');
  const info = fresh.loadModel(file.buffer);
  assert.equal(info.sourceVocabulary, 14);
  assert.deepEqual(translate(fresh), before);
  assert.deepEqual(fresh.saveModel(), file, 'saving the loaded model gives the same bytes');

  // The CLI's refusals, as JS Errors: a flipped byte (checksum), a truncated file, not a model.
  const flipped = file.slice();
  flipped[flipped.length - 9] ^= 0x10;
  assert.throws(() => fresh.loadModel(flipped), /model file is corrupted: checksum mismatch/);
  assert.throws(() => fresh.loadModel(file.slice(0, 40)), /model file/);
  assert.throws(() => fresh.loadModel(new TextEncoder().encode('not a model')), /model file/);
  assert.deepEqual(translate(fresh), before, 'a refused file leaves the loaded model in place');
});

test('seq2seq session: task parallel from TSV text or bytes; a malformed line is named by number', () => {
  const tsv = 'go .\tva !\nrun .\tcours !\nhi .\tsalut .\ni see .\tje vois .\nhelp !\tau secours !\n';
  const settings = { testSize: 2, embed: 8, units: 8, attentionDim: 8, epochs: 1, batch: 2, seed: 3 };
  const s = engine.Seq2SeqSession.fromParallelText(settings, tsv, 'fr.tsv');
  sessions.push(s);
  assert.equal(s.info().task, 'parallel');
  assert.equal(s.info().trainExamples + s.info().testExamples, 5);
  const words = s.samples(2).map((p) => p.target);
  assert.equal(words.length, 2);
  s.startTraining();
  while (!s.runSteps(10).done);
  assert.ok(s.translate('go .', 1).sourceTokens.length === 2, 'word level: "go" and "."');

  const fromBytes = engine.Seq2SeqSession.fromParallelText(settings, new TextEncoder().encode(tsv), null);
  sessions.push(fromBytes);
  assert.deepEqual(fromBytes.samples(2), s.samples(2), 'bytes and text give the same split');

  assert.throws(
    () => engine.Seq2SeqSession.fromParallelText(settings, 'go .\tva !\nrun . cours !\n', 'fr.tsv'),
    /^Error: fr\.tsv:2: expected 'source<TAB>target' but the line has no tab$/,
  );
  assert.throws(
    () => engine.Seq2SeqSession.fromParallelText(settings, 'go .\tva !\n\n\t x\n', null),
    /pairs\.tsv:3: the source \(before the first tab\) is empty/,
  );
  assert.throws(
    () => engine.Seq2SeqSession.fromParallelText(settings, new Uint8Array([0x67, 0x09, 0xff, 0x0a]), 'bin.tsv'),
    /bin\.tsv:1: invalid UTF-8/,
  );
  assert.throws(() => new engine.Seq2SeqSession({ task: 'parallel' }), /task 'parallel' needs the pairs/);
});

test('seq2seq session: parallel words follow each side’s language; info() gives the tokenizers and <unk> rates', () => {
  // Written for this test: elisions, clitics and contractions, 20 copies so a small model learns them.
  const base =
    "He doesn't like apples.\tIl n\u2019aime pas les pommes.\nIs it the man?\tEst-ce l'homme ?\n" +
    "I'm here.\tJe suis l\u00e0.\nWe don't know.\tNous ne savons pas.\n";
  const settings = {
    testSize: 1,
    embed: 16,
    units: 16,
    attentionDim: 16,
    epochs: 30,
    batch: 16,
    learningRate: 0.01,
    earlyStoppingPatience: 0,
    seed: 1,
  };
  const s = engine.Seq2SeqSession.fromParallelText(settings, base.repeat(20), 'elisions.tsv');
  sessions.push(s);
  const info = s.info();
  assert.equal(info.sourceTokenizer, 'English rules, lowercased');
  assert.equal(info.targetTokenizer, 'French rules, lowercased');
  // Fitted on the training pairs: nothing there is unknown; the held-out source sentence (20
  // copies of one pair) has words no other sentence has.
  for (const side of ['source', 'target']) {
    assert.equal(info.unknown.train[side].unknownTokens, 0, side);
    assert.equal(info.unknown.train[side].sentences, info.trainExamples, side);
    assert.equal(info.unknown.test[side].sentences, info.testExamples, side);
  }
  const held = info.unknown.test.source;
  assert.ok(held.unknownTokens > 0 && held.tokenRate === held.unknownTokens / held.tokens);
  assert.equal(held.sentenceRate, 1);
  s.startTraining();
  while (!s.runSteps(50).done);
  // Translations are the tokens written back as French text; the sources keep their tokens.
  let exact = 0;
  for (const [en, fr] of base
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))) {
    const t = s.translate(en, 1);
    const tokens = t.outputTokens.filter((x) => x !== '<eos>');
    assert.equal(t.output, engine.mtDetokenize(tokens, { language: 'french' }), en);
    const reference = engine.mtDetokenize(engine.mtTokenize(fr, { language: 'french', lowercase: true }), {
      language: 'french',
    });
    if (t.output === reference) exact += 1;
    if (en.startsWith('He ')) assert.equal(t.sourceTokens.length, 6, "he does n't like apples .");
  }
  assert.ok(exact >= 3, `the training sentences come out as their references (${exact} of 4)`);

  // Other languages and no lowercasing, as settings (the short names resolve to the long ones).
  const resolved = engine.resolveSeq2seqSettings({ sourceLanguage: 'fr', targetLanguage: 'en', lowercase: false });
  assert.equal(resolved.sourceLanguage, 'french');
  assert.equal(resolved.targetLanguage, 'english');
  assert.equal(resolved.lowercase, false);
  assert.throws(() => engine.resolveSeq2seqSettings({ sourceLanguage: 'de' }), /sourceLanguage|source_language/);
  const frEn = engine.Seq2SeqSession.fromParallelText(
    { ...settings, epochs: 1, sourceLanguage: 'fr', targetLanguage: 'en', lowercase: false },
    base
      .split('\n')
      .map((l) => l.split('\t').reverse().join('\t'))
      .join('\n'),
    'fr-en.tsv',
  );
  sessions.push(frEn);
  assert.equal(frEn.info().sourceTokenizer, 'French rules');
  assert.equal(frEn.info().targetTokenizer, 'English rules');
});

test('seq2seq session: a word model file from before the tokenizer was recorded keeps its tokenizer', () => {
  // tests/fixtures/seq2seq_words_v1.attn: written by the CLI of commit 04f00f2
  // (tests/test_seq2seq_session.cpp gives the command); the same output as that CLI's translate.
  const file = readFileSync(new URL('../fixtures/seq2seq_words_v1.attn', import.meta.url));
  const s = engine.Seq2SeqSession.fromParallelText({ testSize: 1, epochs: 1 }, 'go .\tva !\nhi .\tsalut !\n', 'p.tsv');
  sessions.push(s);
  const info = s.loadModel(file);
  assert.equal(info.sourceTokenizer, 'the project tokenizer (lowercased)');
  assert.equal(info.targetTokenizer, 'the project tokenizer (lowercased)');
  const t = s.translate("He doesn't like apples.", 1);
  assert.deepEqual(t.sourceTokens, ['he', "doesn't", 'like', 'apples', '.']);
  assert.equal(t.output, 'il ne sont pas <unk> .');
  assert.ok(Math.abs(t.logProb - -3.25212717) < 1e-5, `log p ${t.logProb}`);
});
