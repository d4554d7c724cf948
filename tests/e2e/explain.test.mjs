// The Studio's explanation panel (web/src/views/studio/explain_panel.ts) in Chromium: a typed
// review gets a prediction and highlighted tokens, clicking a token masks it and changes P, the
// "is attention an explanation?" heatmap has three rows of finite numbers, hovering an attention
// cell shows the softmax arithmetic, and misclassified reviews render their text as text.
//
// Only stable selectors of the panel are used (#predict-text, [data-testid="explain-panel"], ...).
// Training goes through whatever trains a model on the studio page: trainSmallModel() below is
// the one place that knows the studio's training controls.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, startBrowser } from './support/browser.mjs';

let env;
before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

const PANEL = '[data-testid="explain-panel"]';
// The test-set errors are a tab of their own beside the explanation.
const ERRORS = '[data-testid="errors-panel"]';

// The studio with a small model (2 epochs: the test checks the plumbing, not the accuracy). The
// studio calls ExplainPanel.modelChanged({trained: true}) when a run ends.
const SMALL = '#/studio?embed=8&units=8&maxlen=64&words=2000&epochs=2';
async function openStudio() {
  const opened = await openPage(env, SMALL);
  await opened.page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 30000 });
  await opened.page.waitForSelector('.studio-data[data-state="loaded"]', { timeout: 30000 });
  return opened;
}
async function trainSmallModel(page) {
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.train-panel[data-state="finished"]', { timeout: 120000 });
}

test('explain panel: type-as-you-go, counterfactuals, attention vs other attributions, errors browser', async () => {
  const { page, problems } = await openStudio();
  const panel = page.locator(PANEL);
  // Disabled with a hint until a model is trained; the review box stays usable for the
  // bag-of-n-grams baseline, which trains on its own (studio_baseline.test.mjs).
  assert.equal(await panel.getAttribute('data-state'), 'disabled');
  assert.equal(await panel.locator('#explain-replacement').isDisabled(), true);
  assert.equal(await panel.locator('#predict-text').isDisabled(), false);
  assert.match(await panel.locator('.explain-hint').textContent(), /Train or load a model first/);

  await trainSmallModel(page);
  await page.waitForSelector(`${PANEL}[data-state="ready"]`, { timeout: 10000 });

  // 1. Type-as-you-go: the prediction follows the text.
  const text = panel.locator('#predict-text');
  await text.fill('');
  await text.pressSequentially('a wonderful film, not boring', { delay: 20 });
  await page.waitForFunction(
    (sel) => document.querySelectorAll(`${sel} [data-testid="explain-tokens"] .token`).length === 6,
    PANEL,
  );
  assert.deepEqual(await panel.locator('[data-testid="explain-tokens"] .token').allTextContents(), [
    '<start>',
    'a',
    'wonderful',
    'film',
    'not',
    'boring',
  ]);
  const prediction = panel.locator('#explain-prediction');
  assert.match(await prediction.textContent(), /^(positive|negative): P\(positive\) = 0\.\d{3}$/);
  const p0 = Number(await prediction.getAttribute('data-probability'));
  assert.ok(p0 > 0 && p0 < 1);
  const weights = await panel
    .locator('[data-testid="explain-tokens"] .token')
    .evaluateAll((nodes) => nodes.map((n) => Number(n.style.getPropertyValue('--weight'))));
  assert.ok(weights.some((w) => w === 1) && weights.every((w) => w >= 0 && w <= 1), `weights ${weights}`);

  // 3. The heatmap: three rows (attention, gradient × input, leave-one-out) of finite numbers.
  const heatmap = panel.locator('[data-testid="explain-heatmap"]');
  await page.waitForFunction(
    (sel) => document.querySelectorAll(`${sel} [data-testid="explain-heatmap"] tbody tr`).length === 3,
    PANEL,
  );
  assert.deepEqual(await heatmap.locator('tbody th').allTextContents(), [
    'attention α',
    'gradient × input',
    'leave-one-out Δp',
  ]);
  const values = await heatmap
    .locator('td[data-value]')
    .evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
  assert.equal(values.length, 18);
  assert.ok(values.every(Number.isFinite), `values ${values}`);
  const tests = await panel.locator('[data-testid="explain-tests"]').textContent();
  assert.match(tests, /Shuffling the attention weights 20 times changed P\(positive\) by a median of 0\.\d{3}/);
  assert.match(tests, /uniform attention gives 0\.\d\d vs 0\.\d\d/);
  assert.match(await panel.locator('[data-testid="explain-correlation"]').textContent(), /Kendall τ/);

  // 4. Numbers you can touch: focusing an attention cell shows the softmax with its numbers.
  await heatmap.locator('tbody tr').first().locator('td').nth(2).hover();
  const explained = await heatmap.locator('[data-testid="explain-heatmap-explain"]').textContent();
  assert.match(explained, /“wonderful” \(token 3 of 6\): score e = /);
  assert.match(explained, /numerator e\^\(-?[\d.e+-]+ − -?[\d.e+-]+\) = /);
  assert.match(explained, /weight α = /);
  assert.match(explained, /contribution to the logit/);

  // 2. Counterfactuals: clicking a token masks it and changes P.
  const wonderful = panel.locator('[data-testid="explain-tokens"] button.token', { hasText: 'wonderful' });
  await wonderful.click();
  await page.waitForFunction((sel) => document.querySelector(`${sel} #explain-counterfactual`)?.dataset.delta, PANEL);
  const masked = panel.locator('[data-testid="explain-tokens"] button[data-masked="true"]');
  assert.equal(await masked.count(), 1);
  assert.equal(await masked.getAttribute('aria-pressed'), 'true');
  assert.match(await masked.textContent(), /<mask> \(wonderful\)/);
  const p1 = Number(await prediction.getAttribute('data-probability'));
  assert.notEqual(p1, p0, 'masking a word changes the prediction');
  assert.match(await panel.locator('#explain-counterfactual').textContent(), /Δp [+−]0\.\d{3}/);
  await panel.getByRole('button', { name: 'Reset edits' }).click();
  await page.waitForFunction((sel) => !document.querySelector(`${sel} button[data-masked]`), PANEL);
  assert.equal(Number(await prediction.getAttribute('data-probability')), p0);

  // 5. Evaluation: confusion matrix counts and misclassified reviews as text.
  const errors = page.locator(ERRORS);
  await page.waitForFunction(
    (sel) => document.querySelector(`${sel} [data-testid="explain-confusion"] td[data-cell]`),
    ERRORS,
  );
  const counts = await errors
    .locator('[data-testid="explain-confusion"] td[data-cell]')
    .evaluateAll((cells) => cells.map((c) => Number(c.textContent)));
  assert.equal(
    counts.reduce((a, b) => a + b, 0),
    132,
    'the built-in test split',
  );
  const wrong = counts[1] + counts[2]; // fp, fn
  if (wrong > 0) {
    await page.getByRole('tab', { name: 'Test-set errors' }).click();
    await page.waitForSelector(`${ERRORS} .explain-review`);
    assert.ok((await errors.locator('.explain-review').count()) <= 5, 'paged by 5');
    assert.equal(await errors.locator('.explain-review img').count(), 0);
    await page.getByRole('tab', { name: 'Explanation' }).click();
  }
  // Typed HTML is text: the tokens show it, nothing is parsed.
  await text.fill('<b>bold</b> <img src=x onerror="window.__xss = 1"> good');
  await page.waitForFunction(
    (sel) =>
      [...document.querySelectorAll(`${sel} [data-testid="explain-tokens"] .token`)].some(
        (n) => n.textContent === 'good',
      ),
    PANEL,
  );
  assert.equal(await panel.locator('img, b').count(), 0);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.deepEqual(problems, []);
});

