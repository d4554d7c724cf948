// Attention that moves, in Debian's Chromium: a heatmap given new values blends each cell's colour
// from the old to the new one, the Lab's weight bars grow or shrink through intermediate heights,
// and a Seq2seq decode slides a highlight over the source to each step's most attended character
// (CSS transitions); with prefers-reduced-motion each of them jumps. The heatmap and bars are
// checked on the Attention Lab, whose maps get new values (same shape) when the decoder state is
// edited. The tests follow the transitions' own events and animation frames, never a timer.
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

const CELL = '[data-testid="heatmap-scores"] tbody td';
const BEFORE = '927.0|397.0|148.0|929.0';
// s = [6, 1, 20]: the scores become 930, 456, 149, 933 (tests/e2e/attention_lab.test.mjs).
const AFTER = '930.0|456.0|149.0|933.0';

async function waitForScores(page, want) {
  await page.waitForFunction(
    ([selector, expected]) => [...document.querySelectorAll(selector)].map((c) => c.textContent).join('|') === expected,
    [CELL, want],
    { timeout: 15000 },
  );
}

/**
 * Starts recording, into window[name], the transitions of `property` on the element
 * `selector`[index] and its drawn value on every animation frame: its background colour, or its
 * height on screen (which includes a transform).
 */
async function watch(page, { selector, index, property, name }) {
  await page.evaluate(
    ({ selector, index, property, name }) => {
      const node = document.querySelectorAll(selector)[index];
      const drawn = () =>
        property === 'transform' ? node.getBoundingClientRect().height : getComputedStyle(node).backgroundColor;
      // `ended` is set by transitionend; `done` only once a frame has been sampled after it, so a
      // test that waits for `done` never reads the samples between the event and the next frame.
      const record = { from: drawn(), samples: [], events: [], ended: false, done: false };
      window[name] = record;
      for (const type of ['transitionrun', 'transitionstart', 'transitionend']) {
        node.addEventListener(type, (event) => {
          if (event.propertyName !== property) return;
          record.events.push(type);
          if (type === 'transitionend') record.ended = true;
        });
      }
      const sample = () => {
        record.samples.push(drawn());
        if (record.ended) record.done = true;
        else requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    },
    { selector, index, property, name },
  );
}

/** Cell 1 of the score map. */
const watchCell = (page) =>
  watch(page, { selector: CELL, index: 1, property: 'background-color', name: '__cellMotion' });

const channels = (colour) =>
  colour
    .match(/[\d.]+/g)
    .slice(0, 3)
    .map(Number);

test('heatmap: between two snapshots a cell colour passes through intermediate values', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await waitForScores(page, BEFORE);
  await watchCell(page);
  await page.getByLabel('decoder state s, component 1').fill('6');
  await waitForScores(page, AFTER);
  await page.waitForFunction(() => window.__cellMotion.done, null, { timeout: 15000 });
  const { from, samples, events, to } = await page.evaluate((selector) => {
    const cell = document.querySelectorAll(selector)[1];
    return { ...window.__cellMotion, to: cell.style.backgroundColor };
  }, CELL);
  assert.notEqual(from, to, 'the new score changes the colour');
  assert.deepEqual(events, ['transitionrun', 'transitionstart', 'transitionend']);
  assert.equal(samples.at(-1), to, 'the transition ends on the new colour');
  const [a, b] = [channels(from), channels(to)];
  const between = samples.filter((s) => s !== from && s !== to);
  assert.ok(between.length > 0, `no intermediate colour among ${samples.join(', ')}`);
  for (const s of between) {
    channels(s).forEach((x, i) => {
      assert.ok(x >= Math.min(a[i], b[i]) - 1 && x <= Math.max(a[i], b[i]) + 1, `${s} between ${from} and ${to}`);
    });
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('heatmap: with prefers-reduced-motion the colour jumps to the new value', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await waitForScores(page, BEFORE);
  await watchCell(page);
  await page.getByLabel('decoder state s, component 1').fill('6');
  await waitForScores(page, AFTER);
  // Two animation frames after the new values: any transition would have fired transitionrun.
  const { from, now, to, events } = await page.evaluate(
    (selector) =>
      new Promise((resolve) => {
        const cell = document.querySelectorAll(selector)[1];
        const now = getComputedStyle(cell).backgroundColor;
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve({ ...window.__cellMotion, now, to: cell.style.backgroundColor })),
        );
      }),
    CELL,
  );
  assert.notEqual(from, to, 'the new score changes the colour');
  assert.equal(now, to, 'the computed colour is the new one at once');
  assert.deepEqual(events, [], 'no transition runs');
  assert.deepEqual(problems, []);
  await page.close();
});

