// Grouped splits in the wasm module (issue 29): the same seed gives the same split as native
// code (the strings tests/test_splits.cpp checks, kept in tests/support/grouped_split_fixture.hpp),
// an aclImdb archive with urls_*.txt is held out by movie (no movie on both sides) unless
// randomSplit is asked for, and an archive without them splits exactly as before.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { aclImdbMovieFiles } from './support/aclimdb_files.mjs';
import { openArchiveSession } from './support/archive_session.mjs';

const fixtureHeader = readFileSync(new URL('../support/grouped_split_fixture.hpp', import.meta.url), 'utf8');
const nativeString = (name) => {
  // A C++ string literal, possibly split over lines: "0101…" "1100…";
  const match = fixtureHeader.match(new RegExp(`${name} =((?:\\s*"[0-9]+")+);`));
  assert.ok(match, `${name} in grouped_split_fixture.hpp`);
  return [...match[1].matchAll(/"([0-9]+)"/g)].map((m) => m[1]).join('');
};

// tests/test_splits.cpp grouped_fixture, the same formulas.
function groupedFixture() {
  const labels = [];
  const groups = [];
  for (let i = 0; i < 120; i++) {
    labels.push((i * 7 + 3) % 5 < 2 ? 1 : 0);
    groups.push(`m${(i * i + 3 * i) % 23}`);
  }
  return { labels, groups };
}

let opened;
let engine;
let session;
let tarArchive;
before(async () => {
  opened = await openArchiveSession();
  ({ engine, session, tarArchive } = opened);
});
after(() => opened?.close());

test('grouped splits: the wasm module deals the native split for the same seed', () => {
  const { labels, groups } = groupedFixture();
  assert.equal([...engine.groupedHoldout(labels, groups, 0.2, 7)].join(''), nativeString('kGroupedHoldoutSeed7'));
  assert.equal([...engine.groupedFolds(labels, groups, 3, 2)].join(''), nativeString('kGroupedFoldsSeed2'));
  // No groups: the stratified rule (the same as all-empty groups).
  assert.deepEqual(
    engine.groupedHoldout(labels, [], 0.2, 7),
    engine.groupedHoldout(labels, Array(120).fill(''), 0.2, 7),
  );
  assert.throws(() => engine.groupedHoldout([0, 2], [], 0.2, 1), /labels\[1\] must be 0 or 1/);
  assert.throws(
    () => engine.groupedFolds(labels, Array(120).fill('one'), 2, 1),
    /need at least 2 groups; the data has 1/,
  );
});

test('grouped splits: an aclImdb archive with urls files is held out by movie; randomSplit and no urls split as before', () => {
  const movies = 24;
  const archive = (withUrls) => gzipSync(tarArchive(aclImdbMovieFiles(movies, 5, withUrls)));
  const summary = session.loadBytes(archive(true), 'aclImdb_train.tar.gz', { testFraction: 0.2, seed: 3 }, null);
  assert.equal(summary.split, 'by group');
  assert.ok(summary.groups > 0 && summary.groups < movies, `${summary.groups} movies in the training part`);
  // The session's test set is the engine rule's choice over the archive's reviews in their order.
  const reviews = aclImdbMovieFiles(movies, 5, false);
  const labels = reviews.map(([path]) => (path.includes('/pos/') ? 1 : 0));
  const groups = reviews.map(([, text]) => `tt${1000000 + Number(text.match(/movie(\d+)/)[1])}`);
  const held = engine.groupedHoldout(labels, groups, 0.2, 3);
  assert.equal(
    summary.testExamples,
    held.reduce((n, h) => n + h, 0),
  );
  const side = new Map();
  groups.forEach((g, i) => {
    assert.ok(!side.has(g) || side.get(g) === held[i], `movie ${g} is on both sides`);
    side.set(g, held[i]);
  });
  const random = session.loadBytes(
    archive(true),
    'aclImdb_train.tar.gz',
    { testFraction: 0.2, seed: 3, randomSplit: true },
    null,
  );
  assert.equal(random.split, 'random');
  assert.equal(random.groups, 0);
  const plain = session.loadBytes(archive(false), 'aclImdb_train.tar.gz', { testFraction: 0.2, seed: 3 }, null);
  assert.deepEqual(
    [plain.split, plain.groups, plain.trainExamples, plain.testExamples],
    ['random', 0, random.trainExamples, random.testExamples],
  );
});
