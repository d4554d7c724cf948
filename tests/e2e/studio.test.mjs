// Sentiment Studio in Chromium: data statistics that match the engine's, a short training run
// that moves the charts and the watched attention, the snapshot timeline, CSV upload by file
// picker and by drop (and a malformed CSV's message), race mode in a second worker, divergence
// and the lower-learning-rate retry, saving / loading models, and keyboard reach. Small models
// (maxlen 64, 8 units, 2 epochs on the built-in corpus) keep the file under two minutes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEngine } from '../js/support/engine.mjs';
import { startBrowser } from './support/browser.mjs';
import { openStudio as openStudioAt, SMALL } from './support/studio.mjs';
import { assertLinksMatch, readLinks } from './support/links.mjs';

let env;
let engine;
before(async () => {
  env = await startBrowser();
  engine = await loadEngine();
});
after(async () => {
  await env?.close();
});

const openStudio = (hash) => openStudioAt(env, hash);

const state = (page) => page.locator('.train-panel').getAttribute('data-state');
async function waitForState(page, states, timeout = 60000) {
  await page.waitForFunction(
    (wanted) => wanted.includes(document.querySelector('.train-panel')?.dataset.state),
    states,
    { timeout },
  );
  return state(page);
}
const heatmapValues = (page, testId) =>
  page.locator(`[data-testid="${testId}"] td`).evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
/** Each cell of a map as drawn: its value, visible text and computed background [r, g, b]. */
const drawnCells = (page, testId) =>
  page.locator(`[data-testid="${testId}"] td`).evaluateAll((cells) =>
    cells.map((c) => ({
      value: Number(c.dataset.value),
      text: c.innerText.trim(),
      rgb: getComputedStyle(c)
        .backgroundColor.match(/[\d.]+/g)
        .slice(0, 3)
        .map(Number),
    })),
  );
const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const VIRIDIS_TOP = [253, 231, 37];
const NEUTRAL = [247, 247, 247]; // the diverging scale's middle (palette.ts)
const counts = async (page) => [
  Number(await page.locator('#stat-positive').getAttribute('data-count')),
  Number(await page.locator('#stat-negative').getAttribute('data-count')),
];

function csv(rows) {
  return Buffer.from(['review,sentiment', ...rows].join('\n') + '\n');
}
const GOOD_ROWS = [];
for (let i = 0; i < 25; i++)
  GOOD_ROWS.push(`"A fine, warm film number ${i}",positive`, `dull and boring ${i},negative`);

