// Takes the README's screenshots: each view of the built app (dist/) in Debian's Chromium, after
// the short interaction that makes it show something (a training run, a decoding), written to
// docs/images/<view>.png. Run after `npm run build`:  npm run screenshots [-- view ...]
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, startBrowser } from '../tests/e2e/support/browser.mjs';

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
      await page.evaluate(() => window.scrollTo(0, document.querySelector('.train-panel').offsetTop - 8));
      await shoot('studio');
      await page.locator('#predict-text').fill('not the best film, but the acting was wonderful and the story moving');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="explain-panel"] td').length > 0);
      await page.evaluate(() =>
        window.scrollTo(0, document.querySelector('[data-testid="explain-panel"]').offsetTop - 8),
      );
      return 'studio-explain';
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
      await page.evaluate(() =>
        window.scrollTo(0, document.querySelector('.seq2seq h3, .seq2seq h2:nth-of-type(2)')?.offsetTop ?? 0),
      );
    },
  },
  transformer: {
    hash: '#/transformer',
    async prepare(page) {
      await page
        .locator('[data-testid="view-transformer"] button', { hasText: /^Train/ })
        .first()
        .click();
      await finished(page, 'transformer', 300000);
      await page.evaluate(() => {
        const map = document.querySelector('[data-testid="view-transformer"] figure.heatmap');
        window.scrollTo(0, map.getBoundingClientRect().top + window.scrollY - 40);
      });
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
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
// By default the views whose pictures are plain screenshots; the lab's and the course's README
// pictures were composed by hand (a cell explained, a failed check), so they are redone on request.
const names = wanted.length ? wanted : ['home', 'studio', 'seq2seq', 'transformer'];
for (const name of names) if (!SHOTS[name]) throw new Error(`unknown view '${name}' (one of ${Object.keys(SHOTS)})`);

mkdirSync(out, { recursive: true });
const env = await startBrowser();
try {
  for (const name of names) {
    const shot = SHOTS[name];
    const { page, problems } = await openPage(env, (shot.page ?? '') + shot.hash);
    const shoot = async (file) => {
      const where = path.join(out, `${file}.png`);
      await page.screenshot({ path: where });
      process.stderr.write(
        `${name}: ${path.relative(root, where)}${problems.length ? ` (${problems.join('; ')})` : ''}\n`,
      );
    };
    // prepare() may take pictures on the way (shoot) and names the last one (default: the view's).
    const last = await shot.prepare(page, shoot);
    await shoot(last ?? shot.file ?? name);
    await page.close();
  }
} finally {
  await env.close();
}
