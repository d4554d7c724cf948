// The course's progress file in node (web/src/course/progress.ts): export → parse round-trips;
// bad, foreign, newer or damaged files are refused with a message that says why; a merge only
// adds to this browser's progress; a refused import leaves the store untouched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModules } from './support/web_modules.mjs';

let loaded;
let P;

before(async () => {
  loaded = await loadWebModules('/src/course/progress.ts');
  [P] = loaded.modules;
});
after(async () => {
  await loaded?.close();
});

/** A Storage stand-in for ProgressStore. */
function memoryStorage(initial = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)),
    removeItem: (k) => items.delete(k),
    items,
  };
}

const sample = () => ({
  solved: { softmax: true, causal_mask: true },
  drafts: { softmax: 'function softmax(x) { return x; }', dot_scores: '// mine' },
  failedOnce: { softmax: true },
  predictions: { 'weight-of-929': 3 },
  modelsTrained: { dates: true },
});

test('course_progress.export then parse gives the same progress, with format and version', () => {
  const text = P.exportProgress(sample(), new Date('2026-01-02T03:04:05Z'));
  const file = JSON.parse(text);
  assert.equal(file.format, 'attention-playground-course-progress');
  assert.equal(file.version, 1);
  assert.equal(file.exportedAt, '2026-01-02T03:04:05.000Z');
  const parsed = P.parseProgressFile(text);
  assert.equal(parsed.ok, true);
  assert.deepEqual(parsed.progress, sample());
});

test('course_progress.bad, foreign, newer and damaged files are refused with their reason', () => {
  const file = (progress, extra = {}) =>
    JSON.stringify({ format: 'attention-playground-course-progress', version: 1, progress, ...extra });
  const cases = [
    ['{"solved": ', /not JSON/],
    ['', /not JSON/],
    ['[1, 2]', /not a progress file of the Attention Playground course/],
    ['{"name": "package", "version": "1.0.0"}', /not a progress file of the Attention Playground course/],
    // An older localStorage dump (no format field) is not a progress file either.
    [JSON.stringify(sample()), /not a progress file of the Attention Playground course/],
    [file(sample(), { version: 2 }), /newer version of the course \(format 2; this page reads 1\)/],
    [file(sample(), { version: '1' }), /no valid version number/],
    [file(sample(), { version: 0 }), /no valid version number/],
    [file(null), /has no progress in it/],
    [file({ solved: ['softmax'] }), /"solved" is not a table of entries/],
    [file({ solved: { softmax: 'yes' } }), /"solved\.softmax" should be true/],
    [file({ drafts: { softmax: 42 } }), /"drafts\.softmax" should be a string of code/],
    [file({ predictions: { 'weight-of-929': -1 } }), /"predictions\.weight-of-929" should be an option number/],
    [file({ predictions: { 'weight-of-929': 1.5 } }), /should be an option number/],
    [file({ modelsTrained: { dates: 1 } }), /"modelsTrained\.dates" should be true/],
    [file({ solved: { '<img src=x>': true } }), /"solved" has an entry with a strange name/],
    [
      '{"format": "attention-playground-course-progress", "version": 1, "progress": {"solved": {"__proto__": true}}}',
      /"solved" has an entry with a strange name/,
    ],
  ];
  for (const [text, message] of cases) {
    const parsed = P.parseProgressFile(text);
    assert.equal(parsed.ok, false, `refused: ${text.slice(0, 60)}`);
    assert.match(parsed.message, message, text.slice(0, 60));
  }
  // Missing fields are empty; unknown extra fields are ignored.
  const partial = P.parseProgressFile(file({ solved: { softmax: true } }, { note: 'hi' }));
  assert.equal(partial.ok, true);
  assert.deepEqual(partial.progress, { ...P.emptyProgress(), solved: { softmax: true } });
});

test('course_progress.merge only adds: local drafts and answers are kept, solved and trained are united', () => {
  const current = {
    ...P.emptyProgress(),
    solved: { attention_pooling: true },
    drafts: { softmax: '// local draft' },
    predictions: { 'weight-of-929': 1 },
  };
  const before = structuredClone(current);
  const { progress, report } = P.mergeProgress(current, sample());
  assert.deepEqual(current, before, 'the inputs are not changed');
  assert.deepEqual(progress.solved, { attention_pooling: true, softmax: true, causal_mask: true });
  assert.deepEqual(progress.drafts, { softmax: '// local draft', dot_scores: '// mine' });
  assert.deepEqual(progress.predictions, { 'weight-of-929': 1 });
  assert.deepEqual(progress.modelsTrained, { dates: true });
  assert.deepEqual(report.added, { solved: 2, drafts: 1, failedOnce: 1, predictions: 0, modelsTrained: 1 });
  assert.equal(report.draftsKept, 1);
  assert.equal(
    P.describeImport(report),
    'Imported: 2 solved exercises, 1 draft, 0 answered predictions, 1 trained model added. ' +
      '1 draft of this browser differed from the file and was kept.',
  );
});

test('course_progress.store import: a good file adds and persists, a bad one changes nothing', () => {
  const storage = memoryStorage();
  const store = new P.ProgressStore(storage);
  store.markSolved('softmax');
  store.markTrained('your-pooling');
  let notified = 0;
  store.onChange(() => notified++);
  const stored = storage.getItem(P.PROGRESS_KEY);

  for (const bad of ['garbage', '{"format": "something-else", "version": 1, "progress": {}}']) {
    const result = store.importFile(bad);
    assert.equal(result.ok, false);
    assert.equal(storage.getItem(P.PROGRESS_KEY), stored);
    assert.deepEqual(store.snapshot.solved, { softmax: true });
  }
  assert.equal(notified, 0);

  const result = store.importFile(P.exportProgress(sample()));
  assert.equal(result.ok, true);
  assert.match(result.message, /^Imported: 1 solved exercise, 2 drafts/);
  assert.equal(notified, 1);
  const reloaded = new P.ProgressStore(storage);
  assert.deepEqual(reloaded.snapshot.solved, { softmax: true, causal_mask: true });
  assert.deepEqual(reloaded.snapshot.modelsTrained, { 'your-pooling': true, dates: true });
  // Progress stored before models were counted still loads.
  const old = new P.ProgressStore(memoryStorage({ [P.PROGRESS_KEY]: '{"solved": {"softmax": true}}' }));
  assert.deepEqual(old.snapshot.modelsTrained, {});
  assert.deepEqual(old.snapshot.solved, { softmax: true });
});
