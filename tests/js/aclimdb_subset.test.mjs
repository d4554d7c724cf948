// The time-to-accuracy bench's archive cutter (bench/browser/aclimdb_subset.mjs): of each split,
// the first ceil(n / 2) positive and floor(n / 2) negative reviews in archive order, every other
// entry kept — so the engine reads the cut archive, its test half and its movies (urls_*.txt)
// included — and bad input refused with a message. Archives are written with the page's tar writer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync, gzipSync } from 'node:zlib';
import { aclImdbSubset } from '../../bench/browser/aclimdb_subset.mjs';
import { aclImdbMovieFiles } from './support/aclimdb_files.mjs';
import { openArchiveSession } from './support/archive_session.mjs';

let opened;
let session;
let tarArchive;
before(async () => {
  opened = await openArchiveSession();
  ({ session, tarArchive } = opened);
});
after(() => opened?.close());

/** The review paths of a gzipped archive, in order (the paths are plain text in the headers). */
const reviewPaths = (tarGz) =>
  [
    ...gunzipSync(tarGz)
      .toString('latin1')
      .matchAll(/aclImdb\/\w+\/(?:pos|neg)\/\w+\.txt/g),
  ].map((m) => m[0]);

test('aclimdb subset: n reviews of each split, half per class, in archive order; the engine reads the rest as before', () => {
  // 12 movies × 5 reviews: 30 positive, 30 negative training reviews with their urls files, and a
  // test half of 4 + 4.
  const test = Array.from({ length: 4 }, (_, i) => [
    [`aclImdb/test/pos/${i}_8.txt`, `lovely ${i}`],
    [`aclImdb/test/neg/${i}_1.txt`, `awful ${i}`],
  ]).flat();
  const files = [...aclImdbMovieFiles(12, 5), ...test, ['aclImdb/README', 'a readme\n']];
  const cut = aclImdbSubset(gzipSync(tarArchive(files)), 7);

  const paths = reviewPaths(cut);
  const first = (prefix, n) =>
    files
      .map(([p]) => p)
      .filter((p) => p.startsWith(prefix))
      .slice(0, n);
  assert.deepEqual(
    paths.filter((p) => p.includes('/train/')).sort(),
    [...first('aclImdb/train/pos/', 4), ...first('aclImdb/train/neg/', 3)].sort(),
  );
  // The same quota in the test half: all 4 of its positive reviews, 3 of its 4 negative ones.
  assert.deepEqual(
    paths.filter((p) => p.includes('/test/')).sort(),
    [...first('aclImdb/test/pos/', 4), ...first('aclImdb/test/neg/', 3)].sort(),
  );
  const text = gunzipSync(cut).toString('latin1');
  for (const kept of ['aclImdb/README', 'aclImdb/train/urls_pos.txt', 'aclImdb/train/urls_neg.txt'])
    assert.ok(text.includes(kept), `${kept} kept`);

  // The engine takes it: its own test half, and the training reviews still grouped by movie.
  const own = session.loadBytes(cut, 'cut.tar.gz', {}, null);
  assert.deepEqual([own.trainExamples, own.testExamples, own.heldOut], [7, 7, false]);
  const held = session.loadBytes(cut, 'cut.tar.gz', { testSet: 'holdout', testFraction: 0.3, seed: 1 }, null);
  assert.equal(held.trainExamples + held.testExamples, 7);
  assert.equal(held.split, 'by group');
});

test('aclimdb subset: not gzip, not tar, no reviews, or a bad count: a message', () => {
  const files = aclImdbMovieFiles(2, 2);
  assert.throws(() => aclImdbSubset(Buffer.from('plain text'), 10), /not a gzipped tar file/);
  assert.throws(() => aclImdbSubset(gzipSync(Buffer.alloc(600, 65)), 10), /not a tar archive, or a damaged one/);
  assert.throws(() => aclImdbSubset(gzipSync(tarArchive([['notes/a.txt', 'x']])), 10), /holds no aclImdb review/);
  for (const n of [1, 2.5, NaN])
    assert.throws(() => aclImdbSubset(gzipSync(tarArchive(files)), n), /a whole number of at least 2/);
});
