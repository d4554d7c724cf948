// core/'s includes point down (developers' guide): a header or source in core/ includes attn
// headers from its own folder or from a folder below it, never from one above. The order, lowest
// first; folders on one level may include each other (text and data both prepare examples).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Files at the top of attn/ are named by their stem (tensor.hpp -> 'tensor').
const LEVELS = [
  ['tensor', 'random'],
  ['kernels'],
  ['linalg', 'attention'],
  ['layers', 'losses'],
  ['io', 'optim'],
  ['text', 'data'],
  ['models'],
  ['train'],
  ['analysis'],
];
const levelOf = new Map(LEVELS.flatMap((folders, level) => folders.map((f) => [f, level])));

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(hpp|cpp)$/.test(name)) yield full;
  }
}

// The folder of a core file or of an included "attn/..." path: its first component, or the
// file's stem at the top.
const folderOf = (relative) => (relative.includes('/') ? relative.split('/')[0] : relative.replace(/\.[ch]pp$/, ''));

// [file relative to attn/ (or core/src/), the attn/... paths it includes] -> the upward includes.
function upward(entries) {
  const out = [];
  for (const [file, includes] of entries) {
    const from = folderOf(file);
    assert.ok(levelOf.has(from), `${file}: folder '${from}' has no level; add it to LEVELS`);
    for (const included of includes) {
      const to = folderOf(included);
      assert.ok(levelOf.has(to), `${file} includes attn/${included}: folder '${to}' has no level`);
      if (levelOf.get(to) > levelOf.get(from)) out.push(`${file} -> attn/${included}`);
    }
  }
  return out;
}

test('include direction: every attn include in core/ points down or sideways', () => {
  const entries = [];
  for (const base of ['core/include/attn', 'core/src']) {
    for (const file of files(path.join(root, base))) {
      const includes = [...readFileSync(file, 'utf8').matchAll(/^#include "attn\/([^"]+)"/gm)].map((m) => m[1]);
      entries.push([path.relative(path.join(root, base), file), includes]);
    }
  }
  const count = entries.reduce((n, [, includes]) => n + includes.length, 0);
  assert.ok(count > 100, `only ${count} includes found: is the tree where the test expects it?`);
  assert.deepEqual(upward(entries), []);
});

test('include direction: an upward include is reported, sideways and downward ones are not', () => {
  // What models/sentiment_model.hpp included before the training functions moved to train/.
  const entries = [
    [
      'models/sentiment_model.hpp',
      ['models/sequence_classifier.hpp', 'text/text_pipeline.hpp', 'train/classifier_trainer.hpp'],
    ],
    ['data/review_stats.hpp', ['text/text_pipeline.hpp']],
    ['linalg.cpp', ['kernels/gemm.hpp', 'tensor.hpp']],
    ['tensor.hpp', ['linalg.hpp']],
  ];
  assert.deepEqual(upward(entries), [
    'models/sentiment_model.hpp -> attn/train/classifier_trainer.hpp',
    'tensor.hpp -> attn/linalg.hpp',
  ]);
});

// The interfaces a model implements — models/translator.hpp (what the searches, the seq2seq
// trainer and the session drive) and models/sequence_encoder.hpp (the encoders) — include no
// model header, so a new kind of translator or encoder builds on them without pulling in the
// RNN seq2seq model or the classifier.
const INTERFACES = ['models/translator.hpp', 'models/sequence_encoder.hpp'];

const modelIncludes = (file, includes) =>
  includes.filter((included) => included.startsWith('models/')).map((included) => `${file} -> attn/${included}`);

test('include direction: the model interfaces include no model', () => {
  const found = INTERFACES.flatMap((file) => {
    const text = readFileSync(path.join(root, 'core/include/attn', file), 'utf8');
    return modelIncludes(
      file,
      [...text.matchAll(/^#include "attn\/([^"]+)"/gm)].map((m) => m[1]),
    );
  });
  assert.deepEqual(found, []);
  // The check itself: what models/seq2seq.hpp includes would be reported.
  assert.deepEqual(modelIncludes('models/translator.hpp', ['models/seq2seq.hpp', 'tensor.hpp']), [
    'models/translator.hpp -> attn/models/seq2seq.hpp',
  ]);
});
