// The landing view's guided tour, as a first-time visitor meets it in Debian's Chromium: it opens
// by itself on the first visit, focus moves into it and Tab stays inside, Esc ends it and gives
// focus back, a reload does not bring it back (localStorage), and "Take the tour" restarts it.
// Every step is waited for by its state (the dialog's open attribute, data-step), never a timer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, startBrowser, TOUR_KEY } from './support/browser.mjs';

let env;
before(async () => {
  env = await startBrowser({ firstVisit: true });
});
after(async () => {
  await env?.close();
});

const TOUR = '[data-testid="tour"]';

/** What has focus: its text and whether it is inside the tour's dialog. */
const focused = (page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return { text: active?.textContent ?? '', inTour: Boolean(active?.closest('[data-testid="tour"]')) };
  });

async function tabCycle(page, key, presses) {
  const names = [];
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    assert.ok(now.inTour, `${key} ${i + 1} left the tour for “${now.text}”`);
    names.push(now.text);
  }
  return names;
}

test('tour: first visit shows it; keyboard stays inside; Esc ends it; a reload does not bring it back; the link restarts it', async () => {
  const { page, problems } = await openPage(env, '#/home');
  const tour = page.locator(TOUR);
  await page.waitForSelector(`${TOUR}[open][data-step="1"]`);
  assert.equal(await page.evaluate((key) => localStorage.getItem(key), TOUR_KEY), null, 'not remembered yet');
  assert.match(await tour.getByRole('heading').textContent(), /Welcome/);
  // The welcome says how many stops follow, and the counter agrees (it once said "Four short
  // stops" beside "Step 1 of 5").
  const total = Number(/^Step 1 of (\d+)$/.exec(await page.locator('.tour-counter').textContent())[1]);
  const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  assert.match(
    await page.locator('#tour-text').textContent(),
    new RegExp(`\\b${words[total - 1]} short stops after this one\\b`, 'i'),
  );
  assert.equal(await page.getByRole('dialog').count(), 1, 'exposed as a dialog');
  assert.deepEqual(await focused(page), { text: await tour.getByRole('heading').textContent(), inTour: true });
  assert.equal(await page.locator('.tour-target').getAttribute('class'), 'lede tour-target');
  // Step 1 has no Back; Tab and Shift+Tab cycle Skip ⇄ Next without leaving.
  assert.deepEqual(await tabCycle(page, 'Tab', 3), ['Skip tour', 'Next', 'Skip tour']);
  assert.deepEqual(await tabCycle(page, 'Shift+Tab', 2), ['Next', 'Skip tour']);
  // Next (by keyboard) moves to the course card and focus to the new step's heading.
  await tour.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${TOUR}[open][data-step="2"]`);
  assert.equal(await page.locator('.tour-target').getAttribute('data-testid'), 'way-course');
  assert.match((await focused(page)).text, /course/);
  assert.deepEqual(await tabCycle(page, 'Tab', 4), ['Skip tour', 'Back', 'Next', 'Skip tour']);
  // Esc ends it, is remembered, unmarks the card and returns focus to the view's heading.
  await page.keyboard.press('Escape');
  await page.waitForSelector(`${TOUR}:not([open])`, { state: 'attached' });
  assert.equal(await page.evaluate((key) => localStorage.getItem(key), TOUR_KEY), 'done');
  assert.equal(await page.locator('.tour-target').count(), 0);
  assert.equal((await focused(page)).text, 'Learn attention by computing it');

  // A reload is a returning visit: the landing view draws, the tour stays closed.
  await page.reload();
  await page.waitForSelector('[data-testid="mini-lab"][data-state="ready"]', { timeout: 30000 });
  assert.equal(await page.locator(`${TOUR}[open]`).count(), 0);

  // "Take the tour" (by keyboard) restarts it at step 1; Done on the last step ends it and focus
  // goes back to the button.
  const restart = page.getByRole('button', { name: 'Take the tour' });
  await restart.focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${TOUR}[open][data-step="1"]`);
  for (let step = 2; step <= 5; step++) {
    await tour.getByRole('button', { name: 'Next' }).click();
    await page.waitForSelector(`${TOUR}[open][data-step="${step}"]`);
  }
  assert.equal(await page.locator('.tour-target').getAttribute('class'), 'more-views tour-target');
  await tour.getByRole('button', { name: 'Back' }).click();
  await page.waitForSelector(`${TOUR}[open][data-step="4"]`);
  await tour.getByRole('button', { name: 'Next' }).click();
  await tour.getByRole('button', { name: 'Done' }).click();
  await page.waitForSelector(`${TOUR}:not([open])`, { state: 'attached' });
  assert.equal((await focused(page)).text, 'Take the tour');
  // Skip ends it as well.
  await restart.click();
  await page.waitForSelector(`${TOUR}[open][data-step="1"]`);
  await tour.getByRole('button', { name: 'Skip tour' }).click();
  await page.waitForSelector(`${TOUR}:not([open])`, { state: 'attached' });
  assert.deepEqual(problems, []);
  await page.close();
});
