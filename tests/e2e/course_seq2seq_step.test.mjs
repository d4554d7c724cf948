// Browser test of lesson 9's in-model exercise (web/src/course/seq2seq_step_view.ts): the
// learner's alignBatch, run in the sandbox, drives greedy decoding of a seq2seq model trained in
// the page. The alignment_batch solution gives the engine's exact match and outputs; a softmax over
// the batch instead of over time changes them and lowers the accuracy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, startBrowser } from './support/browser.mjs';
import { draftSaved, setCode } from './support/course.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

const DEMO = '[data-testid="s2s-step-reversal"]';

test('course: lesson 9 decodes held-out inputs with the learner’s alignBatch inside a model trained in the page', async (t) => {
  const { page, problems } = await openPage(env, 'course.html?s2s-quick#lesson-9');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 20000 });
  const demo = page.locator(DEMO);
  await demo.getByRole('button', { name: 'Train the reversal model' }).click();
  await page.waitForSelector(`${DEMO}[data-state="trained"]`, { timeout: 120000 });

  const exercise = page.locator('[data-testid="exercise-alignment_batch"]');
  await exercise.getByRole('button', { name: 'Show the solution' }).click();
  const solution = await exercise.locator('.solution pre').textContent();
  await setCode(page, 'alignment_batch', solution);
  await draftSaved(page, 'alignment_batch', 'np.max(e)');
  const run = demo.getByRole('button', { name: 'Decode with my alignBatch' });
  await run.click();
  await page.waitForSelector(`${DEMO}[data-state="done"]`, { timeout: 60000 });
  const accuracy = await demo.locator('[data-testid="s2s-step-accuracy"]').textContent();
  const [, engineAccuracy, mine] = accuracy.match(/engine (\d+\.\d)%, with your alignBatch (\d+\.\d)%/);
  t.diagnostic(accuracy);
  assert.equal(mine, engineAccuracy);
  assert.match(await demo.locator('[role="status"]').textContent(), /the same outputs as the engine’s own/);
  assert.equal(await demo.locator('[data-testid="s2s-step-table"] tbody tr').count(), 24);
  await demo.locator('[data-testid="s2s-step-engine-alignment"]').waitFor();
  await demo.locator('[data-testid="s2s-step-your-alignment"]').waitFor();
  // A click on an input shows its alignment matrices.
  const third = demo.locator('[data-testid="s2s-step-table"] tbody tr').nth(2).locator('button');
  const input = await third.textContent();
  await third.click();
  assert.match(
    await demo.locator('[data-testid="s2s-step-engine-alignment"]').textContent(),
    new RegExp(`engine: ${input} → `),
  );
  assert.match(
    await demo.locator('[data-testid="s2s-step-your-alignment"]').textContent(),
    new RegExp(`yours: ${input} → `),
  );

  // A softmax over the batch (axis 0) instead of over time: the model writes something else.
  const broken = solution.replace(
    /const weights = energies\.map\(\(e\) => \{[\s\S]*?\n {2}\}\);/,
    'const sums = np.sum(np.exp(energies), 0);\n  const weights = energies.map((e) => np.divide(np.exp(e), sums));',
  );
  assert.notEqual(broken, solution);
  await setCode(page, 'alignment_batch', broken);
  await draftSaved(page, 'alignment_batch', 'const sums');
  await run.click();
  await page.waitForFunction(
    (selector) =>
      document.querySelector(selector)?.dataset.state === 'done' &&
      /changes what the model writes/.test(document.querySelector(`${selector} [role="status"]`).textContent),
    DEMO,
    { timeout: 60000 },
  );
  const after = await demo.locator('[data-testid="s2s-step-accuracy"]').textContent();
  const [, engineAgain, brokenAccuracy] = after.match(/engine (\d+\.\d)%, with your alignBatch (\d+\.\d)%/);
  t.diagnostic(after);
  mkdirSync(path.join(root, 'build/screenshots'), { recursive: true });
  await demo.screenshot({ path: path.join(root, 'build/screenshots/course-seq2seq-step.png') });
  assert.equal(engineAgain, engineAccuracy);
  assert.ok(Number(brokenAccuracy) < Number(engineAccuracy), `${brokenAccuracy} < ${engineAccuracy}`);
  assert.deepEqual(problems, []);
  await page.close();
});
