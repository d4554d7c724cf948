// The Studio's two-file data layout and its bag-of-n-grams baseline in Chromium (issue 18, items 3
// and 4): two small generated files of one sentence per line (one per class) load through the
// engine's loader with the stratified hold-out, with clear messages for an empty file and the same
// file twice; the baseline trains on the built-in corpus and its per-token contributions, shown
// under the attention weights, carry signs and equal the engine's own for the same review.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../js/support/engine.mjs';
import { startBrowser } from './support/browser.mjs';
import { openStudio as openStudioAt, SMALL } from './support/studio.mjs';

let env;
before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

const openStudio = (hash) => openStudioAt(env, hash);

const lines = (prefix, n) => Buffer.from(Array.from({ length: n }, (_, i) => `${prefix} ${i}`).join('\n') + '\n');
const textFile = (name, buffer) => ({ name, mimeType: 'text/plain', buffer });

test('studio data: two files of sentences, one per class, are held out like a CSV', async () => {
  const { page, problems } = await openStudio();
  await page.locator('#data-sentences-pos').setInputFiles(textFile('rt.pos', lines('a warm and witty film', 20)));
  await page.locator('#data-sentences-neg').setInputFiles(textFile('rt.neg', lines('a dull and lifeless mess', 20)));
  await page.waitForFunction(
    () =>
      document.querySelector('.studio-data')?.dataset.state === 'loaded' &&
      document.querySelector('#data-summary')?.textContent.startsWith('rt.pos + rt.neg'),
    null,
    { timeout: 30000 },
  );
  assert.match(await page.locator('#data-split').textContent(), /hold-out of 10% \(seed 1\)/);
  // round(0.1 · 20) = 2 of each class held out.
  const d = await page.locator('#split-counts').evaluate((n) => ({ ...n.dataset }));
  assert.deepEqual([d.trainPositive, d.trainNegative, d.testPositive, d.testNegative].map(Number), [18, 18, 2, 2]);

  // An empty file and the same file twice are refused with the file's name.
  await page.locator('#data-sentences-neg').setInputFiles(textFile('empty.neg', Buffer.alloc(0)));
  await page.waitForSelector('.studio-data[data-state="failed"]', { timeout: 30000 });
  assert.match(
    await page.locator('#data-error').textContent(),
    /empty\.neg: the file is empty; expected one negative sentence per line/,
  );
  await page.locator('#data-sentences-neg').setInputFiles(textFile('rt.pos', lines('a warm and witty film', 20)));
  await page.waitForFunction(
    () => /pick one file per class/.test(document.querySelector('#data-error')?.textContent),
    null,
    {
      timeout: 30000,
    },
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio baseline: bow trains on the built-in corpus; its signed contributions equal the engine’s', async () => {
  const { page, problems } = await openStudio();
  await page.locator('#baseline-train').click();
  await page.waitForSelector('[data-testid="baseline-panel"][data-state="explained"]', { timeout: 60000 });
  assert.match(await page.locator('#baseline-status').textContent(), /n-grams, test accuracy \d+\.\d%/);
  const text = await page.locator('#predict-text').inputValue();
  const shown = await page
    .locator('[data-testid="baseline-tokens"] .token')
    .evaluateAll((spans) => spans.map((s) => ({ token: s.textContent, c: Number(s.dataset.contribution) })));
  assert.ok(shown.some((t) => t.c > 0) && shown.some((t) => t.c < 0), 'contributions of both signs');
  assert.ok(await page.locator('[data-testid="baseline-tokens"] .token.more-b').count());
  assert.ok(await page.locator('[data-testid="baseline-tokens"] .token.more-a').count());

  // The same baseline in the engine, outside the page: same data, same seed, same numbers.
  const engine = await loadEngine();
  const session = new engine.SentimentSession();
  try {
    session.loadBuiltin();
    const bow = engine.sentimentRecipes().find((r) => r.model === 'bow');
    session.trainBaseline({ seed: 1, epochs: bow.epochs, learningRate: bow.learningRate });
    const e = session.explainBaseline(text);
    assert.deepEqual(
      shown.map((t) => t.token),
      e.tokens,
    );
    shown.forEach((t, i) =>
      assert.ok(Math.abs(t.c - e.contributions[i]) < 1e-6, `${t.token}: ${t.c} vs ${e.contributions[i]}`),
    );
    const probability = Number(await page.locator('[data-testid="baseline-tokens"]').getAttribute('data-probability'));
    assert.ok(Math.abs(probability - e.probability) < 1e-6);
  } finally {
    session.delete();
  }

  // Typing a new review updates the contributions (the box works beside the attention model's).
  await page.locator('#predict-text').fill('a wonderful film');
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-testid="baseline-tokens"] .token')].map((s) => s.textContent).join(' ') ===
      'a wonderful film',
    null,
    { timeout: 30000 },
  );
  assert.deepEqual(problems, []);
  await page.close();
});
