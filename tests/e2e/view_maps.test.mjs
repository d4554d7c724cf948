// Browser tests of what the maps draw (issue 25, items 7, 8 and 14): big maps are pictures with
// numbers on demand, heads sit side by side, the seq2seq alignment fits its panel on a desktop
// and a phone, every map has a legend, scales are fixed or diverging where the values ask for it;
// and the Seq2seq view's decoding says what a learner needs: a message next to an empty input,
// warnings for an input unlike the training data, greedy against beam, a cleared decode after a
// new model. Colours are read back as the browser computed them.
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

const NEUTRAL = [247, 247, 247]; // the diverging scale's middle (palette.ts)
const TOP = [253, 231, 37]; // viridis at 1
const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Each cell of a map as drawn: its value, its visible text, its computed background [r, g, b]. */
function cellsOf(page, testId) {
  return page.locator(`[data-testid="${testId}"] tbody tr`).evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => ({
        value: Number(td.dataset.value),
        text: td.innerText.trim(),
        rgb: getComputedStyle(td)
          .backgroundColor.match(/[\d.]+/g)
          .slice(0, 3)
          .map(Number),
      })),
    ),
  );
}

test('transformer: heads side by side at 1366×900, colours on a fixed 0–1 scale, numbers on hover', async () => {
  const { page, problems } = await openPage(env, '#/transformer');
  await page.setViewportSize({ width: 1366, height: 900 });
  const view = page.locator('[data-testid="view-transformer"]');
  await page.locator('#tf-layers').selectOption('2');
  await page.locator('#tf-heads').selectOption('2');
  await page.locator('#tf-epochs').fill('1');
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.transformer[data-state="finished"]', { timeout: 120000 });
  await page.waitForFunction(() =>
    /Test accuracy/.test(document.querySelector('.transformer .train-status')?.textContent),
  );
  await page.waitForSelector('[data-testid="tf-avg-1"] tbody td');

  // Small multiples: a layer's two heads and their mean share a row.
  const boxes = await Promise.all(
    ['tf-head-0-0', 'tf-head-0-1', 'tf-avg-0'].map((id) => page.locator(`[data-testid="${id}"]`).boundingBox()),
  );
  for (const box of boxes.slice(1)) {
    assert.ok(Math.abs(box.y - boxes[0].y) < 2, `same row: ${JSON.stringify(boxes)}`);
    assert.ok(box.x > boxes[0].x + boxes[0].width - 1, 'side by side, not stacked');
  }

  // A picture, not a wall of numbers: no cell writes its value; each colour is the value's on 0–1.
  const cells = (await cellsOf(page, 'tf-head-0-0')).flat();
  assert.ok(cells.length >= 100, `${cells.length} cells`);
  assert.deepEqual(
    cells.filter((c) => c.text !== ''),
    [],
    'no cell shows a number until hovered',
  );
  const uniformish = cells.filter((c) => c.value < 0.2);
  assert.ok(uniformish.length > 0);
  for (const c of uniformish) assert.ok(distance(c.rgb, TOP) > 100, `${c.value} drawn near the top colour: ${c.rgb}`);
  const legend = page.locator('[data-testid="tf-head-0-0-legend"] .legend');
  assert.equal(await legend.getAttribute('data-scale'), 'probability');
  assert.match(await legend.textContent(), /^0.*1.*fixed scale/);

  // Hover: the readout gives rounded numbers, never a raw double.
  await page.locator('[data-testid="tf-head-0-1"] tbody tr').nth(1).locator('td').nth(2).hover();
  const explained = await page.locator('[data-testid="tf-layer-0-explain"]').textContent();
  assert.match(explained, /engine: α = \d\.\d{3}/);
  assert.doesNotMatch(explained, /\d\.\d{6,}/, `raw doubles in ${explained}`);

  // Positional encodings (signed): diverging around 0 at a fixed ±1, and 0 is the neutral colour.
  const pe = page.locator('[data-testid="tf-positional-legend"] .legend');
  assert.equal(await pe.getAttribute('data-scale'), 'signed');
  assert.equal(await pe.getAttribute('data-stretched'), null);
  const zero = (await cellsOf(page, 'tf-positional')).flat().find((c) => Math.abs(c.value) < 0.01);
  assert.ok(distance(zero.rgb, NEUTRAL) < 8, `${zero.value} drawn as ${zero.rgb}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('seq2seq: empty and foreign inputs, greedy against beam, an alignment that fits its panel, a cleared decode', async () => {
  const { page, problems } = await openPage(env, '#/seq2seq');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 15000 });
  const view = page.locator('[data-testid="view-seq2seq"]');
  await page.locator('#s2s-task').selectOption('reverse');
  await page.locator('#s2s-epochs').fill('1');
  await page.emulateMedia({ reducedMotion: 'reduce' }); // each decode shows its last step at once
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.seq2seq[data-state="finished"]', { timeout: 120000 });
  const decode = view.getByRole('button', { name: 'Decode' });

  // An empty input: a message right under the input, not the engine's message far away.
  await page.locator('#s2s-input').fill('');
  await decode.click();
  const message = page.locator('#s2s-input-error');
  await message.waitFor();
  assert.match(await message.textContent(), /Type an input to decode/);
  assert.equal(await page.locator('#s2s-input').getAttribute('aria-invalid'), 'true');
  const [input, note] = await Promise.all([page.locator('#s2s-input').boundingBox(), message.boundingBox()]);
  assert.ok(note.y - (input.y + input.height) < 40, `the message is next to the input: ${input.y} / ${note.y}`);
  assert.equal(await page.locator('.seq2seq .error').textContent(), '');

  // An input unlike the training data gets its output and a warning saying why not to trust it.
  await page.locator('#s2s-input').fill('hello');
  await decode.click();
  await page.waitForSelector('.seq2seq[data-out-of-domain="1"]');
  assert.match(await page.locator('[data-testid="s2s-warnings"]').textContent(), /digit strings only/);
  assert.equal(await message.isHidden(), true);

  // Beam search is compared with greedy on the same input.
  await page.locator('#s2s-input').fill('40713');
  await page.locator('#s2s-beam').selectOption('3');
  await decode.click();
  await page.waitForSelector('[data-testid="s2s-searches"]:not([hidden])');
  const rows = await page.locator('[data-testid="s2s-searches"] tbody tr th').allTextContents();
  assert.deepEqual(rows, ['Greedy', 'Beam, width 3 (its best)']);
  assert.match(await page.locator('[data-testid="s2s-searches"] caption').textContent(), /(differ|agree)/);
  // ... and the beam's hypotheses are listed, best first: the first is the beam's output, the
  // scores do not increase down the list, and the best is drawn in bold.
  const hypotheses = page.locator('[data-testid="s2s-candidates"] li');
  assert.equal(await hypotheses.first().isVisible(), true, 'the beam lists its hypotheses');
  const listed = await hypotheses.allTextContents();
  assert.ok(listed.length >= 1 && listed.length <= 3, `${listed.length} hypotheses for width 3`);
  const beamOutput = await page
    .locator('[data-testid="s2s-searches"] tbody tr')
    .nth(1)
    .locator('td')
    .first()
    .textContent();
  assert.equal(await hypotheses.first().locator('.beam-candidate-text').textContent(), beamOutput);
  const scores = listed.map((text) => Number(text.match(/score (-?\d+\.\d{3})/)[1]));
  for (let i = 1; i < scores.length; i++) assert.ok(scores[i] <= scores[i - 1], `scores best first: ${scores}`);
  const weight = (i) =>
    hypotheses
      .nth(i)
      .locator('.beam-candidate-text')
      .evaluate((e) => getComputedStyle(e).fontWeight);
  assert.equal(await weight(0), '600', 'the best hypothesis is bold');
  if (listed.length > 1) assert.equal(await weight(1), '400');
  // An input like the training inputs is not flagged (after one epoch the model may still be unsure:
  // that is said separately).
  assert.equal(await view.locator('.seq2seq').getAttribute('data-out-of-domain'), '0');
  assert.doesNotMatch(await page.locator('[data-testid="s2s-warnings"]').textContent(), /digit strings only/);

  // A long input's alignment fits its panel (it does not scroll sideways) on a desktop and a phone,
  // and its cells are colours with the numbers on hover.
  await page.locator('#s2s-beam').selectOption('1');
  await page.locator('#s2s-input').fill('4071385920146738');
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await decode.click();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="s2s-alignment"] thead th[scope="col"]').length === 16,
    );
    const fit = await page.locator('[data-testid="s2s-alignment"]').evaluate((figure) => {
      const panel = figure.closest('.view-part');
      return {
        figure: [figure.scrollWidth, figure.clientWidth],
        panel: [panel.scrollWidth, panel.clientWidth],
        page: [document.documentElement.scrollWidth, innerWidth],
      };
    });
    assert.ok(fit.figure[0] <= fit.figure[1] + 1, `${width}px: the map scrolls: ${JSON.stringify(fit)}`);
    assert.ok(fit.panel[0] <= fit.panel[1] + 1, `${width}px: the panel scrolls: ${JSON.stringify(fit)}`);
    assert.ok(fit.page[0] <= fit.page[1], `${width}px: the page scrolls: ${JSON.stringify(fit)}`);
  }
  const cells = (await cellsOf(page, 's2s-alignment')).flat();
  assert.deepEqual(
    cells.filter((c) => c.text !== ''),
    [],
    'no number in the cells',
  );
  await page.locator('[data-testid="s2s-alignment"] tbody tr').first().locator('td').first().hover();
  assert.match(
    await page.locator('[data-testid="s2s-alignment-explain"]').textContent(),
    /: (0|1|\d\.\d{3}|\d\.\d\de-\d+)$/,
  );

  // A second model: the first one's decode goes.
  await page.setViewportSize({ width: 1366, height: 900 });
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.seq2seq[data-state="training"]');
  assert.equal(await page.locator('#s2s-output').textContent(), '');
  assert.equal(await page.locator('[data-testid="s2s-alignment"]').isHidden(), true);
  assert.equal(await page.locator('[data-testid="s2s-searches"]').isHidden(), true);
  assert.equal(await page.locator('[data-testid="s2s-candidates"]').isHidden(), true);
  await page.waitForSelector('.seq2seq[data-state="finished"]', { timeout: 120000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('lesson 6: every scoring function on its own diverging scale, so none is flat', async () => {
  const { page, problems } = await openPage(env, 'course.html#lesson-6');
  const figure = page.locator('[data-testid="figure-0"]');
  await figure.locator('tbody td').first().waitFor({ timeout: 30000 });
  // One map per scoring function (its title ends in "scores"), then the softmax map on 0–1.
  const scoreMaps = [];
  for (let i = 0; ; i++) {
    const map = page.locator(`[data-testid="figure-0-${i}"]`);
    if ((await map.count()) === 0) break;
    if ((await map.locator('.legend').first().getAttribute('data-scale')) === 'signed') scoreMaps.push(i);
  }
  assert.ok(scoreMaps.length >= 5, `score maps on a signed scale: ${scoreMaps.join(', ')}`);
  for (const i of scoreMaps) {
    const rows = await cellsOf(page, `figure-0-${i}`);
    for (const row of rows) {
      const spread = Math.max(...row.map((c) => distance(c.rgb, row[0].rgb)));
      assert.ok(spread > 40, `map ${i}: a row drawn flat: ${JSON.stringify(row)}`);
    }
  }
  assert.deepEqual(problems, []);
  await page.close();
});