// Reviews from a user's CSV reach the page only as text.
test('explain panel: misclassified reviews from a CSV render HTML-looking text literally', async () => {
  const { page, problems } = await openStudio();
  const evil = '<img src=x onerror="window.__xss = 1">';
  const rows = ['review,sentiment'];
  for (let i = 0; i < 30; i++) {
    rows.push(`"${evil.replaceAll('"', '""')} a fine warm film ${i}",positive`);
    rows.push(`"${evil.replaceAll('"', '""')} dull and boring ${i}",negative`);
  }
  await page
    .locator('#data-upload')
    .setInputFiles({ name: 'evil.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
  await page.waitForFunction(() => document.querySelector('#data-summary')?.textContent.startsWith('evil.csv'));
  await trainSmallModel(page);
  const panel = page.locator(PANEL);
  await page.waitForSelector(`${PANEL}[data-state="ready"]`, { timeout: 10000 });
  await page.waitForFunction((sel) => document.querySelector(`${sel} .explain-eval-status`)?.textContent, ERRORS);
  const reviews = page.locator(`${ERRORS} .explain-review-text`);
  if ((await reviews.count()) > 0) assert.match(await reviews.first().textContent(), /<img src=x onerror=/);
  assert.equal(await page.locator(`${ERRORS} .explain-misclassified img`).count(), 0);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  // Typed text is text too.
  await panel.locator('#predict-text').fill(`${evil} good`);
  await page.waitForFunction((sel) => document.querySelector(`${sel} #explain-prediction`)?.dataset.probability, PANEL);
  assert.equal(await panel.locator('img').count(), 0);
  assert.deepEqual(problems, []);
});
