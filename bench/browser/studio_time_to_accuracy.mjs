// The Studio's time to the final accuracy (issue 29): the built app (dist/) in headless Chromium
// loads the aclImdb training half through the Studio's file picker (its test set: the default
// stratified 10 % hold-out, seed 1), chooses the "IMDB (real reviews)" recipe — the engine's
// real-data recipe for the Studio's model (a), BiLSTM 32 + additive attention pooling: maxlen 500,
// 4 epochs, cosine decay, early stopping after 2 epochs without a better validation loss, the
// CLI's `attn train` defaults — and trains it to the end on 1 worker, then on 2 (a fresh page
// each, the archive loaded again). Each record has:
//   wall_seconds       the click on Train to the finished state, when the status line shows the
//                      test accuracy (prepare_seconds of it: the data into the run's workers and the
//                      model built; train_seconds: the epochs, their validation and the test pass)
//   test_accuracy      the held-out accuracy behind the status line (its data-test-accuracy), and
//   test_accuracy_shown what the learner reads there ("87.3%")
//   epochs_run, best_epoch (the one kept), steps, train_reviews, test_reviews
//   cpu_cores_used     the renderer's CPU time over the run (its workers included) per second of
//                      wall time, as studio_throughput.mjs takes it, and the load average
// Only events are waited for (the panel's data-state, seen by a MutationObserver in the page),
// never time: a run takes as long as it takes.
//
//   node bench/browser/studio_time_to_accuracy.mjs [--archive ../shared/data/aclImdb_train.tar.gz]
//        [--workers 1,2] [--epochs N] [--max-reviews N] [--encoder bilstm|transformer|none]
// --encoder picks the Studio's encoder before the IMDB recipe (default bilstm: model (a)); `none`
// is attention over words and bigrams (the CLI's ngram-attention), `transformer` model (b).
// --epochs (instead of the recipe's 4) and --max-reviews (an archive of the first N reviews of
// each split, half per class, cut from --archive: aclimdb_subset.mjs) truncate the run, to check
// the bench in a minute; their records say "truncated" and are not the figure. Prints one JSON
// line per run ({"kernel":"studio_time_to_accuracy", ...}) on stdout and a table on stderr; skips,
// saying why, when the archive or dist/ is missing. scripts/bench.mjs runs it through
// runBrowserBench (not with --quick or --no-imdb-train).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from '../table.mjs';
import { aclImdbSubset } from './aclimdb_subset.mjs';
import { metrics, withBrowser } from './run.mjs';
import {
  cliOption as option,
  DEFAULT_ARCHIVE,
  loadAverage,
  openStudioWithArchive,
  studioBenchSkip,
  trainState,
} from './studio_page.mjs';

export const KERNEL = 'studio_time_to_accuracy';

/** Why the bench cannot run here (a message), or null. */
export const studioTimeToAccuracySkip = (archive = DEFAULT_ARCHIVE) =>
  studioBenchSkip('studio time to accuracy', archive);

/** The form's settings as the URL carries them (only those that differ from the defaults). */
const settingsOf = (page) => page.evaluate(() => location.hash.split('?')[1] ?? '');

/** The first `maxReviews` reviews of `archive` (a path) as an archive, or an error naming it. */
function cut(archive, maxReviews) {
  try {
    return aclImdbSubset(readFileSync(archive), maxReviews);
  } catch (error) {
    throw new Error(`cannot cut ${maxReviews} reviews from ${archive}: ${error.message}`);
  }
}

/** The CLI's --model name of each Studio encoder the bench trains (with attention pooling). */
const MODEL_OF_ENCODER = { bilstm: 'bilstm-attention', transformer: 'transformer', none: 'ngram-attention' };

