// Accessibility and small screens, in Debian's Chromium: axe-core (the npm dev dependency,
// injected into each page, which is why this file's browser bypasses the pages' CSP) audits
// every view and a lesson and fails on any serious or critical violation, and on an empty table
// header; and at a phone's and a tablet's size no view scrolls sideways (wide maps scroll inside
// their own box).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { openPage, startBrowser } from './support/browser.mjs';
import { draftSaved, setCode } from './support/course.mjs';
import { coursePairs } from '../js/support/course_pairs.mjs';

const require = createRequire(import.meta.url);
const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

let env;

before(async () => {
  env = await startBrowser({ bypassCSP: true });
});
after(async () => {
  await env?.close();
});

const READY = '[data-testid="engine-status"][data-state="ready"]';

/** Each page and the state to wait for before judging it (what a learner sees once it settles). */
const PAGES = [
  ['home', '#/home', '[data-testid="mini-lab"][data-state="ready"]'],
  ['lab', '#/lab', '[data-testid="heatmap-self-weights"] td'],
  ['studio', '#/studio', '.studio-data[data-state="loaded"]'],
  ['seq2seq', '#/seq2seq', '[data-testid="view-seq2seq"]:not([hidden])'],
  ['transformer', '#/transformer', '[data-testid="view-transformer"]:not([hidden])'],
  ['course map', 'course.html', '[data-testid="map-lesson-10"]'],
  ['lesson 4', 'course.html#lesson-4', '[data-testid="lesson-4"] .katex'],
  ['lesson 11', 'course.html#lesson-11', '[data-testid="lesson-11"] .live-figure[data-state="ready"]'],
  ['lesson 12', 'course.html#lesson-12', '[data-testid="lesson-12"] .live-figure[data-state="ready"]'],
];

async function settle(page, selector) {
  await page.waitForSelector(READY, { timeout: 30000 });
  await page.waitForSelector(selector, { timeout: 30000 });
}

/** axe-core's serious and critical violations on the page (and empty table headers), as lines. */
async function audit(page, name) {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'empty-table-header')
    .map((v) => `${name}: ${v.id} [${v.impact}] ${v.nodes.slice(0, 4).join(' | ')}`);
}

test('axe-core: no serious or critical violation, and no empty table header, on any view or a lesson', async () => {
  const found = [];
  for (const [name, hash, selector] of PAGES) {
    for (const scheme of ['light', 'dark']) {
      const { page, problems } = await openPage(env, hash);
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page, selector);
      found.push(...(await audit(page, `${name} (${scheme})`)));
      assert.deepEqual(problems, [], `${name}: no console errors`);
      await page.close();
    }
  }
  assert.deepEqual(found, []);
});

test('axe-core: the landing view with its guided tour open, in both themes', async () => {
  const { page, problems } = await openPage(env, '#/home');
  await settle(page, '[data-testid="mini-lab"][data-state="ready"]');
  await page.getByRole('button', { name: 'Take the tour' }).click();
  await page.waitForSelector('[data-testid="tour"][open]');
  const found = [];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await audit(page, `tour (${scheme})`)));
  }
  assert.deepEqual(found, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe-core: the Studio after a short training run (charts, watched attention, explanation) in both themes', async () => {
  const { page, problems } = await openPage(env, '#/studio?embed=8&units=8&maxlen=64&words=2000&epochs=2');
  await settle(page, '.studio-data[data-state="loaded"]');
  await page.locator('#train-start').click();
  await page.waitForSelector('.train-panel[data-state="finished"]', { timeout: 120000 });
  const found = [];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await audit(page, `studio after training (${scheme})`)));
  }
  // The watched reviews as links (token buttons, lines, the summary) in both themes.
  await page.locator('#watched-mode-links').check();
  await page.waitForSelector('[data-testid="watched-links-0"]:not([hidden]) svg line');
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await audit(page, `studio watched reviews as links (${scheme})`)));
  }
  assert.deepEqual(found, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('axe-core: Seq2seq and Transformer after training (alignment, heads, line view) in both themes', async () => {
  const found = [];
  const seq2seq = await openPage(env, '#/seq2seq');
  await settle(seq2seq.page, '[data-testid="view-seq2seq"]:not([hidden])');
  await seq2seq.page.locator('#s2s-epochs').fill('1');
  await seq2seq.page
    .locator('[data-testid="view-seq2seq"]')
    .getByRole('button', { name: 'Train', exact: true })
    .click();
  await seq2seq.page.waitForSelector('.seq2seq[data-state="finished"]', { timeout: 120000 });
  await seq2seq.page.locator('[data-testid="view-seq2seq"]').getByRole('button', { name: 'Show all steps' }).waitFor();
  await seq2seq.page.locator('[data-testid="view-seq2seq"]').getByRole('button', { name: 'Decode' }).click();
  await seq2seq.page.waitForSelector('[data-testid="s2s-alignment"] td', { timeout: 30000 });
  const transformer = await openPage(env, '#/transformer');
  await settle(transformer.page, '[data-testid="view-transformer"]:not([hidden])');
  await transformer.page.locator('#tf-epochs').fill('1');
  await transformer.page
    .locator('[data-testid="view-transformer"]')
    .getByRole('button', { name: 'Train', exact: true })
    .click();
  await transformer.page.waitForSelector('.transformer[data-state="finished"]', { timeout: 120000 });
  await transformer.page.waitForSelector('[data-testid="tf-grid"] td', { timeout: 30000 });
  for (const [name, { page, problems }] of [
    ['seq2seq', seq2seq],
    ['transformer', transformer],
  ]) {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      found.push(...(await audit(page, `${name} after training (${scheme})`)));
    }
    if (name === 'seq2seq') {
      await page.locator('#s2s-mode-links').check();
      await page.waitForSelector('[data-testid="s2s-links"]:not([hidden]) svg line');
      found.push(...(await audit(page, 'seq2seq alignment as links')));
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
  assert.deepEqual(found, []);
});

test('small screens: at 390×844 and 820×1180 no view scrolls horizontally', async () => {
  const wide = [];
  for (const [width, height] of [
    [390, 844],
    [820, 1180],
  ]) {
    for (const [name, hash, selector] of PAGES) {
      const { page, problems } = await openPage(env, hash);
      await page.setViewportSize({ width, height });
      await settle(page, selector);
      const size = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
        widest: [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(0, 3)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
      }));
      if (size.scroll > size.inner) wide.push(`${name} at ${width}: ${size.scroll} > ${size.inner} (${size.widest})`);
      assert.deepEqual(problems, [], `${name}: no console errors`);
      await page.close();
    }
  }
  assert.deepEqual(wide, []);
});

