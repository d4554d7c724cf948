// Browser test of the Transformer view: it loads without console errors; a short training run in
// its own worker changes the loss and the head heatmaps; the grid has L × H maps (plus each
// layer's average) whose rows sum to 1; the causal toggle zeroes the upper triangle; ablating a
// head changes P(positive); the ablation table lists every head; the positional-encoding map and
// the line view are there; keyboard reaches the controls; a head map exports as a valid SVG.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPage, startBrowser } from './support/browser.mjs';
import { assertLinksMatch, readLinks } from './support/links.mjs';

let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

/** A heatmap's cell values as rows. */
const matrix = (page, testId) =>
  page.evaluate((id) => {
    const rows = [...document.querySelectorAll(`[data-testid="${id}"] tbody tr`)];
    return rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value)));
  }, testId);

const probability = (page) =>
  page.evaluate(() => Number(document.querySelector('#tf-probability')?.dataset.probability));

test('transformer view: train, inspect heads, causal mask, ablation, positional encodings', async () => {
  const { page, problems } = await openPage(env, '#/transformer');
  await page.waitForSelector('[data-testid="view-transformer"]:not([hidden])');
  const view = page.locator('[data-testid="view-transformer"]');
  assert.equal(await view.getByRole('button', { name: 'Inspect' }).isDisabled(), true, 'no model yet');

  await page.locator('#tf-layers').selectOption('2');
  await page.locator('#tf-heads').selectOption('2');
  await page.locator('#tf-epochs').fill('3');
  // The untrained model's maps show first (the grid is built when the model is, and inspected
  // before training). They are recorded as they are drawn: on a busy machine the run can be over
  // before the test could read them.
  await page.evaluate(() => {
    const view = document.querySelector('[data-testid="view-transformer"]');
    const observer = new MutationObserver(() => {
      const rows = [...document.querySelectorAll('[data-testid="tf-head-1-0"] tbody tr')];
      const values = rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.dataset.value));
      if (!rows.length || values.some((row) => !row.length || row.some((v) => v === undefined))) return;
      window.__untrainedHead = values.map((row) => row.map(Number));
      observer.disconnect();
    });
    observer.observe(view, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-value'] });
  });
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForFunction(() => window.__untrainedHead !== undefined, null, { timeout: 30000 });
  const untrained = await page.evaluate(() => window.__untrainedHead);
  await page.waitForSelector('.transformer[data-state="finished"]', { timeout: 120000 });
  await page.waitForFunction(() =>
    /Test accuracy/.test(document.querySelector('.transformer .train-status')?.textContent ?? ''),
  );
  const { first, last } = await page.evaluate(() => {
    const output = document.querySelector('#tf-loss');
    return { first: Number(output.dataset.firstLoss), last: Number(output.dataset.loss) };
  });
  assert.ok(Number.isFinite(first) && Number.isFinite(last));
  assert.notEqual(last, first, 'training changes the loss');
  await page.waitForFunction(
    (before) => {
      const rows = [...document.querySelectorAll('[data-testid="tf-head-1-0"] tbody tr')];
      const now = rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value)));
      return JSON.stringify(now) !== JSON.stringify(before);
    },
    untrained,
    { timeout: 10000 },
  );

  // The grid: 2 layers × (2 heads + average); rows sum to 1; T = <start> + 10 words.
  assert.equal(await page.locator('figure[data-testid^="tf-head-"]').count(), 4);
  assert.equal(await page.locator('figure[data-testid^="tf-avg-"]').count(), 2);
  for (const id of ['tf-head-0-0', 'tf-head-0-1', 'tf-head-1-0', 'tf-head-1-1', 'tf-avg-0', 'tf-avg-1']) {
    const m = await matrix(page, id);
    assert.equal(m.length, 11, id);
    for (const row of m) {
      assert.equal(row.length, 11);
      const sum = row.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-4, `${id} row sums to ${sum}`);
    }
  }
  assert.ok((await matrix(page, 'tf-head-0-0')).some((row, q) => row.some((w, k) => k > q && w > 0)));

  // Hover explains a cell with its weight and row sum.
  await page.locator('[data-testid="tf-head-0-1"] tbody tr').nth(2).locator('td').nth(3).hover();
  const explained = await page.locator('[data-testid="tf-layer-0-explain"]').textContent();
  assert.match(explained, /s = q·k \/ √16 = /);
  assert.match(explained, /numerator e\^\(.*\) = .*α = [\d.e+-]+ \/ [\d.e+-]+ = [\d.e+-]+/);
  assert.match(explained, /row sums to 1\.0000/);

  // Line view and positional encodings.
  assert.ok((await page.locator('[data-testid="tf-lines"] svg line').count()) > 0);
  assert.equal(await page.locator('[data-testid="tf-lines"] .link-summary li').count(), 11);
  // The link view of the selected head: one line per pair ≥ 0.01, opacity weight / max weight.
  assertLinksMatch(await readLinks(page, 'tf-lines', 'tf-head-{head}'), 0.01);
  await page.mouse.move(0, 0); // the pointer off the tokens: only the keyboard isolates below
  // Focusing a query token isolates its links; arrow keys move along the tokens; Escape shows all.
  await page.locator('[data-testid="tf-lines"] .link-rows .link-token').nth(2).focus();
  let links = await readLinks(page, 'tf-lines', 'tf-head-{head}');
  assert.equal(links.isolated, 'row:2');
  assert.ok(links.lines.length > 0 && links.lines.every((l) => l.on === (l.row === 2)));
  assert.ok(
    links.lines.filter((l) => !l.on).every((l) => l.opacity < 0.1),
    'the other links fade',
  );
  assert.match(links.explain, /^\S+ → \S+ \(\d/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  links = await readLinks(page, 'tf-lines', 'tf-head-{head}');
  assert.equal(links.isolated, 'col:3');
  assert.ok(links.lines.every((l) => l.on === (l.col === 3)));
  await page.keyboard.press('Escape');
  assert.equal((await readLinks(page, 'tf-lines', 'tf-head-{head}')).isolated, null);
  const pe = await matrix(page, 'tf-positional');
  assert.equal(pe.length, 24);
  assert.equal(pe[0].length, 32);
  assert.ok(pe.flat().every(Number.isFinite));
  assert.equal(pe[1][0], Math.fround(Math.sin(1)));

  // Causal mask: the upper triangle becomes 0 everywhere; the URL records it.
  const p0 = await probability(page);
  await page.locator('#tf-causal').check();
  await page.waitForSelector('.transformer[data-causal="1"]');
  for (const id of ['tf-head-0-0', 'tf-head-1-1', 'tf-avg-1']) {
    const m = await matrix(page, id);
    for (let q = 0; q < m.length; q++)
      for (let k = q + 1; k < m.length; k++) assert.equal(m[q][k], 0, `${id} ${q},${k}`);
  }
  assert.match(page.url(), /causal=1/);
  await page.locator('#tf-causal').uncheck();
  await page.waitForSelector('.transformer[data-causal="0"]');
  assert.equal(await probability(page), p0);

  // Ablating a head changes P(positive); unticking restores it.
  await page.locator('#tf-ablate-0-1').check();
  await page.waitForFunction((p) => Number(document.querySelector('#tf-probability')?.dataset.probability) !== p, p0);
  assert.match(await page.locator('#tf-probability').textContent(), /from/);
  await page.locator('#tf-ablate-0-1').uncheck();
  await page.waitForFunction((p) => Number(document.querySelector('#tf-probability')?.dataset.probability) === p, p0);

  // Accuracy change per head on the test set.
  await view.getByRole('button', { name: 'Measure each head on the test set' }).click();
  await page.waitForSelector('.tf-ablation-table:not([hidden]) tbody tr');
  assert.equal(await page.locator('.tf-ablation-table tbody tr').count(), 4);
  assert.match(await page.locator('.tf-ablation-table caption').textContent(), /132 reviews/);

  // Keyboard: Tab reaches the sentence, the causal toggle and the ablation button.
  await page.locator('#tf-layers').focus();
  const reached = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    reached.add(await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent));
  }
  for (const want of ['tf-text', 'tf-causal', 'tf-ablate-0-0', 'tf-line-layer'])
    assert.ok(reached.has(want), `Tab reaches ${want}`);

  // Export a head map as SVG.
  const figure = page.locator('[data-testid="tf-head-0-0"]');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    figure.locator('button[data-export="svg"]').click(),
  ]);
  const text = (await readFile(await download.path())).toString('utf8');
  const parsed = await page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      cells: doc.querySelectorAll('rect.cell').length,
    };
  }, text);
  assert.deepEqual(parsed, { error: null, root: 'svg', cells: 121 });
  assert.match(page.url(), /#\/transformer\?text=the\+acting\+was\+not\+good/);

  // A file that is not a model is refused with a visible message.
  await page.locator('#tf-model-file').setInputFiles({
    name: 'notes.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('not a model file at all'),
  });
  await page.waitForSelector('.transformer[data-state="failed"]');
  assert.ok((await page.locator('.transformer .error').textContent()).length > 10);
  assert.deepEqual(problems, []);
  await page.close();
});

