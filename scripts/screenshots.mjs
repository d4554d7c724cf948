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

// What each shot does before the picture; every step waits for what it caused, never for a fixed time.
const SHOTS = {
  lab: {
    hash: '#/lab',
    file: 'attention-lab',
    async prepare(page) {
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="heatmap-self-weights"] td').length > 0);
    },
  },
  studio: {
    hash: '#/studio',
    async prepare(page) {
      await page.locator('[data-testid="view-studio"] button', { hasText: /^Train$/ }).first().click();
      await page.waitForFunction(
        () => /Finished/.test(document.querySelector('[data-testid="view-studio"]')?.textContent ?? ''),
        null,
        { timeout: 300000 },
      );
      const input = page.locator('#predict-text');
      if (await input.count()) {
        await input.fill('not the best film, but the acting was wonderful and the story moving');
        await page.waitForTimeout(500); // the type-as-you-go debounce; nothing else to wait on
      }
    },
  },
  seq2seq: {
    hash: '#/seq2seq',
    async prepare(page) {
      await page.locator('[data-testid="view-seq2seq"] button', { hasText: /^Train/ }).first().click();
      await page.waitForFunction(
        () => /Finished|trained/i.test(document.querySelector('[data-testid="view-seq2seq"]')?.textContent ?? ''),
        null,
        { timeout: 600000 },
      );
    },
  },
  transformer: {
    hash: '#/transformer',
    async prepare(page) {
      await page.locator('[data-testid="view-transformer"] button', { hasText: /^Train/ }).first().click();
      await page.waitForFunction(
        () => /Finished|trained/i.test(document.querySelector('[data-testid="view-transformer"]')?.textContent ?? ''),
        null,
        { timeout: 300000 },
      );
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
const names = wanted.length ? wanted : ['studio', 'seq2seq', 'transformer'];
for (const name of names) if (!SHOTS[name]) throw new Error(`unknown view '${name}' (one of ${Object.keys(SHOTS)})`);

mkdirSync(out, { recursive: true });
const env = await startBrowser();
try {
  for (const name of names) {
    const shot = SHOTS[name];
    const { page, problems } = await openPage(env, (shot.page ?? '') + shot.hash);
    await shot.prepare(page);
    const file = path.join(out, `${shot.file ?? name}.png`);
    await page.screenshot({ path: file });
    process.stderr.write(`${name}: ${path.relative(root, file)}${problems.length ? ` (${problems.join('; ')})` : ''}\n`);
    await page.close();
  }
} finally {
  await env.close();
}
