// Browser test of the Seq2seq view's Translation tab: a bad pairs file (no tab, empty side, invalid
// UTF-8, a binary) shows the engine's message and loses nothing; the preset trains briefly on the
// built-in English→French corpus and what is drawn is checked — the loss and held-out BLEU charts'
// lines, the alignment matrix's computed colours (a heavy weight and a light one painted apart on
// the fixed 0–1 scale), the beam's candidates list, and the BLEU-by-length figure with one
// line per model trained on the same data; axe finds no serious violation on the trained tab.
// A run on two engine workers (data parallel, docs/data-parallel.md) starts one more worker and
// stops it when it ends, says so, and repeats exactly for the same seed and worker count.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { openPage, startBrowser, watchWorkers } from './support/browser.mjs';

const require = createRequire(import.meta.url);
const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

let env;

before(async () => {
  env = await startBrowser({ bypassCSP: true });
});
after(async () => {
  await env?.close();
});

const READY = '[data-testid="engine-status"][data-state="ready"]';
const TAB = '[data-testid="translation"]';

async function openTranslation() {
  const opened = await openPage(env, '#/seq2seq?tab=translation');
  await opened.page.waitForSelector(READY, { timeout: 30000 });
  await opened.page.waitForSelector(`${TAB}[data-state="idle"]`, { timeout: 30000 });
  return opened;
}

/** Waits for the run to end and says how (a failed run fails the test with the tab's message). */
async function runEnds(page) {
  await page.waitForSelector(`${TAB}:is([data-state="finished"], [data-state="failed"], [data-state="cancelled"])`, {
    timeout: 600000,
  });
  const state = await page.locator(TAB).getAttribute('data-state');
  const errors = await page.locator(`${TAB} .error`).allTextContents();
  assert.equal(state, 'finished', `the run ended ${state}: ${errors.join(' | ')}`);
}

/** Chooses `bytes` as the pairs file through the file input. */
async function chooseFile(page, name, bytes) {
  await page.locator('#mt-file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(bytes) });
}

/** Waits until the data error line reads `pattern` (the engine answered). */
/** The data card's <unk> table as drawn: visible, each cell painted with text, its rates. */
async function unknownTable(page) {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid="mt-unk"]');
    const drawn = (node) => {
      const box = node.getBoundingClientRect();
      const style = getComputedStyle(node);
      return node.checkVisibility() && box.width > 0 && box.height > 0 && style.color !== 'rgba(0, 0, 0, 0)';
    };
    return {
      visible: drawn(table),
      rows: [...table.querySelectorAll('tbody tr')].map((tr) => ({
        label: tr.querySelector('th').textContent,
        cells: [...tr.querySelectorAll('td')].map((td) => ({
          drawn: drawn(td),
          text: td.textContent,
          counts: td.title,
          tokenRate: Number(td.dataset.tokenRate),
          sentenceRate: Number(td.dataset.sentenceRate),
        })),
      })),
    };
  });
}

async function dataErrorMatches(page, pattern) {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid="mt-data-error"]')?.textContent ?? ''),
    pattern.source,
    { timeout: 30000 },
  );
  return page.locator('[data-testid="mt-data-error"]').textContent();
}

