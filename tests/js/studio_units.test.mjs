// The Sentiment Studio's pure parts in node: settings ⇄ URL, the learning-rate format the retry
// button shows, the snapshot interval and thinning, and the chart's ticks and point thinning.
// Loaded through Vite's SSR loader like shell_units; the DOM parts are in tests/e2e/studio.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './support/engine.mjs';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let settings;
let studio;
let chart;
let snapshots;
let host;
let readouts;

before(async () => {
  loaded = await loadWebModules(
    '/src/views/studio/settings.ts',
    '/src/views/studio/curves.ts',
    '/src/views/chart.ts',
    '/src/engine/snapshots.ts',
    '/src/engine/session_host.ts',
    '/src/views/studio/readouts.ts',
  );
  [settings, studio, chart, snapshots, host, readouts] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

test('studio_settings.round-trip through the URL; only non-defaults are written; bad values fall back', () => {
  const { DEFAULTS, settingsFromParams, settingsToParams, modelConfig, trainerSettings } = settings;
  assert.equal(settingsToParams(DEFAULTS).toString(), '');
  const changed = {
    ...DEFAULTS,
    encoder: 'bigru',
    units: 8,
    learningRate: 1e19,
    data: 'synthetic',
    syntheticCount: 200,
  };
  const params = settingsToParams(changed);
  assert.equal(params.toString(), 'enc=bigru&units=8&lr=1e%2B19&data=synthetic&n=200');
  assert.deepEqual(settingsFromParams(params), changed);
  const bad = settingsFromParams(new URLSearchParams('enc=lstm9&units=abc&maxlen=&pool=mean&lr=5e-4'));
  assert.equal(bad.encoder, 'bilstm');
  assert.equal(bad.units, 32);
  assert.equal(bad.maxlen, 64);
  assert.equal(bad.pooling, 'mean');
  // Attention over words and bigrams travels in the link too.
  const ngrams = { ...DEFAULTS, encoder: 'none', bigramBuckets: 8192 };
  assert.equal(settingsToParams(ngrams).toString(), 'enc=none&bigrams=8192');
  assert.deepEqual(settingsFromParams(settingsToParams(ngrams)), ngrams);
  assert.equal(modelConfig(ngrams).bigramBuckets, 8192);
  assert.equal(bad.learningRate, 0.0005);
  // Out-of-range numbers pass through: the engine refuses them with its own message.
  assert.equal(settingsFromParams(new URLSearchParams('maxlen=0')).maxlen, 0);
  assert.deepEqual(modelConfig(DEFAULTS), {
    encoder: 'bilstm',
    pooling: 'attention',
    score: 'additive',
    embedDim: 32,
    units: 32,
    attentionDim: 32,
    bigramBuckets: 0,
    numWords: 5000,
    maxlen: 64,
    dropout: 0.3,
    wordDropout: 0.2,
    seed: 1,
  });
  assert.deepEqual(trainerSettings(DEFAULTS), {
    epochs: 15,
    batchSize: 32,
    learningRate: 0.002,
    schedule: 'cosine',
    validationSplit: 0.1,
    earlyStoppingPatience: 0,
    seed: 1,
  });
  // The split and recipe settings travel in the URL too.
  const split = { ...DEFAULTS, testSet: 'holdout', holdoutPercent: 25, splitSeed: 3, schedule: 'linear', patience: 2 };
  assert.equal(settingsToParams(split).toString(), 'sched=linear&patience=2&test=holdout&holdout=25&sseed=3');
  assert.deepEqual(settingsFromParams(settingsToParams(split)), split);
  assert.equal(settingsFromParams(new URLSearchParams('test=both&sched=step')).testSet, 'source');
});

test('studio_settings.learning rates print as people write them; races change one thing', () => {
  const { formatRate, RACES, DEFAULTS, describeDifference } = settings;
  assert.deepEqual([0.005, 0.0005, 1e19, 1e20 / 10, 1.5e-5, 0.1, 12345].map(formatRate), [
    '0.005',
    '5e-4',
    '1e+19',
    '1e+19',
    '1.5e-5',
    '0.1',
    '1.2345e+4',
  ]);
  assert.equal(describeDifference(DEFAULTS, RACES.score.challenger(DEFAULTS)), 'score scaled_dot');
  assert.equal(describeDifference(DEFAULTS, RACES.encoder.challenger(DEFAULTS)), 'encoder bigru');
  assert.equal(describeDifference(DEFAULTS, RACES.attention.challenger(DEFAULTS)), 'pooling mean');
});

test('studio.snapshots: about 100 per run from the planned steps, thinned evenly beyond the cap', () => {
  const { thinSnapshots, MAX_SNAPSHOTS } = studio;
  const { snapshotInterval } = snapshots;
  // The built-in corpus at batch 32 plans 15 steps per epoch; 25,000 reviews 704 per epoch.
  assert.equal(snapshotInterval(2 * 15, 100), 2, 'every 2 steps at least');
  assert.equal(snapshotInterval(20 * 15, 100), 3);
  assert.equal(snapshotInterval(5 * 704, 100), 36);
  assert.equal(snapshotInterval(500 * 22500, 100), 100, 'every 100 steps at most');
  assert.equal(snapshotInterval(0, 100), 2);
  const list = Array.from({ length: MAX_SNAPSHOTS + 1 }, (_, i) => i);
  const thinned = thinSnapshots(list, MAX_SNAPSHOTS);
  assert.equal(thinned.length, 251, 'the even indices 0…500');
  assert.deepEqual(thinned.slice(0, 3), [0, 2, 4]);
  assert.equal(thinned.at(-1), MAX_SNAPSHOTS);
  assert.equal(thinSnapshots([1, 2, 3], 5).length, 3);
});

test('studio.curves: bias-corrected smoothing, epochs at their share of the planned steps, snapshots merged by step', () => {
  const { newCurves, addProgress, chartSeries, addSnapshot, watchedRows, flatten } = studio;
  const c = newCurves('A');
  const progress = (step, losses, epochs = []) => ({
    step,
    losses: Float32Array.from(losses),
    epochs,
    plannedSteps: 20,
  });
  addProgress(c, progress(2, [1, 0.5]), 2);
  // EMA 0.1 then 0.1·0.9 + 0.05 = 0.14; corrected by 1 − 0.9 and 1 − 0.81.
  assert.deepEqual(c.steps, [1, 2]);
  assert.ok(Math.abs(c.smoothed[0] - 1) < 1e-9);
  assert.ok(Math.abs(c.smoothed[1] - 0.14 / 0.19) < 1e-9);
  addProgress(c, progress(10, [], [{ epoch: 0, trainAccuracy: 0.6, validation: null }]), 2);
  assert.deepEqual(c.epochX, [10], 'epoch 1 of 2 ends at half of the 20 planned steps');
  assert.ok(Number.isNaN(c.valLoss[0]), 'no validation: NaN, a gap in the line');
  const series = chartSeries([c, newCurves('B')]);
  assert.deepEqual(
    series.loss.map((s) => s.name),
    ['A: training (smoothed)', 'A: validation', 'B: training (smoothed)', 'B: validation'],
  );
  let list = addSnapshot([], 0, 4, ['a4']);
  list = addSnapshot(list, 1, 2, ['b2']);
  list = addSnapshot(list, 1, 4, ['b4']);
  assert.deepEqual(list, [
    { step: 2, b: ['b2'] },
    { step: 4, a: ['a4'], b: ['b4'] },
  ]);
  const rows = watchedRows([0.75, 0.25], [0.5, 0.5], ['good', 'film'], true);
  assert.deepEqual(
    rows.map((r) => r.label),
    ['A', 'B', 'B − A'],
  );
  assert.deepEqual(flatten(rows, 2), [0.75, 0.25, 0.5, 0.5, -0.25, 0.25]);
  assert.deepEqual(
    watchedRows([0.75, 0.25], [0.5, 0.5], ['good', 'film'], false).map((r) => r.label),
    ['A'],
  );
});

test('studio.snapshots: the worker spaces snapshots by the run it plans (snapshots: n)', async () => {
  const { SessionHost } = host;
  const engine = await loadEngine();
  const messages = [];
  const session = new SessionHost(engine, (message) => messages.push(message));
  await session.handle(1, { op: 'loadData', source: { kind: 'builtin' } });
  await session.handle(2, { op: 'createModel', config: { embedDim: 8, units: 8, maxlen: 40, numWords: 500, seed: 1 } });
  const outcome = await session.handle(3, {
    op: 'train',
    options: { epochs: 2, batchSize: 32, snapshots: 5, watched: ['not good'] },
  });
  const steps = messages
    .filter((m) => m.type === 'progress' && m.progress.snapshot)
    .map((m) => m.progress.snapshot.step);
  const planned = messages.at(-1).progress.plannedSteps;
  const every = snapshots.snapshotInterval(planned, 5);
  assert.equal(outcome.value.steps, planned);
  assert.ok(every > 2, `${planned} planned steps: more than 2 between snapshots`);
  // Snapshots at 0, every, 2·every, …, and at the end.
  assert.deepEqual(steps.slice(0, 3), [0, every, 2 * every]);
  assert.equal(steps.at(-1), planned);
  assert.ok(steps.length >= 5 && steps.length <= 7, `${steps.length} snapshots`);
});

test('chart.ticks are round and cover the range; thinning keeps both ends and bucket means between', () => {
  const { niceTicks, thin, tickLabel } = chart;
  assert.deepEqual(niceTicks(0, 1, 5), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(1, 45, 6), [10, 20, 30, 40]);
  assert.deepEqual(niceTicks(0.43, 0.71, 5), [0.5, 0.6, 0.7]);
  assert.deepEqual(niceTicks(3, 3), [3]);
  assert.deepEqual([15, 0.2, 1e-5, 0.30000000000000004].map(tickLabel), ['15', '0.2', '0.00001', '0.3']);
  // The ends stay as they are; the four points between become two bucket means.
  const [xs, ys] = thin([1, 2, 3, 4, 5, 6], [10, 20, 30, 40, 50, 60], 4);
  assert.deepEqual(xs, [1, 2.5, 4.5, 6]);
  assert.deepEqual(ys, [10, 25, 45, 60]);
  const [x3, y3] = thin([1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1], 3);
  assert.deepEqual(x3, [1, 4, 7]);
  assert.deepEqual(y3, [7, 4, 1]);
  const [sx] = thin([1, 2], [3, 4], 3);
  assert.deepEqual(sx, [1, 2]);
});

test('studio_settings.a loaded model sets the architecture fields from its classifier JSON', () => {
  const { DEFAULTS, settingsFromModel } = settings;
  const classifier =
    '{"attention_dim":8,"dropout":0.1,"embed_dim":8,"encoder":"bigru","pooling":"attention","score":"dot","units":8}';
  const out = settingsFromModel({ ...DEFAULTS, epochs: 3 }, { maxlen: 64, vocabulary: 2000, classifier });
  assert.deepEqual(out, {
    ...DEFAULTS,
    epochs: 3,
    maxlen: 64,
    numWords: 2000,
    encoder: 'bigru',
    score: 'dot',
    embedDim: 8,
    units: 8,
    dropout: 0.1,
  });
  // Unknown values keep the form's; broken JSON changes only maxlen and vocabulary.
  const odd = settingsFromModel(DEFAULTS, { maxlen: 9, vocabulary: 99, classifier: '{"score":"cosine"}' });
  assert.equal(odd.score, 'additive');
  assert.deepEqual(settingsFromModel(DEFAULTS, { maxlen: 9, vocabulary: 99, classifier: '{' }), {
    ...DEFAULTS,
    maxlen: 9,
    numWords: 99,
  });
});

test('chart.a count’s ticks are whole numbers: one epoch at step 633 is not 633, 633.2 … 634', () => {
  const { niceTicks } = chart;
  assert.deepEqual(niceTicks(633, 634, 6, true), [633, 634]);
  assert.deepEqual(niceTicks(0, 633, 6, true), [0, 200, 400, 600]);
  assert.deepEqual(niceTicks(0, 3, 6, true), [0, 1, 2, 3]);
  // Without `integer` a unit range still gets fractional ticks (accuracy, loss).
  assert.deepEqual(niceTicks(0, 1, 5), [0, 0.2, 0.4, 0.6, 0.8, 1]);
});

test('studio_readouts.stopped early only when epochs were skipped; no test set, no test figure', () => {
  const { outcomeText, describeData, minimumPerClass } = readouts;
  const run = { steps: 2532, epochsPlanned: 4, patience: 2, testAccuracy: 0.876 };
  // Patience ran out in the last planned epoch (best epoch 2 of 4): nothing was skipped.
  const full = outcomeText({ ...run, epochsRun: 4, bestEpoch: 1, earlyStopped: true });
  assert.equal(
    full,
    'Finished 4 epochs (2532 steps); test accuracy 87.6%. Kept the parameters of epoch 2 of 4, the lowest validation loss.',
  );
  assert.doesNotMatch(full, /early/);
  const early = outcomeText({ ...run, steps: 1899, epochsRun: 3, epochsPlanned: 6, bestEpoch: 0, earlyStopped: true });
  assert.match(
    early,
    /^Stopped early after epoch 3 of 6 \(1899 steps\): the validation loss had not improved for 2 epochs; test accuracy 87\.6%\./,
  );
  const noTest = outcomeText({ ...run, epochsRun: 4, bestEpoch: -1, earlyStopped: false, testAccuracy: null });
  assert.equal(
    noTest,
    'Finished 4 epochs (2532 steps); no test accuracy: the data has no test set (see the note by Train).',
  );
  assert.doesNotMatch(noTest, /0\.0%/);

  // round(0.1 × n) is 0 below 5 reviews of a class (data/splits.cpp): 5 is the least for a test review.
  assert.equal(minimumPerClass(0.1), 5);
  assert.equal(minimumPerClass(0.2), 3);
  assert.equal(minimumPerClass(0.5), 1);
  const two = { source: 'two.csv', heldOut: true, sourceHasTest: false, trainExamples: 2, testExamples: 0 };
  assert.match(
    describeData(two, 10),
    /^Data: two\.csv — 2 training reviews, 0 test reviews\. No test set: .*at least 5 reviews of each class/,
  );
  const builtin = { source: 'builtin', heldOut: false, sourceHasTest: true, trainExamples: 528, testExamples: 132 };
  assert.equal(describeData(builtin, 10), 'Data: the built-in corpus — 528 training reviews, 132 test reviews.');
});

test('studio_readouts.the validation readout names its estimate: a random split or whole movies held out', () => {
  const { validationLabel, validationNote } = readouts;
  assert.equal(validationLabel('random'), 'Validation (a random 10% of the training reviews)');
  assert.equal(validationLabel('by group'), 'Validation (10% of the training reviews, whole movies held out)');
  assert.match(validationNote('random'), /random 10% of the training reviews .*same films/);
  assert.match(validationNote('by group'), /chosen by movie .*no movie is on both sides/);
  assert.doesNotMatch(validationNote('by group'), /random/);
});
