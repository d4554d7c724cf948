// What a learner sees first (issue 25), checked by what is drawn — computed styles and bounding
// boxes — not only the DOM's data: the explanation's tokens shaded by their weight, the Studio's
// data and recipe next to Train, only the chosen source's inputs, readouts cleared as a run
// starts, a file without a test set, whole-number chart ticks, the Lab's results beside its
// inputs with a hover readout that moves nothing, and the phone: the header's every destination
// on screen, 44 px tap targets, no focus ring on a tapped route change. Every wait is on a state.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, startBrowser } from './support/browser.mjs';
import { openStudio, SMALL, waitForTrainState } from './support/studio.mjs';

let env;
before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

const box = (page, selector) =>
  page
    .locator(selector)
    .first()
    .evaluate((e) => e.getBoundingClientRect().toJSON());

test('studio ux: the data and recipe next to Train; only the chosen source’s inputs', async () => {
  const { page, problems } = await openStudio(env, '#/studio');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.waitForFunction(() =>
    /^Data: the built-in corpus — \d+ training reviews/.test(document.querySelector('#train-data')?.textContent),
  );
  assert.match(
    await page.locator('#train-recipe').textContent(),
    /^Recipe: Built-in corpus — Bidirectional LSTM, attention pooling, \d+ epochs/,
  );
  // Above the fold, beside Train.
  const train = await box(page, '#train-start');
  for (const selector of ['#train-data', '#train-recipe']) {
    const b = await box(page, selector);
    assert.ok(b.bottom <= 900 && b.height > 0, `${selector} on screen (bottom ${b.bottom})`);
    assert.ok(Math.abs(b.top - train.top) < 200, `${selector} near Train (${b.top} vs ${train.top})`);
  }
  // The built-in corpus has no inputs of its own: no file pickers, no generator fields, no Load.
  for (const selector of ['#data-upload', '#data-folder', '#data-drop', '#data-count', '#split-percent', '#data-load'])
    assert.equal(await page.locator(selector).isVisible(), false, `${selector} hidden for the built-in corpus`);
  await page.locator('#data-synthetic').check();
  await page.locator('#data-count').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#data-drop').isVisible(), false);
  assert.equal(await page.locator('#data-load').isVisible(), true);
  await page.locator('#data-file').check();
  await page.locator('#data-drop').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#data-count').isVisible(), false);
  assert.equal(await page.locator('#split-percent').isVisible(), true);
  // The model settings are not pushed down by the statistics (they come after them).
  await page.locator('#data-builtin').check();
  await page.waitForSelector('.studio-data[data-state="loaded"]');
  const epochs = await box(page, '#set-epochs');
  const stats = await box(page, '#data-stats');
  assert.ok(epochs.bottom < stats.top, `settings (${epochs.bottom}) above the statistics (${stats.top})`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio ux: tokens shaded by weight; readouts cleared on start; whole-number ticks; the validation named', async () => {
  const { page, problems } = await openStudio(env, SMALL);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForTrainState(page, ['finished', 'failed', 'diverged']), 'finished');
  assert.match(await page.locator('#train-status').textContent(), /^(Finished 2 epochs|Stopped early)/);
  assert.match(
    await page.locator('.train-readout').textContent(),
    /Validation \(a random 10% of the training reviews\)/,
  );
  assert.match(await page.locator('#validation-note').textContent(), /Expect the test figure to be a little lower/);
  // The accuracy chart's x ticks are whole steps.
  // The x tick labels (the axis names 'Step' and 'Accuracy' are middle-anchored too).
  const ticks = (
    await page.locator('[data-testid="chart-accuracy"] svg text[text-anchor="middle"]').allTextContents()
  ).filter((t) => t !== 'Step' && t !== 'Accuracy');
  assert.ok(ticks.length >= 2, ticks.join(' '));
  assert.ok(
    ticks.every((t) => /^\d+$/.test(t)),
    `x ticks ${ticks.join(' ')}`,
  );

  // Explain a prediction: each token's background is its weight's tint (not white), and differs with it.
  await page.waitForSelector('[data-testid="explain-panel"][data-state="ready"]');
  const text = page.locator('#predict-text');
  await text.fill('the acting was not good but the music was wonderful');
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-testid="explain-tokens"] .token')].map((t) => t.textContent).join(' ') ===
      '<start> the acting was not good but the music was wonderful',
  );
  const drawn = await page.locator('[data-testid="explain-tokens"] .token').evaluateAll((tokens) =>
    tokens.map((t) => ({
      weight: Number(getComputedStyle(t).getPropertyValue('--weight')),
      background: getComputedStyle(t).backgroundColor,
      font: getComputedStyle(t).fontFamily,
    })),
  );
  const heaviest = drawn.reduce((a, b) => (b.weight > a.weight ? b : a));
  const lightest = drawn.reduce((a, b) => (b.weight < a.weight ? b : a));
  assert.ok(heaviest.weight > lightest.weight, `weights differ: ${JSON.stringify(drawn)}`);
  assert.notEqual(heaviest.background, 'rgba(0, 0, 0, 0)', 'the heaviest token is tinted');
  assert.notEqual(heaviest.background, lightest.background, 'the tint follows the weight');
  const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  assert.ok(
    drawn.every((d) => d.font === bodyFont),
    `tokens in the page's font, not the Seq2seq monospace: ${drawn[0].font}`,
  );

  // A second run: the moment it starts, the readouts and charts no longer show the first run's numbers.
  await page.evaluate(() => {
    const panel = document.querySelector('.train-panel');
    window.readoutsAtPreparing = null;
    new MutationObserver((_, observer) => {
      if (panel.dataset.state !== 'preparing') return;
      window.readoutsAtPreparing = {
        validation: document.querySelector('#train-validation').textContent,
        step: document.querySelector('#train-step').textContent,
        points: document.querySelector('[data-testid="chart-loss"]').dataset.points,
      };
      observer.disconnect();
    }).observe(panel, { attributes: true, attributeFilter: ['data-state'] });
  });
  assert.notEqual(await page.locator('#train-validation').textContent(), '');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForFunction(() => window.readoutsAtPreparing !== null);
  assert.deepEqual(await page.evaluate(() => window.readoutsAtPreparing), { validation: '', step: '', points: '0' });
  assert.equal(await waitForTrainState(page, ['finished', 'failed', 'diverged']), 'finished');
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio ux: a file without a test set trains but reports no test figure, and says why', async () => {
  const { page, problems } = await openStudio(env, SMALL);
  const rows = ['review,sentiment', '"a fine, warm film",positive', 'dull and boring,negative'];
  await page
    .locator('#data-upload')
    .setInputFiles({ name: 'two.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n') + '\n') });
  await page.waitForFunction(() => document.querySelector('#train-data')?.textContent.startsWith('Data: two.csv'));
  assert.match(
    await page.locator('#train-data').textContent(),
    /0 test reviews\. No test set: .* Load at least 5 reviews of each class/,
  );
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForTrainState(page, ['finished', 'failed', 'diverged']), 'finished');
  const status = await page.locator('#train-status').textContent();
  assert.match(status, /; no test accuracy: the data has no test set/);
  assert.doesNotMatch(status, /test accuracy \d/i);
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio ux: a binary file read as CSV is "not a text file", with none of its bytes', async () => {
  const { page, problems } = await openStudio(env, SMALL);
  const bytes = Buffer.alloc(600);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) % 256;
  await page.locator('#data-upload').setInputFiles({ name: 'photo.csv', mimeType: 'text/csv', buffer: bytes });
  await page.waitForSelector('.studio-data[data-state="failed"]');
  const error = await page.locator('#data-error').textContent();
  assert.match(error, /^Could not load the data: photo\.csv: this is not a text file/);
  assert.ok(/^[\x20-\x7e—–’]*$/.test(error), `plain text only: ${JSON.stringify(error)}`);
  assert.ok(error.length < 260, error);
  assert.deepEqual(problems, []);
  await page.close();
});

