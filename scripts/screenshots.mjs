// Takes the README's screenshots: each view of the built app (dist/) in Debian's Chromium, after
// the short interaction that makes it show something (a training run, a decoding), at desktop
// size (1366×900, or a shot's own `desktop` size; docs/images/<view>.png) and phone size (390×844, docs/images/phone/<view>.png).
// Run after `npm run build`:  npm run screenshots [-- view ...]
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, startBrowser } from '../tests/e2e/support/browser.mjs';
import { draftSaved, setCode } from '../tests/e2e/support/course.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs/images');

const visible = (page, selector, timeout = 180000) => page.waitForSelector(selector, { state: 'visible', timeout });

// Waits until the view (or its training section) says its run finished.
const finished = (page, view, timeout) =>
  page.waitForFunction(
    (id) => {
      const root = document.querySelector(`[data-testid="view-${id}"]`);
      return root?.dataset.state === 'finished' || root?.querySelector('[data-state="finished"]') !== null;
    },
    view,
    { timeout },
  );

// The Translation tab is ready when the engine is and the tab is idle (what its e2e test waits for).
const translationReady = async (page) => {
  await visible(page, '[data-testid="engine-status"][data-state="ready"]', 60000);
  await visible(page, '[data-testid="translation"][data-state="idle"]', 60000);
};

