// Browser tests of the app shell (routes, nav, theme, keyboard) and of the Attention Lab's
// experiments, cell explanations and exports, in Debian's Chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPage, startBrowser } from './support/browser.mjs';
import { VIEWS } from './support/views.mjs';

let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

async function labReady(page) {
  await page.waitForFunction(
    () =>
      document.querySelectorAll('[data-testid="heatmap-self-weights"] td').length > 0 &&
      document.querySelector('[data-testid="unscaled-entropy"]') !== null &&
      document.querySelectorAll('[data-testid="heatmap-scores"] td').length > 0,
    null,
    { timeout: 15000 },
  );
}

async function values(page, testId) {
  return page.locator(`[data-testid="${testId}"] td`).evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
}

test('shell: every route loads from the nav with no console errors; back and forward move between views', async () => {
  const { page, problems } = await openPage(env);
  await page.waitForSelector('[data-testid="view-home"]:not([hidden])');
  assert.match(page.url(), /#\/home$/, 'an empty hash goes to the start page');
  for (const [id, title] of VIEWS) {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: title, exact: true }).click();
    await page.waitForSelector(`[data-testid="view-${id}"]:not([hidden])`);
    assert.match(page.url(), new RegExp(`#/${id}`));
    assert.equal(await page.locator('nav a[aria-current="page"]').textContent(), title);
    assert.equal(await page.locator('section[data-testid^="view-"]:not([hidden])').count(), 1, 'one view at a time');
    assert.match(await page.title(), new RegExp(title));
  }
  assert.match(await page.locator('[data-testid="view-transformer"]').textContent(), /Self-attention of the sentence/);
  assert.match(await page.locator('[data-testid="view-seq2seq"]').textContent(), /Decode an input/);
  assert.match(await page.locator('[data-testid="view-studio"]').textContent(), /Train a sentiment model/);
  await page.goBack();
  await page.waitForSelector('[data-testid="view-seq2seq"]:not([hidden])');
  await page.goBack();
  await page.waitForSelector('[data-testid="view-studio"]:not([hidden])');
  await page.goForward();
  await page.waitForSelector('[data-testid="view-seq2seq"]:not([hidden])');
  assert.ok(await page.locator('[data-testid="view-studio"]').isHidden());
  // Each route also loads on its own (a fresh page on that link).
  for (const [id] of VIEWS) {
    const { page: direct, problems: directProblems } = await openPage(env, `#/${id}`);
    await direct.waitForSelector(`[data-testid="view-${id}"]:not([hidden])`);
    await direct.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 15000 });
    assert.deepEqual(directProblems, []);
    await direct.close();
  }
  const { page: unknown } = await openPage(env, '#/nowhere');
  await unknown.waitForSelector('[data-testid="view-not-found"]:not([hidden])');
  assert.match(await unknown.locator('[data-testid="view-not-found"]').textContent(), /no view called “nowhere”/);
  await unknown.close();
  assert.deepEqual(problems, []);
  await page.close();
});

