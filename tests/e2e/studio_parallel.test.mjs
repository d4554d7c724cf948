// One Studio run on two engine workers (data parallel, docs/data-parallel.md) in Chromium: the run
// starts a second worker and stops it when it ends, repeats exactly for the same seed, follows the
// one-worker run's accuracy curve (the small model has no dropout: float rounding only), cancels
// like a one-worker run, and a crash of the second worker ends the run with a message.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, watchWorkers } from './support/browser.mjs';
import { openStudio, SMALL, waitForTrainState as waitForState } from './support/studio.mjs';

let env;
before(async () => {
  env = await startBrowser();
});
after(async () => {
  await env?.close();
});

/** The accuracy chart's data table: [series, step, accuracy] rows. */
async function accuracyRows(page) {
  const chart = page.locator('[data-testid="chart-accuracy"]');
  const details = chart.locator('details');
  if (!(await details.evaluate((d) => d.open))) await chart.locator('summary').click();
  await chart.locator('.chart-table tbody tr').first().waitFor();
  const rows = await chart
    .locator('.chart-table tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  await chart.locator('summary').click(); // closed again: the next run's table is read afresh
  return rows.map(([series, step, value]) => [series, Number(step), Number(value)]);
}

/** Trains with the form as it is; resolves with what the finished run shows. */
async function train(page) {
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'diverged', 'cancelled']), 'finished');
  return {
    workers: await page.locator('.train-panel').getAttribute('data-workers'),
    status: await page.locator('#train-status').textContent(),
    loss: await page.locator('#train-loss').textContent(),
    validation: await page.locator('#train-validation').textContent(),
    accuracy: await accuracyRows(page),
  };
}

test('studio parallel: two workers train the run, repeat it exactly, and follow the one-worker curve', async () => {
  const { page, problems } = await openStudio(env, `${SMALL}&workers=2`);
  assert.equal(await page.locator('#set-workers').inputValue(), '2');
  const workers = watchWorkers(page);
  const first = await train(page);
  assert.equal(first.workers, '2');
  assert.match(first.status, /^Finished \d+ epochs \(\d+ steps\); test accuracy \d+\.\d%/);
  assert.match(await page.locator('#train-speed').textContent(), /reviews\/s\) on 2 workers$/);
  // The second worker was started for the run and is gone after it.
  assert.equal(workers.length, 1, 'one more engine worker for the run');
  await workers[0].closed;

  // Deterministic for a seed and a worker count: the same numbers again.
  const second = await train(page);
  assert.deepEqual(second, first);
  assert.equal(workers.length, 2);
  await workers[1].closed;

  // One worker: the same run up to float rounding (no dropout), so the accuracy curve is close.
  await page.locator('#set-workers').selectOption('1');
  assert.match(page.url(), /workers=1/);
  const single = await train(page);
  assert.equal(single.workers, '1');
  assert.equal(workers.length, 2, 'no extra worker for one');
  assert.doesNotMatch(await page.locator('#train-speed').textContent(), /workers/);
  assert.equal(single.accuracy.length, first.accuracy.length);
  single.accuracy.forEach(([series, step, value], i) => {
    const [pSeries, pStep, pValue] = first.accuracy[i];
    assert.equal(series, pSeries);
    assert.equal(step, pStep);
    assert.ok(Math.abs(value - pValue) <= 0.03, `${series} at step ${step}: K=1 ${value}, K=2 ${pValue}`);
  });
  assert.deepEqual(problems, []);
  await page.close();
});

/** Clicks `#id` from the task that shows a step past `after` (the run cannot end before it lands). */
function clickWhenStepPasses(page, id, after) {
  return page.evaluate(
    ([id, after]) => {
      const step = document.querySelector('#train-step');
      const observer = new MutationObserver(() => {
        if (Number(step.dataset.step) <= after) return;
        observer.disconnect();
        document.getElementById(id).click();
      });
      observer.observe(step, { attributes: true, attributeFilter: ['data-step'] });
    },
    [id, after],
  );
}

const LONG = `${SMALL.replace('epochs=2', 'epochs=200')}&workers=2`;

/** Opens a long two-worker run and pauses it from the task that shows its first step. */
async function pausedLongRun() {
  const { page, problems } = await openStudio(env, LONG);
  const workers = watchWorkers(page);
  await clickWhenStepPasses(page, 'train-pause', 0);
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['paused', 'finished', 'failed']), 'paused');
  return { page, problems, workers };
}

test('studio parallel: pause, resume and cancel reach both workers; the second worker goes', async () => {
  const { page, problems, workers } = await pausedLongRun();
  assert.equal(await page.locator('.train-panel').getAttribute('data-workers'), '2');
  const pausedAt = Number(await page.locator('#train-step').getAttribute('data-step'));
  await clickWhenStepPasses(page, 'train-cancel', pausedAt);
  await page.locator('#train-resume').click();
  assert.equal(await waitForState(page, ['cancelled', 'finished', 'failed']), 'cancelled');
  assert.equal(
    await page.locator('#train-status').textContent(),
    'Cancelled: the model keeps its best validated parameters.',
  );
  const [done, planned] = (await page.locator('#train-step').textContent()).match(/\d+/g).map(Number);
  assert.ok(done > pausedAt && done < planned, `cancelled at step ${done} of ${planned}`);
  assert.equal(workers.length, 1);
  await workers[0].closed;
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio parallel: a crash of the second worker ends the run with a message, and the next run trains', async () => {
  const { page, problems, workers } = await pausedLongRun();
  // An uncaught error in the helper, as a wasm trap in a timer would be.
  await workers[0].worker.evaluate(() =>
    setTimeout(() => {
      throw new Error('crash test of the second worker');
    }),
  );
  await page.locator('#train-resume').click();
  assert.equal(await waitForState(page, ['failed', 'finished', 'cancelled']), 'failed');
  assert.match(
    await page.locator('#train-error').textContent(),
    /^the second worker failed: the engine stopped \(.*crash test of the second worker\)/,
  );
  // Every worker of that run is gone (the helper's bridge had restarted it: that one goes too).
  await Promise.all(workers.map((w) => w.closed));
  await page.locator('#set-epochs').fill('2');
  await page.locator('#set-epochs').dispatchEvent('change');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  assert.equal(await waitForState(page, ['finished', 'failed', 'cancelled']), 'finished');
  assert.deepEqual(
    problems.filter((p) => !p.includes('crash test of the second worker')),
    [],
  );
  await page.close();
});