// What each shot does before the picture; every step waits for what it caused, never for a fixed time.
const SHOTS = {
  home: {
    hash: '#/home',
    async prepare(page) {
      for (const id of ['mini-course', 'mini-studio', 'mini-lab']) {
        await visible(page, `[data-testid="${id}"][data-state="ready"]`, 30000);
      }
    },
  },
  lab: {
    hash: '#/lab',
    file: 'attention-lab',
    // The README's picture is the whole view: the pipeline, the √d_k experiment and the masks.
    fullPageDesktop: true,
    async prepare(page) {
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="heatmap-self-weights"] td').length > 0);
    },
  },
  studio: {
    hash: '#/studio',
    async prepare(page, shoot) {
      await page
        .locator('[data-testid="view-studio"] button', { hasText: /^Train$/ })
        .first()
        .click();
      await finished(page, 'studio', 300000);
      await shoot('studio', '.train-panel');
      // The explanation of a model worth reading: the one trained on IMDB that the Studio ships.
      await page.locator('#shipped-models button[data-file="imdb-bilstm-attention.attn"]').click();
      await visible(page, '#shipped-models[data-loaded="imdb-bilstm-attention.attn"]', 60000);
      const text = 'not the best film, but the acting was wonderful and the story moving';
      await page.locator('#predict-text').fill(text);
      // Until the panel's tokens are the typed text's (the tokenizer drops punctuation).
      await page.waitForFunction(
        (wanted) =>
          [...document.querySelectorAll('[data-testid="explain-panel"] [data-testid="explain-tokens"] .token')]
            .map((t) => t.textContent)
            .join(' ') === wanted && document.querySelectorAll('[data-testid="explain-panel"] td').length > 0,
        `<start> ${text.replace(/,/g, '')}`,
      );
      return { file: 'studio-explain', focus: '[data-testid="explain-panel"]' };
    },
  },
  seq2seq: {
    hash: '#/seq2seq',
    async prepare(page) {
      const view = page.locator('[data-testid="view-seq2seq"]');
      await page.locator('#s2s-task').selectOption('dates');
      await page.locator('#s2s-epochs').fill('4');
      await view
        .locator('button', { hasText: /^Train/ })
        .first()
        .click();
      await finished(page, 'seq2seq', 900000);
      await page.locator('#s2s-input').fill('21 March 1987');
      await view.getByRole('button', { name: 'Decode' }).click();
      // The animation shows one output character per step: wait for the last one.
      await page.waitForFunction(() => {
        const e = document.querySelector('.seq2seq');
        return e?.dataset.decodeSteps !== undefined && e.dataset.decodeStep === e.dataset.decodeSteps;
      });
      // The decoding card (the main area's second), with the alignment.
      return { focus: '.seq2seq .dash-main > .view-part:nth-child(2)' };
    },
  },
  translation: {
    hash: '#/seq2seq?tab=translation',
    async prepare(page, shoot) {
      // The default preset (Bahdanau, 6 epochs) on the built-in corpus; the run's held-out scores
      // and wall time are printed (docs/views.md quotes them).
      await translationReady(page);
      const started = Date.now();
      await page.locator('#mt-train').click();
      await page.waitForSelector('[data-testid="translation"][data-state="finished"]', { timeout: 900000 });
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      await visible(page, '[data-testid="mt-alignment"] td');
      const final = await page.locator('#mt-final').textContent();
      const output = await page.locator('#mt-output').textContent();
      process.stderr.write(`translation: trained in ${seconds} s; ${final}; "He doesn't like apples." → "${output}"\n`);
      await shoot('translation-training', '[data-testid="translation"] .dash-main > .view-part:nth-child(1)');
      return { focus: '[data-testid="translation"] .dash-main > .view-part:nth-child(2)' };
    },
  },
  // The lecture's figure: every model the module offers trained in turn on the built-in corpus
  // (preset, 6 epochs each); prints the figure's and the per-epoch chart's data tables.
  'translation-models': {
    hash: '#/seq2seq?tab=translation',
    async prepare(page) {
      await translationReady(page);
      const models = (await page.locator('#mt-model option:not([disabled])').count()) || 1;
      const started = Date.now();
      await page.getByRole('button', { name: 'Train every model in turn' }).click();
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll('[data-testid="mt-length-chart"] .chart-legend li').length === n &&
          document.querySelector('[data-testid="translation"]')?.dataset.state === 'finished',
        models,
        { timeout: 3600000 },
      );
      await visible(page, '[data-testid="mt-alignment"] td');
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const tables = [];
      for (const id of ['mt-length-chart', 'mt-bleu-chart']) {
        await page.locator(`[data-testid="${id}"] details summary`).click();
        await page.locator(`[data-testid="${id}"] .chart-table tbody tr`).first().waitFor();
        tables.push(
          await page
            .locator(`[data-testid="${id}"] .chart-table tr`)
            .evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent).join(' | ')).join('\n')),
        );
      }
      process.stderr.write(`translation-models: ${models} models in ${seconds} s\n${tables.join('\n\n')}\n`);
      return { focus: '[data-testid="translation"] .dash-main > .view-part:nth-child(3)' };
    },
  },
  transformer: {
    hash: '#/transformer',
    async prepare(page) {
      // The trained IMDB Transformer the view offers first: a model worth reading.
      await page.waitForFunction(() => document.querySelector('#tf-shipped')?.disabled === false);
      await page.locator('#tf-shipped').click();
      await visible(page, '.transformer[data-model][data-state="finished"]:not([data-inspecting])', 60000);
      // The card of the sentence's self-attention: P(positive), the scale's note and the heads.
      return { focus: '.transformer .dash-main > .view-part:nth-child(2)' };
    },
  },
  course: {
    hash: '',
    page: 'course.html#lesson-3',
    file: 'course',
    async prepare(page) {
      await visible(page, '.cm-editor');
    },
  },
  // Lessons 11 and 12 at a laptop's 1366×900: the decoder's masks, and BLEU's parts for two
  // systems — or, once the built-in pairs file is in the build, the translator trained on it.
  // Lesson 11 also runs its two in-model exercises (the lesson's full settings): the mask table
  // after the learner's draft (the starter: the causal mask of one sentence) trained a third
  // model, and the cross-attention decoded with the cross_attention solution as the draft.
  'course-lesson11': {
    hash: '',
    page: 'course.html#lesson-11',
    desktop: { width: 1366, height: 900 },
    async prepare(page, shoot) {
      await visible(page, '[data-testid="lesson-11"] .live-figure[data-state="ready"]');
      await shoot('course-lesson11', '[data-testid="lesson-11"] .live-figure');
      const mask = page.locator('[data-testid="mask-reversal"]');
      await mask.getByRole('button', { name: 'Train with and without the mask' }).click();
      await visible(page, '[data-testid="mask-reversal"][data-state="trained"]', 900000);
      await mask.getByRole('button', { name: 'Train with my decoderMask' }).click();
      await visible(page, '[data-testid="mask-reversal"][data-state="done"]', 900000);
      await shoot('course-lesson11-mask', '[data-testid="mask-reversal"] .mask-results');
      const exercise = page.locator('[data-testid="exercise-cross_attention"]');
      await exercise.getByRole('button', { name: 'Show the solution' }).click();
      await setCode(page, 'cross_attention', await exercise.locator('.solution pre').textContent());
      await draftSaved(page, 'cross_attention', 'Math.sqrt(dk)');
      const cross = page.locator('[data-testid="cross-reversal"]');
      await cross.getByRole('button', { name: 'Train the Transformer' }).click();
      await visible(page, '[data-testid="cross-reversal"][data-state="trained"]', 900000);
      await cross.getByRole('button', { name: 'Decode with my crossAttention' }).click();
      await visible(page, '[data-testid="cross-reversal"][data-state="done"]', 900000);
      process.stderr.write(
        `course-lesson11: ${await mask
          .locator('[data-testid="mask-table"]')
          .evaluate((t) =>
            [...t.rows].map((r) => [...r.cells].map((c) => c.textContent).join(' | ')).join('\n'),
          )}\n${await cross.locator('[data-testid="cross-accuracy"]').textContent()}\n`,
      );
      return { file: 'course-lesson11-cross', focus: '[data-testid="cross-reversal"] .cross-results' };
    },
  },
  'course-lesson12': {
    hash: '',
    page: 'course.html#lesson-12',
    desktop: { width: 1366, height: 900 },
    async prepare(page) {
      await visible(page, '[data-testid="lesson-12"] .live-figure[data-state="ready"]');
      if (!existsSync(path.join(root, 'dist/data/pairs-en-fr.tsv'))) {
        return { focus: '[data-testid="lesson-12"] .live-figure' };
      }
      await page.locator('[data-testid="mt-en-fr"]').getByRole('button', { name: 'Train the translator' }).click();
      await visible(page, '[data-testid="mt-en-fr"] .s2s-translate[data-state="translated"]', 900000);
      return { focus: '[data-testid="mt-en-fr"] [data-testid="mt-report"]' };
    },
  },
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
// The lab's and the course's desktop pictures in the README were composed by hand (a cell
// explained, a failed check), so they are retaken only on request; their phone pictures always are.
const HAND_COMPOSED = new Set(['lab', 'course']);
const names = wanted.length ? wanted : Object.keys(SHOTS);
for (const name of names) if (!SHOTS[name]) throw new Error(`unknown view '${name}' (one of ${Object.keys(SHOTS)})`);

