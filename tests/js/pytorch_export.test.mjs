// A model trained in the page's engine (the wasm SentimentSession) runs unchanged in PyTorch:
// exportPytorch() writes the files of `attn export --format pytorch`, and the exported model.py
// reproduces explain()'s P(positive) and attention weights and, for the Transformer,
// inspectTransformer's self-attention of every block and head. Needs Python 3 with PyTorch
// (Debian: python3-torch); without it the test fails and says so. The CLI side, with every
// architecture and scoring function, is tests/pytorch/check_export.py (CTest).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine, SMALL_MODEL, SHORT_TRAINING } from './support/engine.mjs';
import { loadWebModules } from './support/web_modules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOLERANCE = 1e-4;
const TEXTS = [
  'A wonderful, moving film; the acting was superb.',
  'Dull and far too long. I wanted my <b>MONEY</b> back!',
  "It wasn't 'bad', just forgettable: the plot’s twists fell flat.",
  'ÉNORME Ça marche ΣΑΣ — no\u00a0break',
  '',
  'the story was dull but the acting was good and the music was lovely and the ending moved me '.repeat(6),
];

// Debian's python3-torch installs for /usr/bin/python3, which a python3 earlier in PATH may hide.
const python = process.env.ATTN_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

let engine;
let dir;
const sessions = [];

before(async () => {
  engine = await loadEngine();
  dir = mkdtempSync(path.join(tmpdir(), 'attn-pytorch-'));
});
after(() => {
  for (const s of sessions) s.delete();
  rmSync(dir, { recursive: true, force: true });
});

function requireTorch() {
  const probe = spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' });
  assert.equal(
    probe.status,
    0,
    `${python} cannot import torch: install Debian's python3-torch (scripts/setup.sh all does) or set ATTN_PYTHON ` +
      `to a Python with PyTorch.\n${probe.stderr ?? probe.error}`,
  );
}

/** Trains `config` briefly in a fresh session, exports it to a folder; -> [session, folder]. */
function trainAndExport(name, config) {
  const s = new engine.SentimentSession();
  sessions.push(s);
  s.loadBuiltin();
  s.createModel(config);
  s.startTraining(SHORT_TRAINING);
  s.runSteps(150);
  const files = s.exportPytorch();
  assert.deepEqual(
    files.map((f) => f.name),
    ['model.safetensors', 'vocab.json', 'model.py'],
  );
  const out = path.join(dir, name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of files) {
    assert.ok(f.bytes instanceof Uint8Array && f.bytes.length > 100, f.name);
    writeFileSync(path.join(out, f.name), f.bytes);
  }
  return [s, out];
}

