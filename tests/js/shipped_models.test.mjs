// The models the page ships (web/public/models/, made by scripts/train-shipped-models.mjs from the
// IMDB training half): the manifest describes each file truly, each is well under 2 MB and was
// measured at >= 85 % on held-out reviews of unseen movies, and the wasm engine loads each one and
// gets the obvious sentences and our own reviews (tests/fixtures/shipped_model_checks.tsv) right.
// The page reads the manifest and files through views/studio/shipped_models.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { loadEngine } from './support/engine.mjs';

const models = new URL('../../web/public/models/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', models), 'utf8'));
const checks = readFileSync(new URL('../fixtures/shipped_model_checks.tsv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [text, label] = line.split('\t');
    return { text, positive: label === 'positive' };
  });

let engine;
let session;
before(async () => {
  engine = await loadEngine();
  session = new engine.SentimentSession();
});
after(() => session?.delete());

test('shipped models: the manifest lists model (a) and a Transformer, each measured by movie', () => {
  assert.deepEqual(
    manifest.models.map((m) => m.model),
    ['bilstm-attention', 'transformer'],
  );
  for (const m of manifest.models) {
    const bytes = statSync(new URL(m.file, models)).size;
    assert.equal(m.bytes, bytes, m.file);
    assert.ok(bytes < 2 * 1024 * 1024, `${m.file}: ${bytes} bytes`);
    assert.ok(m.heldOutAccuracy >= 0.85, `${m.file}: ${m.heldOutAccuracy}`);
    assert.ok(m.heldOutReviews >= 2000, `${m.file}: ${m.heldOutReviews} held-out reviews`);
    assert.match(m.split, /^by movie/);
    assert.match(m.command, /^attn train --data aclImdb_train\.tar\.gz --holdout 0\.1/);
    assert.match(m.date, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(m.parameters > 0 && m.recipe?.classifier && m.recipe?.trainer, m.file);
  }
});

test('shipped models: each loads in the wasm engine and reads the obvious sentences and our reviews right', () => {
  assert.equal(checks[0].text, 'a wonderful film with a moving story');
  assert.equal(checks[1].text, 'a dull, lifeless film');
  for (const m of manifest.models) {
    const bytes = readFileSync(new URL(m.file, models));
    const info = session.loadModel(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    assert.equal(info.parameters, m.parameters, m.file);
    const p = session.predict(checks.map((c) => c.text));
    checks.forEach((c, i) => {
      assert.equal(p[i] > 0.5, c.positive, `${m.file}: "${c.text}" gives P(positive) ${p[i]}`);
    });
  }
});
