// The course's grader and exercises in node, against the wasm engine: for every exercise the
// reference solution matches the engine on every case and the starter code does not; the grader's
// tolerance and messages behave as documented. The TypeScript modules are loaded through Vite's
// SSR loader (the same transform the page build uses); the learner's code runs here with
// new Function (with the sandbox's np helper in scope), without the browser sandbox, which tests/e2e/course.test.mjs covers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';
import { loadEngine } from './support/engine.mjs';

let engine;
let loaded;
let EXERCISES;
let grader;
let compileWithNp;
let LESSONS;

before(async () => {
  engine = await loadEngine();
  loaded = await loadWebModules(
    '/src/course/exercises/index.ts',
    '/src/course/grader.ts',
    '/src/course/np_helper.ts',
    '/src/course/lessons/index.ts',
  );
  let exercises;
  [exercises, grader, { compileWithNp }, { LESSONS }] = loaded.modules;
  ({ EXERCISES } = exercises);
});
after(async () => {
  await loaded?.close();
});

// The page's EngineCall, answered by the wasm module directly.
const call = async (method, ...args) => engine[method](...args);

function run(code, functionName, args) {
  const fn = compileWithNp(code, functionName); // np in scope, as in the sandbox
  try {
    return { value: fn(...structuredClone(args)) };
  } catch (error) {
    return { error: String(error) };
  }
}

async function grade(exercise, code) {
  const failures = [];
  for (const c of exercise.cases()) {
    const expected = await exercise.reference(call, c.args);
    const got = run(code, exercise.functionName, c.args);
    const mismatch = 'error' in got ? { kind: 'threw', error: got.error } : grader.compare(expected, got.value);
    if (mismatch) failures.push({ name: c.name, mismatch, expected, got: got.value });
  }
  return failures;
}

test('course exercises: at least 8, each with hints and fixed plus random cases that are reproducible', () => {
  const all = Object.values(EXERCISES);
  assert.ok(all.length >= 8, `${all.length} exercises`);
  for (const exercise of all) {
    assert.ok(exercise.hints.length >= 1, exercise.id);
    const cases = exercise.cases();
    assert.ok(cases.length >= 4, `${exercise.id}: ${cases.length} cases`);
    assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, `${exercise.id}: case names are distinct`);
    assert.deepEqual(exercise.cases(), cases, `${exercise.id}: the same cases every time`);
    assert.doesNotThrow(() => JSON.stringify(cases), `${exercise.id}: JSON-safe arguments`);
  }
});

test('course exercises: every reference solution matches the engine on every case', async () => {
  for (const exercise of Object.values(EXERCISES)) {
    assert.deepEqual(await grade(exercise, exercise.solution), [], exercise.id);
  }
});

test('course exercises: no starter code passes as it stands', async () => {
  for (const exercise of Object.values(EXERCISES)) {
    const failures = await grade(exercise, exercise.starter);
    assert.ok(failures.length > 0, `${exercise.id}: the starter should fail`);
  }
});

test('course exercises: the softmax starter (no max-subtraction) first fails on 927/929 with NaN', async () => {
  const [first] = await grade(EXERCISES.softmax, EXERCISES.softmax.starter);
  assert.match(first.name, /927, 397, 148, 929/);
  assert.equal(first.mismatch.kind, 'not-finite');
  assert.ok(Number.isNaN(first.mismatch.got));
  assert.match(
    EXERCISES.softmax.diagnose(first.expected, first.got, [[927, 397, 148, 929]]),
    /subtract the largest score/,
  );
});

test('course exercises: the engine agrees with hand-worked values used in the lessons', async () => {
  // s = [5, 1, 20]: 5·3 + 1·12 + 20·45 = 927, and softmax([927, 397, 148, 929]) ≈ [e⁻²/(1+e⁻²), 0, 0, 1/(1+e⁻²)].
  assert.equal(
    await EXERCISES.single_dot_score.reference(call, [
      [5, 1, 20],
      [3, 12, 45],
    ]),
    927,
  );
  const weights = await EXERCISES.softmax.reference(call, [[927, 397, 148, 929]]);
  const w1 = Math.exp(-2) / (1 + Math.exp(-2));
  assert.equal(grader.compare([w1, 0, 0, 1 - w1], weights), null);
  // A fully masked row gives zero weights and a zero output.
  const sdpa = EXERCISES.scaled_dot_product_attention;
  const masked = sdpa.cases().find((c) => /fully masked row/.test(c.name));
  const result = await sdpa.reference(call, masked.args);
  assert.deepEqual(result.weights[1], [0, 0, 0]);
  assert.deepEqual(result.output[1], [0, 0]);
});