test('translation: bad pairs files show the engine’s message and keep the loaded data', async () => {
  const { page, problems } = await openTranslation();
  const good = 'Hello.\tBonjour.\nThank you.\tMerci.\nGood night.\tBonne nuit.\nYes.\tOui.\n';
  await chooseFile(page, 'good.tsv', good);
  await page.waitForSelector(`${TAB}[data-data-name="good.tsv"]`, { timeout: 30000 });
  assert.equal(await page.locator(TAB).getAttribute('data-pairs'), '4');
  const status = await page.locator('[data-testid="mt-data-status"]').textContent();
  assert.match(status, /good\.tsv: 4 pairs/);
  // The <unk> table is drawn: a row per side with its tokenizer, a cell per part, in words.
  const unknown = await unknownTable(page);
  assert.deepEqual(
    unknown.rows.map((r) => r.label),
    ['Source wordsEnglish rules, lowercased', 'Target wordsFrench rules, lowercased'],
  );
  for (const row of unknown.rows) {
    // Fitted on the training pairs: nothing there is unknown; the held-out pairs' words are new.
    assert.equal(row.cells[0].tokenRate, 0, row.label);
    assert.equal(row.cells[0].text, '0.00% of words0.00% of sentences');
    assert.match(row.cells[0].counts, /^0 of \d+ words; 0 of 2 sentences$/);
    assert.ok(row.cells[1].tokenRate > 0, `${row.label}: the held-out words are not in a 2-pair vocabulary`);
  }

  const cases = [
    ['notab.tsv', Buffer.from('Hello.\tBonjour.\nno tab here\n'), /notab\.tsv:2: .*no tab/],
    ['empty.tsv', Buffer.from('Hello.\tBonjour.\n\tMerci.\n'), /empty\.tsv:2: the source .* is empty/],
    ['latin1.txt', Buffer.from([0x48, 0x69, 0x09, 0x43, 0x61, 0x66, 0xe9, 0x0a]), /latin1\.txt:1: invalid UTF-8/],
    [
      'picture.tsv',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      /picture\.tsv: this is not a text file/,
    ],
  ];
  for (const [name, bytes, pattern] of cases) {
    await chooseFile(page, name, bytes);
    const message = await dataErrorMatches(page, pattern);
    assert.match(message, pattern, name);
    // Nothing lost: the good file is still the data, with its summary.
    assert.equal(await page.locator(TAB).getAttribute('data-data-name'), 'good.tsv', name);
    assert.equal(await page.locator('[data-testid="mt-data-status"]').textContent(), status, name);
  }
  // The message is in an alert region a screen reader announces.
  assert.equal(await page.locator('[data-testid="mt-data-error"]').getAttribute('role'), 'alert');
  assert.deepEqual(problems, []);
});

// `count` pairs with distinct English sentences (the split holds out whole sources).
function largeFile(count) {
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(`Room ${i} is open today.\tLa salle ${i} est ouverte aujourd'hui.`);
  return `${lines.join('\n')}\n`;
}

/** The Train card as drawn: the model chosen, the epochs proposed, the preset's line. */
async function trainCard(page) {
  return {
    presets: await page.locator(TAB).getAttribute('data-presets'),
    model: await page.locator('#mt-model').inputValue(),
    epochs: await page.locator('#mt-epochs').inputValue(),
    hint: await page.locator('[data-testid="mt-preset"]').textContent(),
  };
}

test('translation: a large file gets the large-file presets and the Transformer; the corpus gets its own back', async () => {
  const { page, problems } = await openTranslation();
  const corpus = await trainCard(page);
  assert.equal(corpus.model, 'bahdanau');
  assert.equal(corpus.epochs, '6');
  assert.doesNotMatch(corpus.hint, /large file/);

  // 24,000 pairs: 1,000 held-out sources, 23,000 training pairs; the preset is sized for 160,000,
  // so the tab proposes round(160,000 / 23,000) = 7 epochs of it.
  await chooseFile(page, 'large.tsv', largeFile(24000));
  await page.waitForSelector(`${TAB}[data-data-name="large.tsv"]`, { timeout: 60000 });
  assert.equal(await page.locator(TAB).getAttribute('data-pairs'), '24000');
  assert.match(
    await page.locator('[data-testid="mt-data-status"]').textContent(),
    /^large\.tsv: 24,000 pairs — 23,000 to train on, 1,000 held out; vocabularies of 4,000 source and 4,000 target/,
  );
  const large = await trainCard(page);
  assert.deepEqual(
    { presets: large.presets, model: large.model, epochs: large.epochs },
    { presets: 'file', model: 'transformer', epochs: '7' },
  );
  assert.match(large.hint, /^A large file: presets for up to 160,000 training pairs and 4,000 words a side/);
  assert.match(large.hint, /d = 96/);
  assert.ok(await page.locator('[data-testid="mt-preset"]').isVisible(), 'the preset’s line is drawn');

  // The built-in corpus again: its presets, its model, its epochs.
  await page.getByRole('button', { name: 'Use the built-in corpus' }).click();
  await page.waitForSelector(`${TAB}[data-presets="corpus"][data-data-name="pairs-en-fr.tsv"]`, { timeout: 60000 });
  assert.deepEqual(await trainCard(page), corpus);

  // A model the learner picked stays picked when a large file comes.
  await page.locator('#mt-model').selectOption('luong');
  await chooseFile(page, 'large.tsv', largeFile(24000));
  await page.waitForSelector(`${TAB}[data-presets="file"]`, { timeout: 60000 });
  const picked = await trainCard(page);
  assert.equal(picked.model, 'luong');
  assert.equal(picked.epochs, '7');
  assert.deepEqual(problems, []);
});