function compareWithEngine(s, out) {
  const run = spawnSync(python, [path.join(out, 'model.py'), '--jsonl'], {
    input: TEXTS.map((t) => JSON.stringify(t)).join('\n') + '\n',
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const exported = run.stdout.trim().split('\n').map(JSON.parse);
  assert.equal(exported.length, TEXTS.length);
  const probabilities = TEXTS.map((t) => s.explain(t).probability);
  assert.ok(Math.max(...probabilities) - Math.min(...probabilities) > 0.05, 'the model did not train');
  TEXTS.forEach((text, i) => {
    const e = s.explain(text);
    const tokens = [...e.tokens];
    const weights = Array.from(e.weights);
    const x = exported[i];
    assert.deepEqual(x.tokens, tokens, `tokens of text ${i}`);
    assert.ok(
      Math.abs(x.probability - e.probability) <= TOLERANCE,
      `text ${i}: P engine ${e.probability}, model.py ${x.probability}`,
    );
    if (x.self_attention.length > 0) {
      // The Transformer's own attention, every block and head: [layers][heads][T][T].
      const inspection = s.inspectTransformer(text, null);
      const engineMaps = Array.from(inspection.attention);
      const exportedMaps = x.self_attention.flat(3);
      assert.equal(exportedMaps.length, engineMaps.length, `text ${i}: self-attention size`);
      const worstMap = Math.max(...engineMaps.map((w, k) => Math.abs(w - exportedMaps[k])));
      assert.ok(worstMap <= TOLERANCE, `text ${i}: self-attention differs by ${worstMap}`);
    }
    if (weights.length === 0) {
      assert.equal(x.attention, null, `text ${i}: attention from model.py only`);
      return;
    }
    assert.equal(x.attention.length, weights.length);
    const worst = Math.max(...weights.map((w, t) => Math.abs(w - x.attention[t])));
    assert.ok(worst <= TOLERANCE, `text ${i}: attention differs by ${worst}`);
  });
}

test('pytorch export: the page and the CLI ship the same model.py', () => {
  const [, out] = trainAndExport('shape', { ...SMALL_MODEL });
  assert.equal(
    readFileSync(path.join(out, 'model.py'), 'utf8'),
    readFileSync(path.join(root, 'core/src/models/pytorch_model.py'), 'utf8'),
  );
  const vocab = JSON.parse(readFileSync(path.join(out, 'vocab.json'), 'utf8'));
  assert.equal(vocab.format, 'attn-vocab');
  assert.equal(vocab.maxlen, SMALL_MODEL.maxlen);
});

// The page's settings reach what the CLI cannot set: 'post' truncation and padding, punctuation
// tokens, case and HTML kept, learned positions, the causal mask.
test('pytorch export: a BiLSTM-attention model trained in the page runs unchanged in PyTorch', () => {
  requireTorch();
  const config = { ...SMALL_MODEL, maxlen: 24, truncating: 'post', keepPunctuation: true };
  compareWithEngine(...trainAndExport('bilstm', config));
});

test('pytorch export: a Transformer trained in the page runs unchanged in PyTorch', () => {
  requireTorch();
  const config = {
    ...SMALL_MODEL,
    encoder: 'transformer',
    pooling: 'attention',
    layers: 2,
    heads: 2,
    positional: 'learned',
    causal: true,
    padding: 'post',
    lowercase: false,
    stripHtml: false,
  };
  compareWithEngine(...trainAndExport('transformer', config));
});

test('pytorch export: a BiGRU that classifies from its last states runs unchanged in PyTorch', () => {
  requireTorch();
  compareWithEngine(...trainAndExport('bigru', { ...SMALL_MODEL, encoder: 'bigru', pooling: 'last' }));
});

test('pytorch export: attention over words and hashed bigrams (no encoder) runs unchanged in PyTorch', () => {
  requireTorch();
  // Post padding and truncation: the bigram of a row's first token pairs with 0 on both sides.
  const config = { ...SMALL_MODEL, encoder: 'none', bigramBuckets: 301, padding: 'post', maxlen: 20 };
  compareWithEngine(...trainAndExport('ngrams', config));
});

test("pytorch export: the Studio's zip (stored, UTF-8 names) opens in Python's zipfile with every CRC right", async () => {
  const { modules, close } = await loadWebModules('/src/export/zip.ts');
  try {
    const [{ zipStored }] = modules;
    const [, out] = trainAndExport('zip', { ...SMALL_MODEL });
    const entries = ['model.safetensors', 'vocab.json', 'model.py'].map((name) => ({
      name: `folder/${name}`,
      bytes: new Uint8Array(readFileSync(path.join(out, name))),
    }));
    entries.push({ name: 'folder/é empty.txt', bytes: new Uint8Array(0) });
    const zipPath = path.join(dir, 'export.zip');
    writeFileSync(zipPath, zipStored(entries));
    const check = spawnSync(
      python,
      [
        '-c',
        'import json, sys, zipfile\n' +
          'z = zipfile.ZipFile(sys.argv[1])\n' +
          'assert z.testzip() is None, "bad CRC"\n' +
          'print(json.dumps([[i.filename, i.file_size, i.compress_type] for i in z.infolist()]))\n' +
          'sys.stdout.flush(); sys.stdout.buffer.write(z.read("folder/model.py"))',
        zipPath,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(check.status, 0, check.stderr);
    const [listing, ...rest] = check.stdout.split('\n');
    assert.deepEqual(
      JSON.parse(listing),
      entries.map((e) => [e.name, e.bytes.length, 0]),
    );
    assert.equal(rest.join('\n'), readFileSync(path.join(out, 'model.py'), 'utf8'));
  } finally {
    await close();
  }
});

test('pytorch export: without a model it says so', () => {
  const s = new engine.SentimentSession();
  sessions.push(s);
  assert.throws(() => s.exportPytorch(), /model/);
});
