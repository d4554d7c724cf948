// The wasm module's translation text and metrics (wasm/bindings_translation.cpp) give the native
// engine's results on the same fixed cases: tests/fixtures/bleu_cases.txt (whose values nltk's
// corpus_bleu confirms, tests/test_translation_metrics.cpp), the hand-worked BLEU and chrF
// examples, and the tokenizer's cases of tests/test_mt_tokenizer.cpp.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from './support/engine.mjs';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

// The format is described at the top of the file.
function readBleuCases() {
  const cases = [];
  let current;
  for (const line of readFileSync(path.join(fixtures, 'bleu_cases.txt'), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [word, ...rest] = line.split(' ');
    const text = rest.join(' ');
    if (word === 'case') current = { name: text, hypotheses: [], references: [] };
    else if (word === 'hyp') current.hypotheses.push(text.split(' '));
    else if (word === 'ref') current.references.push(text.split(' | ').map((r) => r.split(' ')));
    else if (word === 'end') cases.push(current);
    else throw new Error(`bleu_cases.txt: unexpected line ${line}`);
  }
  return cases;
}

// The native values (tests/test_translation_metrics.cpp, bleu_cases_fixture_native_values).
const EXPECTED = {
  several_hypotheses: [78.88921151123791, 78.88921151123791],
  brevity_penalty: [70.40655928745072, 70.40655928745072],
  zero_four_gram_matches: [0, 19.13014708139224],
  closest_reference_tie: [100, 100],
};

const close = (actual, expected, what) =>
  assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);

let engine;
before(async () => {
  engine = await loadEngine();
});

test('translation metrics: the BLEU fixture cases give the native numbers, from tokens and from text', () => {
  const cases = readBleuCases();
  assert.deepEqual(cases.map((c) => c.name).sort(), Object.keys(EXPECTED).sort());
  for (const c of cases) {
    const [plain, smoothed] = EXPECTED[c.name];
    close(engine.corpusBleuTokens(c.hypotheses, c.references, 'none').score, plain, `${c.name} none`);
    close(engine.corpusBleuTokens(c.hypotheses, c.references, 'exp').score, smoothed, `${c.name} exp`);
    const hyps = c.hypotheses.map((h) => h.join(' '));
    const refs = c.references.map((rs) => rs.map((r) => r.join(' ')));
    close(engine.corpusBleu(hyps, refs, undefined).score, plain, `${c.name} text`);
  }
});

test('translation metrics: BLEU parts of the hand-worked corpus example', () => {
  // tests/test_translation_metrics.cpp bleu_worked_by_hand: p = 10/10, 8/8, 4/6, 1/4; BP = 1.
  const r = engine.corpusBleu(
    ['the cat sat on the mat', 'a dog barks loudly'],
    [['the cat is on the mat', 'a cat sat on a mat'], ['a dog barks loudly']],
    null,
  );
  assert.deepEqual(r.matches, [10, 8, 4, 1]);
  assert.deepEqual(r.totals, [10, 8, 6, 4]);
  close(r.precisions[2], 4 / 6, 'p3');
  assert.equal(r.brevityPenalty, 1);
  assert.equal(r.hypothesisLength, 10);
  assert.equal(r.referenceLength, 10);
  assert.equal(r.sentences, 2);
  close(r.score, 63.89431042462724, 'score');
});

test('translation metrics: chrF, exact match and BLEU by source length', () => {
  const chrf = engine.corpusChrf(['a b'], [['xyz', 'abc']], undefined);
  close(chrf.score, 700 / 11, 'chrF');
  close(chrf.recall, 7 / 12, 'chrR');
  assert.equal(engine.corpusChrf(['ABC'], [['abc']], { lowercase: true }).score, 100);
  const exact = engine.exactMatch(['Va!', 'va !'], [['Va !'], ['Va !']], undefined);
  assert.deepEqual(exact, { matched: 1, sentences: 2, rate: 0.5 });
  assert.equal(engine.exactMatch(['Va!', 'va !'], [['Va !'], ['Va !']], { lowercase: true }).matched, 2);
  const buckets = engine.bleuBySourceLength(
    ['Go.', 'I am very happy to see you here'],
    ['Va !', 'je suis très content de te voir ici'],
    [['Va !'], ['je suis très heureux de te voir ici']],
    undefined,
  );
  assert.deepEqual(
    buckets.map((b) => [b.label, b.sentences, b.maxWords]),
    [
      ['1-5', 1, 5],
      ['6-10', 1, 10],
      ['11-15', 0, 15],
      ['16-20', 0, 20],
      ['21+', 0, null],
    ],
  );
  close(
    buckets[1].bleu.score,
    engine.corpusBleu(['je suis très content de te voir ici'], [['je suis très heureux de te voir ici']], null).score,
    '6-10',
  );
});

