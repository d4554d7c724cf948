// Browser test of lesson 11's two in-model exercises:
//  - the decoder mask (web/src/course/transformer_mask_view.ts): the page trains a Transformer with
//    the causal mask and with none, then with the mask the learner's decoderMask returns. The
//    decoder_mask solution trains the causal model's numbers (the table's cells equal); the
//    exercise's OR mistake shows every position, and the table shows the break: near-perfect
//    teacher-forced accuracy, exact match near 0. The learner's mask is drawn (its cells' colours).
//  - the cross-attention (transformer_cross_view.ts): the learner's crossAttention, run in the
//    sandbox, is every decoder block's cross-attention while the trained model decodes held-out
//    inputs. The cross_attention solution gives the engine's outputs and maps (the drawn colours
//    equal); a softmax over the target positions instead of the source keys writes other outputs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, startBrowser } from './support/browser.mjs';
import { draftSaved, setCode } from './support/course.mjs';

let env;

before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

async function openLesson11() {
  const opened = await openPage(env, 'course.html?s2s-quick#lesson-11');
  await opened.page.evaluate(() => localStorage.clear());
  await opened.page.reload();
  await opened.page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 20000 });
  return opened;
}

/** The solution text of exercise `id`, from its "Show the solution" panel. */
async function solutionOf(page, id) {
  const exercise = page.locator(`[data-testid="exercise-${id}"]`);
  await exercise.getByRole('button', { name: 'Show the solution' }).click();
  return exercise.locator('.solution pre').textContent();
}

/** Waits until the demo is done after a run whose status matches `pattern`. */
function runDone(page, selector, pattern) {
  return page.waitForFunction(
    ([sel, source]) =>
      document.querySelector(sel)?.dataset.state === 'done' &&
      new RegExp(source).test(document.querySelector(`${sel} [role="status"]`).textContent),
    [selector, pattern.source],
    { timeout: 180000 },
  );
}

/** The drawn colour of every cell of the heatmap `testId` inside `demo`, row-major. */
function colours(demo, testId) {
  return demo
    .locator(`[data-testid="${testId}"] tbody td`)
    .evaluateAll((cells) => cells.map((td) => getComputedStyle(td).backgroundColor));
}

const MASK = '[data-testid="mask-reversal"]';

/**
 * The mask tables as drawn: per model (row label), [loss, teacher-forced %, exact match %], and
 * its row of outputs in the outputs table.
 */
async function maskTable(demo) {
  const rows = await demo
    .locator('[data-testid="mask-table"] tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector('th').textContent,
        ...[...tr.querySelectorAll('td')].map((td) => td.textContent),
      ]),
    );
  const outputs = await demo
    .locator('[data-testid="mask-outputs"] tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector('th').textContent,
        ...[...tr.querySelectorAll('td')].map((td) => td.textContent),
      ]),
    );
  const written = new Map(outputs.map(([label, ...cells]) => [label, cells]));
  const out = {};
  for (const [label, loss, teacherForced, exact] of rows) {
    assert.ok(written.has(label), `${label} has a row of outputs`);
    out[label] = {
      loss: Number(loss),
      teacherForced: Number(teacherForced.replace('%', '')),
      exact: Number(exact.match(/^(\d+\.\d)%$/)[1]),
      texts: [loss, teacherForced, exact],
      outputs: written.get(label),
    };
  }
  return out;
}

test('course: lesson 11 trains a Transformer with the learner’s decoderMask; a mask that shows later positions looks fine teacher-forced and decodes nothing', async (t) => {
  const { page, problems } = await openLesson11();
  const demo = page.locator(MASK);
  await demo.getByRole('button', { name: 'Train with and without the mask' }).click();
  await page.waitForSelector(`${MASK}[data-state="trained"]`, { timeout: 240000 });
  const first = await maskTable(demo);
  const causal = first.causal;
  const open = first['no mask'];
  t.diagnostic(`causal ${causal.texts.join(' | ')}; no mask ${open.texts.join(' | ')}`);
  assert.match(
    await demo.locator('[data-testid="mask-table"] caption').textContent(),
    /as its last epoch left it; exact match on 100 held-out inputs/,
    'the numbers are of the parameters the table says',
  );
  assert.ok(causal.exact >= 50, `the causal model decodes: ${causal.exact}%`);
  assert.ok(open.teacherForced >= 95, `no mask: teacher forcing looks fine (${open.teacherForced}%)`);
  assert.ok(open.exact <= 5, `no mask: decoding fails (${open.exact}%)`);
  assert.ok(open.loss <= causal.loss + 0.05, `no mask: its loss is as low (${open.loss} vs ${causal.loss})`);

  // The solution: the causal pattern, so the same model and the same cells.
  const solution = await solutionOf(page, 'decoder_mask');
  await setCode(page, 'decoder_mask', solution);
  await draftSaved(page, 'decoder_mask', 'j <= i && j < len');
  const run = demo.getByRole('button', { name: 'Train with my decoderMask' });
  await run.click();
  await runDone(page, MASK, /decodes as well as the causal one/);
  const mine = (await maskTable(demo)).yours;
  assert.deepEqual(mine.texts, causal.texts, 'the solution trains the causal model');
  assert.deepEqual(mine.outputs, causal.outputs);
  assert.equal(mine.outputs.length, 3);
  // Its mask drawn: the lower triangle (the diagonal included) in one colour, the rest in another.
  const drawn = await colours(demo, 'mask-yours');
  const n = Math.sqrt(drawn.length);
  assert.equal(n, 10);
  const visible = drawn[0];
  const hidden = drawn[1];
  assert.notEqual(visible, hidden);
  drawn.forEach((c, k) => assert.equal(c, Math.floor(k / n) >= k % n ? visible : hidden, `cell ${k}`));

  // The exercise's OR mistake: for one sentence without padding every position is visible.
  const orMistake = solution.replace('j <= i && j < len', 'j <= i || j < len');
  assert.notEqual(orMistake, solution);
  await setCode(page, 'decoder_mask', orMistake);
  await draftSaved(page, 'decoder_mask', 'j <= i || j < len');
  await run.click();
  await runDone(page, MASK, /lets the decoder peek/);
  const peeking = (await maskTable(demo)).yours;
  t.diagnostic(`OR mistake ${peeking.texts.join(' | ')}`);
  assert.deepEqual(peeking.texts, open.texts, 'every position visible is the no-mask model');
  assert.deepEqual(peeking.outputs, open.outputs);
  assert.ok(
    peeking.outputs.every((o) => o.endsWith('✗')),
    `it writes nothing right: ${peeking.outputs}`,
  );
  assert.ok(peeking.teacherForced >= 95 && peeking.exact <= 5, JSON.stringify(peeking));
  assert.deepEqual(await colours(demo, 'mask-yours'), new Array(100).fill(visible), 'every cell drawn visible');
  assert.deepEqual(problems, []);
  await page.close();
});

