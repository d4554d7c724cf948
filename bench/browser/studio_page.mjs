// What the Studio benches share (studio_throughput.mjs, studio_time_to_accuracy.mjs): where the
// aclImdb archive lives, when they cannot run, the load average they report, and the built app's
// Studio opened with an archive loaded through its file picker.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredPage } from './run.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the shared copy of the aclImdb training half lives beside the repository. */
export const DEFAULT_ARCHIVE = path.resolve(root, '../shared/data/aclImdb_train.tar.gz');

export const loadAverage = () => os.loadavg().map((x) => Number(x.toFixed(2)));

/** Why the bench `what` cannot run here (a message), or null. */
export function studioBenchSkip(what, archive = DEFAULT_ARCHIVE) {
  if (!existsSync(archive)) return `${what}: ${archive} is missing (the aclImdb training half), skipped`;
  if (!existsSync(path.join(root, 'dist/index.html'))) return `${what}: dist/ is missing (npm run build), skipped`;
  return null;
}

/** `--name value` from the command line, else `fallback`. */
export function cliOption(name, fallback, args = process.argv.slice(2)) {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
}

/**
 * Resolves with the training panel's state once it is one of `states`: a MutationObserver in the
 * page watches its data-state, so nothing polls (a poll would take CPU from the training workers)
 * and a run of any length is waited for.
 */
export function trainState(page, states) {
  return page.evaluate(
    (wanted) =>
      new Promise((resolve) => {
        const panel = document.querySelector('.train-panel');
        const check = (observer) => {
          if (!wanted.includes(panel.dataset.state)) return;
          observer?.disconnect();
          resolve(panel.dataset.state);
        };
        const observer = new MutationObserver(() => check(observer));
        observer.observe(panel, { attributes: true, attributeFilter: ['data-state'] });
        check(observer);
      }),
    states,
  );
}

/**
 * A new measured page (run.mjs measuredPage) on the Studio of the app at `appUrl` with `archive`
 * loaded through the file picker: a path, or {name, mimeType, buffer} as Playwright's
 * setInputFiles takes it. Resolves with {page, cdp, summary} (the data summary's text).
 */
export async function openStudioWithArchive(context, appUrl, archive, log = () => {}) {
  const { page, cdp } = await measuredPage(context);
  const name = typeof archive === 'string' ? path.basename(archive) : archive.name;
  try {
    await page.goto(`${appUrl}#/studio`);
    await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 60000 });
    log(`loading ${name} into the Studio`);
    await page.locator('#data-upload').setInputFiles(archive);
    // The built-in corpus loads (and shows its summary) first: wait for the file's own.
    await page.waitForFunction(
      (file) => {
        const state = document.querySelector('.studio-data')?.dataset.state;
        const summary = document.querySelector('#data-summary')?.textContent ?? '';
        return state === 'failed' || (state === 'loaded' && summary.startsWith(`${file}:`));
      },
      name,
      { timeout: 600000 },
    );
    if ((await page.locator('.studio-data').getAttribute('data-state')) === 'failed')
      throw new Error(`the Studio could not load ${name}: ${await page.textContent('#data-error')}`);
    return { page, cdp, summary: await page.textContent('#data-summary') };
  } catch (error) {
    await page.close();
    throw error;
  }
}
