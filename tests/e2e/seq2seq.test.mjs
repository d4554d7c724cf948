// Browser test of the Seq2seq Alignment view: it loads without console errors, a short training
// run in the worker changes the loss, and decoding animates one step at a time (the alignment
// heatmap grows a row per step); with reduced motion the final alignment shows at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, startBrowser } from './support/browser.mjs';
import { assertLinksMatch, readLinks } from './support/links.mjs';

let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

const stepOf = (page) => page.evaluate(() => Number(document.querySelector('#s2s-step')?.dataset.step ?? 0));

test('seq2seq view: train briefly, then decoding advances step by step', async () => {
  const { page, problems } = await openPage(env, '#/seq2seq');
  await page.waitForSelector('[data-testid="view-seq2seq"]:not([hidden])');
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 15000 });
  const view = page.locator('[data-testid="view-seq2seq"]');
  assert.match(await view.textContent(), /Decode an input/);
  assert.equal(await view.getByRole('button', { name: 'Decode' }).isDisabled(), true, 'nothing to decode yet');

  await page.locator('#s2s-task').selectOption('reverse');
  await page.locator('#s2s-attention').selectOption('bahdanau');
  await page.locator('#s2s-epochs').fill('1');
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForFunction(() => Number(document.querySelector('#s2s-step')?.dataset.step ?? 0) >= 10, null, {
    timeout: 60000,
  });
  await page.waitForSelector('.seq2seq[data-state="finished"]', { timeout: 120000 });
  const steps = await stepOf(page);
  assert.ok(steps >= 50, `one epoch of 1800 pairs in batches of 32 is 57 steps, saw ${steps}`);
  const { first, last } = await page.evaluate(() => {
    const output = document.querySelector('#s2s-loss');
    return { first: Number(output.dataset.firstLoss), last: Number(output.dataset.loss) };
  });
  assert.ok(Number.isFinite(first) && Number.isFinite(last));
  assert.ok(last < first, `the loss falls: first ${first}, last ${last}`);
  await page.waitForFunction(() => /% of 200/.test(document.querySelector('#s2s-test')?.textContent ?? ''));
  assert.equal(await page.locator('.s2s-by-length tbody tr').count(), 6, 'lengths 3..8');
  // The by-length chart has this run's line (and a hint to train another attention to compare).
  const chart = page.locator('[data-testid="s2s-length-chart"]');
  assert.equal(await chart.isVisible(), true);
  assert.equal(await chart.locator('.chart-legend li').count(), 1);
  assert.match(await chart.locator('.chart-legend').textContent(), /Bahdanau/);
  await chart.locator('details summary').click();
  // The table is filled on the <details> 'toggle' event, which the browser fires in a later task.
  await chart.locator('.chart-table tbody tr').first().waitFor();
  assert.equal(await chart.locator('.chart-table tbody tr').count(), 6, 'one row per length');

  // Decode: the step counter walks 0, 1, 2, ... and the heatmap has one row per step shown. A
  // MutationObserver records every step the view shows, with the heatmap's size at that moment
  // (each step is drawn in one task; the observer runs right after it), so no step can be missed.
  await page.evaluate(() => {
    window.__decodeSteps = [];
    const view = document.querySelector('.seq2seq');
    new MutationObserver(() => {
      const step = Number(view.dataset.decodeStep);
      if (window.__decodeSteps.at(-1)?.step === step) return;
      window.__decodeSteps.push({
        step,
        total: Number(view.dataset.decodeSteps),
        rows: document.querySelectorAll('[data-testid="s2s-alignment"] tbody tr').length,
        cols: document.querySelectorAll('[data-testid="s2s-alignment"] thead th[scope="col"]').length,
      });
    }).observe(view, { attributes: true, attributeFilter: ['data-decode-step'] });
  });
  await page.locator('#s2s-input').fill('40713');
  await view.getByRole('button', { name: 'Decode' }).click();
  // The animation ends when the last step is shown.
  await page.waitForFunction(() => {
    const last = window.__decodeSteps.at(-1);
    return last !== undefined && last.step === last.total;
  });
  const decoded = await page.evaluate(() => window.__decodeSteps);
  const total = decoded.at(-1).total;
  assert.ok(total >= 1);
  assert.deepEqual(
    decoded.map((s) => s.step),
    Array.from({ length: total + 1 }, (_, i) => i),
    'every step from 0 to the last is shown, in order',
  );
  for (const s of decoded.filter((s) => s.step > 0)) {
    assert.equal(s.rows, s.step, `one row per step shown (step ${s.step})`);
    assert.equal(s.cols, 5);
  }
  // Every row of the alignment sums to 1.
  const rows = await page
    .locator('[data-testid="s2s-alignment"] tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].reduce((s, td) => s + Number(td.dataset.value), 0)),
    );
  for (const sum of rows) assert.ok(Math.abs(sum - 1) < 1e-3, `row sum ${sum}`);

  // The alignment as links: one line per (output, input) pair ≥ 0.01, opacity weight / max.
  await page.locator('#s2s-mode-links').check();
  await page.waitForSelector('[data-testid="s2s-links"]:not([hidden]) svg line');
  assert.ok(await page.locator('[data-testid="s2s-alignment"]').isHidden(), 'the heatmap makes way');
  assertLinksMatch(await readLinks(page, 's2s-links', 's2s-alignment'), 0.01);
  await page.locator('#s2s-mode-heatmap').check();
  await page.waitForSelector('[data-testid="s2s-alignment"]:not([hidden])');
  assert.ok(await page.locator('[data-testid="s2s-links"]').isHidden());

  // Beam search and reduced motion: the final alignment at once, no animation.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.locator('#s2s-beam').selectOption('3');
  await view.getByRole('button', { name: 'Decode' }).click();
  await page.waitForFunction(() =>
    /Beam search \(width 3\)/.test(document.querySelector('.decode-status')?.textContent ?? ''),
  );
  const shown = await view.locator('.seq2seq').evaluate((e) => [e.dataset.decodeStep, e.dataset.decodeSteps]);
  assert.equal(shown[0], shown[1], 'reduced motion shows the last step immediately');
  assert.deepEqual(problems, []);
  await page.close();
});
