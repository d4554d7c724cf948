// Trains one model of the Translation tab in Chromium on a pairs file and prints the run's
// held-out scores, its wall time and the CPU time Chromium's processes spent meanwhile (on a busy
// machine the wall time overstates what a learner waits; the CPU time of the renderer, where the
// engine's workers run, is the time it needs). Run after `npm run build`:
//   node scripts/page-translation-run.mjs PAIRS.tsv [model] [epochs] [workers]
// model: none | bahdanau | luong | transformer, epochs, workers: 1 | 2 — each '-' or left out for
// what the tab proposes for the file (its default model and preset, the machine's worker count).
// Prints one JSON line: what the tab proposed, the seconds from choosing the file to the tab's
// summary of it (read), from Train to the final held-out line (train) and the scores drawn.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, TOUR_KEY, serveDist } from '../tests/e2e/support/browser.mjs';

const [file, ...rest] = process.argv.slice(2);
const [model, epochs, workers] = rest.map((a) => (a === '-' ? undefined : a));
if (!file) {
  console.error(
    'usage: node scripts/page-translation-run.mjs PAIRS.tsv [none|bahdanau|luong|transformer|-] [epochs|-] [1|2|-]',
  );
  process.exit(2);
}
const bytes = readFileSync(file);

// User + system seconds of every process whose command line names `marker` (Chromium's profile).
const ticks = 100; // USER_HZ on Linux
function cpuSeconds(marker) {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / ticks; // utime, stime
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

const server = await serveDist();
const profile = mkdtempSync(path.join(tmpdir(), 'attn-page-run-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  viewport: { width: 1280, height: 900 },
});
try {
  await context.addInitScript((key) => localStorage.setItem(key, 'done'), TOUR_KEY);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${server.baseUrl}#/seq2seq?tab=translation`);
  const tab = '[data-testid="translation"]';
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 60000 });
  await page.waitForSelector(`${tab}[data-state="idle"]`, { timeout: 60000 });
  const read0 = Date.now();
  await page.locator('#mt-file').setInputFiles({ name: path.basename(file), mimeType: 'text/plain', buffer: bytes });
  await page.waitForSelector(`${tab}[data-data-name="${path.basename(file)}"]`, { timeout: 300000 });
  const readSeconds = (Date.now() - read0) / 1000;
  const proposed = {
    presets: await page.locator(tab).getAttribute('data-presets'),
    model: await page.locator('#mt-model').inputValue(),
    epochs: await page.locator('#mt-epochs').inputValue(),
    workers: await page.locator('#mt-workers').inputValue(),
  };
  if (model) await page.locator('#mt-model').selectOption(model);
  if (epochs) await page.locator('#mt-epochs').fill(epochs);
  if (workers) await page.locator('#mt-workers').selectOption(workers);
  const cpu0 = cpuSeconds(profile);
  const wall0 = Date.now();
  await page.locator('#mt-train').click();
  // When each part of the run ends (seconds after Train): the sessions built (the first step's
  // readout), the last epoch's held-out BLEU drawn, the run over; the final line follows.
  const at = {};
  await page.waitForSelector('#mt-step[data-step]', { timeout: 3600000 });
  at.firstStep = (Date.now() - wall0) / 1000;
  const planned = Number(await page.locator('#mt-epochs').inputValue());
  await page.waitForSelector(
    `#mt-bleu[data-epochs="${planned}"], ${tab}:is([data-state="failed"], [data-state="cancelled"])`,
    {
      timeout: 6 * 3600 * 1000,
    },
  );
  at.lastEpochBleu = (Date.now() - wall0) / 1000;
  await page.waitForSelector(`${tab}:is([data-state="finished"], [data-state="failed"], [data-state="cancelled"])`, {
    timeout: 6 * 3600 * 1000,
  });
  at.ended = (Date.now() - wall0) / 1000;
  const speed = await page.locator('#mt-speed').textContent();
  // The final held-out line is written after the run's evaluation.
  await page.waitForFunction(() => document.querySelector('#mt-final')?.dataset.bleu !== undefined, null, {
    timeout: 3600000,
  });
  const wall = (Date.now() - wall0) / 1000;
  const cpu = cpuSeconds(profile) - cpu0;
  const state = await page.locator(tab).getAttribute('data-state');
  const final = await page.locator('#mt-final').textContent();
  const status = await page.locator('[data-testid="mt-data-status"]').textContent();
  const perEpoch = await page.locator('#mt-bleu').textContent();
  const bleu = Number(await page.locator('#mt-final').getAttribute('data-bleu'));
  const ranOn = await page.locator(tab).getAttribute('data-workers');
  console.log(
    JSON.stringify({
      file,
      proposed,
      model: await page.locator('#mt-model').inputValue(),
      epochs: await page.locator('#mt-epochs').inputValue(),
      workers: ranOn,
      state,
      bleu,
      status,
      final,
      lastEpochBleu: perEpoch,
      readSeconds,
      speed,
      secondsAfterTrain: { ...at, finalLine: wall },
      wallSeconds: wall,
      chromiumCpuSeconds: cpu,
    }),
  );
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}
