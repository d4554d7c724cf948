// Nothing lost, in Chromium: a crashed engine worker is reported and restarted without a reload
// (pending calls reject with the reason), and the app works offline once loaded, from its own
// files, with no request leaving the page's origin.
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

test('reliability: a worker crash rejects pending calls, shows a notice and restarts the engine', async () => {
  // ?debug enables the bridge's crashForTest() and window.attnDebug (see app/engine_status.ts).
  const { page, problems } = await openPage(env, '?debug#/lab');
  await page.waitForSelector(READY, { timeout: 20000 });
  await page.waitForFunction(
    () => document.querySelector('[data-testid="heatmap-scores"] td')?.textContent === '927.0',
  );
  assert.equal(await page.isVisible('[data-testid="engine-notice"]'), false);

  const outcome = await page.evaluate(async () => {
    const engine = window.attnDebug.engine;
    const reasons = [];
    engine.onRestart((reason) => reasons.push(reason));
    await engine.seq2seqCreate({ trainSize: 2000, epochs: 50 });
    // Crash while the run is under way: once its first progress report has arrived.
    let underWay;
    const progressed = new Promise((resolve) => (underWay = resolve));
    const run = engine.seq2seqTrain({}, underWay).then(
      () => 'finished',
      (error) => `${error.kind}: ${error.message}`,
    );
    await Promise.race([progressed, run]);
    engine.crashForTest();
    const rejected = await run;
    await engine.ready;
    // The old worker's session is gone with it: the new one has no seq2seq session.
    const lost = await engine.seq2seqTranslate('123', 1).then(
      () => 'translated',
      (error) => `${error.kind}: ${error.message}`,
    );
    return { rejected, reasons, lost };
  });
  assert.match(
    outcome.rejected,
    /^crashed: the engine stopped \(.*unreachable executed \(crash test\)\); it was restarted: try again$/,
  );
  assert.equal(outcome.reasons.length, 1);
  assert.match(outcome.reasons[0], /RuntimeError: unreachable executed \(crash test\)/);
  assert.equal(outcome.lost, 'engine: create a seq2seq session first');

  const notice = page.locator('[data-testid="engine-notice"]');
  await notice.waitFor({ state: 'visible' });
  assert.equal(await notice.getAttribute('role'), 'alert');
  assert.match(
    await notice.textContent(),
    /^The engine stopped: .*unreachable executed \(crash test\)\. It was restarted; models that were not saved are lost — saved ones are in browser storage\.$/,
  );
  await page.waitForSelector(READY, { timeout: 20000 });

  // The lab computes with the new worker, without a reload.
  await page.selectOption('#lab-kind', 'additive');
  await page.waitForSelector('[data-testid="heatmap-param-w1"]', { timeout: 10000 });
  const kinds = await page.evaluate(() => window.attnDebug.engine.call('scoreKinds'));
  assert.ok(kinds.length >= 3);
  // The crash itself is logged by the worker as an uncaught error; nothing else may be.
  assert.deepEqual(
    problems.filter((p) => !/unreachable executed \(crash test\)/.test(p)),
    [],
  );
  await page.close();
});

test('reliability: dispose() terminates the worker and rejects pending and later calls', async () => {
  const { page } = await openPage(env, '?debug');
  await page.waitForSelector(READY, { timeout: 20000 });
  const outcome = await page.evaluate(async () => {
    const engine = window.attnDebug.engine;
    await engine.seq2seqCreate({ trainSize: 2000, epochs: 50 });
    const run = engine.seq2seqTrain({}).then(
      () => 'finished',
      (error) => `${error.kind}: ${error.message}`,
    );
    engine.dispose();
    const later = await engine.call('scoreKinds').then(
      () => 'answered',
      (error) => `${error.kind}: ${error.message}`,
    );
    return { pending: await run, later };
  });
  assert.deepEqual(outcome, {
    pending: 'unavailable: the engine was shut down',
    later: 'unavailable: the engine was shut down: reload the page',
  });
  await page.close();
});

test('reliability: once loaded, the app and the course work offline from the service worker', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.waitForSelector(READY, { timeout: 20000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
  const cache = await page.evaluate(async () => {
    const names = await caches.keys();
    const cache = await caches.open(names.find((n) => n.startsWith('attn-playground-')));
    return { names, files: (await cache.keys()).map((r) => new URL(r.url).pathname) };
  });
  assert.equal(cache.names.filter((n) => n.startsWith('attn-playground-')).length, 1);
  for (const pattern of [
    /\/$/,
    /\/index\.html$/,
    /\/course\.html$/,
    /\/sandbox\.html$/,
    /\.wasm$/,
    /\.css$/,
    /\.js$/,
  ]) {
    assert.ok(
      cache.files.some((f) => pattern.test(f)),
      `precached: ${pattern}`,
    );
  }

  await env.context.setOffline(true);
  try {
    await page.reload();
    await page.waitForSelector(READY, { timeout: 20000 });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="heatmap-scores"] td')?.textContent === '927.0',
    );
    await page.goto(env.baseUrl + 'course.html');
    await page.waitForSelector(READY, { timeout: 20000 });
    assert.ok((await page.locator('h1, h2').count()) > 0, 'the course renders');
  } finally {
    await env.context.setOffline(false);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('reliability: no request leaves the page origin (app, studio, lab, course)', async () => {
  const origin = new URL(env.baseUrl).origin;
  const foreign = [];
  // Every request of the context, the workers' and the service worker's included.
  await env.context.route('**/*', (route) => {
    const url = route.request().url();
    if (!url.startsWith(origin + '/') && !/^(data|blob):/.test(url)) foreign.push(url);
    return route.continue();
  });
  try {
    const { page } = await openPage(env, '#/studio');
    await page.waitForSelector(READY, { timeout: 20000 });
    await page.goto(env.baseUrl + '#/lab');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="heatmap-scores"] td')?.textContent === '927.0',
    );
    await page.goto(env.baseUrl + 'course.html');
    await page.waitForSelector(READY, { timeout: 20000 });
    await page.goto(env.baseUrl + 'course.html#lesson-1');
    // The lesson is drawn once its code and data have arrived: every request it needed was made.
    await page.waitForSelector('[data-testid="lesson-1"] .katex, [data-testid="lesson-1"] h2');
    await page.close();
  } finally {
    await env.context.unrouteAll();
  }
  assert.deepEqual(foreign, []);
});
