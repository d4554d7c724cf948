// The engine worker in Chromium: the "Train a sentiment model" panel trains model (a) on the
// built-in corpus while a PerformanceObserver records long tasks on the main thread (any task
// over 100 ms fails the test), and pause / resume / cancel work from the buttons.
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

const stepOf = (page) => page.locator('#train-step').evaluate((o) => Number(o.dataset.step ?? 0));

async function waitForStep(page, atLeast, timeout = 60000) {
  await page.waitForFunction((n) => Number(document.querySelector('#train-step')?.dataset.step ?? 0) >= n, atLeast, {
    timeout,
  });
}

test('runtime: training in the worker keeps the main thread free; pause, resume, cancel, scrub', async (t) => {
  const { page, problems } = await openPage(env, '#/studio');
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 30000 });
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });

  const panel = page.getByRole('region', { name: 'Train a sentiment model' });
  await page.getByLabel('Epochs').fill('20');
  await panel.getByRole('button', { name: 'Train', exact: true }).click();
  await waitForStep(page, 20);
  const startStep = await stepOf(page);
  const startedAt = Date.now();
  await waitForStep(page, startStep + 30);
  const stepsPerSecond = ((await stepOf(page)) - startStep) / ((Date.now() - startedAt) / 1000);
  t.diagnostic(
    `model (a) in Chromium's worker: ${stepsPerSecond.toFixed(1)} steps/s (panel readout: ${await page.locator('#train-speed').textContent()})`,
  );
  // Attention snapshots of the two watched reviews arrive with the progress (every 5 steps).
  await page.waitForFunction(() => document.querySelectorAll('#train-watched .predict-tokens').length === 2);
  assert.deepEqual(
    (await page.locator('#train-watched .predict-tokens').first().locator('.token').allTextContents()).slice(0, 3),
    ['<start>', 'the', 'acting'],
  );
  assert.match(await page.locator('#train-loss').textContent(), /^\d+\.\d{4}$/);
  assert.match(await page.locator('#train-accuracy').textContent(), /%$/);

  // Pause: the step counter stops.
  await panel.getByRole('button', { name: 'Pause' }).click();
  await page.waitForSelector('.train-panel[data-state="paused"]');
  await page.waitForTimeout(300); // progress already in flight lands
  const pausedAt = await stepOf(page);
  await page.waitForTimeout(1000);
  assert.equal(await stepOf(page), pausedAt, 'no steps while paused');
  assert.equal(await panel.getByRole('button', { name: 'Resume' }).isEnabled(), true);

  // While paused the page works on what the worker sent: the snapshot timeline scrubs back to an
  // earlier step. (Predictions while paused are the explanation panel's, tested with it.)
  const timeline = page.locator('#timeline');
  assert.equal(await timeline.isEnabled(), true);
  const latestStep = Number(await page.locator('#train-watched').getAttribute('data-step'));
  await timeline.focus();
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#train-watched')?.dataset.step === '0');
  assert.ok(latestStep > 0, `latest snapshot step ${latestStep}`);
  assert.match(await page.locator('#timeline-step').textContent(), /^step 0 \(1 of \d+\)$/);
  await page.keyboard.press('End');
  await page.waitForFunction((n) => document.querySelector('#train-watched')?.dataset.step === String(n), latestStep);

  // Resume, then cancel.
  await panel.getByRole('button', { name: 'Resume' }).click();
  await waitForStep(page, pausedAt + 10);
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForSelector('.train-panel[data-state="cancelled"]', {
    timeout: 10000,
  });
  const cancelledAt = await stepOf(page);
  await page.waitForTimeout(500);
  assert.equal(await stepOf(page), cancelledAt, 'no steps after cancel');
  assert.equal(await panel.getByRole('button', { name: 'Train', exact: true }).isEnabled(), true);

  // Restart: a fresh model trains from step 0 again.
  await panel.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.train-panel[data-state="training"]');
  await page.waitForFunction(() => {
    const step = Number(document.querySelector('#train-step')?.dataset.step ?? 0);
    return step >= 5 && step < 60;
  });
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForSelector('.train-panel[data-state="cancelled"]', { timeout: 10000 });

  const longTasks = await page.evaluate(() => window.__longTasks);
  t.diagnostic(`long tasks during training: ${JSON.stringify(longTasks)}`);
  assert.ok(
    longTasks.every((ms) => ms <= 100),
    `main-thread tasks over 100 ms: ${longTasks.join(', ')}`,
  );
  assert.deepEqual(problems, []);
  await page.close();
});