test('shell: a link reproduces the lab, including the experiments; the old #lab? links redirect', async () => {
  const link = '#/lab?kind=cosine&temp=2&s=1,2&h=1,0;0,1&mask=11&seed=3&dk=512&n=5&valid=4&causal=1&sample=7';
  const { page, problems } = await openPage(env, link);
  await labReady(page);
  assert.equal(await page.locator('#lab-kind').inputValue(), 'cosine');
  assert.equal(await page.locator('#lab-length').inputValue(), '5');
  assert.equal(await page.locator('#lab-valid').inputValue(), '4');
  assert.ok(await page.locator('#lab-causal').isChecked());
  assert.match(await page.locator('output[for="lab-dk"]').textContent(), /d_k = 512/);
  // cosine(s, h1) = 1/√5 = 0.447, cosine(s, h2) = 2/√5 = 0.894.
  assert.deepEqual(await page.locator('[data-testid="heatmap-scores"] td').allTextContents(), ['0.447', '0.894']);
  assert.equal((await values(page, 'heatmap-self-weights')).length, 25);
  // Editing keeps the route and puts the new state in the URL.
  await page.locator('#lab-causal').uncheck();
  await page.waitForFunction(() => location.hash.includes('causal=0'));
  assert.match(page.url(), /#\/lab\?.*kind=cosine/);
  // Away and back through the nav: the lab is as it was left.
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('link', { name: 'Sentiment Studio' }).click();
  await page.waitForSelector('[data-testid="view-studio"]:not([hidden])');
  await nav.getByRole('link', { name: 'Attention Lab' }).click();
  await page.waitForSelector('[data-testid="view-lab"]:not([hidden])');
  assert.match(page.url(), /#\/lab\?.*kind=cosine.*causal=0/);
  assert.equal(await page.locator('#lab-kind').inputValue(), 'cosine');

  const { page: old } = await openPage(env, '#lab?kind=scaled_dot&temp=0.5&s=1,2&h=1,0;0,1;1,1&mask=111');
  await old.waitForFunction(() => location.hash.startsWith('#/lab?'));
  await labReady(old);
  assert.match(old.url(), /kind=scaled_dot/);
  assert.deepEqual(await old.locator('[data-testid="heatmap-scores"] td').allTextContents(), [
    '0.707',
    '1.414',
    '2.121',
  ]);
  assert.deepEqual(problems, []);
  await page.close();
  await old.close();
});

test('lab: without 1/√d_k softmax saturates as d_k grows; with it the weights stay spread', async () => {
  const { page, problems } = await openPage(env, '#/lab?sample=1');
  await labReady(page);
  const metrics = async (dk) => {
    await page.locator('#lab-dk').fill(String(Math.log2(dk)));
    await page.waitForFunction(
      (want) => document.querySelector('output[for="lab-dk"]')?.textContent === `d_k = ${want}`,
      dk,
    );
    await page.waitForFunction(
      (want) =>
        document.querySelector('[data-testid="experiment-metrics"] caption')?.textContent?.startsWith(`d_k = ${want};`),
      dk,
    );
    const read = (id) => page.locator(`[data-testid="${id}"]`).evaluate((td) => Number(td.dataset.value));
    return {
      unscaledEntropy: await read('unscaled-entropy'),
      unscaledMax: await read('unscaled-max'),
      scaledEntropy: await read('scaled-entropy'),
      scaledMax: await read('scaled-max'),
    };
  };
  const small = await metrics(1);
  const large = await metrics(512);
  // At d_k = 1 the scale is 1: both are the same softmax.
  assert.ok(Math.abs(small.unscaledEntropy - small.scaledEntropy) < 1e-6);
  // At d_k = 512 the unscaled scores have a standard deviation of √512 ≈ 23: one key takes it all.
  assert.ok(large.unscaledMax > 0.99, `unscaled max weight at d_k=512: ${large.unscaledMax}`);
  assert.ok(large.unscaledEntropy < 0.05, `unscaled entropy at d_k=512: ${large.unscaledEntropy}`);
  assert.ok(large.unscaledEntropy < small.unscaledEntropy - 1);
  // Scaled: the spread of the scores does not grow, so the entropy stays near its d_k = 1 size.
  assert.ok(large.scaledEntropy > 1, `scaled entropy at d_k=512: ${large.scaledEntropy}`);
  assert.ok(large.scaledMax < 0.6);
  assert.match(page.url(), /dk=512/);
  // The sweep table covers 1..512 and exports as CSV.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export the sweep as CSV' }).click(),
  ]);
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.trim().split(/\r\n/);
  assert.equal(lines[0], 'd_k,unscaled max weight,unscaled entropy,scaled max weight,scaled entropy');
  assert.equal(lines.length, 11);
  assert.deepEqual(
    lines.slice(1).map((l) => Number(l.split(',')[0])),
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('lab: the causal mask zeroes the upper triangle; padding zeroes the padded keys', async () => {
  const { page, problems } = await openPage(env, '#/lab?n=6&valid=6&causal=0');
  await labReady(page);
  const n = 6;
  const upper = (w) => w.filter((_, i) => i % n > Math.floor(i / n));
  let weights = await values(page, 'heatmap-self-weights');
  assert.ok(
    upper(weights).some((w) => w > 0.01),
    'without the mask, later tokens get weight',
  );
  await page.getByLabel('Causal mask').check();
  await page.waitForFunction(() => location.hash.includes('causal=1'));
  await page.waitForFunction((n) => {
    const cells = [...document.querySelectorAll('[data-testid="heatmap-self-weights"] td')];
    return cells.length === n * n && cells.every((c, i) => i % n <= Math.floor(i / n) || Number(c.dataset.value) === 0);
  }, n);
  weights = await values(page, 'heatmap-self-weights');
  assert.ok(upper(weights).every((w) => w === 0));
  assert.equal(weights[0], 1, 'the first token can only attend to itself');
  for (let r = 0; r < n; r++) {
    const sum = weights.slice(r * n, (r + 1) * n).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5, `row ${r} sums to 1`);
  }
  // Padding: only 4 real tokens; keys 5 and 6 get nothing in any row.
  await page.locator('#lab-valid').fill('4');
  await page.locator('#lab-valid').dispatchEvent('change');
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="heatmap-self-weights"] th[scope="col"]')[4]?.textContent === 'pad5',
  );
  weights = await values(page, 'heatmap-self-weights');
  assert.ok(weights.every((w, i) => i % n < 4 || w === 0));
  assert.deepEqual(problems, []);
  await page.close();
});