/** One run to the end on `workers` workers in a fresh page: its record. */
async function trainToTheEnd(context, appUrl, upload, workers, { epochs, maxReviews, encoder, log }) {
  const { page, cdp, summary } = await openStudioWithArchive(context, appUrl, upload, log);
  try {
    // The real-data recipe can be chosen once the engine's recipe table is in.
    await page.waitForSelector('#set-recipe option[value="imdb"]:not([disabled])', {
      state: 'attached',
      timeout: 60000,
    });
    if (encoder !== 'bilstm') {
      await page.locator('#set-encoder').selectOption(encoder);
      await page.locator('#set-encoder').dispatchEvent('change');
    }
    await page.locator('#set-recipe').selectOption('imdb');
    if (epochs !== null) {
      await page.locator('#set-epochs').fill(String(epochs));
      await page.locator('#set-epochs').dispatchEvent('change');
    }
    await page.locator('#set-workers').selectOption(String(workers));
    const recipe = await page.locator('#train-recipe').getAttribute('data-recipe');
    if (epochs === null && recipe !== 'imdb') throw new Error(`the form follows the recipe "${recipe}", not "imdb"`);
    const settings = await settingsOf(page);
    // The click and every state change, timed in the page.
    await page.evaluate(() => {
      const panel = document.querySelector('.train-panel');
      const timing = (window.__timeToAccuracy = { states: [] });
      document
        .querySelector('#train-start')
        .addEventListener('click', () => (timing.clicked = performance.now()), { capture: true, once: true });
      new MutationObserver(() => timing.states.push([panel.dataset.state, performance.now()])).observe(panel, {
        attributes: true,
        attributeFilter: ['data-state'],
      });
    });
    const loadBefore = loadAverage();
    const before = await metrics(cdp);
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    log(`${workers} worker(s): training${epochs === null ? '' : ` ${epochs} epoch(s)`}`);
    const state = await trainState(page, ['finished', 'failed', 'diverged', 'cancelled']);
    const after = await metrics(cdp);
    const status = page.locator('#train-status');
    const text = await status.textContent();
    if (state !== 'finished')
      throw new Error(`the ${workers}-worker run ended ${state}: ${text} ${await page.textContent('#train-error')}`);
    const shownWorkers = await page.locator('.train-panel').getAttribute('data-workers');
    if (shownWorkers !== String(workers)) throw new Error(`asked for ${workers} workers, the run had ${shownWorkers}`);
    const data = await status.evaluate((node) => ({ ...node.dataset }));
    const { clicked, states } = await page.evaluate(() => window.__timeToAccuracy);
    const at = (wanted) => states.find(([s]) => s === wanted)?.[1];
    const seconds = (from, to) => Number(((to - from) / 1000).toFixed(1));
    const [, trainReviews, testReviews] = /(\d+) training reviews, (\d+) test reviews/.exec(summary) ?? [];
    return {
      impl: 'app (chromium)',
      kernel: KERNEL,
      model: MODEL_OF_ENCODER[encoder],
      recipe,
      workers,
      truncated: epochs === null && maxReviews === null ? null : { epochs, max_reviews: maxReviews },
      wall_seconds: seconds(clicked, at('finished')),
      prepare_seconds: seconds(clicked, at('training')),
      train_seconds: seconds(at('training'), at('finished')),
      test_accuracy: data.testAccuracy === undefined ? null : Number(data.testAccuracy),
      test_accuracy_shown: /test accuracy (\d+(?:\.\d+)?%)/.exec(text)?.[1] ?? null,
      epochs_run: Number(data.epochs),
      best_epoch: Number(data.bestEpoch),
      steps: Number(data.steps),
      train_reviews: Number(trainReviews),
      test_reviews: Number(testReviews),
      cpu_cores_used: Number(
        ((after.ProcessTime - before.ProcessTime) / (after.Timestamp - before.Timestamp)).toFixed(2),
      ),
      cpu_seconds: Number((after.ProcessTime - before.ProcessTime).toFixed(1)),
      status: text,
      data: summary,
      split: await page.textContent('#data-split'),
      settings,
      load_average_before: loadBefore,
      load_average_after: loadAverage(),
    };
  } finally {
    await page.close();
  }
}

/**
 * Runs the bench in `context` against the app at `appUrl` (dist/index.html); resolves with one
 * record per worker count. `epochs` / `maxReviews` (null: the recipe's, the whole archive)
 * truncate the runs.
 */
export async function studioTimeToAccuracy(
  context,
  appUrl,
  {
    archive = DEFAULT_ARCHIVE,
    workers = [1, 2],
    epochs = null,
    maxReviews = null,
    encoder = 'bilstm',
    log = () => {},
    onRecord = () => {},
  } = {},
) {
  const say = (message) => log(`studio time to accuracy: ${message}`);
  const upload =
    maxReviews === null
      ? archive
      : {
          name: `${path.basename(archive).replace(/\.(tar\.gz|tgz)$/, '')}-first-${maxReviews}.tar.gz`,
          mimeType: 'application/gzip',
          buffer: cut(archive, maxReviews),
        };
  const records = [];
  for (const k of workers) {
    const record = await trainToTheEnd(context, appUrl, upload, k, { epochs, maxReviews, encoder, log: say });
    say(`${k} worker(s): ${record.test_accuracy_shown} after ${record.wall_seconds} s`);
    records.push(record);
    onRecord(record);
  }
  return records;
}

