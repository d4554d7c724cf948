// Attention that moves: a heatmap given new values blends each cell's colour from the old to the
// new one (a CSS transition), and with prefers-reduced-motion the colour jumps. Checked on the
// Attention Lab, whose score map gets new values (same shape) when the decoder state is edited.
// The test follows the transition's own events and animation frames, never a timer.
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

const CELL = '[data-testid="heatmap-scores"] tbody td';
const BEFORE = '927.0|397.0|148.0|929.0';
// s = [6, 1, 20]: the scores become 930, 456, 149, 933 (tests/e2e/attention_lab.test.mjs).
const AFTER = '930.0|456.0|149.0|933.0';

async function waitForScores(page, want) {
  await page.waitForFunction(
    ([selector, expected]) => [...document.querySelectorAll(selector)].map((c) => c.textContent).join('|') === expected,
    [CELL, want],
    { timeout: 15000 },
  );
}

/** Starts recording cell 1's transitions and its computed colour on every animation frame. */
async function watchCell(page) {
  await page.evaluate((selector) => {
    const cell = document.querySelectorAll(selector)[1];
    const record = { from: getComputedStyle(cell).backgroundColor, samples: [], events: [], done: false };
    window.__cellMotion = record;
    for (const type of ['transitionrun', 'transitionstart', 'transitionend']) {
      cell.addEventListener(type, (event) => {
        if (event.propertyName !== 'background-color') return;
        record.events.push(type);
        if (type === 'transitionend') record.done = true;
      });
    }
    const sample = () => {
      record.samples.push(getComputedStyle(cell).backgroundColor);
      if (!record.done) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  }, CELL);
}

const channels = (colour) =>
  colour
    .match(/[\d.]+/g)
    .slice(0, 3)
    .map(Number);

test('heatmap: between two snapshots a cell colour passes through intermediate values', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await waitForScores(page, BEFORE);
  await watchCell(page);
  await page.getByLabel('decoder state s, component 1').fill('6');
  await waitForScores(page, AFTER);
  await page.waitForFunction(() => window.__cellMotion.done, null, { timeout: 15000 });
  const { from, samples, events, to } = await page.evaluate((selector) => {
    const cell = document.querySelectorAll(selector)[1];
    return { ...window.__cellMotion, to: cell.style.backgroundColor };
  }, CELL);
  assert.notEqual(from, to, 'the new score changes the colour');
  assert.deepEqual(events, ['transitionrun', 'transitionstart', 'transitionend']);
  assert.equal(samples.at(-1), to, 'the transition ends on the new colour');
  const [a, b] = [channels(from), channels(to)];
  const between = samples.filter((s) => s !== from && s !== to);
  assert.ok(between.length > 0, `no intermediate colour among ${samples.join(', ')}`);
  for (const s of between) {
    channels(s).forEach((x, i) => {
      assert.ok(x >= Math.min(a[i], b[i]) - 1 && x <= Math.max(a[i], b[i]) + 1, `${s} between ${from} and ${to}`);
    });
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('heatmap: with prefers-reduced-motion the colour jumps to the new value', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await waitForScores(page, BEFORE);
  await watchCell(page);
  await page.getByLabel('decoder state s, component 1').fill('6');
  await waitForScores(page, AFTER);
  // Two animation frames after the new values: any transition would have fired transitionrun.
  const { from, now, to, events } = await page.evaluate(
    (selector) =>
      new Promise((resolve) => {
        const cell = document.querySelectorAll(selector)[1];
        const now = getComputedStyle(cell).backgroundColor;
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve({ ...window.__cellMotion, now, to: cell.style.backgroundColor })),
        );
      }),
    CELL,
  );
  assert.notEqual(from, to, 'the new score changes the colour');
  assert.equal(now, to, 'the computed colour is the new one at once');
  assert.deepEqual(events, [], 'no transition runs');
  assert.deepEqual(problems, []);
  await page.close();
});
