// Browser test of lesson 12's translator (web/src/course/translation_demo_view.ts): a word-level
// encoder–decoder with attention trains in the page on sentence pairs, reports teacher-forced
// and free-running numbers and BLEU, translates the learner's sentence with its alignment, and
// then scores its held-out translations with the learner's corpusBleu (their draft of the
// corpus_bleu exercise, run in the sandbox) next to the engine's. The solution gives the engine's
// BLEU; BLEU without clipping scores the model's repeated words and lands above it. The pairs
// are our own (tests/js/support/course_pairs.mjs), served in place of the built-in file, so the
// test does not depend on that file's contents; a missing built-in file is said in words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, startBrowser } from './support/browser.mjs';
import { draftSaved, setCode } from './support/course.mjs';
import { coursePairs } from '../js/support/course_pairs.mjs';

let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

const DEMO = '[data-testid="mt-en-fr"]';
const PAIRS = '**/data/pairs-en-fr.tsv';

async function openLesson12() {
  const opened = await openPage(env, 'course.html?s2s-quick#lesson-12');
  await opened.page.evaluate(() => localStorage.clear());
  await opened.page.reload();
  await opened.page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 20000 });
  return opened;
}

test('course: lesson 12 trains a translator in the page, reports teacher-forced vs free-running numbers and BLEU, and scores it with the learner’s corpusBleu', async (t) => {
  // The context's route also sees requests the service worker makes.
  await env.context.route(PAIRS, (route) =>
    route.fulfill({ status: 200, contentType: 'text/tab-separated-values', body: coursePairs() }),
  );
  try {
    const { page, problems } = await openLesson12();
    const demo = page.locator(DEMO);
    await demo.getByRole('button', { name: 'Train the translator' }).click();
    await page.waitForSelector(`${DEMO}[data-state="trained"]`, { timeout: 120000 });

    const report = demo.locator('[data-testid="mt-report"]');
    assert.match(await report.textContent(), /pairs-en-fr\.tsv: \d+ training pairs, \d+ held out/);
    assert.match(
      await demo.locator('[data-testid="mt-teacher-forced"]').textContent(),
      /^the right next word gets \d+\.\d% probability on average \(e\^−loss\), given the right history$/,
    );
    const freeRunning = await demo.locator('[data-testid="mt-free-running"]').textContent();
    t.diagnostic(freeRunning);
    assert.match(freeRunning, /^exact match \d+\.\d% of \d+ held-out pairs; BLEU \d+\.\d on \d+ sentences$/);
    assert.match(await demo.locator('[data-testid="mt-beam-bleu"]').textContent(), /^BLEU \d+\.\d$/);
    // One row per epoch (2 in a quick run), and the five length buckets.
    assert.equal(await demo.locator('[data-testid="mt-epoch-table"] tbody tr').count(), 2);
    assert.equal(await demo.locator('[data-testid="mt-bleu-by-length"] tbody tr').count(), 5);
    // What is drawn: the metrics as a two-column grid, the alignment of the example sentence.
    assert.equal(await demo.locator('.mt-metrics').evaluate((e) => getComputedStyle(e).display), 'grid');
    await page.waitForSelector(`${DEMO} .s2s-translate[data-state="translated"]`);
    assert.match(await demo.locator('[data-testid="mt-outputs"]').textContent(), /^greedy: .+beam 4: .+$/);
    const alignment = demo.locator('[data-testid="mt-alignment"]');
    assert.equal(await alignment.isVisible(), true);
    // The example "he doesn't like apples ." has 5 source tokens: one column each.
    assert.equal(await alignment.locator('thead th').count(), 1 + 5);

    // The learner's corpusBleu: the solution gives the engine's BLEU on both searches.
    const exercise = page.locator('[data-testid="exercise-corpus_bleu"]');
    await exercise.getByRole('button', { name: 'Show the solution' }).click();
    const solution = await exercise.locator('.solution pre').textContent();
    await setCode(page, 'corpus_bleu', solution);
    await draftSaved(page, 'corpus_bleu', 'Math.log(m / totals[k])');
    const run = demo.getByRole('button', { name: 'Score with my corpusBleu' });
    await run.click();
    await page.waitForSelector(`${DEMO}[data-state="done"]`, { timeout: 60000 });
    assert.match(await demo.locator('[role="status"]').first().textContent(), /gives the engine’s BLEU/);
    const rows = () =>
      demo
        .locator('[data-testid="mt-your-bleu-table"] tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    const right = await rows();
    t.diagnostic(JSON.stringify(right));
    assert.equal(right.length, 2);
    for (const [, engineScore, mine] of right) assert.equal(mine, `${engineScore} ✓`);

    // Matches not clipped: the model's repeated words count every time, and its BLEU goes up.
    const unclipped = solution.replace(
      'matches[n - 1] += Math.min(count, Math.max(0, ...refs.map((m) => m.get(g) || 0)));',
      'matches[n - 1] += Math.max(0, ...refs.map((m) => m.get(g) || 0)) > 0 ? count : 0;',
    );
    assert.notEqual(unclipped, solution);
    await setCode(page, 'corpus_bleu', unclipped);
    await draftSaved(page, 'corpus_bleu', '> 0 ? count : 0');
    await run.click();
    await page.waitForFunction(
      (selector) =>
        document.querySelector(selector)?.dataset.state === 'done' &&
        /scores the model differently/.test(document.querySelector(`${selector} [role="status"]`).textContent),
      DEMO,
      { timeout: 60000 },
    );
    const wrong = await rows();
    t.diagnostic(JSON.stringify(wrong));
    const [, engineGreedy, mineGreedy] = wrong[0];
    assert.match(mineGreedy, /✗$/);
    assert.ok(parseFloat(mineGreedy) > parseFloat(engineGreedy), `${mineGreedy} above ${engineGreedy}`);
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await env.context.unroute(PAIRS);
  }
});

test('course: lesson 12 says when the built-in pairs file is missing, and trains on a file the learner picks', async () => {
  await env.context.route(PAIRS, (route) => route.fulfill({ status: 404, body: 'not found' }));
  try {
    const { page, problems } = await openLesson12();
    const demo = page.locator(DEMO);
    await demo.getByRole('button', { name: 'Train the translator' }).click();
    await page.waitForSelector(`${DEMO}[data-state="error"]`, { timeout: 30000 });
    assert.equal(
      await demo.locator('[role="status"]').first().textContent(),
      'Training failed: the built-in pairs file data/pairs-en-fr.tsv is missing (HTTP 404): pick a pairs file',
    );
    await demo.getByLabel('your own pairs file (source<TAB>target per line)').setInputFiles({
      name: 'my-pairs.tsv',
      mimeType: 'text/tab-separated-values',
      buffer: Buffer.from(coursePairs()),
    });
    await demo.getByRole('button', { name: 'Train the translator' }).click();
    await page.waitForSelector(`${DEMO}[data-state="trained"]`, { timeout: 120000 });
    assert.match(await demo.locator('[data-testid="mt-report"]').textContent(), /my-pairs\.tsv: \d+ training pairs/);
    // The 404 is the test's own doing; the page reports nothing else.
    assert.deepEqual(
      problems.filter((p) => !/404/.test(p)),
      [],
    );
    await page.close();
  } finally {
    await env.context.unroute(PAIRS);
  }
});
