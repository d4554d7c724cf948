// The page in a second browser engine: Debian's firefox-esr, headless, over WebDriver BiDi
// (puppeteer-core). Every view and a lesson load without console errors, page errors or requests
// leaving the server, and the engine reports its GEMM kernel (relaxed-SIMD FMA or mul + add); a
// seeded Studio run gives the numbers the same run gives in Chromium (both browsers run it
// here, so nothing is compared against a stale record); an exercise is graded in the sandbox.
// Every wait is for a state (data-state attributes, the feedback's state), never for time.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { RELAXED_PROBE } from '../js/support/gemm_products.mjs';
import { openPage as openChromiumPage, startBrowser } from '../e2e/support/browser.mjs';
import { clickButton, openPage, READY, startFirefox } from './support/firefox.mjs';

let env;
before(async () => {
  env = await startFirefox();
});
after(async () => {
  await env?.close();
});

/** Each page and the state that shows it has drawn (the states accessibility.test.mjs waits for). */
const PAGES = [
  ['landing', 'index.html#/', '[data-testid="mini-lab"][data-state="ready"]'],
  ['lab', '#/lab', '[data-testid="heatmap-self-weights"] td'],
  ['studio', '#/studio', '.studio-data[data-state="loaded"]'],
  ['seq2seq', '#/seq2seq', '[data-testid="view-seq2seq"]:not([hidden])'],
  ['transformer', '#/transformer', '[data-testid="view-transformer"]:not([hidden])'],
  ['course map', 'course.html', '[data-testid="map-lesson-10"]'],
  ['lesson 4', 'course.html#lesson-4', '[data-testid="lesson-4"] .katex'],
];

const FMA = 'wasm relaxed-simd fma 4x8';
const MUL_ADD = 'wasm_simd128 4x8';

