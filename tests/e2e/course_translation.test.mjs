// Browser test of lesson 12's translator (web/src/course/translation_demo_view.ts): a word-level
// encoder–decoder with attention trains in the page on sentence pairs, reports the engine's
// teacher-forced and free-running numbers and BLEU (per epoch and at the end), translates the
// learner's sentence greedily and with the beam (its candidates) with its alignment, and
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

async function openLesson12(browser = env) {
  const opened = await openPage(browser, 'course.html?s2s-quick#lesson-12');
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
    assert.match(
      await report.textContent(),
      /pairs-en-fr\.tsv: \d+ training pairs; \d+ English sentences held out with all their translations \(\d+ pairs\)/,
    );
    assert.match(
      await demo.locator('[data-testid="mt-kept"]').textContent(),
      /^epoch \d+'s parameters \(the best free-running exact match on the validation pairs, then word accuracy, then loss\); the numbers below are that model’s$/,
    );
    assert.match(
      await demo.locator('[data-testid="mt-teacher-forced"]').textContent(),
      /^token accuracy \d+\.\d% on the \d+ held-out pairs: the right next word is the first choice, given the right history$/,
    );
    // The data's <unk> rates, each side with its tokenizer (the lesson's "unknown rate").
    assert.match(
      await demo.locator('[data-testid="mt-unknown"]').textContent(),
      /^Source words \(English rules, lowercased\): <unk> is \d+\.\d\d% of words and \d+\.\d\d% of sentences held out \(\d+ of [\d,]+ words; \d+ of [\d,]+ sentences\), 0\.00% of words in training; Target words \(French rules, lowercased\): /,
    );
    const freeRunning = await demo.locator('[data-testid="mt-free-running"]').textContent();
    t.diagnostic(freeRunning);
    assert.match(
      freeRunning,
      /^BLEU \d+\.\d, chrF \d+\.\d on \d+ held-out sentences; exact match \d+\.\d% of the sentences \(any translation\), \d+\.\d% of the pairs$/,
    );
    assert.match(await demo.locator('[data-testid="mt-beam-bleu"]').textContent(), /^BLEU \d+\.\d$/);
    // One row per epoch (3 in a quick run), each with the engine's held-out BLEU; the last
    // epoch's is the final greedy BLEU when the last epoch is the one kept.
    const epochRows = await demo
      .locator('[data-testid="mt-epoch-table"] tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    t.diagnostic(JSON.stringify(epochRows));
    assert.equal(epochRows.length, 3);
    for (const row of epochRows) assert.match(row[4], /^\d+\.\d$/);
    // The five length buckets of the engine's evaluate.
    assert.deepEqual(
      await demo.locator('[data-testid="mt-bleu-by-length"] tbody tr td:first-child').allTextContents(),
      ['1–5', '6–10', '11–15', '16–20', '21+'],
    );
    // What is drawn: the metrics as a two-column grid, the alignment of the example sentence.
    assert.equal(await demo.locator('.mt-metrics').evaluate((e) => getComputedStyle(e).display), 'grid');
    await page.waitForSelector(`${DEMO} .s2s-translate[data-state="translated"]`);
    assert.match(await demo.locator('[data-testid="mt-outputs"]').textContent(), /^greedy: .+beam 4: .+$/);
    // The beam's hypotheses, best first, the first one the beam's output, each with its score.
    const candidates = await demo.locator('[data-testid="mt-candidates"] li').allTextContents();
    t.diagnostic(JSON.stringify(candidates));
    assert.ok(candidates.length >= 1 && candidates.length <= 4, `${candidates.length} candidates`);
    for (const c of candidates) assert.match(c, /^.+ — score -?\d+\.\d{3}, log P -?\d+\.\d{3}( \(unfinished\))?$/);
    const beamOutput = (await demo.locator('[data-testid="mt-outputs"] p').nth(1).textContent()).match(
      /^beam 4: (.+) \(log p/,
    )[1];
    assert.ok(candidates[0].startsWith(`${beamOutput} — score`), `${candidates[0]} vs ${beamOutput}`);
    assert.equal(await demo.locator('[data-testid="mt-candidates"]').isVisible(), true);
    const alignment = demo.locator('[data-testid="mt-alignment"]');
    assert.equal(await alignment.isVisible(), true);
    // The example "He doesn't like apples." has 6 source tokens (he does n't like apples .):
    // one column each.
    assert.equal(await alignment.locator('thead th').count(), 1 + 6);

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

    // The Transformer from the model menu, trained on the same pairs: its line joins the RNN's on
    // the chart of held-out BLEU by source length (the lecture's figure), drawn apart.
    const chart = demo.locator('[data-testid="mt-length-chart"]');
    assert.equal(await chart.isVisible(), true);
    assert.equal(await chart.locator('svg path.series').count(), 1);
    await demo.getByLabel('model to train').selectOption('transformer');
    await demo.getByRole('button', { name: 'Train the translator' }).click();
    await page.waitForFunction(
      (selector) =>
        document.querySelector(selector)?.dataset.state === 'trained' &&
        /^Transformer/.test(document.querySelector(`${selector} [data-testid="mt-model-trained"]`)?.textContent ?? ''),
      DEMO,
      { timeout: 120000 },
    );
    assert.deepEqual(
      (await chart.locator('.chart-legend li').allTextContents()).map((s) => s.trim()),
      ['RNN with Bahdanau attention', 'Transformer (2 layers, 4 heads, d_model 64)'],
    );
    const paths = chart.locator('svg path.series');
    assert.equal(await paths.count(), 2);
    const drawn = await paths.evaluateAll((ps) => ps.map((p) => [p.getAttribute('d'), getComputedStyle(p).stroke]));
    for (const [d] of drawn) assert.match(d, /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+)+/);
    assert.notEqual(drawn[0][1], drawn[1][1], 'the two lines have different colours');
    assert.match(
      await demo.locator('[data-testid="mt-teacher-forced"]').textContent(),
      /^token accuracy \d+\.\d% on the \d+ held-out pairs/,
    );
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await env.context.unroute(PAIRS);
  }
});

test('course: lesson 12 says when the built-in pairs file is missing, and trains on a file the learner picks', async () => {
  // A browser of its own: the first test's page installed the service worker, which precaches
  // the built-in file and would answer for it without asking the server.
  const own = await startBrowser();
  await own.context.route(PAIRS, (route) => route.fulfill({ status: 404, body: 'not found' }));
  try {
    const { page, problems } = await openLesson12(own);
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
    await own.close();
  }
});
