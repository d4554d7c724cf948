// The Seq2seq and Transformer views as dashboards, in Debian's Chromium, after a short training
// run (so their maps are drawn): at 1366 px the settings panel sits beside the main area; below
// 900 px (820, 390) the panels stack; at 820 and 390 nothing scrolls sideways, and a map wider
// than its card scrolls inside its own box. Every state is waited for, never a timer.
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

const READY = '[data-testid="engine-status"][data-state="ready"]';

/** Where the two panels are, whether the page scrolls sideways, and how the maps fit. */
function layout(page, view) {
  return page.evaluate((view) => {
    const root = document.querySelector(`[data-testid="view-${view}"]`);
    const box = (e) => e.getBoundingClientRect();
    const side = box(root.querySelector('.dash-side'));
    const main = root.querySelector('.dash-main');
    const mainBox = box(main);
    const maps = [...main.querySelectorAll('.heatmap')].filter((m) => !m.hidden && m.offsetParent !== null);
    return {
      side: { left: side.left, right: side.right, top: side.top, bottom: side.bottom },
      main: { left: mainBox.left, right: mainBox.right, top: mainBox.top },
      pageScroll: document.documentElement.scrollWidth,
      inner: innerWidth,
      maps: maps.map((m) => ({
        id: m.dataset.testid,
        right: box(m).right,
        overflowX: getComputedStyle(m).overflowX,
        scrolls: m.scrollWidth > m.clientWidth,
      })),
    };
  }, view);
}

async function checkSizes(page, view) {
  const scrolling = [];
  for (const [width, height] of [
    [1366, 900],
    [820, 1180],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    // A resize lays the page out again before the next frame.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const at = await layout(page, view);
    const where = `${view} at ${width}px`;
    if (width >= 900) {
      assert.ok(at.side.right <= at.main.left, `${where}: the settings panel is beside the main area`);
      assert.ok(Math.abs(at.side.top - at.main.top) < 2, `${where}: both panels start at the same height`);
      assert.ok(at.side.right - at.side.left < (at.main.right - at.main.left) / 1.5, `${where}: the side is narrower`);
    } else {
      assert.ok(at.side.bottom <= at.main.top, `${where}: the panels stack`);
      assert.ok(at.pageScroll <= at.inner, `${where}: the page is ${at.pageScroll}px wide`);
    }
    assert.ok(at.maps.length > 0, `${where}: maps are drawn`);
    for (const map of at.maps) {
      assert.ok(map.right <= at.main.right + 1, `${where}: ${map.id} stays inside the main area`);
      assert.equal(map.overflowX, 'auto', `${where}: ${map.id} scrolls inside its own box`);
      if (map.scrolls) scrolling.push(`${map.id}@${width}`);
    }
  }
  return scrolling;
}

test('dashboards: Seq2seq after training and a decode, at 1366, 820 and 390 px', async () => {
  const { page, problems } = await openPage(env, '#/seq2seq');
  await page.waitForSelector(READY, { timeout: 30000 });
  const view = page.locator('[data-testid="view-seq2seq"]');
  await page.locator('#s2s-epochs').fill('1');
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.seq2seq[data-state="finished"]', { timeout: 120000 });
  await view.getByRole('button', { name: 'Decode' }).click();
  await page.waitForSelector('[data-testid="s2s-alignment"] td', { timeout: 30000 });
  await checkSizes(page, 'seq2seq');
  assert.deepEqual(problems, []);
  await page.close();
});

test('dashboards: Transformer after training, at 1366, 820 and 390 px; its wide maps scroll in their box', async () => {
  const { page, problems } = await openPage(env, '#/transformer');
  await page.waitForSelector(READY, { timeout: 30000 });
  await page.locator('#tf-epochs').fill('1');
  await page.locator('[data-testid="view-transformer"]').getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.transformer[data-state="finished"]', { timeout: 120000 });
  await page.waitForSelector('[data-testid="tf-grid"] td', { timeout: 30000 });
  await page.waitForSelector('[data-testid="tf-positional"] td', { timeout: 30000 });
  const scrolling = await checkSizes(page, 'transformer');
  // The positional encodings (one column per model dimension) are wider than a phone: they
  // scroll inside their own box while the page does not.
  assert.ok(scrolling.includes('tf-positional@390'), `maps that scroll: ${scrolling}`);
  assert.deepEqual(problems, []);
  await page.close();
});
