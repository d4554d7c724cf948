// The long run (issue 9): trains model (a) on the built-in corpus in the Sentiment Studio of the
// built app (dist/) in headless Chromium for N minutes, starting a new run of 50 epochs whenever
// one ends, and every --every seconds samples what would show a leak or a freeze:
//   jsHeapMB      the page's JS heap (CDP Performance.getMetrics JSHeapUsedSize)
//   domNodes      the page's DOM node count (same source)
//   wasmMB        the engine worker's WebAssembly memory (EngineBridge.memoryBytes())
//   longTasks     main-thread tasks over 50 ms since the last sample (PerformanceObserver), and
//   maxLongTaskMs the longest of them
//   predictMs     call-to-answer time of a prediction sent to the busy worker (between chunks)
//   frameMs       click on the page to the next painted frame (main-thread responsiveness)
//   steps         optimiser steps done so far (all runs)
// Prints one JSON line per sample, then a summary line {"summary": ...} (first vs last memory,
// max long task). Not a test: the machine is shared, so times measure the load as well.
//   node bench/browser/long_run.mjs [--minutes 30] [--every 30] [--out long_run.jsonl] [--dist dist/]
import { createServer } from 'node:http';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const minutes = Number(option('minutes', '30'));
const everySeconds = Number(option('every', '30'));
const out = option('out', '');
// --dist: another copy of the built app (so a rebuild during a long run cannot touch it).
const dist = path.resolve(option('dist', path.join(root, 'dist')));
if (!(minutes > 0) || !(everySeconds > 0)) throw new Error('--minutes and --every must be positive numbers');
if (!existsSync(path.join(dist, 'index.html'))) throw new Error('dist/ is missing: run npm run build');

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

// dist/ as plain static files (what a deployment is), read-only, nothing else.
function serve() {
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    let relative = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    if (relative === '') relative = 'index.html';
    const file = path.join(dist, relative);
    if (!file.startsWith(dist + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function emit(record) {
  const line = JSON.stringify(record);
  console.log(line);
  if (out) appendFileSync(out, line + '\n');
}

const server = await serve();
const profile = mkdtempSync(path.join(tmpdir(), 'attn-long-run-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-quic'],
  viewport: { width: 1280, height: 900 },
});
if (out) writeFileSync(out, '');
try {
  // Long tasks from the very start of the document.
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const { port } = server.address();
  // ?debug exposes the engine bridge as window.attnDebug.engine (memoryBytes, predict).
  await page.goto(`http://127.0.0.1:${port}/?debug#/studio?epochs=50`);
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 60000 });
  await page.waitForSelector('.studio-data[data-state="loaded"]', { timeout: 60000 });
  const panel = page.locator('.train-panel');

  let runs = 0;
  let stepsBefore = 0; // steps of the runs that ended
  const startRun = async () => {
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    runs += 1;
  };
  const currentSteps = async () => Number((await page.getAttribute('#train-step', 'data-step')) ?? 0);
  await startRun();
  await page.waitForFunction(() => document.querySelector('.train-panel')?.dataset.state === 'training', null, {
    timeout: 120000,
  });

  const started = Date.now();
  const end = started + minutes * 60000;
  const samples = [];
  let nextSample = started;
  while (Date.now() < end) {
    const state = await panel.getAttribute('data-state');
    if (state === 'finished' || state === 'cancelled' || state === 'failed' || state === 'diverged') {
      if (state === 'failed') errors.push(`run ${runs} failed: ${await page.textContent('#train-error')}`);
      stepsBefore += await currentSteps();
      await startRun();
      await page.waitForFunction(() => document.querySelector('.train-panel')?.dataset.state !== 'finished', null, {
        timeout: 60000,
      });
    }
    if (Date.now() >= nextSample) {
      nextSample += everySeconds * 1000;
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name) => metrics.find((m) => m.name === name)?.value ?? NaN;
      const probe = await page.evaluate(async () => {
        const engine = window.attnDebug.engine;
        const tasks = window.__longTasks.splice(0);
        const wasmBytes = await engine.memoryBytes();
        let t = performance.now();
        const predicted = await engine.predict('a wonderful film with a moving story').then(
          () => true,
          () => false,
        );
        const predictMs = performance.now() - t;
        // A click's handler and the frame after it: what a user feels.
        t = performance.now();
        document.querySelector('#set-epochs').dispatchEvent(new MouseEvent('click', { bubbles: true }));
        await new Promise((resolve) => requestAnimationFrame(() => resolve()));
        const frameMs = performance.now() - t;
        return { tasks, wasmBytes, predictMs: predicted ? predictMs : null, frameMs };
      });
      const sample = {
        t: Math.round((Date.now() - started) / 1000),
        runs,
        steps: stepsBefore + (await currentSteps()),
        jsHeapMB: +(metric('JSHeapUsedSize') / 2 ** 20).toFixed(2),
        domNodes: metric('Nodes'),
        wasmMB: +(probe.wasmBytes / 2 ** 20).toFixed(2),
        longTasks: probe.tasks.length,
        maxLongTaskMs: Math.round(Math.max(0, ...probe.tasks)),
        predictMs: probe.predictMs === null ? null : Math.round(probe.predictMs),
        frameMs: Math.round(probe.frameMs),
      };
      samples.push(sample);
      emit(sample);
    }
    await page.waitForTimeout(1000);
  }
  const first = samples[0];
  const last = samples.at(-1);
  const predicts = samples.map((s) => s.predictMs).filter((v) => v !== null);
  emit({
    summary: {
      minutes,
      samples: samples.length,
      runs,
      steps: last.steps,
      jsHeapMB: { first: first.jsHeapMB, last: last.jsHeapMB, max: Math.max(...samples.map((s) => s.jsHeapMB)) },
      wasmMB: { first: first.wasmMB, last: last.wasmMB, max: Math.max(...samples.map((s) => s.wasmMB)) },
      domNodes: { first: first.domNodes, last: last.domNodes },
      longTasks: samples.reduce((n, s) => n + s.longTasks, 0),
      maxLongTaskMs: Math.max(...samples.map((s) => s.maxLongTaskMs)),
      predictMs: {
        median: predicts.sort((a, b) => a - b)[Math.floor(predicts.length / 2)],
        max: Math.max(...predicts),
      },
      maxFrameMs: Math.max(...samples.map((s) => s.frameMs)),
      errors,
      date: new Date().toISOString(),
    },
  });
} finally {
  await context.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