test('lab: hovering or focusing a cell shows its formula with the numbers of the table', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await labReady(page);
  const weights = page.locator('[data-testid="heatmap-weights"]');
  await weights.locator('td').first().hover();
  const explain = page.locator('[data-testid="heatmap-weights-explain"]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="heatmap-weights-explain"]')?.textContent.length > 0,
  );
  const text = await explain.textContent();
  // Course example: scores 927 and 929 are visible with h2, h3 near 0; α1 = e^(−2) / (1 + e^(−2) + …) = 0.119.
  assert.match(text, /score\(s, h1\) = sᵀh1 = 5×3 \+ 1×12 \+ 20×45 = 927\.0/);
  assert.match(text, /numerator e\^\(\(927\.0 − 929\.0\) \/ 1\) = 0\.135/);
  assert.match(text, /denominator .* = 1\.135/);
  assert.match(text, /weight α1 = 0\.135 \/ 1\.135 = 0\.119/);
  assert.equal(await weights.locator('td').first().textContent(), '0.119');
  assert.match(text, /contribution to the context α1 h1 = 0\.119 × \[3, 12, 45\] = \[0\.358, 1\.430, 5\.364\]/);
  const weightedRow = await page
    .locator('[data-testid="heatmap-weighted"] tbody tr')
    .first()
    .locator('td')
    .allTextContents();
  assert.deepEqual(weightedRow, ['0.358', '1.430', '5.364']);

  // Keyboard: focus the self-attention grid and move right; the explanation follows the focus.
  // (The mouse leaves the page first: after the hover above, a layout shift can leave it over a
  // self-attention cell, whose hover would move the explanation.)
  await page.mouse.move(0, 0);
  const grid = page.locator('[data-testid="heatmap-self-weights"]');
  await grid.locator('tbody tr').first().locator('td').first().focus();
  assert.equal(await grid.getAttribute('data-explained'), '0,0');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.equal(await grid.getAttribute('data-explained'), '1,1');
  const focused = await page.evaluate(() => document.activeElement?.textContent);
  assert.equal(focused, await grid.locator('tbody tr').nth(1).locator('td').nth(1).textContent());
  const selfText = await page.locator('[data-testid="heatmap-self-weights-explain"]').textContent();
  assert.match(selfText, /q2·k2 = .* = -?\d/);
  assert.match(selfText, /scale 1\/√d_k = 1\/√4 = 0\.500/);
  const m = selfText.match(/weight = ([\d.e-]+) \/ ([\d.e-]+) = ([\d.e-]+)/);
  assert.ok(m, selfText);
  assert.equal(m[3], focused, 'the weight in the formula is the one in the table');
  assert.ok(Math.abs(Number(m[1]) / Number(m[2]) - Number(m[3])) < 0.002, 'numerator / denominator = weight');
  assert.equal(await grid.locator('td[tabindex="0"]').count(), 1, 'one tab stop per grid');
  assert.deepEqual(problems, []);
  await page.close();
});

