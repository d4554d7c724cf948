// Browser tests of the front door: the landing view at `/` (what this is, three ways in with
// miniatures the engine computes, links to every view and the course) and the header shared by
// the app and the course, in Debian's Chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, startBrowser } from './support/browser.mjs';
import { VIEWS } from './support/views.mjs';

let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

test('landing: `/` explains the playground, draws three engine-computed miniatures and links to every view and the course', async () => {
  const { page, problems } = await openPage(env);
  const home = page.locator('[data-testid="view-home"]');
  await home.waitFor();
  assert.match(page.url(), /#\/home$/);
  assert.match(await home.locator('.lede').textContent(), /WebAssembly/);
  for (const id of ['mini-course', 'mini-studio', 'mini-lab']) {
    await page.waitForSelector(`[data-testid="${id}"][data-state="ready"]`, { timeout: 20000 });
  }
  // The course miniature is the softmax of 927, 397, 148, 929 as the engine computes it.
  assert.deepEqual(await home.locator('[data-testid="mini-course"] .mini-value').allTextContents(), [
    '0.119',
    '0',
    '0',
    '0.881',
  ]);
  // The lab miniature is causal self-attention: 5×5, nothing above the diagonal, rows sum to 1.
  const rows = await home
    .locator('[data-testid="home-self-attention"] tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value))));
  assert.equal(rows.length, 5);
  rows.forEach((row, i) => {
    assert.equal(row.length, 5);
    row.forEach((w, j) => (j > i ? assert.equal(w, 0) : assert.ok(w > 0)));
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `row ${i} sums to 1`);
  });
  // The view itself links to every view and the course.
  const hrefs = await home.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  for (const [id] of VIEWS) assert.ok(hrefs.includes(`#/${id}`), `landing links to #/${id}: ${hrefs}`);
  assert.ok(hrefs.includes('./course.html'), 'landing links to the course');
  // Each way in leads where it says.
  for (const [card, id] of [
    ['way-lab', 'lab'],
    ['way-studio', 'studio'],
  ]) {
    await page.goto(env.baseUrl + '#/home');
    await page.locator(`[data-testid="${card}"] a.button`).click();
    await page.waitForSelector(`[data-testid="view-${id}"]:not([hidden])`);
  }
  // The translation link opens the Seq2seq view on its Translation tab.
  await page.goto(env.baseUrl + '#/home');
  await home.getByRole('link', { name: 'Translation', exact: true }).click();
  await page.waitForSelector('[data-testid="view-seq2seq"]:not([hidden])');
  await page.waitForSelector('#s2s-tab-translation[aria-selected="true"]');
  await page.goto(env.baseUrl + '#/home');
  await page.locator('[data-testid="way-course"] a.button').click();
  await page.waitForSelector('[data-testid="map-lesson-1"]');
  // The title in the header goes back home from the course.
  await page.getByRole('link', { name: 'Attention Playground' }).click();
  await page.waitForSelector('[data-testid="view-home"]:not([hidden])');
  assert.deepEqual(problems, []);
  await page.close();
});

test('course header: the same nav as the app, one click to every view', async () => {
  const { page, problems } = await openPage(env, 'course.html');
  const nav = page.getByRole('navigation', { name: 'Views' });
  await nav.getByRole('link', { name: 'Course', exact: true }).waitFor();
  assert.equal(await nav.locator('a[aria-current="page"]').textContent(), 'Course');
  for (const [id, title] of VIEWS) {
    await page.goto(env.baseUrl + 'course.html#lesson-2');
    await page.waitForSelector('[data-testid="lesson-2"]');
    await nav.getByRole('link', { name: title, exact: true }).click();
    await page.waitForSelector(`[data-testid="view-${id}"]:not([hidden])`);
    assert.equal(await nav.locator('a[aria-current="page"]').textContent(), title);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