test('grader: tolerance |got − expected| <= 1e-4 + 1e-4·|expected|, booleans as 0/1, shapes and types named', () => {
  const { compare, describeMismatch, formatData } = grader;
  assert.equal(compare(1000, 1000.1), null);
  assert.deepEqual(compare(1000, 1000.2), { kind: 'value', path: '', expected: 1000, got: 1000.2 });
  assert.equal(compare(0, 9e-5), null);
  assert.equal(compare(0, 2e-4)?.kind, 'value');
  assert.equal(compare([[1, 0]], [[true, false]]), null);
  assert.deepEqual(compare([1, 2, 3], [1, 2]), { kind: 'length', path: '', expected: 3, got: 2 });
  assert.deepEqual(compare([[1, 2]], [[1, NaN]]), { kind: 'not-finite', path: '[0][1]', expected: 2, got: NaN });
  assert.equal(compare({ weights: [1], output: [2] }, { weights: [1], output: [3] })?.path, '.output[0]');
  assert.equal(describeMismatch(compare(927, [1, 2, 3])), 'expected a number, got an array of 3');
  assert.equal(describeMismatch(compare(5, undefined)), 'expected a number, got undefined (did you forget to return?)');
  assert.match(
    describeMismatch(compare([0.5], [Infinity])),
    /^at \[0\]: expected 0\.5, got Infinity — a NaN or Infinity/,
  );
  assert.equal(formatData([0.119202922, NaN, -Infinity, 1e-7, [1, 2]]), '[0.1192, NaN, -Infinity, 1.000e-7, [1, 2]]');
});

test('grader: seeded random inputs are reproducible and differ between seeds', () => {
  const { seededRandom, randomMatrix } = grader;
  const a = randomMatrix(seededRandom(4), 3, 5);
  assert.deepEqual(randomMatrix(seededRandom(4), 3, 5), a);
  assert.notDeepEqual(randomMatrix(seededRandom(5), 3, 5), a);
  for (const v of a.flat()) {
    assert.ok(v >= -2 && v <= 2);
    assert.equal(Math.round(v * 100) / 100, v, 'two decimals');
  }
});

// The first failing case's feedback, as the exercise view words it (without the data lines).
async function feedback(exercise, code) {
  const [first] = await grade(exercise, code);
  if (!first) return null;
  if (process.env.COURSE_PRINT_FEEDBACK) console.log(exercise.id);
  const detail =
    first.mismatch.kind === 'threw' ? `threw ${first.mismatch.error}` : grader.describeMismatch(first.mismatch);
  const args = exercise.cases().find((c) => c.name === first.name).args;
  const advice = first.mismatch.kind === 'threw' ? null : exercise.diagnose?.(first.expected, first.got, args);
  return `Case “${first.name}” failed${detail.startsWith('at ') ? ' ' : ': '}${detail}.${advice ? ` ${advice}` : ''}`;
}