test('studio: built-in statistics match the engine; training moves the charts and the attention; timeline', async () => {
  const { page, problems } = await openStudio();
  // The engine's own numbers for the built-in training set.
  const s = new engine.SentimentSession();
  const summary = s.loadBuiltin();
  const stats = s.dataStats('train', 20);
  s.delete();
  assert.deepEqual(await counts(page), [stats.positive, stats.negative]);
  const total = stats.positive + stats.negative;
  assert.match(
    await page.locator('#class-balance').textContent(),
    new RegExp(`Positive${stats.positive}${((100 * stats.positive) / total).toFixed(1)}%`),
  );
  assert.match(
    await page.locator('#data-summary').textContent(),
    new RegExp(`${summary.trainExamples} training reviews, ${summary.testExamples} test reviews`),
  );
  assert.equal(await page.locator('[data-testid="length-histogram"]').getAttribute('data-maxlen'), '64');
  assert.equal(await page.locator('[data-testid="length-histogram"] rect.bar').count(), stats.histogram.length);
  assert.equal(await page.locator('[data-testid="length-histogram"] line.maxlen').count(), 1);
  assert.deepEqual(
    (await page.locator('[data-testid="length-histogram"] tbody td:nth-child(2)').allTextContents()).map(Number),
    Array.from(stats.histogram),
  );
  assert.match(await page.locator('#stat-coverage').textContent(), /once a model/);
  // The settings came from the link and stay in it.
  assert.equal(await page.locator('#set-maxlen').inputValue(), '64');
  assert.equal(await page.locator('#set-units').inputValue(), '8');
  assert.equal(await page.locator('[data-testid="chart-loss"]').getAttribute('data-points'), '0');

  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'diverged']), 'finished');
  assert.match(await page.locator('#train-status').textContent(), /test accuracy \d+\.\d%/);
  // Loss chart: training (per step) and validation (per epoch) series, both with points.
  const loss = page.locator('[data-testid="chart-loss"]');
  assert.equal(await loss.getAttribute('data-series'), '2');
  assert.ok(Number(await loss.getAttribute('data-points')) > 20);
  const paths = await loss.locator('path.series').evaluateAll((p) => p.map((x) => x.getAttribute('d')));
  assert.ok(paths.every((d) => d.startsWith('M')) && paths[0].split('L').length > 20, 'drawn lines');
  assert.equal(await page.locator('[data-testid="chart-accuracy"]').getAttribute('data-points'), '4');
  // The data table behind the chart has the numbers.
  await loss.locator('summary').click();
  // The table is filled on the <details> 'toggle' event, which the browser fires in a later task.
  await loss.locator('.chart-table tbody tr').first().waitFor();
  assert.ok((await loss.locator('.chart-table tbody tr').count()) > 20);
  // Coverage now that the model has a vocabulary.
  const coverage = Number(await page.locator('#stat-coverage').getAttribute('data-tokens'));
  assert.ok(coverage > 0.5 && coverage <= 1, `coverage ${coverage}`);

  // Timeline: the last snapshot (after training) differs from the first (step 0).
  const timeline = page.locator('#timeline');
  const last = Number(await timeline.getAttribute('max'));
  assert.ok(last >= 5, `snapshots: ${last + 1}`);
  const after = await heatmapValues(page, 'watched-0');
  assert.equal(after.length, 6, '<start> the acting was not good');
  assert.ok(Math.abs(after.reduce((a, b) => a + b, 0) - 1) < 1e-4, 'weights sum to 1');
  await timeline.fill('0');
  await page.waitForFunction(() => document.querySelector('#train-watched')?.dataset.step === '0');
  assert.match(await page.locator('#timeline-step').textContent(), /^step 0 \(1 of \d+\)$/);
  const before = await heatmapValues(page, 'watched-0');
  assert.equal(before.length, after.length);
  // Step 0's near-uniform weights (about 1/6 each) are drawn on the fixed 0–1 scale: dark, never
  // stretched up to the top colour; the map is colours, its numbers on hover.
  const drawn = await drawnCells(page, 'watched-0');
  for (const c of drawn)
    assert.ok(distance(c.rgb, VIRIDIS_TOP) > 150, `${c.value} drawn as ${c.rgb}, near the top colour`);
  assert.deepEqual(
    drawn.map((c) => c.text),
    drawn.map(() => ''),
    'no number in a cell',
  );
  assert.equal(
    await page.locator('[data-testid="watched-0-legend"] .legend').getAttribute('data-scale'),
    'probability',
  );
  assert.ok(
    before.some((v, i) => Math.abs(v - after[i]) > 1e-3),
    `attention moved: ${before.map((v) => v.toFixed(3))} → ${after.map((v) => v.toFixed(3))}`,
  );
  await timeline.fill(String(Math.floor(last / 2)));
  const middle = await heatmapValues(page, 'watched-0');
  assert.ok(middle.some((v, i) => v !== before[i]) && middle.some((v, i) => v !== after[i]), 'a middle snapshot');
  // The same pooling weights as links from the pooling query to each token, following the timeline.
  await page.locator('#watched-mode-links').check();
  await page.waitForSelector('[data-testid="watched-links-0"]:not([hidden]) svg line');
  assert.ok(await page.locator('[data-testid="watched-0"]').isHidden(), 'the heatmap makes way');
  assertLinksMatch(await readLinks(page, 'watched-links-0', 'watched-0', 1), 0.005);
  await timeline.fill('0');
  await page.waitForFunction(() => document.querySelector('#train-watched')?.dataset.step === '0');
  assertLinksMatch(await readLinks(page, 'watched-links-0', 'watched-0', 1), 0.005);
  await page.locator('#watched-mode-heatmap').check();
  await page.waitForSelector('[data-testid="watched-0"]:not([hidden])');
  // Play walks the timeline to the end (no reduced motion here).
  await page.locator('#timeline-play').click();
  await page.waitForFunction((n) => document.querySelector('#timeline')?.value === String(n), last, { timeout: 20000 });
  // With reduced motion, Play does not animate: it shows the first snapshot and stays there.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.locator('#timeline-play').click();
  await page.waitForFunction(() => document.querySelector('#timeline')?.value === '0');
  await page.waitForTimeout(600);
  assert.equal(await timeline.inputValue(), '0', 'no playback with reduced motion');
  assert.equal(await page.locator('#timeline-play').textContent(), 'Play');
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio: attention over words and bigrams (no encoder) trains from its link and draws its weights', async () => {
  const { page, problems } = await openStudio(`${SMALL}&enc=none&bigrams=512&workers=2`);
  assert.equal(await page.locator('#set-encoder').inputValue(), 'none');
  assert.equal(await page.locator('#set-bigramBuckets').inputValue(), '512');
  // Two workers exchange the bigram table's gradient every step: the line next to Train says so.
  const recipeLine = page.locator('#train-recipe');
  assert.match(await recipeLine.textContent(), /1 worker trains it faster/);
  await page.locator('#set-workers').selectOption('1');
  await page.locator('#set-workers').dispatchEvent('change');
  assert.doesNotMatch(await recipeLine.textContent(), /worker/);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'diverged']), 'finished');
  assert.match(await page.locator('#train-status').textContent(), /test accuracy \d+\.\d%/);
  // The pooling weights over "<start> the acting was not good", one per word (each word and the
  // bigram ending at it), sum to 1 and are drawn as colours of the 0–1 scale, not left blank.
  const weights = await heatmapValues(page, 'watched-0');
  assert.equal(weights.length, 6);
  assert.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 1) < 1e-4, 'weights sum to 1');
  const drawn = await drawnCells(page, 'watched-0');
  for (const c of drawn) assert.ok(distance(c.rgb, [255, 255, 255]) > 60, `${c.value} drawn as ${c.rgb}: no shading`);
  const order = [...drawn].sort((a, b) => a.value - b.value);
  if (order[order.length - 1].value - order[0].value > 0.1) {
    assert.ok(distance(order[0].rgb, order[order.length - 1].rgb) > 20, 'different weights, different colours');
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio: a CSV by file picker, a malformed CSV names its line, a dropped file (as text) and an aclImdb folder load', async () => {
  const { page, problems } = await openStudio();
  await page
    .locator('#data-upload')
    .setInputFiles({ name: 'reviews.csv', mimeType: 'text/csv', buffer: csv(GOOD_ROWS) });
  await page.waitForFunction(() => document.querySelector('#data-summary')?.textContent.startsWith('reviews.csv'));
  // 50 rows, 10% held out per class (round(2.5) = 3 of each): 44 for training, 22 per class.
  assert.match(await page.locator('#data-summary').textContent(), /44 training reviews, 6 test reviews/);
  assert.deepEqual(await counts(page), [22, 22]);
  assert.equal(await page.locator('input[name="data-source"][value="file"]').isChecked(), true);
  assert.match(page.url(), /data=file/);

  await page
    .locator('#data-upload')
    .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: csv(['good film,positive', 'meh,maybe']) });
  const error = page.locator('#data-error');
  await error.waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.querySelector('#data-error')?.textContent.includes('bad.csv:3'));
  assert.equal(
    await error.textContent(),
    "Could not load the data: bad.csv:3: label 'maybe' is not one of positive, negative, pos, neg, 1, 0",
  );
  assert.equal(await error.getAttribute('role'), 'alert');

  // Drop: a DataTransfer with a File, built in the page; its name is markup that must stay text.
  const name = '<img src=x onerror="window.__pwned=1">.csv';
  const text = csv([...GOOD_ROWS, ...GOOD_ROWS.slice(0, 10)]).toString();
  await page.evaluate(
    ([fileName, body]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([body], fileName, { type: 'text/csv' }));
      const zone = document.querySelector('#data-drop');
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    [name, text],
  );
  await page.waitForFunction((n) => document.querySelector('#data-summary')?.textContent.startsWith(n), name);
  assert.equal(await error.textContent(), '');
  // 60 rows: 54 for training, 27 per class.
  assert.match(await page.locator('#data-summary').textContent(), /54 training reviews, 6 test reviews/);
  assert.deepEqual(await counts(page), [27, 27]);
  assert.equal(await page.locator('.studio img').count(), 0, 'the file name is text, not markup');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);

  // An unpacked aclImdb folder (webkitdirectory): packed into an aclImdb .tar.gz in the page.
  const root = mkdtempSync(path.join(tmpdir(), 'attn-aclimdb-'));
  for (const [half, count] of [
    ['train', 15],
    ['test', 5],
  ]) {
    for (const label of ['pos', 'neg']) {
      mkdirSync(path.join(root, 'aclImdb', half, label), { recursive: true });
      for (let i = 0; i < count; i++) {
        const text = label === 'pos' ? `A warm,\tlovely film ${i}.<br />Great.` : `Dull\nand boring ${i}.`;
        writeFileSync(path.join(root, 'aclImdb', half, label, `${i}_${label === 'pos' ? 9 : 2}.txt`), text);
      }
    }
  }
  writeFileSync(path.join(root, 'aclImdb', 'README'), 'not a review');
  await page.locator('#data-folder').setInputFiles(path.join(root, 'aclImdb'));
  await page.waitForFunction(() =>
    document.querySelector('#data-summary')?.textContent.startsWith('aclImdb-folder.tar.gz'),
  );
  rmSync(root, { recursive: true, force: true });
  // Packed into an archive in the page: its own halves, 30 training and 10 test reviews.
  assert.match(await page.locator('#data-summary').textContent(), /30 training reviews, 10 test reviews/);
  assert.deepEqual(await counts(page), [15, 15]);

  // The uploaded data trains too.
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'diverged']), 'finished');
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio: race mode trains two configurations in two workers, overlays curves, diffs attention', async () => {
  const { page, problems } = await openStudio();
  // The challenger runs in a worker of its own, started for the race and stopped after it.
  const started = [];
  const closed = [];
  let challengerClosed;
  const challengerGone = new Promise((resolve) => (challengerClosed = resolve));
  page.on('worker', (worker) => {
    started.push(worker);
    worker.on('close', () => {
      closed.push(worker);
      challengerClosed();
    });
  });
  await page.locator('#race-kind').selectOption('score');
  await page.getByRole('button', { name: 'Race', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'diverged']), 'finished');
  assert.match(await page.locator('#train-status').textContent(), /Challenger \(score scaled_dot\): \d+\.\d%/);
  const loss = page.locator('[data-testid="chart-loss"]');
  assert.equal(await loss.getAttribute('data-series'), '4');
  const legend = await loss.locator('.chart-legend li').allTextContents();
  assert.ok(
    legend.some((t) => /^ A \(score additive\): training/.test(t)),
    legend.join(' | '),
  );
  assert.ok(
    legend.some((t) => /^ B \(score scaled_dot\): training/.test(t)),
    legend.join(' | '),
  );
  const styles = await loss
    .locator('path.series')
    .evaluateAll((p) => p.map((x) => `${x.getAttribute('stroke')} ${x.getAttribute('stroke-dasharray') ?? ''}`));
  assert.equal(new Set(styles).size, 4, `distinct colour/dash per series: ${styles}`);
  // Both runs drew their training curve.
  const pointsB = await loss
    .locator('path.series')
    .nth(2)
    .evaluate((p) => p.getAttribute('d').split('L').length);
  assert.ok(pointsB > 20, `B's curve has ${pointsB} points`);
  // Watched review 1: rows A, B and B − A, the last the difference of the first two.
  const map = page.locator('[data-testid="watched-0"]');
  assert.deepEqual(await map.locator('tbody th').allTextContents(), ['A', 'B', 'B − A']);
  const values = await heatmapValues(page, 'watched-0');
  const cols = values.length / 3;
  for (let t = 0; t < cols; t++) assert.ok(Math.abs(values[2 * cols + t] - (values[cols + t] - values[t])) < 1e-6);
  assert.ok(
    values.slice(0, cols).some((v, t) => Math.abs(v - values[cols + t]) > 1e-4),
    'A and B attend differently',
  );
  assert.equal(await page.locator('#train-watched .diff-strip').first().locator('.token').count(), cols);
  // What is drawn: strips A, B and B − A set their tokens in one font and size, each token tinted
  // by its weight (A once took the Seq2seq source's large monospace: a dangling selector).
  const strips = await page
    .locator('#train-watched .watched-review')
    .first()
    .locator('.token-strip')
    .evaluateAll((ps) =>
      ps.map((p) => {
        const token = getComputedStyle(p.querySelector('.token'));
        return `${token.fontFamily} ${token.fontSize} ${token.display}`;
      }),
    );
  assert.equal(strips.length, 3);
  assert.equal(new Set(strips).size, 1, strips.join(' | '));
  // B − A is drawn on a fixed diverging scale (its own legend), so small differences stay near the
  // neutral middle; the strip is tinted on the weights' scale, not stretched to its largest difference.
  await page.locator('#timeline').fill('0');
  await page.waitForFunction(() => document.querySelector('#train-watched')?.dataset.step === '0');
  const drawn = await drawnCells(page, 'watched-0');
  for (const c of drawn.slice(2 * cols)) {
    assert.ok(
      distance(c.rgb, NEUTRAL) <= 2 + 600 * Math.abs(c.value),
      `B − A = ${c.value} drawn as ${c.rgb}, far from the neutral ${NEUTRAL}`,
    );
  }
  // The strip's tint as drawn: the alpha of each token's computed background (70 % at full strength).
  const strip = await page
    .locator('#train-watched .diff-strip')
    .first()
    .locator('.token')
    .evaluateAll((spans) =>
      spans.map((s) => {
        const colour = getComputedStyle(s).backgroundColor;
        const numbers = colour.match(/[\d.]+/g).map(Number);
        const alpha = colour.includes('/') || colour.startsWith('rgba') ? numbers.at(-1) : 1;
        return { diff: Math.abs(Number(s.dataset.diff)), alpha: colour === 'rgba(0, 0, 0, 0)' ? 0 : alpha };
      }),
    );
  const largestWeight = Math.max(...drawn.slice(0, 2 * cols).map((c) => c.value));
  for (const { diff, alpha } of strip)
    assert.ok(alpha <= 0.7 * Math.min(1, diff / largestWeight) + 0.01, `|B − A| ${diff} drawn with alpha ${alpha}`);
  assert.deepEqual(await map.locator('.legend').evaluateAll((ls) => ls.map((l) => l.dataset.scale)), [
    'probability',
    'difference',
  ]);
  // Race mode over: the challenger's worker is gone.
  assert.equal(started.length, 1, 'one more worker for the challenger');
  await challengerGone;
  assert.deepEqual(closed, started, 'the challenger worker was terminated');
  assert.equal(page.workers().length, 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio: divergence offers a lower learning rate and the retry uses it', async () => {
  // SMALL pins lr=0.005; the link's first value of a key wins, so replace it.
  const { page, problems } = await openStudio(SMALL.replace('lr=0.005', 'lr=1e20'));
  assert.equal(await page.locator('#set-learningRate').inputValue(), '1e+20');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'diverged']), 'diverged');
  const text = await page.locator('#diverged-message').textContent();
  assert.match(
    text,
    /^training diverged at epoch 1, step \d+ \(.*\); the parameters of the last step .* \(now 1e\+20\)/,
  );
  const retry = page.locator('#retry-lower-lr');
  assert.equal(await retry.textContent(), 'Retry with learning rate 1e+19');
  await retry.click();
  const outcome = await waitForState(page, ['finished', 'failed', 'diverged']);
  assert.equal(await page.locator('#set-learningRate').inputValue(), '1e+19');
  assert.match(page.url(), /lr=1e%2B19/);
  // 1e19 may still diverge on this corpus: then the message names the new rate.
  if (outcome === 'diverged') assert.match(await page.locator('#diverged-message').textContent(), /now 1e\+19/);
  else assert.equal(outcome, 'finished');
  // An out-of-range setting is refused with the engine's message next to the form.
  await page.locator('#set-maxlen').fill('0');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['failed', 'finished']), 'failed');
  assert.match(await page.locator('#settings-error').textContent(), /^Settings rejected: .*maxlen/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio: download / upload a model file; save in browser storage, list, load, delete', async () => {
  const { page, problems } = await openStudio();
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'diverged']), 'finished');
  await page.getByRole('tab', { name: 'Save and load' }).click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator('#model-download').click()]);
  assert.equal(file.suggestedFilename(), 'sentiment-model.attn');
  const bytes = readFileSync(await file.path());
  assert.ok(bytes.length > 1000, `${bytes.length} bytes`);
  // The PyTorch export: one stored zip with the three files in a folder (their contents are
  // checked against PyTorch in tests/js/pytorch_export.test.mjs).
  const [zip] = await Promise.all([page.waitForEvent('download'), page.locator('#model-download-pytorch').click()]);
  assert.equal(zip.suggestedFilename(), 'sentiment-model-pytorch.zip');
  const zipped = readFileSync(await zip.path());
  assert.equal(zipped.subarray(0, 4).toString('latin1'), 'PK\x03\x04');
  for (const name of ['model.safetensors', 'vocab.json', 'model.py']) {
    assert.ok(zipped.includes(`sentiment-model-pytorch/${name}`), name);
  }
  await page.waitForFunction(() =>
    document.querySelector('#save-status')?.textContent.startsWith('PyTorch export made'),
  );
  // After a load the form shows the loaded model's architecture.
  await page.locator('#set-units').fill('16');
  await page.locator('#set-units').dispatchEvent('change');
  await page
    .locator('#model-upload')
    .setInputFiles({ name: 'mine.attn', mimeType: 'application/octet-stream', buffer: bytes });
  await page.waitForFunction(() =>
    document.querySelector('#save-status')?.textContent.startsWith('Loaded the file mine.attn'),
  );
  assert.equal(await page.locator('#set-units').inputValue(), '8');
  // A corrupt file is refused with the engine's message.
  await page
    .locator('#model-upload')
    .setInputFiles({ name: 'bad.attn', mimeType: 'application/octet-stream', buffer: bytes.subarray(0, 100) });
  await page.waitForFunction(() =>
    document.querySelector('#save-error')?.textContent.startsWith('Could not load the file bad.attn: '),
  );

  await page.locator('#store-name').fill('small run');
  await page.locator('#store-save').click();
  await page.waitForSelector('#store-list tr[data-name="small run"]');
  await page.getByRole('button', { name: 'Load small run' }).click();
  await page.waitForFunction(() =>
    document.querySelector('#save-status')?.textContent.startsWith('Loaded “small run”'),
  );
  await page.locator('#store-name').fill('second');
  await page.locator('#store-save').click();
  await page.waitForSelector('#store-list tr[data-name="second"]');
  await page.getByRole('button', { name: 'Delete second' }).click();
  await page.waitForSelector('#store-list tr[data-name="second"]', { state: 'detached' });
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio: a model saved in the browser survives a reload', async () => {
  const { page, problems } = await openStudio();
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'diverged']), 'finished');
  await page.getByRole('tab', { name: 'Save and load' }).click();
  await page.locator('#store-name').fill('kept');
  await page.locator('#store-save').click();
  await page.waitForSelector('#store-list tr[data-name="kept"]');
  await page.reload();
  await page.waitForSelector('.studio-data[data-state="loaded"]', { timeout: 30000 });
  await page.getByRole('tab', { name: 'Save and load' }).click();
  await page.waitForSelector('#store-list tr[data-name="kept"]', { timeout: 10000 });
  await page.getByRole('button', { name: 'Load kept' }).click();
  await page.waitForFunction(() => document.querySelector('#save-status')?.textContent.startsWith('Loaded “kept”'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio: the keyboard reaches the data choice, Train, Pause and the timeline', async () => {
  const { page, problems } = await openStudio(SMALL.replace('epochs=2', 'epochs=300'));
  async function tabUntil(id, limit = 120) {
    await page.evaluate(() => document.activeElement?.blur());
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.id)) === id) return true;
    }
    return false;
  }
  assert.ok(await tabUntil('data-builtin'), 'Tab reaches the data choice');
  await page.keyboard.press('ArrowDown'); // radios: arrows move the choice
  assert.equal(await page.locator('#data-synthetic').isChecked(), true);
  await page.waitForSelector('.studio-data[data-state="loaded"]');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('#data-summary')?.textContent.startsWith('builtin'));
  assert.ok(await tabUntil('train-start'), 'Tab reaches Train');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => Number(document.querySelector('#train-step')?.dataset.step ?? 0) >= 10);
  assert.ok(await tabUntil('train-pause'), 'Tab reaches Pause');
  await page.keyboard.press('Enter');
  assert.equal(await waitForState(page, ['paused']), 'paused');
  assert.ok(await tabUntil('timeline'), 'Tab reaches the timeline');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#train-watched')?.dataset.step === '0');
  await page.locator('#train-cancel').click();
  assert.equal(await waitForState(page, ['cancelled']), 'cancelled');
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio: a dashboard — data and settings beside the training, the rest in keyboard-driven tabs', async () => {
  const { page, problems } = await openStudio();
  const box = (selector) => page.locator(selector).boundingBox();
  // Wide: the side panel (data, settings) is left of the training; the tabs are below both.
  const [side, main, tabs] = await Promise.all(['.studio-side', '.studio-main', '.studio-tabs'].map(box));
  assert.ok(side.x + side.width <= main.x, 'the training is beside the side panel');
  assert.ok(tabs.y >= Math.max(side.y + side.height, main.y + main.height) - 1, 'the tabs are below');
  assert.ok(await page.locator('.studio-side #set-epochs').isVisible(), 'the settings are in the side panel');
  assert.ok(await page.locator('.studio-main #train-start').isVisible(), 'Train is in the main area');
  // Tabs: one selected and in the Tab order; arrows, Home and End move the selection and focus.
  const list = page.getByRole('tablist', { name: 'Model results and storage' });
  const tab = (name) => list.getByRole('tab', { name });
  const selected = () =>
    list.locator('[role="tab"][aria-selected="true"]').evaluateAll((t) => t.map((x) => x.textContent));
  assert.deepEqual(await selected(), ['Explanation']);
  assert.ok(await page.locator('[data-testid="explain-panel"]').isVisible());
  assert.equal(await page.locator('#store-list').isVisible(), false, 'other panels are hidden');
  await tab('Explanation').focus();
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await selected(), ['Test-set errors']);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Test-set errors');
  assert.ok(await page.locator('[data-testid="errors-panel"]').isVisible());
  await page.keyboard.press('End');
  assert.deepEqual(await selected(), ['Save and load']);
  assert.ok(await page.locator('#store-list').isVisible());
  await page.keyboard.press('ArrowRight'); // wraps round
  assert.deepEqual(await selected(), ['Explanation']);
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await selected(), ['Save and load']);
  await page.keyboard.press('Home');
  assert.deepEqual(await selected(), ['Explanation']);
  const panel = await tab('Explanation').getAttribute('aria-controls');
  assert.equal(await page.locator(`#${panel}`).getAttribute('role'), 'tabpanel');
  assert.deepEqual(
    await list.locator('[role="tab"]').evaluateAll((t) => t.map((x) => x.tabIndex)),
    [0, -1, -1],
    'only the selected tab is in the Tab order',
  );
  // Narrow (under 900 px): the panels stack, side panel first, and nothing overflows.
  await page.setViewportSize({ width: 820, height: 1180 });
  const [side2, main2] = await Promise.all(['.studio-side', '.studio-main'].map(box));
  assert.ok(main2.y >= side2.y + side2.height - 1, 'stacked');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
  assert.deepEqual(problems, []);
  await page.close();
});