const CROSS = '[data-testid="cross-reversal"]';

async function crossOutcome(demo) {
  const accuracy = await demo.locator('[data-testid="cross-accuracy"]').textContent();
  const [, engine, mine] = accuracy.match(/engine (\d+\.\d)%, with your crossAttention (\d+\.\d)%/);
  const rows = await demo
    .locator('[data-testid="cross-table"] tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  return { accuracy, engine: Number(engine), mine: Number(mine), rows };
}

test('course: lesson 11 decodes with the learner’s crossAttention in every decoder block of a trained Transformer', async (t) => {
  const { page, problems } = await openLesson11();
  const demo = page.locator(CROSS);
  await demo.getByRole('button', { name: 'Train the Transformer' }).click();
  await page.waitForSelector(`${CROSS}[data-state="trained"]`, { timeout: 240000 });

  const solution = await solutionOf(page, 'cross_attention');
  await setCode(page, 'cross_attention', solution);
  await draftSaved(page, 'cross_attention', 'Math.sqrt(dk)');
  const run = demo.getByRole('button', { name: 'Decode with my crossAttention' });
  await run.click();
  await runDone(page, CROSS, /the same outputs as the engine’s own/);
  const right = await crossOutcome(demo);
  t.diagnostic(right.accuracy);
  assert.equal(right.mine, right.engine);
  assert.ok(right.engine >= 30, `the trained model decodes: ${right.engine}%`);
  assert.equal(right.rows.length, 24);
  for (const [, , engine, yours] of right.rows) assert.equal(yours, engine);
  // The maps drawn for an input: the same colours, cell by cell (the third input, picked by a click).
  const third = demo.locator('[data-testid="cross-table"] tbody tr').nth(2).locator('button');
  const input = await third.textContent();
  await third.click();
  assert.match(
    await demo.locator('[data-testid="cross-your-map"] figcaption').textContent(),
    new RegExp(`yours: ${input} → `),
  );
  const engineColours = await colours(demo, 'cross-engine-map');
  assert.ok(engineColours.length >= 3 && new Set(engineColours).size > 1, 'the engine’s map is drawn');
  assert.deepEqual(await colours(demo, 'cross-your-map'), engineColours);

  // The softmax over the target positions (one query per step): every visible key gets weight 1.
  const wrongAxis = `function crossAttention(decoderStates, encoderStates, sourceLengths, Wq, Wk, Wv) {
  const weights = [], output = [];
  decoderStates.forEach((X, b) => {
    const Q = np.matmul(X, Wq);
    const K = np.matmul(encoderStates[b], Wk);
    const V = np.matmul(encoderStates[b], Wv);
    const S = Q.map((q) => K.map((k) => np.dot(q, k) / Math.sqrt(Wq[0].length)));
    const w = S.map((row) =>
      row.map((s, j) => (j < sourceLengths[b] ? Math.exp(s) / np.sum(S.map((r) => Math.exp(r[j]))) : 0)),
    );
    weights.push(w);
    output.push(np.matmul(w, V));
  });
  return { weights, output };
}
`;
  await setCode(page, 'cross_attention', wrongAxis);
  await draftSaved(page, 'cross_attention', 'np.sum(S.map');
  await run.click();
  await runDone(page, CROSS, /changes what the model writes/);
  const wrong = await crossOutcome(demo);
  t.diagnostic(wrong.accuracy);
  assert.equal(wrong.engine, right.engine);
  assert.ok(wrong.mine <= wrong.engine - 20, wrong.accuracy);
  assert.ok(
    wrong.rows.some(([, , engine, yours]) => yours !== engine),
    'some translations differ',
  );
  await demo.locator('[data-testid="cross-table"] tbody tr').nth(2).locator('button').click();
  const wrongColours = await colours(demo, 'cross-your-map');
  assert.notDeepEqual(wrongColours, await colours(demo, 'cross-engine-map'), 'the maps are drawn differently');
  assert.deepEqual(problems, []);
  await page.close();
});
