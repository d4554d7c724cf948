// Shared set-up of the Firefox smoke suite: serves dist/ as the Chromium tests do and drives
// Debian's firefox-esr headless over WebDriver BiDi through puppeteer-core (playwright-core can
// drive only its own patched Firefox builds, not a stock one).
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { serveDist, TOUR_KEY } from '../../e2e/support/browser.mjs';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Starts the server and Firefox; returns {baseUrl, browser, close}. puppeteer-core writes a
 * fresh profile into a temporary folder (its preferences turn off updates, telemetry and first-run
 * pages) and removes it on close. No wall-time limit of its own: the tests wait for states.
 */
export async function startFirefox() {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: apt-get install firefox-esr`);
  const server = await serveDist();
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: FIREFOX,
      headless: true,
      env: { ...process.env, MOZ_HEADLESS: '1' },
      defaultViewport: { width: 1280, height: 900 },
      // A loaded 2-core machine can take minutes for one protocol call (a training run's
      // evaluate); node:test's own limit ends a test that really hangs.
      protocolTimeout: 0,
      timeout: 0,
    });
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    baseUrl: server.baseUrl,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Opens `baseUrl + address` in a new tab that records console errors, page errors and any
 * request leaving the server, as a returning visitor who has seen the landing view's tour. The
 * time (performance.now(), ms since navigation) at which the engine status became ready is kept
 * in `window.attnEngineReadyMs` for the diagnostics.
 */
export async function openPage(env, address = '') {
  const page = await env.browser.newPage();
  page.setDefaultTimeout(180000);
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message ?? error}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(env.baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request left the page: ${url}`);
    }
  });
  await page.evaluateOnNewDocument((key) => {
    try {
      localStorage.setItem(key, 'done');
    } catch {
      // about:blank and opaque origins have no storage.
    }
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="engine-status"][data-state="ready"]')) {
        window.attnEngineReadyMs = performance.now();
        observer.disconnect();
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
  }, TOUR_KEY);
  await page.goto(env.baseUrl + address);
  return { page, problems };
}

export const READY = '[data-testid="engine-status"][data-state="ready"]';

/** Clicks the button whose text is `text` inside `scope` (a selector), as a learner would. */
export async function clickButton(page, scope, text) {
  const found = await page.waitForFunction(
    (sel, label) =>
      [...(document.querySelector(sel)?.querySelectorAll('button') ?? [])].find(
        (b) => b.textContent.trim() === label && !b.disabled,
      ),
    {},
    scope,
    text,
  );
  await found.asElement().click();
  await found.dispose();
}
