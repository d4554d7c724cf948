// Studio training throughput (issue 19, item 1): the built app (dist/) in headless Chromium loads
// the aclImdb training half through the Studio's file picker and trains model (a) (the Studio's
// defaults: BiLSTM 32 + additive attention pooling, vocabulary 5000, maxlen 200, batch 32) on 1
// and then on 2 engine workers (data parallel, docs/data-parallel.md), in interleaved rounds.
// Each measurement starts a run, lets `--warm` steps pass, then times `--steps` more from the
// step counter the page shows (recorded in the page by a MutationObserver, so the test's own
// polling does not enter the timing) and cancels the run. reviews/s = steps/s × batch (32):
// every step in the first epoch is a full batch. The machine is shared: the load average is
// reported with each record, with the cores the renderer got over the timed steps (its CPU time,
// workers included, per second of wall time) and reviews per CPU-second, and the rounds
// interleave 1 and 2 workers so both see the same load.
//
//   node bench/browser/studio_throughput.mjs [--archive ../shared/data/aclImdb_train.tar.gz]
//        [--rounds 3] [--warm 30] [--steps 300] [--workers 1,2]
// Prints one JSON line per measurement ({"kernel":"studio_training", ...}) and a summary line
// (medians per worker count, and the 2-worker / 1-worker ratio). Skips, saying why, when the
// archive or dist/ is missing. scripts/bench.mjs runs it through runBrowserBench.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { metrics, withBrowser } from './run.mjs';
import {
  cliOption as option,
  DEFAULT_ARCHIVE,
  loadAverage,
  openStudioWithArchive,
  studioBenchSkip,
  trainState,
} from './studio_page.mjs';

export { DEFAULT_ARCHIVE };
const BATCH = 32;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Why the item cannot run here (a message), or null. */
export const studioThroughputSkip = (archive = DEFAULT_ARCHIVE) =>
  studioBenchSkip('studio training throughput', archive);

/** One run on `workers` workers: steps/s between step `warm` and step `warm + steps`, then cancelled. */
async function measure(page, cdp, workers, warm, steps) {
  await page.locator('#set-workers').selectOption(String(workers));
  await page.evaluate(() => {
    const step = document.querySelector('#train-step');
    window.__benchSteps = [];
    window.__benchObserver?.disconnect();
    window.__benchObserver = new MutationObserver(() =>
      window.__benchSteps.push([Number(step.dataset.step), performance.now()]),
    );
    window.__benchObserver.observe(step, { attributes: true, attributeFilter: ['data-step'] });
  });
  const before = loadAverage();
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  // (The step shown is the last run's until this one starts training.)
  const reach = (step) =>
    page.waitForFunction(
      (last) => {
        const state = document.querySelector('.train-panel')?.dataset.state;
        const step = Number(document.querySelector('#train-step')?.dataset.step);
        return (state === 'training' && step >= last) || ['failed', 'diverged', 'finished'].includes(state);
      },
      step,
      { timeout: 600000 },
    );
  // The renderer's CPU time (its workers' threads included) over the timed steps, roughly: how
  // many cores the run got, so a loaded machine shows as such.
  await reach(warm);
  const cpu0 = (await metrics(cdp)).ProcessTime;
  const wall0 = Date.now();
  await reach(warm + steps);
  const cpuShare = ((await metrics(cdp)).ProcessTime - cpu0) / ((Date.now() - wall0) / 1000);
  const state = await page.locator('.train-panel').getAttribute('data-state');
  if (state !== 'training')
    throw new Error(`the ${workers}-worker run ended early (${state}): ${await page.textContent('#train-error')}`);
  const samples = await page.evaluate(() => window.__benchSteps);
  const readout = await page.textContent('#train-speed');
  const shown = await page.locator('.train-panel').getAttribute('data-workers');
  await page.locator('#train-cancel').click();
  await trainState(page, ['cancelled', 'finished', 'failed']);
  if (shown !== String(workers)) throw new Error(`asked for ${workers} workers, the run had ${shown}`);
  // This run's counter only: the last run's final redraw may land after the recorder was reset.
  const own = samples.slice(samples.findLastIndex(([s]) => s < warm) + 1);
  const first = own[0];
  const last = own[own.length - 1];
  const stepsPerSecond = ((last[0] - first[0]) * 1000) / (last[1] - first[1]);
  return {
    impl: 'app (chromium)',
    kernel: 'studio_training',
    model: 'bilstm-attention',
    maxlen: 200,
    batch: BATCH,
    workers,
    steps_per_second: Number(stepsPerSecond.toFixed(2)),
    reviews_per_second: Math.round(stepsPerSecond * BATCH),
    steps_timed: last[0] - first[0],
    cpu_cores_used: Number(cpuShare.toFixed(2)),
    reviews_per_cpu_second: Math.round((stepsPerSecond * BATCH) / cpuShare),
    panel_readout: readout,
    load_average_before: before,
    load_average_after: loadAverage(),
  };
}

/**
 * Runs the item in `context` against the app at `appUrl` (dist/index.html); resolves with the
 * records (every measurement, then {kernel: 'studio_training_summary'}).
 */
export async function studioThroughput(
  context,
  appUrl,
  {
    archive = DEFAULT_ARCHIVE,
    rounds = 3,
    warm = 30,
    steps = 300,
    workers = [1, 2],
    log = () => {},
    onRecord = () => {},
  } = {},
) {
  const say = (message) => log(`studio throughput: ${message}`);
  const { page, cdp, summary: data } = await openStudioWithArchive(context, appUrl, archive, say);
  const records = [];
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always runs right after the archive was parsed.
      const order = round % 2 ? [...workers].reverse() : workers;
      for (const k of order) {
        const record = { ...(await measure(page, cdp, k, warm, steps)), round, data };
        log(`studio throughput: round ${round + 1}, ${k} worker(s): ${record.reviews_per_second} reviews/s`);
        records.push(record);
        onRecord(record);
      }
    }
  } finally {
    await page.close();
  }
  const perWorkers = Object.fromEntries(
    workers.map((k) => [k, median(records.filter((r) => r.workers === k).map((r) => r.reviews_per_second))]),
  );
  const summary = {
    impl: 'app (chromium)',
    kernel: 'studio_training_summary',
    reviews_per_second_median: perWorkers,
    speedup_2_over_1: perWorkers[1] && perWorkers[2] ? Number((perWorkers[2] / perWorkers[1]).toFixed(2)) : null,
    rounds,
    cores: os.cpus().length,
  };
  records.push(summary);
  onRecord(summary);
  return records;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const archive = path.resolve(option('archive', DEFAULT_ARCHIVE));
  const skip = studioThroughputSkip(archive);
  if (skip) {
    process.stderr.write(`[bench] ${skip}\n`);
  } else {
    await withBrowser((context, baseUrl) =>
      studioThroughput(context, `${baseUrl}dist/index.html`, {
        archive,
        rounds: Number(option('rounds', '3')),
        warm: Number(option('warm', '30')),
        steps: Number(option('steps', '300')),
        workers: option('workers', '1,2').split(',').map(Number),
        log: (message) => process.stderr.write(`[bench] ${message}\n`),
        onRecord: (record) => process.stdout.write(`${JSON.stringify(record)}\n`),
      }),
    );
  }
}