test('firefox: every view and a lesson load without errors', async (t) => {
  const version = await env.browser.version();
  t.diagnostic(`browser: ${version}`);
  assert.match(version, /^firefox\//);
  for (const [name, address, drawn] of PAGES) {
    const { page, problems } = await openPage(env, address);
    await page.waitForSelector(READY);
    await page.waitForSelector(drawn);
    const readyMs = await page.evaluate(() => window.attnEngineReadyMs);
    t.diagnostic(`${name}: engine ready ${Math.round(readyMs)} ms after navigation`);
    if (name === 'lab') {
      // What is drawn: the self-attention map's cells are shaded by weight (computed styles).
      const shades = await page.$$eval('[data-testid="heatmap-self-weights"] td', (cells) => [
        ...new Set(cells.map((c) => getComputedStyle(c).backgroundColor)),
      ]);
      assert.ok(shades.length >= 3, `the Lab's map is shaded: ${shades}`);
    }
    assert.deepEqual(problems, [], name);
    await page.close();
  }
});

test('firefox: the lesson renders its maths with KaTeX', async () => {
  const { page, problems } = await openPage(env, 'course.html#lesson-4');
  await page.waitForSelector(READY);
  await page.waitForSelector('[data-testid="lesson-4"] .katex');
  // What is drawn: KaTeX's HTML (its MathML twin keeps the TeX source for screen readers).
  const maths = await page.$$eval('[data-testid="lesson-4"] .katex-html', (nodes) =>
    nodes.map((n) => ({ text: n.textContent, height: n.getBoundingClientRect().height })),
  );
  assert.ok(maths.length >= 3, `${maths.length} formulas`);
  assert.ok(
    maths.every((m) => m.height > 0),
    'every formula is drawn',
  );
  assert.deepEqual(
    maths.filter((m) => m.text.includes('\\')).map((m) => m.text),
    [],
    'no raw TeX',
  );
  assert.equal(await page.$$eval('.katex-error', (nodes) => nodes.length), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('firefox: the engine reports the GEMM kernel it uses', async (t) => {
  // ?debug exposes the page's engine bridge as window.attnDebug.engine (engine_status.ts).
  const { page, problems } = await openPage(env, 'index.html?debug#/lab');
  await page.waitForSelector(READY);
  const kernel = await page.evaluate(() => window.attnDebug.engine.call('gemmImplementation'));
  const relaxed = await page.evaluate((probe) => WebAssembly.validate(new Uint8Array(probe)), [...RELAXED_PROBE]);
  t.diagnostic(`GEMM kernel in Firefox: ${kernel} (relaxed SIMD ${relaxed ? 'available' : 'not available'})`);
  assert.equal(kernel, relaxed ? FMA : MUL_ADD);
  assert.deepEqual(problems, []);
  await page.close();
});

// The Studio's run with its default model and recipe on the built-in corpus, seed and worker
// count fixed: a run is deterministic for both (settings.ts), so Firefox must show every number
// Chromium shows. Read in the page, the same way in both browsers.
const RUN = '#/studio?seed=1&workers=2';

function runEnded() {
  return ['finished', 'failed', 'diverged'].includes(document.querySelector('.train-panel')?.dataset.state);
}

async function readRun() {
  const tables = {};
  for (const id of ['chart-loss', 'chart-accuracy']) {
    const details = document.querySelector(`[data-testid="${id}"] details`);
    if (!details.open) {
      // The chart fills its table on 'toggle' (a listener added before this one).
      const toggled = new Promise((resolve) => details.addEventListener('toggle', resolve, { once: true }));
      details.open = true;
      await toggled;
    }
    tables[id] = [...details.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent));
  }
  const text = (selector) => document.querySelector(selector)?.textContent ?? null;
  return {
    state: document.querySelector('.train-panel')?.dataset.state,
    status: text('#train-status'),
    step: text('#train-step'),
    loss: text('#train-loss'),
    accuracy: text('#train-accuracy'),
    validation: text('#train-validation'),
    tables,
  };
}

async function chromiumRun() {
  const chromium = await startBrowser();
  try {
    const { page, problems } = await openChromiumPage(chromium, RUN);
    await page.waitForSelector(READY, { timeout: 180000 });
    await page.waitForSelector('.studio-data[data-state="loaded"]', { timeout: 180000 });
    await page.locator('#train-start').click();
    await page.waitForFunction(runEnded, null, { timeout: 0 });
    const run = await page.evaluate(readRun);
    assert.deepEqual(problems, [], 'chromium');
    return run;
  } finally {
    await chromium.close();
  }
}

test("firefox: a seeded Studio run gives Chromium's numbers", async (t) => {
  const { page, problems } = await openPage(env, RUN);
  await page.waitForSelector(READY);
  await page.waitForSelector('.studio-data[data-state="loaded"]');
  await page.waitForSelector('#train-start:enabled');
  await page.click('#train-start');
  await page.waitForFunction(runEnded, { timeout: 0 });
  const firefox = await page.evaluate(readRun);
  assert.deepEqual(problems, []);
  await page.close();
  t.diagnostic(`firefox: ${firefox.status} loss ${firefox.loss}, accuracy ${firefox.accuracy}`);
  assert.equal(firefox.state, 'finished', firefox.status);
  assert.match(firefox.status, /test accuracy \d+\.\d%/);
  assert.ok(firefox.tables['chart-loss'].length > 10, `${firefox.tables['chart-loss'].length} loss points`);

  const chromium = await chromiumRun();
  t.diagnostic(`chromium: ${chromium.status} loss ${chromium.loss}, accuracy ${chromium.accuracy}`);
  assert.deepEqual(firefox, chromium);
});

test('firefox: an exercise is graded in the sandbox — the starter fails, the solution passes', async () => {
  const { page, problems } = await openPage(env, 'course.html#lesson-4');
  await page.waitForSelector(READY);
  const exercise = '[data-testid="exercise-softmax"]';
  await page.waitForSelector(`${exercise} .cm-content`);
  // The feedback's state once the check has run, and its text.
  const check = async () => {
    await clickButton(page, exercise, 'Check');
    const done = await page.waitForFunction(
      (sel) => {
        const box = document.querySelector(`${sel} .feedback`);
        const state = box?.dataset.state;
        return state && state !== 'running' && { state, text: box.textContent };
      },
      {},
      exercise,
    );
    return done.jsonValue();
  };
  // The starter leaves out the max-subtraction: exp(927) overflows.
  const failed = await check();
  assert.equal(failed.state, 'fail', failed.text);
  assert.match(failed.text, /expected 0\.1192, got NaN/);
  assert.equal(await page.$eval(exercise, (e) => e.dataset.solved), 'false');
  await clickButton(page, exercise, 'Show the solution');
  await clickButton(page, exercise, 'Put the solution in the editor');
  const passed = await check();
  assert.equal(passed.state, 'pass', passed.text);
  assert.match(passed.text, /✓ All \d+ cases pass — the same results as the C\+\+ engine/);
  assert.equal(await page.$eval(exercise, (e) => e.dataset.solved), 'true');
  assert.deepEqual(problems, []);
  await page.close();
});
