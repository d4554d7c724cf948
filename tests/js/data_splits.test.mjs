// Which reviews the page tests on (issue 18, item 3): an aclImdb archive's own test half where it
// has one, else a stratified, seeded hold-out of testFraction — for a training-only archive
// (aclImdb_train.tar.gz) as for a CSV. The archives are written here with the page's tar writer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { aclImdbFiles } from './support/aclimdb_files.mjs';
import { openArchiveSession } from './support/archive_session.mjs';

// The page's ustar writer (it packs a chosen aclImdb folder the same way), gzipped.
let tarArchive;
const tarGz = (files) => gzipSync(tarArchive(files));

const aclImdb = (perClass, testPerClass) => tarGz(aclImdbFiles(perClass, testPerClass));

let opened;
let session;
before(async () => {
  opened = await openArchiveSession();
  ({ session, tarArchive } = opened);
});
after(() => opened?.close());

test('data splits: an archive with a test half keeps its halves', () => {
  const summary = session.loadBytes(aclImdb(6, 3), 'aclImdb_v1.tar.gz', { testFraction: 0.5, seed: 1 }, null);
  assert.deepEqual(summary, {
    source: 'aclImdb_v1.tar.gz',
    heldOut: false,
    sourceHasTest: true,
    trainExamples: 12,
    testExamples: 6,
    split: 'random',
    groups: 0,
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
    split: 'random',
    groups: 0,
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
    split: 'random',
    groups: 0,
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
    split: 'random',
    groups: 0,
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

test('data splits: a chosen folder maps to aclImdb archive paths; long paths are refused', () => {
  const { aclImdbPath } = opened;
  assert.equal(aclImdbPath('aclImdb/train/pos/1_9.txt'), 'aclImdb/train/pos/1_9.txt');
  assert.equal(aclImdbPath('my copy/test/neg/7_2.txt'), 'aclImdb/test/neg/7_2.txt');
  assert.equal(aclImdbPath('aclImdb/train/unsup/3_0.txt'), null);
  assert.equal(aclImdbPath('aclImdb/README'), null);
  // The movie lists come along (the engine splits by movie with them).
  assert.equal(aclImdbPath('my copy/train/urls_pos.txt'), 'aclImdb/train/urls_pos.txt');
  assert.equal(aclImdbPath('aclImdb/train/urls_unsup.txt'), null);
  assert.throws(() => tarArchive([['x'.repeat(101), 'a']]), /longer than 100 bytes/);
  // What the page packs, the engine reads: its halves, or a hold-out of its training half.
  const summary = session.loadBytes(aclImdb(5, 2), 'aclImdb-folder.tar.gz', null, null);
  assert.deepEqual([summary.trainExamples, summary.testExamples, summary.heldOut], [10, 4, false]);
});
