// Shared set-up for browser tests: serves dist/ with vite preview on a free port and drives
// Debian's Chromium through playwright-core (no downloaded browser).
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Serves the built page (dist/) with vite preview on a free port: {baseUrl, close}. */
export async function serveDist() {
  if (!existsSync(path.join(root, 'dist/index.html'))) throw new Error('dist/ is missing: run npm run build');
  const port = await freePort();
  const server = await preview({
    configFile: path.join(root, 'web/vite.config.ts'),
    preview: { port, strictPort: true, host: '127.0.0.1' },
    logLevel: 'silent',
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.httpServer.close(resolve)),
  };
}

/** The landing view's guided tour remembers it was shown under this localStorage key (tour.ts). */
export const TOUR_KEY = 'attn-playground.tour';

/**
 * Starts the server and the browser; returns {baseUrl, browser, close}. `bypassCSP` lets a test
 * inject a script of its own (axe-core) into pages whose policy forbids inline scripts. Pages
 * act as a returning visitor's, who has seen the landing view's guided tour, unless `firstVisit`
 * (the tour's own tests): its modal dialog would otherwise cover `/` in every other test.
 */
export async function startBrowser({ bypassCSP = false, firstVisit = false } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const server = await serveDist();
  const profile = mkdtempSync(path.join(tmpdir(), 'attn-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    viewport: { width: 1280, height: 900 },
    bypassCSP,
  });
  if (!firstVisit) {
    await browser.addInitScript((key) => {
      try {
        localStorage.setItem(key, 'done');
      } catch {
        // about:blank and opaque origins have no storage.
      }
    }, TOUR_KEY);
  }
  return {
    baseUrl: server.baseUrl,
    context: browser,
    async close() {
      await browser.close();
      await server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens a page that records console errors, page errors and any request leaving the server. */
export async function openPage(env, hash = '') {
  const page = await env.context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(env.baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request left the page: ${url}`);
    }
  });
  await page.goto(env.baseUrl + hash);
  return { page, problems };
}

/** The workers `page` starts from now on, each with a promise of its end (a second engine worker
 *  of a data-parallel run must be started for the run and gone after it). */
export function watchWorkers(page) {
  const started = [];
  page.on('worker', (worker) =>
    started.push({ worker, closed: new Promise((resolve) => worker.on('close', resolve)) }),
  );
  return started;
}