test('translation: the preset trains on the built-in corpus; loss, BLEU, alignment, candidates and the figure are drawn', async () => {
  const { page, problems } = await openTranslation();
  const tab = page.locator(TAB);
  assert.equal(await tab.getByRole('button', { name: 'Translate', exact: true }).isDisabled(), true);
  await page.locator('#mt-model').selectOption('bahdanau');
  await page.locator('#mt-epochs').fill('2');
  await page.locator('#mt-train').click();
  await runEnds(page);
  assert.match(await page.locator('[data-testid="mt-data-status"]').textContent(), /Built-in corpus .*4,129 pairs/);
  // The built-in corpus' <unk> rates, drawn per side: the numbers shown are the engine's.
  const unknown = await unknownTable(page);
  assert.equal(unknown.visible, true, 'the <unk> table is drawn');
  assert.equal(unknown.rows.length, 2);
  for (const row of unknown.rows) {
    assert.equal(row.cells.length, 2, row.label);
    for (const cell of row.cells) {
      assert.equal(cell.drawn, true, `${row.label}: its cells are painted`);
      assert.equal(
        cell.text,
        `${(100 * cell.tokenRate).toFixed(2)}% of words${(100 * cell.sentenceRate).toFixed(2)}% of sentences`,
      );
    }
  }
  const target = unknown.rows[1].cells;
  assert.ok(target[1].tokenRate > 0 && target[1].tokenRate < 0.2, `held-out French <unk> share ${target[1].tokenRate}`);

  // The loss fell and its chart has one line; the BLEU chart has a point per epoch.
  const loss = await page.evaluate(() => {
    const o = document.querySelector('#mt-loss');
    return { first: Number(o.dataset.firstLoss), last: Number(o.dataset.loss) };
  });
  assert.ok(loss.last < loss.first, `the loss falls: ${loss.first} → ${loss.last}`);
  const lossChart = page.locator('[data-testid="mt-loss-chart"]');
  assert.equal(await lossChart.locator('svg path.series').count(), 1);
  assert.match(await lossChart.locator('svg path.series').getAttribute('d'), /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){10,}/);
  const bleuEpochs = await page.locator('#mt-bleu').getAttribute('data-epochs');
  assert.equal(bleuEpochs, '2', 'a held-out BLEU after each of the 2 epochs');
  const bleu = Number(await page.locator('#mt-bleu').getAttribute('data-bleu'));
  assert.ok(bleu > 5 && bleu <= 100, `two epochs of Bahdanau learn something: BLEU ${bleu}`);
  const bleuChart = page.locator('[data-testid="mt-bleu-chart"]');
  assert.equal(await bleuChart.locator('.chart-legend li').count(), 1);
  assert.match(await bleuChart.locator('.chart-legend').textContent(), /Bahdanau/);

  // The finished run translated the example: French text, the beam's candidates, the alignment.
  await page.waitForFunction(() => (document.querySelector('#mt-output')?.textContent ?? '').length > 0, null, {
    timeout: 60000,
  });
  const candidates = page.locator('[data-testid="mt-candidates"] li:not(.hint)');
  const n = await candidates.count();
  assert.ok(n >= 1, 'the beam lists its candidates');
  assert.equal(
    (await candidates.first().locator('.beam-candidate-text').textContent()).trim(),
    (await page.locator('#mt-output').textContent()).trim(),
    'the first candidate is the translation shown',
  );
  assert.equal(await page.locator('[data-testid="mt-greedy"]').isVisible(), true, 'greedy’s answer beside the beam');

  // The alignment: one row per output token, one column per source token, colours from the
  // fixed 0–1 scale — each row's most attended cell is painted differently from its least.
  const map = await page.evaluate(() => {
    const table = document.querySelector('[data-testid="mt-alignment"] table');
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => ({
        value: Number(td.dataset.value),
        rgb: getComputedStyle(td).backgroundColor,
      })),
    );
    return { rows, visible: table.checkVisibility() };
  });
  assert.equal(map.visible, true);
  assert.ok(map.rows.length >= 3, `a row per French token, got ${map.rows.length}`);
  assert.ok(
    map.rows[0].length >= 4,
    `a column per English token ("He doesn't like apples."), got ${map.rows[0].length}`,
  );
  for (const row of map.rows) {
    const sum = row.reduce((a, c) => a + c.value, 0);
    assert.ok(Math.abs(sum - 1) < 1e-3, `each row sums to 1, got ${sum}`);
    const max = row.reduce((a, c) => (c.value > a.value ? c : a));
    const min = row.reduce((a, c) => (c.value < a.value ? c : a));
    if (max.value - min.value > 0.3) assert.notEqual(max.rgb, min.rgb, 'a strong and a weak weight differ in colour');
  }
  // Readable without numbers in every cell: the values are on demand (accessible names), not text.
  assert.equal(await page.locator('[data-testid="mt-alignment"] td').first().textContent(), '');

  // The figure: BLEU by source length, this model's line.
  const figure = page.locator('[data-testid="mt-length-chart"]');
  assert.equal(await figure.isVisible(), true);
  assert.equal(await figure.locator('.chart-legend li').count(), 1);
  await figure.locator('details summary').click();
  await figure.locator('.chart-table tbody tr').first().waitFor();
  assert.ok((await figure.locator('.chart-table tbody tr').count()) >= 2, 'at least the 1–5 and 6–10 word buckets');

  // On a phone the trained tab does not scroll sideways (a wide map scrolls inside its own box).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => window.innerWidth === 390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 390 px`);
  await page.setViewportSize({ width: 1280, height: 900 });

  // A second model on the same data adds its line to both charts.
  await page.locator('#mt-model').selectOption('none');
  await page.locator('#mt-epochs').fill('1');
  await page.locator('#mt-train').click();
  await page.waitForSelector(`${TAB}[data-state="training"]`, { timeout: 60000 });
  await runEnds(page);
  assert.equal(await figure.locator('.chart-legend li').count(), 2);
  assert.match(await figure.locator('.chart-legend').textContent(), /RNNenc.*Bahdanau|Bahdanau.*RNNenc/s);
  const paths = await figure
    .locator('svg path.series')
    .evaluateAll((ps) =>
      ps.filter((p) => (p.getAttribute('d') ?? '').includes('L')).map((p) => getComputedStyle(p).stroke),
    );
  assert.ok(new Set(paths).size >= 2, `two lines in two colours, got ${JSON.stringify(paths)}`);
  // Without attention there is no alignment, and the tab says so.
  await page.waitForSelector('[data-testid="mt-no-alignment"]:not([hidden])', { timeout: 60000 });

  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document.querySelector('[data-testid="view-seq2seq"]'), {
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'empty-table-header')
      .map(
        (v) =>
          `${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(' | ')}`,
      );
  });
  assert.deepEqual(violations, []);
  assert.deepEqual(problems, []);
});