test('export: a heatmap downloads as a valid PNG and SVG, and as CSV', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await labReady(page);
  const figure = page.locator('[data-testid="heatmap-weights"]');
  const save = async (format) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      figure.getByRole('button', { name: `Export “Weights: softmax(scores / τ)” as ${format}` }).click(),
    ]);
    return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
  };
  const png = await save('PNG');
  assert.equal(png.name, 'weights-softmax-scores.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.bytes.toString('latin1', 12, 16), 'IHDR');
  // Layout of a 1 × 4 map: width max(64 + 4·48 + 16, 280) = 280, height 56 + 48 + 52 = 156, drawn at 2×.
  assert.equal(png.bytes.readUInt32BE(16), 560);
  assert.equal(png.bytes.readUInt32BE(20), 312);

  const svg = await save('SVG');
  assert.equal(svg.name, 'weights-softmax-scores.svg');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      cells: [...doc.querySelectorAll('rect.cell')].map((r) => Number(r.getAttribute('data-value'))),
      rects: doc.querySelectorAll('rect').length,
      title: doc.querySelector('title')?.textContent,
    };
  }, svg.bytes.toString('utf8'));
  assert.equal(parsed.error, null);
  assert.equal(parsed.root, 'svg');
  assert.equal(parsed.cells.length, 4);
  assert.deepEqual(parsed.cells, await values(page, 'heatmap-weights'));
  assert.equal(parsed.rects, 1 + 4 + 32, 'background, 4 cells, 32 legend steps');
  assert.equal(parsed.title, 'Weights: softmax(scores / τ)');

  const csv = await save('CSV');
  const lines = csv.bytes.toString('utf8').trim().split(/\r\n/);
  assert.equal(lines[0], ',h1,h2,h3,h4');
  assert.match(lines[1], /^α,0\.11920\d*,0,0,0\.8807\d*/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a11y: Tab reaches the nav, the theme toggle and the main controls; reduced motion is honoured', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await labReady(page);
  const reached = new Set();
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    reached.add(
      await page.evaluate(() => {
        const a = document.activeElement;
        return a?.id || a?.getAttribute('aria-label') || a?.textContent?.trim().slice(0, 30) || a?.tagName;
      }),
    );
  }
  for (const want of [
    'Attention Lab',
    'Sentiment Studio',
    'Course',
    'Dark theme',
    'lab-kind',
    'lab-temperature',
    'lab-dk',
    'lab-sample',
    'lab-length',
    'lab-valid',
    'lab-causal',
  ]) {
    assert.ok(reached.has(want), `Tab reaches ${want}; reached: ${[...reached].join(' | ')}`);
  }
  // Every form control has a label.
  const unlabelled = await page.evaluate(
    () =>
      [...document.querySelectorAll('input, select, button')].filter(
        (c) => !c.labels?.length && !c.getAttribute('aria-label') && !c.textContent.trim(),
      ).length,
  );
  assert.equal(unlabelled, 0);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const duration = await page
    .locator('[data-testid="heatmap-scores"] td')
    .first()
    .evaluate((td) => getComputedStyle(td).transitionDuration);
  assert.ok(parseFloat(duration) < 0.001, `transition with reduced motion: ${duration}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('theme: the toggle switches to dark and the choice survives a reload', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.emulateMedia({ colorScheme: 'light' });
  await labReady(page);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(await background(), 'rgb(251, 251, 253)');
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await background(), 'rgb(21, 22, 26)');
  await page.reload();
  await labReady(page);
  assert.equal(await background(), 'rgb(21, 22, 26)');
  assert.equal(await page.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed'), 'true');
  await page.getByRole('button', { name: 'Dark theme' }).click();
  assert.equal(await background(), 'rgb(251, 251, 253)');
  await page.evaluate(() => localStorage.clear());
  assert.deepEqual(problems, []);
  await page.close();
});

test('lab: learnable parameters are matrices you can edit and re-seed', async () => {
  const { page, problems } = await openPage(env, '#/lab?kind=general&seed=1');
  await labReady(page);
  await page.waitForSelector('[data-testid="heatmap-param-w"] td');
  assert.equal(await page.locator('[data-testid="heatmap-param-w"] td').count(), 9, 'W is 3×3');
  // Every scoring function of the engine is offered.
  const kinds = await page.locator('#lab-kind option:not([disabled])').evaluateAll((o) => o.map((x) => x.value));
  assert.deepEqual(kinds, ['dot', 'scaled_dot', 'general', 'additive', 'concat', 'location', 'cosine']);
  const scores = () => page.locator('[data-testid="heatmap-scores"] td').allTextContents();
  const random = await scores();
  // With W = I, general scoring sᵀ W h is the dot product: the course example's 927, 397, 148, 929.
  await page.getByText('Edit the parameters').click();
  for (let r = 1; r <= 3; r++) {
    for (let c = 1; c <= 3; c++) await page.getByLabel(`w row ${r}, column ${c}`).fill(r === c ? '1' : '0');
  }
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-testid="heatmap-scores"] td')].map((c) => c.textContent).join('|') ===
      '927.0|397.0|148.0|929.0',
  );
  assert.deepEqual(
    await page
      .locator('[data-testid="heatmap-param-w"] td')
      .evaluateAll((cells) => cells.map((c) => Number(c.dataset.value))),
    [1, 0, 0, 0, 1, 0, 0, 0, 1],
  );
  // A new seed: new random parameters, recorded in the URL.
  await page.getByRole('button', { name: 'New random parameters' }).click();
  await page.waitForFunction(() => /seed=7936/.test(location.hash));
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-testid="heatmap-scores"] td')].map((c) => c.textContent).join('|') !==
      '927.0|397.0|148.0|929.0',
  );
  assert.notDeepEqual(await scores(), random, 'seed 7936 gives other parameters than seed 1');
  assert.deepEqual(problems, []);
  await page.close();
});