/** The colours a head map draws, cell by cell. */
const drawn = (page, testId) =>
  page
    .locator(`[data-testid="${testId}"] tbody td`)
    .evaluateAll((cells) => cells.map((td) => getComputedStyle(td).backgroundColor));

/** Inspects `text` and returns P(positive) once the maps are that request's. */
async function inspect(page, text) {
  await page.locator('#tf-text').fill(text);
  await page.locator('[data-testid="view-transformer"]').getByRole('button', { name: 'Inspect' }).click();
  await page.waitForSelector('.transformer:not([data-inspecting])');
  return probability(page);
}

test('transformer view: one click opens the trained IMDB Transformer, says what it is and draws its attention', async () => {
  const manifest = JSON.parse(
    await readFile(new URL('../../web/public/models/manifest.json', import.meta.url), 'utf8'),
  );
  const shipped = manifest.models.find((m) => m.model === 'transformer');
  const { page, problems } = await openPage(env, '#/transformer');
  await page.waitForSelector('[data-testid="view-transformer"]:not([hidden])');
  const view = page.locator('[data-testid="view-transformer"]');

  // First a model of the same shape trained here for one epoch: its maps, as drawn.
  await page.locator('#tf-layers').selectOption('1');
  await page.locator('#tf-heads').selectOption('2');
  await page.locator('#tf-pooling').selectOption('mean');
  await page.locator('#tf-epochs').fill('1');
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.transformer[data-state="finished"]', { timeout: 120000 });
  await page.waitForFunction(() =>
    /Test accuracy/.test(document.querySelector('.transformer .train-status')?.textContent ?? ''),
  );
  await page.waitForSelector('.transformer:not([data-inspecting])');
  const ownValues = await matrix(page, 'tf-head-0-0');
  const ownColours = await drawn(page, 'tf-head-0-0');

  // The form set for another run; opening a model shows that model's shape instead.
  await page.locator('#tf-layers').selectOption('2');
  await page.locator('#tf-heads').selectOption('4');
  await page.locator('#tf-pooling').selectOption('attention');

  // One click, with the held-out accuracy on the button.
  const button = page.locator('#tf-shipped');
  await page.waitForFunction(() => !document.querySelector('#tf-shipped')?.disabled);
  const percent = `${(100 * shipped.heldOutAccuracy).toFixed(1)}%`;
  assert.equal(
    await button.textContent(),
    `Open the trained IMDB Transformer — ${percent} on reviews of unseen movies`,
  );
  // From the keyboard; the focus stays on the button (it is disabled while the model loads).
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector(
    `.transformer[data-model="${shipped.file}"][data-state="finished"]:not([data-inspecting])`,
    {
      timeout: 30000,
    },
  );
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'tf-shipped', 'the focus is kept');
  // What it is: its shape, its recipe, its held-out accuracy on movies it never saw.
  const about = await page.locator('#tf-model-about').textContent();
  assert.match(about, /1 Transformer layer of 2 heads \(d_model 32, feed-forward 64\), mean pooling/);
  assert.ok(
    about.includes(
      `trained on 22,500 IMDB reviews (Adam 0.0005, batch 32; 10% of them set aside to keep the best of ${shipped.epochsRun} epochs)`,
    ),
    about,
  );
  assert.ok(about.includes(`${percent} on 2,500 held-out reviews of movies it never saw`), about);
  assert.equal(await page.locator('figure[data-testid^="tf-head-"]').count(), 2, 'its 1 layer × 2 heads');
  assert.deepEqual(
    await Promise.all(['#tf-layers', '#tf-heads', '#tf-pooling'].map((s) => page.locator(s).inputValue())),
    ['1', '2', 'mean'],
    'the form shows its shape',
  );

  // The same sentence, drawn from the shipped model's attention: other weights, other colours.
  const loadedValues = await matrix(page, 'tf-head-0-0');
  assert.equal(loadedValues.length, ownValues.length);
  assert.notDeepEqual(loadedValues, ownValues);
  const loadedColours = await drawn(page, 'tf-head-0-0');
  const changed = loadedColours.filter((c, i) => c !== ownColours[i]).length;
  assert.ok(changed >= loadedColours.length / 4, `${changed} of ${loadedColours.length} cells change colour`);
  // The colour follows the weight: the cell of a row's largest weight is not drawn like its smallest.
  for (const [q, row] of loadedValues.entries()) {
    const hi = row.indexOf(Math.max(...row));
    const lo = row.indexOf(Math.min(...row));
    if (row[hi] - row[lo] > 0.2)
      assert.notEqual(loadedColours[q * row.length + hi], loadedColours[q * row.length + lo]);
  }

  // Its answers on obvious sentences.
  assert.ok((await inspect(page, 'a wonderful film with a moving story')) > 0.5, 'positive');
  assert.ok((await inspect(page, 'a dull, lifeless film')) < 0.5, 'negative');

  // Training a model of its own replaces it, and the description goes with it.
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.transformer:not([data-model])');
  assert.equal(await page.locator('#tf-model-about').textContent(), '');
  assert.deepEqual(problems, []);
  await page.close();
});