test('translation text: tokenizer and detokenizer match the native cases', () => {
  const fr = { language: 'french' };
  assert.deepEqual(engine.mtTokenize("Qu'est-ce que c'est ?", fr), ["Qu'", 'est', '-ce', 'que', "c'", 'est', '?']);
  assert.deepEqual(engine.mtTokenize("He doesn't like apples.", { language: 'en', lowercase: true }), [
    'he',
    'does',
    "n't",
    'like',
    'apples',
    '.',
  ]);
  // Decomposed é (e + U+0301) is the precomposed token.
  assert.deepEqual(engine.mtTokenize('e\u0301te\u0301', fr), ['été']);
  const sentence = "L'homme n'a-t-il pas dit : « Qu'est-ce que c'est ? »";
  assert.equal(engine.mtDetokenize(engine.mtTokenize(sentence, fr), fr), sentence);
  assert.equal(engine.mtDetokenize(['Va', '!'], { language: 'french', frenchSpace: '\u202f' }), 'Va\u202f!');
  assert.equal(engine.mtDetokenize(['I', "'m", 'here', '.'], undefined), "I'm here.");
});

test('translation data: the split by source sentence is the native one for the same seed', () => {
  // tests/test_parallel_split.cpp: the same 12 pairs (7 sources), 3 held out with seed 1.
  const pairs = [
    ['Go.', 'Va !'],
    ['Run!', 'Cours !'],
    ['Run!', 'Courez !'],
    ['Who?', 'Qui ?'],
    ['go .', 'Vas-y !'],
    ['Wow!', 'Ça alors !'],
    ['I see.', 'Je comprends.'],
    ['Run!', 'Cours !'],
    ['Fire!', 'Au feu !'],
    ['Help!', "À l'aide !"],
    ['GO.', 'Allez !'],
    ['Help!', 'Au secours !'],
  ];
  const split = engine.splitBySource(
    pairs.map((p) => p[0]),
    pairs.map((p) => p[1]),
    3,
    1,
  );
  assert.equal(split.sources, 7);
  assert.deepEqual(
    split.heldOutGroups.map((g) => g.source),
    ['Go.', 'Who?', 'Wow!'],
  );
  assert.deepEqual(split.heldOutGroups[0].references, ['Va !', 'Vas-y !', 'Allez !']);
  assert.equal(split.heldOutPairs, 5);
  assert.equal(split.trainPairs, 7);
  assert.throws(() => engine.splitBySource(['a'], [], 0, 1), /1 sources but 0 targets/);
});

test('translation metrics: bad arguments are JS errors with the engine message', () => {
  assert.throws(() => engine.corpusBleu(['a'], [], null), /1 hypotheses but 0 reference lists/);
  assert.throws(() => engine.corpusBleu(['a'], [[]], null), /hypothesis 0 has no reference/);
  assert.throws(() => engine.corpusBleu('a', [['a']], null), /hypotheses must be an array of strings/);
  assert.throws(() => engine.corpusBleuTokens([['a']], [[['a']]], 'add-one'), /smoothing must be 'none' or 'exp'/);
  assert.throws(() => engine.mtTokenize('x', { language: 'klingon' }), /got "klingon"/);
  assert.throws(() => engine.corpusChrf(['a'], [['a']], { lowercase: 'yes' }), /lowercase must be a boolean/);
});