/** The records in one line, for the summary of `npm run bench`. */
export function timeToAccuracyLine(records) {
  const runs = records.map(
    (r) =>
      `${r.workers} worker${r.workers > 1 ? 's' : ''} ${r.wall_seconds.toFixed(1)} s to ${r.test_accuracy_shown} ` +
      `(${r.epochs_run} epochs, kept ${r.best_epoch}; ${r.cpu_cores_used.toFixed(2)} cores)`,
  );
  const [one, two] = [1, 2].map((k) => records.find((r) => r.workers === k));
  const ratio = one && two ? `; 2 workers took ${(two.wall_seconds / one.wall_seconds).toFixed(2)}× the time of 1` : '';
  const truncated = records.some((r) => r.truncated) ? ' TRUNCATED (--epochs / --max-reviews), not the figure:' : '';
  const data = records[0] ? `${records[0].train_reviews} training reviews, ${records[0].test_reviews} held out` : '';
  const model = records[0]?.model ?? 'bilstm-attention';
  return `Studio time to the final accuracy (Chromium, IMDB recipe, ${model}, ${data}):${truncated} ${runs.join(', ')}${ratio}`;
}

/** The records as a table (one row per run). */
export function timeToAccuracyTable(records) {
  return table(
    ['workers', 'wall s', 'prepare s', 'train s', 'test accuracy', 'epochs (kept)', 'steps', 'reviews (test)', 'cores'],
    records.map((r) => [
      String(r.workers),
      r.wall_seconds.toFixed(1),
      r.prepare_seconds.toFixed(1),
      r.train_seconds.toFixed(1),
      `${r.test_accuracy_shown} (${r.test_accuracy?.toFixed(4) ?? '-'})`,
      `${r.epochs_run} (${r.best_epoch})`,
      String(r.steps),
      `${r.train_reviews} (${r.test_reviews})`,
      r.cpu_cores_used.toFixed(2),
    ]),
  );
}

/** The command line's options, checked: {archive, workers, epochs, maxReviews, encoder} or {error}. */
function parseOptions() {
  const whole = (name, least) => {
    const value = option(name, null);
    if (value === null) return null;
    if (!/^\d+$/.test(value) || Number(value) < least)
      throw new Error(`--${name} takes a whole number >= ${least}, got "${value}"`);
    return Number(value);
  };
  try {
    const workers = option('workers', '1,2').split(',').map(Number);
    if (!workers.every((k) => k === 1 || k === 2)) throw new Error('--workers takes 1, 2 or 1,2');
    const archive = path.resolve(option('archive', DEFAULT_ARCHIVE));
    const encoder = option('encoder', 'bilstm');
    if (!(encoder in MODEL_OF_ENCODER))
      throw new Error(`--encoder takes bilstm, transformer or none, got "${encoder}"`);
    return { archive, workers, epochs: whole('epochs', 1), maxReviews: whole('max-reviews', 2), encoder };
  } catch (error) {
    return { error: error.message };
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { error, ...options } = parseOptions();
  const skip = error ? null : studioTimeToAccuracySkip(options.archive);
  if (error) {
    process.stderr.write(`[bench] studio time to accuracy: ${error}\n`);
    process.exitCode = 2;
  } else if (skip) {
    process.stderr.write(`[bench] ${skip}\n`);
  } else {
    try {
      const records = await withBrowser((context, baseUrl) =>
        studioTimeToAccuracy(context, `${baseUrl}dist/index.html`, {
          ...options,
          log: (message) => process.stderr.write(`[bench] ${message}\n`),
          onRecord: (record) => process.stdout.write(`${JSON.stringify(record)}\n`),
        }),
      );
      const truncated = records.some((r) => r.truncated)
        ? ' — TRUNCATED (--epochs / --max-reviews): not the figure'
        : '';
      process.stderr.write(
        `\nStudio time to the final accuracy (Chromium, IMDB recipe, ${MODEL_OF_ENCODER[options.encoder]})${truncated}\n` +
          `${timeToAccuracyTable(records)}\n`,
      );
    } catch (failure) {
      // A bad archive or a run that failed: its message, without a stack trace.
      process.stderr.write(`[bench] studio time to accuracy: ${failure.message}\n`);
      process.exitCode = 1;
    }
  }
}