const SIZES = [
  { dir: out, viewport: { width: 1366, height: 900 } },
  { dir: path.join(out, 'phone'), viewport: { width: 390, height: 844 } },
];
for (const { dir } of SIZES) mkdirSync(dir, { recursive: true });

// Scrolls the first element matching `focus` (if any) to the top of the viewport.
const scrollTo = (page, focus) =>
  page.evaluate((selector) => {
    const target = selector ? document.querySelector(selector) : null;
    window.scrollTo(0, target ? target.getBoundingClientRect().top + window.scrollY - 8 : 0);
    // Two frames: the new layout and the scroll are painted before the picture.
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, focus);

const env = await startBrowser();
try {
  for (const name of names) {
    const shot = SHOTS[name];
    const { page, problems } = await openPage(env, (shot.page ?? '') + shot.hash);
    // One picture per size, each with `focus` scrolled to the top; back at desktop size after.
    const shoot = async (file, focus) => {
      for (const { dir, viewport } of SIZES) {
        if (dir === out && HAND_COMPOSED.has(name) && !wanted.includes(name)) continue;
        await page.setViewportSize(dir === out && shot.desktop ? shot.desktop : viewport);
        await scrollTo(page, focus);
        const where = path.join(dir, `${file}.png`);
        await page.screenshot({ path: where, fullPage: dir === out && shot.fullPageDesktop === true });
        process.stderr.write(
          `${name}: ${path.relative(root, where)}${problems.length ? ` (${problems.join('; ')})` : ''}\n`,
        );
      }
      await page.setViewportSize(SIZES[0].viewport);
    };
    // prepare() may take pictures on the way (shoot) and names the last one and what to show.
    const last = (await shot.prepare(page, shoot)) ?? {};
    await shoot(last.file ?? shot.file ?? name, last.focus);
    await page.close();
  }
} finally {
  await env.close();
}