test('translation: the Transformer shows cross-attention per layer and head and its masked self-attention', async () => {
  const { page, problems } = await openTranslation();
  await page.locator('#mt-model').selectOption('transformer');
  await page.locator('#mt-epochs').fill('1');
  await page.locator('#mt-train').click();
  await runEnds(page);
  await page.waitForSelector('[data-testid="mt-alignment"] td', { timeout: 60000 });
  // A block and a head to choose (the heads' mean first), the last block shown.
  const layers = await page.locator('#mt-layer option').count();
  const heads = await page.locator('#mt-head option').count();
  assert.equal(layers, 2, 'the preset has 2 decoder blocks');
  assert.equal(heads, 5, 'the mean of the heads, then 4 heads');
  assert.equal(await page.locator('#mt-layer').inputValue(), '1');

  const readMap = (testId) =>
    page.evaluate((id) => {
      const rows = [...document.querySelectorAll(`[data-testid="${id}"] tbody tr`)];
      return rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value)));
    }, testId);
  const cross = await readMap('mt-alignment');
  const self = await readMap('mt-self-attention');
  assert.ok(cross.length >= 2 && cross[0].length >= 4, 'French words × English words');
  assert.equal(self.length, cross.length, 'one self-attention row per output word');
  assert.equal(self[0].length, self.length, 'square: each step over the decoder inputs');
  // Masked: step t never attends to a later input (the engine's no-peeking guarantee, drawn).
  self.forEach((row, t) => row.forEach((w, j) => j > t && assert.equal(w, 0, `row ${t} column ${j}`)));
  for (const row of [...cross, ...self]) {
    const sum = row.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-3, `rows sum to 1, got ${sum}`);
  }
  // Another head redraws the map from that head's weights.
  const before = JSON.stringify(cross);
  await page.locator('#mt-head').selectOption('0');
  await page.waitForFunction(
    (b) =>
      JSON.stringify(
        [...document.querySelectorAll('[data-testid="mt-alignment"] tbody tr')].map((tr) =>
          [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value)),
        ),
      ) !== b,
    before,
  );
  assert.deepEqual(problems, []);
});