// One typical mistake per exercise added for issue 17 (the first ten are covered the same way in
// the browser, tests/e2e/course.test.mjs): the code (null = the starter) and what the feedback says.
const MISTAKES = {
  mean_context: {
    code: null, // averages each annotation over its features
    message: /expected 3 entries, got 4[\s\S]*averaged each annotation over its features/,
  },
  luong_general_score: {
    code: null, // plain dot products
    message:
      /Case “a non-symmetric W: sᵀWh differs from hᵀWs” failed at \[0\]: expected 2, got 0\. These are plain dot products sᵀh: the matrix W between s and h is missing/,
  },
  luong_concat_score: {
    code: 'function concatScore(s, H, W, v) { return H.map((h) => np.dot(v, np.tanh(np.dot(W, np.concatenate([h, s]))))); }',
    message: /You concatenated \[h; s\]: the decoder state comes first/,
  },
  luong_location_score: {
    code: null, // scores by content
    message: /the location score uses only W and s/,
  },
  pad_sequences: {
    code: null, // keeps the first maxlen ids
    message:
      /Case “defaults \('pre', 'pre'\), maxlen = 3: the first review loses its beginning” failed at \[0\]\[0\]: expected 22, got 1\.[\s\S]*truncating = 'pre' \(Keras' default\) drops the beginning/,
  },
  positional_encoding: {
    code: null, // one frequency per column
    message:
      /Case “maxLen = 4, d = 4: the second pair turns 100 times slower” failed[\s\S]*columns 2i and 2i \+ 1 share the exponent 2i\/d/,
  },
  split_heads: {
    code: null, // interleaved columns
    message:
      /Case “T = 2, D = 4, two heads \(entries 10·t \+ j\)” failed at \[0\]\[0\]\[1\]: expected 1, got 2\.[\s\S]*dealt the columns out in turn/,
  },
  merge_heads: {
    code: null, // stacks the heads along time
    message: /expected 2 entries, got 4[\s\S]*the heads were stacked along time/,
  },
  bidirectional_annotations: {
    code: null, // the backward outputs not reversed
    message:
      /Case “three words, U = 1[^”]*” failed at \[0\]\[1\]: expected 10, got 30\.[\s\S]*position i needs backwardOutputs\[T − 1 − i\]/,
  },
  alignment_batch: {
    code: `function alignBatch(sPrev, annotations, W, v) {
  const e = annotations.map((H, b) => H.map((h) => np.dot(v, np.tanh(np.dot(W, np.concatenate([sPrev[b], h]))))));
  const exps = np.exp(e);
  const total = np.sum(exps, 0); // over the batch: the wrong axis
  const weights = exps.map((row) => np.divide(row, total));
  return { weights, context: weights.map((a, b) => np.dot(a, annotations[b])) };
}`,
    message: /the softmax ran over the batch \(axis 0\) instead of over time \(axis 1\)/,
  },
  luong_step: {
    code: 'SOLUTION:np.concatenate([context, s])=>np.concatenate([s, context])',
    message: /You concatenated \[s_t; c_t\]: the context comes first/,
  },
  attentional_state: {
    code: null, // [s; c] and no tanh
    message: /Case “W_c reads only the context: h̃ = tanh\(c\)” failed at \[0\]: expected 0\.76159, got 5/,
  },
  teacher_forcing: {
    code: null, // feeds the gold tokens when running free too
    message:
      /Case “running free with a wrong first prediction \(3 instead of 5\) that the decoder then reads” failed at \[1\]: expected 3, got 5\. Running free, the decoder never sees the target/,
  },
  greedy_decode: {
    code: null, // emits EOS and keeps going
    message:
      /Case “BOS → 3 → 4 → 5 → EOS” failed: expected 3 entries, got 10[\s\S]*EOS \(2\) ends the output and is not part of it/,
  },
  imdb_vocabulary: {
    code: null, // no reserved ids, no start id
    message: /The encoded review should start with the start id 1/,
  },
  attention_pooling: {
    code: null, // padding not masked
    message: /Case “pre-padding \(Keras' default\)[^”]*” failed[\s\S]*Padding positions got weight/,
  },
  // Lessons 11 and 12 (issue 28): each starter is a typical wrong answer.
  decoder_mask: {
    code: null, // the causal mask only, padding visible
    message:
      /Case “one real token then 3 padding positions \(length 1, T = 4\)” failed at \[0\]\[1\]\[1\]: expected 0, got 1/,
  },
  cross_attention: {
    code: null, // keys and values from the decoder, no scaling, no padding mask
    message:
      /Case “one decoding step \(T_tgt = 1\), one sentence, no padding” failed at \.weights\[0\]\[0\]: expected 4 entries, got 1/,
  },
  cached_decoding_step: {
    code: null, // attends to the new position only, no cache
    message: /Case “two positions” failed at \[1\]\[0\]: expected -1\.05, got -0\.8168/,
  },
  no_peeking: {
    code: null, // never perturbs anything: reports no peeking
    message:
      /Case “no mask at all: every earlier position sees every later one” failed at \[0\]\[1\]: expected 1, got 0/,
  },
  french_tokens: {
    code: null, // white space only
    message: /Case “elision and a full stop: "Il n'aime pas les pommes\."” failed: expected 7 entries, got 5/,
  },
  clipped_precision: {
    code: null, // unclipped matches
    message:
      /Case “unigrams of \"the the the the the the the\" against two references: 2 of 7” failed at \.matches: expected 2, got 7/,
  },
  brevity_penalty: {
    code: null, // the first reference, a penalty above 1 for long output
    message: /Case “a tie: hypothesis of 4 tokens, references of 3 and 5 \(take 3\)” failed at \.r: expected 3, got 5/,
  },
  corpus_bleu: {
    code: 'SOLUTION:const bp = c >= r ? 1 : Math.exp(1 - r / c);=>const bp = 1;',
    message:
      /Case “two sentences: one has no 4-gram match but the corpus does \(sum first, then divide\)” failed: expected 71\.772, got 81\.329/,
  },
};

test('course exercises: at least 24, every lesson has at least one, every new one has a typical mistake', async () => {
  assert.ok(Object.keys(EXERCISES).length >= 24, `${Object.keys(EXERCISES).length} exercises`);
  const placed = new Set();
  for (const lesson of LESSONS) {
    const ids = lesson.blocks.filter((b) => 'exercise' in b).map((b) => b.exercise);
    assert.ok(ids.length >= 1, `lesson ${lesson.number} has an exercise`);
    for (const id of ids) {
      assert.ok(EXERCISES[id], `lesson ${lesson.number} places a known exercise (${id})`);
      placed.add(id);
    }
  }
  assert.deepEqual([...placed].sort(), Object.keys(EXERCISES).sort(), 'every exercise is placed in a lesson');
  for (const id of Object.keys(MISTAKES)) assert.ok(EXERCISES[id], id);
});

for (const [id, mistake] of Object.entries(MISTAKES)) {
  test(`course exercises: ${id} — a typical mistake fails with its message`, async () => {
    const exercise = EXERCISES[id];
    let code = mistake.code ?? exercise.starter;
    if (code.startsWith('SOLUTION:')) {
      const [from, to] = code.slice('SOLUTION:'.length).split('=>');
      code = exercise.solution.replace(from, to);
      assert.notEqual(code, exercise.solution);
    }
    const message = await feedback(exercise, code);
    assert.ok(message, `${id}: the mistake should fail`);
    if (process.env.COURSE_PRINT_FEEDBACK) console.log(message);
    assert.match(message, mistake.message);
  });
}

test('engine functions added for the exercises: bad input gets a clear message', () => {
  const t = (shape, data) => ({ shape, data });
  assert.throws(() => engine.imdbEncode([['a', 1]], 10, []), /trainDocs\[0\]\[1\] must be a string/);
  assert.throws(() => engine.padSequences([[1, -2]], 3, 'pre', 'pre', 0), /seqs\[0\]\[1\] must be a whole number/);
  assert.throws(
    () => engine.padSequences([[1]], 3, 'middle', 'pre', 0),
    /padding must be 'pre' or 'post', got 'middle'/,
  );
  assert.throws(
    () =>
      engine.luongAttentionStep(
        'general',
        t([1, 2], [1, 2]),
        t([1, 3, 2], [1, 2, 3, 4, 5, 6]),
        { wA: t([3, 3], new Array(9).fill(0)), wC: t([4, 2], new Array(8).fill(0)) },
        null,
      ),
    /params\.wA has shape \[3, 3\]; this layer needs \[2, 2\]/,
  );
  assert.throws(() => engine.greedyDecodeTable(t([2, 3], [0, 0, 0, 0, 0, 0]), 3), /stepTable must be square/);
  assert.throws(
    () => engine.concatDirections(t([1, 2, 2], [1, 2, 3, 4]), t([1, 2, 3], [1, 2, 3, 4, 5, 6])),
    /concat_directions: h_forward has shape \[1, 2, 2\] but h_backward has shape \[1, 2, 3\]/,
  );
  assert.throws(() => engine.sinusoidalPositionalEncoding(0, 4), /maxLen and dim must be whole numbers/);
  assert.throws(() => engine.decoderInputTokens(t([1], [1]), t([0, 3], []), true), /at least BOS and EOS/);
});