test('lab ux: at 1366×900 the first results sit beside the inputs; a hovered cell moves nothing', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.waitForSelector('[data-testid="heatmap-scores"] td');
  await page.waitForSelector('[data-testid="heatmap-self-weights"] td');
  for (const id of ['heatmap-scores', 'heatmap-weights']) {
    const b = await box(page, `[data-testid="${id}"]`);
    assert.ok(b.top >= 0 && b.bottom <= 900, `${id} on the first screen (${b.top}–${b.bottom})`);
  }
  const kind = await box(page, '#lab-kind');
  assert.ok(kind.bottom <= 900, 'the scoring function too');
  // Hover: the readout appears and nothing below it moves.
  const before = await box(page, '.lab-workbench + *');
  const controls = await box(page, '#lab-temperature');
  await page.locator('[data-testid="heatmap-weighted"] td').nth(4).hover();
  await page.waitForSelector('[data-testid="heatmap-weighted-explain"] p', { state: 'visible' });
  assert.deepEqual(await box(page, '.lab-workbench + *'), before);
  assert.deepEqual(await box(page, '#lab-temperature'), controls);
  assert.deepEqual(problems, []);
  await page.close();
});

test('phone ux: at 390×844 every header destination is on screen and whole; tap targets are 44 px', async () => {
  const { page, problems } = await openPage(env, '#/studio');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 30000 });
  for (const route of ['lab', 'studio', 'seq2seq', 'transformer']) {
    await page.goto(`${env.baseUrl}#/${route}`);
    await page.waitForSelector(`[data-testid="view-${route}"]:not([hidden])`);
    const links = await page.locator('.app-header nav a, .app-header .brand').evaluateAll((as) =>
      as.map((a) => {
        const r = a.getBoundingClientRect();
        return {
          name: a.textContent,
          current: a.getAttribute('aria-current') === 'page',
          left: r.left,
          right: r.right,
          width: r.width,
          height: r.height,
          clipped: a.scrollWidth > a.clientWidth + 1,
        };
      }),
    );
    assert.equal(links.length, 6);
    for (const l of links) {
      assert.ok(l.left >= 0 && l.right <= 390, `${route}: ${l.name} on screen (${l.left}–${l.right})`);
      assert.ok(!l.clipped, `${route}: ${l.name} not clipped`);
      assert.ok(l.height >= 44 && l.width >= 44, `${route}: ${l.name} is ${l.width}×${l.height}`);
    }
    assert.equal(links.filter((l) => l.current).length, 1, `${route}: the current tab is marked`);
    // Every button, field, select and link button of the view: at least 44×44 (a checkbox or
    // radio with its label).
    const small = await page.locator(`[data-testid="view-${route}"]`).evaluate((view) => {
      const out = [];
      for (const e of view.querySelectorAll('button, input, select, textarea, a.button, [role="tab"]')) {
        if (e.type === 'hidden' || e.getClientRects().length === 0) continue;
        const rects = [e.getBoundingClientRect()];
        if (e.type === 'checkbox' || e.type === 'radio')
          for (const l of e.labels ?? []) rects.push(l.getBoundingClientRect());
        const left = Math.min(...rects.map((r) => r.left));
        const right = Math.max(...rects.map((r) => r.right));
        const top = Math.min(...rects.map((r) => r.top));
        const bottom = Math.max(...rects.map((r) => r.bottom));
        if (right - left < 43.5 || bottom - top < 43.5)
          out.push(
            `${e.tagName.toLowerCase()}#${e.id || e.textContent.trim().slice(0, 20)} ${Math.round(right - left)}×${Math.round(bottom - top)}`,
          );
      }
      return out;
    });
    assert.deepEqual(small, [], `${route}: targets under 44 px`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('phone ux: at 390×844 the training readouts show their values beside their labels, inside the panel', async () => {
  // The readout grid gave its label column the longest label's width ("Validation (a random 10%
  // of the training reviews)", 399 px) and pushed the values outside the 332 px panel, where the
  // panel's paint containment hid them: a phone showed "Step" and blank space.
  const { page, problems } = await openPage(env, '#/studio');
  await page.setViewportSize({ width: 390, height: 844 });
  for (const route of ['studio', 'transformer', 'seq2seq']) {
    await page.goto(`${env.baseUrl}#/${route}`);
    await page.waitForSelector(`[data-testid="view-${route}"]:not([hidden])`);
    const rows = await page.locator(`[data-testid="view-${route}"] .train-readout`).evaluateAll((dls) =>
      dls.flatMap((dl) => {
        const panel = dl.getBoundingClientRect().toJSON();
        return [...dl.querySelectorAll('dd')].map((dd) => {
          const r = dd.getBoundingClientRect();
          return { label: dd.previousElementSibling?.textContent, left: r.left, right: r.right, width: r.width, panel };
        });
      }),
    );
    assert.ok(rows.length > 0, `${route} has readouts`);
    for (const r of rows) {
      assert.ok(
        r.left >= r.panel.left && r.right <= r.panel.right + 0.5,
        `${route}: ${r.label}'s value inside (${r.left}–${r.right})`,
      );
      assert.ok(r.width >= 0.4 * r.panel.width, `${route}: ${r.label}'s value ${r.width} px of ${r.panel.width}`);
    }
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('phone ux: a tapped route change focuses the heading without a ring; a key press shows it', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForSelector('[data-testid="view-lab"]');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  const link = await box(page, '.app-header nav a[href^="#/studio"]');
  const point = { x: link.left + link.width / 2, y: link.top + link.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.waitForFunction(() => document.activeElement?.closest('[data-testid="view-studio"]') !== null);
  const ring = () => page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'H2');
  assert.equal(await ring(), 'none', 'no ring after a tap');
  // By keyboard: the heading shows where focus went.
  await page.locator('.app-header nav a[href^="#/lab"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.closest('[data-testid="view-lab"]') !== null);
  assert.equal(await ring(), 'solid', 'a ring after a key press');
  assert.deepEqual(problems, []);
  await page.close();
});
