// Browser tests of the Attention Lab in Debian's Chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openPage, startBrowser } from './support/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

async function cellTexts(page, testId) {
  return page.locator(`[data-testid="${testId}"] td`).allTextContents();
}

async function waitForScores(page, expected) {
  await page.waitForFunction(
    ([want]) => {
      const cells = [...document.querySelectorAll('[data-testid="heatmap-scores"] td')];
      return cells.map((c) => c.textContent).join('|') === want;
    },
    [expected.join('|')],
    { timeout: 10000 },
  );
}

test('lab: loads, the engine starts, the course example is computed, nothing goes wrong', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 15000 });
  // In a learner's words; the build's name and version only in the tooltip.
  const status = page.locator('[data-testid="engine-status"]');
  assert.equal(await status.textContent(), 'Engine ready — runs on this device (WebAssembly with SIMD)');
  assert.match(await status.getAttribute('title'), /^attention-playground \S+, WebAssembly SIMD on$/);
  await waitForScores(page, ['927.0', '397.0', '148.0', '929.0']);
  assert.deepEqual(await cellTexts(page, 'heatmap-weights'), ['0.119', '0', '0', '0.881']);
  assert.deepEqual(await cellTexts(page, 'heatmap-context'), ['3.881', '4.073', '45.26']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('lab: editing the hidden state changes the scores and the heatmap colours', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await waitForScores(page, ['927.0', '397.0', '148.0', '929.0']);
  const cell = page.locator('[data-testid="heatmap-scores"] td').nth(1);
  const before = await cell.evaluate((td) => td.style.background);
  // s = [6, 1, 20]: 18 + 12 + 900 = 930; 354 + 2 + 100 = 456; 6 + 43 + 100 = 149; 24 + 3 + 906 = 933.
  await page.getByLabel('decoder state s, component 1').fill('6');
  await waitForScores(page, ['930.0', '456.0', '149.0', '933.0']);
  const afterColour = await cell.evaluate((td) => td.style.background);
  assert.notEqual(afterColour, before, 'the heatmap colour of h2 should change with its score');
  assert.match(page.url(), /s=6%2C1%2C20/, 'the edited state is in the URL');
  // A second edit builds on the first (the editors are not rebuilt between them):
  // s = [6, 1, 21]: 18 + 12 + 945 = 975; 354 + 2 + 105 = 461; 6 + 43 + 105 = 154; 24 + 3 + 951.3 = 978.3.
  await page.getByLabel('decoder state s, component 3').fill('21');
  await waitForScores(page, ['975.0', '461.0', '154.0', '978.3']);
  assert.match(page.url(), /s=6%2C1%2C21/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('lab: temperature, masking and a parameterised scoring function', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await waitForScores(page, ['927.0', '397.0', '148.0', '929.0']);
  // Mask h4: h1 takes all the weight.
  await page.locator('.vector-row').nth(4).getByLabel('visible').uncheck();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="heatmap-weights"] td')?.textContent === '1.000',
  );
  assert.deepEqual(await cellTexts(page, 'heatmap-context'), ['3.000', '12.00', '45.00']);
  // Additive scoring shows its learnable parameters.
  await page.selectOption('#lab-kind', 'additive');
  await page.waitForSelector('[data-testid="heatmap-param-w1"]');
  assert.match(await page.locator('.formula').textContent(), /tanh/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('lab: an old #lab? link reproduces the state, and the screenshot for the README is taken', async () => {
  // Scaled dot product over three 2-d annotations, τ = 0.5.
  const { page, problems } = await openPage(env, '#lab?kind=scaled_dot&temp=0.5&s=1,2&h=1,0;0,1;1,1&mask=111');
  // scores: [1, 2, 3] / √2 = 0.707, 1.414, 2.121
  await waitForScores(page, ['0.707', '1.414', '2.121']);
  assert.equal(await page.locator('#lab-kind').inputValue(), 'scaled_dot');
  const { page: example } = await openPage(env, '#/lab');
  await waitForScores(example, ['927.0', '397.0', '148.0', '929.0']);
  await example.waitForSelector('[data-testid="heatmap-self-weights"] td');
  await example.waitForSelector('[data-testid="experiment-sweep"] td');
  // The screenshot shows a cell's explanation, as a learner hovering h1's weight sees it.
  await example.locator('[data-testid="heatmap-weights"] td').first().hover();
  await example.waitForSelector('[data-testid="heatmap-weights-explain"] p');
  mkdirSync(path.join(root, 'build/screenshots'), { recursive: true });
  await example.screenshot({ path: path.join(root, 'build/screenshots/attention-lab.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
  await example.close();
});
