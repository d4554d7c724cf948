// The trained IMDB models the page ships (web/public/models/, views/studio/shipped_models.ts) in
// Chromium: the Studio offers one in one click above the fold with its measured accuracy on
// unseen movies, loading it makes the explanation read the obvious sentences right and draws the
// watched reviews' attention, and the offline service worker precaches the files.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startBrowser } from './support/browser.mjs';
import { openStudio } from './support/studio.mjs';

const manifest = JSON.parse(readFileSync(new URL('../../web/public/models/manifest.json', import.meta.url), 'utf8'));
const PANEL = '[data-testid="explain-panel"]';

let env;
before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

/** P(positive) the explanation panel shows for `text`, once its tokens are the text's. */
async function explain(page, text) {
  const panel = page.locator(PANEL);
  await panel.locator('#predict-text').fill(text);
  await page.waitForFunction(
    ([sel, wanted]) => {
      const tokens = [...document.querySelectorAll(`${sel} [data-testid="explain-tokens"] .token`)];
      return tokens.map((t) => t.textContent).join(' ') === wanted;
    },
    [PANEL, `<start> ${text.replace(/,/g, '')}`], // the tokenizer drops punctuation
  );
  return Number(await panel.locator('#explain-prediction').getAttribute('data-probability'));
}

test('shipped models: one click above the fold opens the IMDB model; explanation and watched reviews follow it', async () => {
  const { page, problems } = await openStudio(env);
  await page.waitForSelector('#shipped-models[data-state="listed"]', { timeout: 30000 });
  const model = manifest.models.find((m) => m.model === 'bilstm-attention');
  const button = page.locator(`#shipped-models button[data-file="${model.file}"]`);
  const label = await button.textContent();
  assert.equal(
    label,
    `Open a trained IMDB model — ${(100 * model.heldOutAccuracy).toFixed(1)}% on reviews of unseen movies`,
  );
  // Drawn where a learner sees it first: inside the 1366×900 window, as a filled primary button.
  const box = await button.boundingBox();
  assert.ok(box && box.y + box.height <= 900, `the button ends at y = ${box && box.y + box.height}`);
  const background = await button.evaluate((b) => getComputedStyle(b).backgroundColor);
  assert.notEqual(background, 'rgba(0, 0, 0, 0)', 'a filled button');
  assert.match(await page.locator('#small-corpus-note').textContent(), /660 short reviews.*aclImdb_v1\.tar\.gz/s);

  await button.click();
  await page.waitForSelector(`#shipped-models[data-loaded="${model.file}"]`, { timeout: 30000 });
  assert.match(await page.locator('#shipped-status').textContent(), /on 2,\d{3} reviews of movies it never saw/);
  await page.waitForSelector(`${PANEL}[data-state="ready"]`, { timeout: 10000 });
  assert.ok((await explain(page, 'a wonderful film with a moving story')) > 0.5);
  assert.ok((await explain(page, 'a dull, lifeless film')) < 0.5);

  // The watched reviews show the loaded model's attention: a snapshot, weights summing to 1, not uniform.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="watched-0"] td').length > 0);
  const weights = await page
    .locator('[data-testid="watched-0"] td')
    .evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
  const sum = weights.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 1e-3, `weights ${weights}`);
  assert.ok(Math.max(...weights) > 1.5 * Math.min(...weights), `weights ${weights} are near uniform`);
  assert.deepEqual(problems, []);
});

test('shipped models: dist/ serves them and the service worker precaches them', () => {
  const sw = readFileSync(new URL('../../dist/sw.js', import.meta.url), 'utf8');
  for (const name of ['manifest.json', ...manifest.models.map((m) => m.file)]) {
    assert.ok(readFileSync(new URL(`../../dist/models/${name}`, import.meta.url)).length > 0, name);
    assert.ok(sw.includes(`models/${name}`), `sw.js precaches models/${name}`);
  }
});