test('small screens: the header takes at most a fifth of a phone screen', async () => {
  const { page } = await openPage(env, '#/lab');
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page, '[data-testid="heatmap-self-weights"] td');
  const height = await page.locator('.app-header').evaluate((h) => h.getBoundingClientRect().height);
  assert.ok(height <= 844 / 5, `header height ${height}px at 390×844`);
  await page.close();
});

test('axe-core: lesson 12 after training its translator (metrics, tables, alignment), in both themes and on a phone', async () => {
  const pairs = '**/data/pairs-en-fr.tsv';
  await env.context.route(pairs, (route) =>
    route.fulfill({ status: 200, contentType: 'text/tab-separated-values', body: coursePairs() }),
  );
  try {
    const { page, problems } = await openPage(env, 'course.html?s2s-quick#lesson-12');
    await settle(page, '[data-testid="lesson-12"] .live-figure[data-state="ready"]');
    await page.locator('[data-testid="mt-en-fr"]').getByRole('button', { name: 'Train the translator' }).click();
    await page.waitForSelector('[data-testid="mt-en-fr"] .s2s-translate[data-state="translated"]', { timeout: 120000 });
    const found = [];
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      found.push(...(await audit(page, `lesson 12 trained (${scheme})`)));
    }
    assert.deepEqual(found, []);
    await page.setViewportSize({ width: 390, height: 844 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= 390, `lesson 12 trained at 390: page ${scroll} px wide`);
    // Its tables fit the phone too: nothing scrolls inside the report.
    const report = await page
      .locator('[data-testid="mt-report"]')
      .evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    assert.ok(report.scroll <= report.client, `the report is ${report.scroll} px wide in ${report.client}`);
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await env.context.unroute(pairs);
  }
});

test('axe-core: lesson 11 after its two in-model exercises ran (the mask table and map, the cross-attention maps and table), in both themes and on a phone', async () => {
  const { page, problems } = await openPage(env, 'course.html?s2s-quick#lesson-11');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await settle(page, '[data-testid="lesson-11"] .live-figure[data-state="ready"]');
  // The mask: both models, then the learner's draft (the starter: the causal mask of one sentence).
  const mask = page.locator('[data-testid="mask-reversal"]');
  await mask.getByRole('button', { name: 'Train with and without the mask' }).click();
  await page.waitForSelector('[data-testid="mask-reversal"][data-state="trained"]', { timeout: 240000 });
  await mask.getByRole('button', { name: 'Train with my decoderMask' }).click();
  await page.waitForSelector('[data-testid="mask-reversal"][data-state="done"]', { timeout: 240000 });
  // The cross-attention with the solution (the starter's output is not usable).
  const cross = page.locator('[data-testid="cross-reversal"]');
  await cross.getByRole('button', { name: 'Train the Transformer' }).click();
  await page.waitForSelector('[data-testid="cross-reversal"][data-state="trained"]', { timeout: 240000 });
  const exercise = page.locator('[data-testid="exercise-cross_attention"]');
  await exercise.getByRole('button', { name: 'Show the solution' }).click();
  await setCode(page, 'cross_attention', await exercise.locator('.solution pre').textContent());
  await draftSaved(page, 'cross_attention', 'Math.sqrt(dk)');
  await cross.getByRole('button', { name: 'Decode with my crossAttention' }).click();
  await page.waitForSelector('[data-testid="cross-reversal"][data-state="done"]', { timeout: 240000 });
  await cross.locator('[data-testid="cross-your-map"] tbody td').first().waitFor();
  const found = [];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await audit(page, `lesson 11 in-model exercises (${scheme})`)));
  }
  assert.deepEqual(found, []);
  await page.setViewportSize({ width: 390, height: 844 });
  const size = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    // Elements past the screen's edge that no scrolling or clipping box of theirs holds in.
    widest: [...document.querySelectorAll('body *')]
      .filter((e) => {
        if (e.getBoundingClientRect().right <= window.innerWidth + 1) return false;
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
          if (getComputedStyle(a).overflowX !== 'visible') return false;
        }
        return true;
      })
      .slice(0, 4)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
  }));
  assert.ok(size.scroll <= 390, `lesson 11 at 390 after the runs: page ${size.scroll} px wide (${size.widest})`);
  // The panels fit the phone: neither panel nor its results scroll sideways.
  const parts = {
    'the mask panel': mask,
    'the cross-attention panel': cross,
    'the mask table': mask.locator('.mask-runs'),
    'the cross-attention results': cross.locator('.cross-results'),
  };
  for (const [name, part] of Object.entries(parts)) {
    const box = await part.evaluate((e) => ({
      scroll: e.scrollWidth,
      client: e.clientWidth,
      right: Math.round(e.getBoundingClientRect().right),
    }));
    assert.ok(box.scroll <= box.client && box.right <= 390, `${name} at 390: ${JSON.stringify(box)}`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