/** Trains the chosen model for one epoch on `workers` workers; what the tab shows after it. */
async function trainOnce(page, workers) {
  await page.locator('#mt-workers').selectOption(String(workers));
  await page.locator('#mt-epochs').fill('1');
  await page.locator('#mt-train').click();
  await page.waitForSelector(`${TAB}[data-state="training"]`, { timeout: 60000 });
  await runEnds(page);
  return page.evaluate(() => ({
    workers: document.querySelector('[data-testid="translation"]').dataset.workers,
    speed: document.querySelector('#mt-speed').textContent,
    loss: document.querySelector('#mt-loss').dataset.loss,
    firstLoss: document.querySelector('#mt-loss').dataset.firstLoss,
    bleu: document.querySelector('#mt-final').dataset.bleu,
    final: document.querySelector('#mt-final').textContent,
    lossPath: document.querySelector('[data-testid="mt-loss-chart"] svg path.series')?.getAttribute('d'),
  }));
}

test('translation parallel: two workers train the Transformer, repeat it exactly, and one worker trains too', async () => {
  const { page, problems } = await openTranslation();
  // Chromium reports the machine's cores: two or more here, so two workers by default.
  assert.equal(await page.locator('#mt-workers').inputValue(), '2');
  await page.locator('#mt-model').selectOption('transformer');
  const workers = watchWorkers(page);

  const first = await trainOnce(page, 2);
  assert.equal(first.workers, '2');
  assert.match(first.speed, /^[\d,]+ pairs\/s on 2 workers$/);
  assert.ok(Number(first.loss) < Number(first.firstLoss), `the loss falls: ${first.firstLoss} → ${first.loss}`);
  assert.ok(Number(first.bleu) >= 0);
  // The scores after training say whose parameters they are (the best validation epoch's).
  assert.match(first.final, /\. Kept the parameters of epoch 1 of 1, the best validation exact match\.$/);
  assert.equal(workers.length, 1, 'one more engine worker for the run');
  await workers[0].closed;

  // Deterministic for a seed and a worker count: the same numbers and the same loss curve again.
  const again = await trainOnce(page, 2);
  assert.deepEqual(
    { ...again, speed: undefined },
    { ...first, speed: undefined },
    'the same loss, BLEU and loss curve on 2 workers',
  );
  assert.equal(workers.length, 2);
  await workers[1].closed;

  const single = await trainOnce(page, 1);
  assert.equal(single.workers, '1');
  assert.match(single.speed, /^[\d,]+ pairs\/s on 1 worker$/);
  assert.equal(workers.length, 2, 'no extra worker for one');
  assert.ok(Number(single.loss) < Number(single.firstLoss));
  assert.deepEqual(problems, []);
});