// ---- Weight bars (the Lab's "Weights α as bars"): the height is a transform that interpolates ----

const BAR = '[data-testid="lab-weight-bars"] .weight-bar';

/** Bar 0 (α₁). */
const watchBar = (page) => watch(page, { selector: BAR, index: 0, property: 'transform', name: '__barMotion' });

test('weight bars: between two snapshots a bar passes through intermediate heights', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await waitForScores(page, BEFORE);
  await page.waitForSelector(`${BAR}[data-weight]`);
  await watchBar(page);
  await page.getByLabel('decoder state s, component 1').fill('6');
  await waitForScores(page, AFTER);
  await page.waitForFunction(() => window.__barMotion.done, null, { timeout: 15000 });
  const { from, samples, events, to, weight } = await page.evaluate((selector) => {
    const bar = document.querySelector(selector);
    return { ...window.__barMotion, to: bar.getBoundingClientRect().height, weight: Number(bar.dataset.weight) };
  }, BAR);
  // α₁ goes from 0.119 (scores 927, 397, 148, 929) to 0.047 (930, 456, 149, 933).
  assert.ok(Math.abs(weight - 0.0474) < 1e-3, `α₁ = ${weight}`);
  assert.ok(from - to > 3, `the bar gets shorter: ${from} → ${to}`);
  assert.deepEqual(events, ['transitionrun', 'transitionstart', 'transitionend']);
  assert.ok(Math.abs(samples.at(-1) - to) < 0.01, 'the transition ends on the new height');
  const between = samples.filter((h) => h < from - 0.1 && h > to + 0.1);
  assert.ok(between.length > 0, `no intermediate height among ${samples.join(', ')}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('weight bars: with prefers-reduced-motion the bar jumps to the new height', async () => {
  const { page, problems } = await openPage(env, '#/lab');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await waitForScores(page, BEFORE);
  await page.waitForSelector(`${BAR}[data-weight]`);
  await watchBar(page);
  await page.getByLabel('decoder state s, component 1').fill('6');
  await waitForScores(page, AFTER);
  const { from, now, to, events } = await page.evaluate(
    (selector) =>
      new Promise((resolve) => {
        const bar = document.querySelector(selector);
        const now = bar.getBoundingClientRect().height;
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve({ ...window.__barMotion, now, to: bar.getBoundingClientRect().height })),
        );
      }),
    BAR,
  );
  assert.ok(from - to > 3, `the bar gets shorter: ${from} → ${to}`);
  assert.equal(now, to, 'the drawn height is the new one at once');
  assert.deepEqual(events, [], 'no transition runs');
  assert.deepEqual(problems, []);
  await page.close();
});

// ---- Seq2seq decoding: a highlight slides over the source to each step's most attended character ----

/**
 * Records, from now on, every place the highlight is sent to (its inline transform) and where it
 * is drawn on every animation frame (its computed transform), until the decode shows its last
 * step and no transition is running.
 */
async function watchFocus(page) {
  await page.evaluate(() => {
    const view = document.querySelector('.seq2seq');
    const focus = view.querySelector('.s2s-focus');
    const record = { targets: [], samples: [], events: [], running: 0, done: false, checks: [] };
    window.__focusMotion = record;
    const target = () => {
      const m = /translate\(([-\d.]+)px, ([-\d.]+)px\) scaleX\(([-\d.]+)\)/.exec(focus.style.transform);
      return m ? { x: Number(m[1]), y: Number(m[2]), w: Number(m[3]) } : null;
    };
    new MutationObserver(() => {
      const t = target();
      if (t && !record.targets.some((o) => o.x === t.x && o.w === t.w)) record.targets.push(t);
      // Where it is drawn right after the step (the frame after): equal to the target when it jumps.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => record.checks.push({ target: t, drawn: getComputedStyle(focus).transform })),
      );
    }).observe(focus, { attributes: true, attributeFilter: ['style'] });
    for (const type of ['transitionrun', 'transitionstart', 'transitionend', 'transitioncancel']) {
      focus.addEventListener(type, (event) => {
        if (event.propertyName !== 'transform') return;
        record.events.push(type);
        if (type === 'transitionrun') record.running += 1;
        if (type === 'transitionend' || type === 'transitioncancel') record.running -= 1;
      });
    }
    const sample = () => {
      record.samples.push(getComputedStyle(focus).transform);
      const last = view.dataset.decodeStep !== undefined && view.dataset.decodeStep === view.dataset.decodeSteps;
      if (last && record.running === 0 && record.checks.length >= record.targets.length) record.done = true;
      else requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
}

/** matrix(a, b, c, d, e, f) → {x: e, w: a}. */
const placed = (matrix) => {
  const [a, , , , e] = matrix.match(/[-\d.e]+/g).map(Number);
  return { x: e, w: a };
};

test('seq2seq: decoding slides a highlight over the source (motion) and jumps it (reduced motion)', async () => {
  const { page, problems } = await openPage(env, '#/seq2seq');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 30000 });
  const view = page.locator('[data-testid="view-seq2seq"]');
  await page.locator('#s2s-task').selectOption('reverse');
  await page.locator('#s2s-attention').selectOption('bahdanau');
  await page.locator('#s2s-epochs').fill('3');
  await view.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForSelector('.seq2seq[data-state="finished"]', { timeout: 180000 });

  // Motion on: the decode walks step by step and the highlight glides between peaks.
  await page.locator('#s2s-input').fill('40713852');
  await view.getByRole('button', { name: 'Decode' }).click();
  await page.waitForSelector('.seq2seq[data-decode-step="0"]');
  await watchFocus(page);
  await page.waitForFunction(() => window.__focusMotion.done, null, { timeout: 30000 });
  const moving = await page.evaluate(() => window.__focusMotion);
  assert.ok(moving.targets.length >= 2, `the peak moves during the decode: ${JSON.stringify(moving.targets)}`);
  assert.ok(moving.events.includes('transitionstart'), `transitions run: ${moving.events}`);
  const xs = moving.targets.map((t) => t.x);
  const between = moving.samples
    .filter((m) => m !== 'none')
    .map(placed)
    .filter((p) => !moving.targets.some((t) => Math.abs(t.x - p.x) < 0.01 && Math.abs(t.w - p.w) < 0.01));
  assert.ok(between.length > 0, 'the highlight is seen between two peaks');
  for (const p of between) assert.ok(p.x >= Math.min(...xs) - 0.5 && p.x <= Math.max(...xs) + 0.5, `${p.x} in ${xs}`);
  // It ends on the last step's most attended input character.
  const end = await page.evaluate(() => {
    const source = document.querySelector('[data-testid="s2s-source"]');
    const tokens = [...source.querySelectorAll('.token')];
    const weights = tokens.map((t) => Number(getComputedStyle(t).getPropertyValue('--weight')));
    return { focus: Number(source.dataset.focus), peak: weights.indexOf(Math.max(...weights)) };
  });
  assert.equal(end.focus, end.peak);

  // Reduced motion, switched on while a decode walks: every later step puts the highlight in
  // place by the next frame, and no transition runs.
  await page.locator('#s2s-input').fill('97315');
  await view.getByRole('button', { name: 'Decode' }).click();
  await page.waitForSelector('.seq2seq[data-decode-step="0"]');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await watchFocus(page);
  await page.waitForFunction(() => window.__focusMotion.done, null, { timeout: 30000 });
  const jumping = await page.evaluate(() => window.__focusMotion);
  assert.ok(jumping.targets.length >= 2, `the peak moves during the decode: ${JSON.stringify(jumping.targets)}`);
  assert.deepEqual(jumping.events, [], 'no transition runs');
  for (const { target, drawn } of jumping.checks.filter((c) => c.target)) {
    const p = placed(drawn);
    assert.ok(
      Math.abs(p.x - target.x) < 0.01 && Math.abs(p.w - target.w) < 0.01,
      `${drawn} is ${JSON.stringify(target)}`,
    );
  }
  assert.deepEqual(problems, []);
  await page.close();
});
