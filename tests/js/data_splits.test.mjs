// Which reviews the page tests on (issue 18, item 3): an aclImdb archive's own test half where it
// has one, else a stratified, seeded hold-out of testFraction — for a training-only archive
// (aclImdb_train.tar.gz) as for a CSV. The archives are written here: ustar entries, gzipped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { loadEngine } from './support/engine.mjs';

// One ustar header (512 bytes) + the content padded to 512; the archive ends with two zero blocks.
function tarGz(files) {
  const blocks = [];
  const encoder = new TextEncoder();
  for (const [name, text] of files) {
    const body = encoder.encode(text);
    const header = new Uint8Array(512);
    const put = (offset, value) => header.set(encoder.encode(value), offset);
    put(0, name);
    put(100, '0000644\0');
    put(108, '0000000\0');
    put(116, '0000000\0');
    put(124, body.length.toString(8).padStart(11, '0') + '\0');
    put(136, '00000000000\0');
    put(148, '        ');
    put(156, '0');
    put(257, 'ustar\u000000');
    const sum = header.reduce((a, b) => a + b, 0);
    put(148, sum.toString(8).padStart(6, '0') + '\0 ');
    blocks.push(header, body, new Uint8Array((512 - (body.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  return gzipSync(Buffer.concat(blocks));
}

// `perClass` reviews of each class in train/, and `testPerClass` in test/.
function aclImdb(perClass, testPerClass) {
  const files = [];
  for (let i = 0; i < perClass; i++) {
    files.push([`aclImdb/train/pos/${i}_9.txt`, `a great and moving film number ${i}`]);
    files.push([`aclImdb/train/neg/${i}_2.txt`, `a dull and boring film number ${i}`]);
  }
  for (let i = 0; i < testPerClass; i++) {
    files.push([`aclImdb/test/pos/${i}_8.txt`, `lovely ${i}`]);
    files.push([`aclImdb/test/neg/${i}_1.txt`, `awful ${i}`]);
  }
  files.push(['aclImdb/imdb.vocab', 'film\n']);
  return tarGz(files);
}

let engine;
let session;
before(async () => {
  engine = await loadEngine();
  session = new engine.SentimentSession();
});
after(() => session?.delete());

test('data splits: an archive with a test half keeps its halves', () => {
  const summary = session.loadBytes(aclImdb(6, 3), 'aclImdb_v1.tar.gz', { testFraction: 0.5, seed: 1 }, null);
  assert.deepEqual(summary, {
    source: 'aclImdb_v1.tar.gz',
    heldOut: false,
    sourceHasTest: true,
    trainExamples: 12,
    testExamples: 6,
  });
});

test('data splits: asked for a hold-out, an archive with a test half holds out of its training half', () => {
  const summary = session.loadBytes(
    aclImdb(10, 3),
    'aclImdb_v1.tar.gz',
    { testSet: 'holdout', testFraction: 0.2, seed: 2 },
    null,
  );
  // round(0.2 · 10) = 2 of each class held out of the 20 training reviews; test/ is set aside.
  assert.deepEqual(summary, {
    source: 'aclImdb_v1.tar.gz',
    heldOut: true,
    sourceHasTest: true,
    trainExamples: 16,
    testExamples: 4,
  });
  const test = session.dataStats('test', 2);
  assert.deepEqual([test.positive, test.negative], [2, 2]);
  assert.throws(
    () => session.loadBytes(aclImdb(2, 1), 'a.tar.gz', { testSet: 'both' }, null),
    /options\.testSet must be 'source' or 'holdout'/,
  );
});

test('data splits: a training-only archive loads with a stratified, seeded hold-out', () => {
  const bytes = aclImdb(20, 0);
  const progress = [];
  const summary = session.loadBytes(bytes, 'aclImdb_train.tar.gz', { testFraction: 0.1, seed: 4 }, (read, total, n) =>
    progress.push(n),
  );
  // round(0.1 · 20) = 2 of each class held out.
  assert.deepEqual(summary, {
    source: 'aclImdb_train.tar.gz',
    heldOut: true,
    sourceHasTest: false,
    trainExamples: 36,
    testExamples: 4,
  });
  assert.equal(progress.at(-1), 40, 'progress counts the reviews read');
  const test = session.dataStats('test', 2);
  assert.equal(test.positive, 2);
  assert.equal(test.negative, 2);
  // Default share 0.2 when no options are given.
  assert.deepEqual(session.loadBytes(bytes, 'aclImdb_train.tar.gz', null, null), {
    source: 'aclImdb_train.tar.gz',
    heldOut: true,
    sourceHasTest: false,
    trainExamples: 32,
    testExamples: 8,
  });
});

test('data splits: bad shares and archives without training reviews are refused', () => {
  assert.throws(
    () => session.loadBytes(aclImdb(4, 0), 'aclImdb_train.tar.gz', { testFraction: 1 }, null),
    /options\.testFraction must be in \[0, 1\)/,
  );
  assert.throws(
    () => session.loadBytes(aclImdb(0, 2), 'only_test.tar.gz', null, null),
    /only_test\.tar\.gz: no reviews found: expected files like aclImdb\/train\/pos\/\*\.txt/,
  );
});
