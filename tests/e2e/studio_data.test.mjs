// The Studio's test-set choice and recipes in Chromium (issue 18, items 2 and 3): an aclImdb
// archive with a test half (its own half, or a seeded hold-out of its training half), one without
// (a hold-out), bad shares refused with a message, per-class counts for both sets; the Recipe
// select filling the settings, the real-data suggestion for a large file, and the kept epoch at
// the end of a run. Archives are written with the page's own tar writer, gzipped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { aclImdbFiles } from '../js/support/aclimdb_files.mjs';
import { loadWebModules } from '../js/support/web_modules.mjs';
import { startBrowser } from './support/browser.mjs';
import { openStudio as openStudioAt, SMALL } from './support/studio.mjs';

let env;
let loaded;
before(async () => {
  env = await startBrowser();
  loaded = await loadWebModules('/src/views/studio/folder_archive.ts');
  ({ tarArchive } = loaded.modules[0]);
});
after(async () => {
  await env?.close();
  await loaded?.close();
});

// The page's own ustar writer (web/src/views/studio/folder_archive.ts), gzipped.
let tarArchive;
const tarGz = (files) => gzipSync(tarArchive(files));

const aclImdb = (perClass, testPerClass) => tarGz(aclImdbFiles(perClass, testPerClass));

const openStudio = (hash) => openStudioAt(env, hash);

const splitCounts = async (page) => {
  const d = await page.locator('#split-counts').evaluate((n) => ({ ...n.dataset }));
  return [d.trainPositive, d.trainNegative, d.testPositive, d.testNegative].map(Number);
};
async function setValue(page, selector, value) {
  await page.locator(selector).fill(value);
  await page.locator(selector).dispatchEvent('change');
}
/** Waits until the data panel shows a summary for `name` whose split text matches `pattern`. */
async function waitForSplit(page, name, pattern) {
  await page.waitForFunction(
    ([n, source]) =>
      document.querySelector('.studio-data')?.dataset.state === 'loaded' &&
      document.querySelector('#data-summary')?.textContent.startsWith(n) &&
      new RegExp(source).test(document.querySelector('#data-split')?.textContent ?? ''),
    [name, pattern.source],
    { timeout: 30000 },
  );
}

test('studio data: an archive with a test half, its own half or a seeded hold-out; bad shares refused', async () => {
  const { page, problems } = await openStudio();
  assert.match(await page.locator('#data-split').textContent(), /built-in corpus' own test half/);
  assert.equal(await page.locator('#split-source').isChecked(), true);
  assert.equal(await page.locator('#split-percent').inputValue(), '10');

  const archive = { name: 'aclImdb_v1.tar.gz', mimeType: 'application/gzip', buffer: aclImdb(20, 5) };
  await page.locator('#data-upload').setInputFiles(archive);
  await waitForSplit(page, 'aclImdb_v1.tar.gz', /own test half/);
  assert.match(await page.locator('#data-summary').textContent(), /40 training reviews, 10 test reviews/);
  assert.deepEqual(await splitCounts(page), [20, 20, 5, 5]);
  assert.equal(await page.locator('.studio-data').getAttribute('data-test-set'), 'source');

  // Bad shares: a message at once, and loading is refused with it.
  for (const [value, pattern] of [
    ['0', /above 0% and below 100%, got 0%/],
    ['100', /above 0% and below 100%, got 100%/],
    ['', /must be a number/],
  ]) {
    await setValue(page, '#split-percent', value);
    assert.match(await page.locator('#split-error').textContent(), pattern);
  }
  await page.locator('#data-load').click();
  await page.waitForSelector('.studio-data[data-state="failed"]');
  assert.match(await page.locator('#data-error').textContent(), /^Could not load the data: The test share must be/);
  await setValue(page, '#split-percent', '20');
  await setValue(page, '#split-seed', '1.5');
  assert.match(await page.locator('#split-error').textContent(), /split seed must be a whole number/);

  // A 20% hold-out (seed 3) of the training half: 4 of each class; test/ is set aside.
  await page.locator('#split-holdout').check();
  await setValue(page, '#split-percent', '20');
  await setValue(page, '#split-seed', '3');
  assert.equal(await page.locator('#split-error').textContent(), '');
  assert.match(page.url(), /test=holdout/);
  assert.match(page.url(), /holdout=20/);
  assert.match(page.url(), /sseed=3/);
  assert.match(await page.locator('#split-note').textContent(), /applies when the data is loaded again/);
  await page.locator('#data-load').click();
  await waitForSplit(page, 'aclImdb_v1.tar.gz', /hold-out of 20% \(seed 3\) of the archive's training half/);
  assert.match(await page.locator('#data-summary').textContent(), /32 training reviews, 8 test reviews/);
  assert.deepEqual(await splitCounts(page), [16, 16, 4, 4]);
  assert.equal(await page.locator('.studio-data').getAttribute('data-test-set'), 'holdout');

  // Train applies a changed split too (it reloads first): 10% is 2 of each class.
  await setValue(page, '#split-percent', '10');
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await waitForSplit(page, 'aclImdb_v1.tar.gz', /hold-out of 10% \(seed 3\)/);
  assert.deepEqual(await splitCounts(page), [18, 18, 2, 2]);
  await page.waitForFunction(() =>
    ['finished', 'failed'].includes(document.querySelector('.train-panel')?.dataset.state),
  );
  assert.equal(await page.locator('.train-panel').getAttribute('data-state'), 'finished');
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio data: an archive without a test half is held out, whichever choice is made', async () => {
  const { page, problems } = await openStudio();
  await page
    .locator('#data-upload')
    .setInputFiles({ name: 'aclImdb_train.tar.gz', mimeType: 'application/gzip', buffer: aclImdb(30, 0) });
  await waitForSplit(
    page,
    'aclImdb_train.tar.gz',
    /hold-out of 10% \(seed 1\) of the reviews \(the source has no test half/,
  );
  assert.deepEqual(await splitCounts(page), [27, 27, 3, 3]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio recipes: presets fill the settings; a large file suggests the real-data recipe', async () => {
  const { page, problems } = await openStudio('#/studio');
  const recipe = page.locator('#set-recipe');
  assert.equal(await recipe.inputValue(), 'builtin');
  assert.equal(await page.locator('#recipe-suggestion').isHidden(), true);

  await recipe.selectOption('imdb');
  assert.equal(await page.locator('#set-epochs').inputValue(), '4');
  assert.equal(await page.locator('#set-learningRate').inputValue(), '0.002');
  assert.equal(await page.locator('#set-schedule').inputValue(), 'cosine');
  assert.equal(await page.locator('#set-maxlen').inputValue(), '500');
  assert.equal(await page.locator('#set-dropout').inputValue(), '0.2');
  assert.equal(await page.locator('#set-wordDropout').inputValue(), '0.2');
  assert.equal(await page.locator('#set-patience').inputValue(), '2');
  // Only what differs from the defaults (the built-in recipe: cosine too) is written to the link.
  assert.match(page.url(), /maxlen=500&epochs=4&dropout=0\.2&patience=2/);
  // The histogram follows the recipe's maxlen.
  assert.equal(await page.locator('[data-testid="length-histogram"]').getAttribute('data-maxlen'), '500');

  await page.locator('#set-encoder').selectOption('transformer');
  await page.locator('#set-encoder').dispatchEvent('change');
  assert.equal(await recipe.inputValue(), 'custom', 'the IMDB values differ for a Transformer');
  await recipe.selectOption('imdb');
  assert.equal(await page.locator('#set-learningRate').inputValue(), '5e-4');
  assert.equal(await page.locator('#set-pooling').inputValue(), 'mean');
  assert.equal(await page.locator('#set-epochs').inputValue(), '6');

  await recipe.selectOption('preview');
  assert.equal(await page.locator('#set-epochs').inputValue(), '2');
  assert.equal(await page.locator('#set-maxlen').inputValue(), '100');
  await setValue(page, '#set-epochs', '3');
  assert.equal(await recipe.inputValue(), 'custom');
  // The encoder is still the Transformer: its built-in-corpus recipe trains 20 epochs.
  await recipe.selectOption('builtin');
  assert.equal(await page.locator('#set-epochs').inputValue(), '20');

  // 5,100 short reviews: more than the 5,000 from which the real-data recipe is suggested.
  const rows = ['review,sentiment'];
  for (let i = 0; i < 2550; i++) rows.push(`a fine film ${i},positive`, `a dull film ${i},negative`);
  await page
    .locator('#data-upload')
    .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n') + '\n') });
  await waitForSplit(page, 'big.csv', /hold-out of 10%/);
  const suggestion = page.locator('#recipe-suggestion');
  await suggestion.waitFor({ state: 'visible' });
  assert.match(await suggestion.textContent(), /5100 reviews are loaded/);
  await page.locator('#recipe-suggestion-apply').click();
  assert.equal(await suggestion.isHidden(), true);
  assert.equal(await recipe.inputValue(), 'imdb');
  assert.equal(await page.locator('#set-maxlen').inputValue(), '500');
  assert.deepEqual(problems, []);
  await page.close();
});

test('studio recipes: the end of a run names the epoch whose parameters the model kept, with its numbers', async () => {
  const { page, problems } = await openStudio(SMALL.replace('epochs=2', 'epochs=3'));
  await page.getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForFunction(
    () => ['finished', 'failed'].includes(document.querySelector('.train-panel')?.dataset.state),
    null,
    {
      timeout: 60000,
    },
  );
  assert.equal(await page.locator('.train-panel').getAttribute('data-state'), 'finished');
  const status = page.locator('#train-status');
  const best = Number(await status.getAttribute('data-best-epoch'));
  assert.ok(best >= 1 && best <= 3, `best epoch ${best}`);
  assert.match(
    await status.textContent(),
    new RegExp(`Kept the parameters of epoch ${best} of 3, the lowest validation loss`),
  );
  // The numbers behind the line (the time-to-accuracy bench reads them): the test accuracy
  // unrounded, the epochs run and the steps.
  const [, steps, shown] = /^Finished 3 epochs \((\d+) steps\); test accuracy (\d+\.\d)%/.exec(
    await status.textContent(),
  );
  const accuracy = Number(await status.getAttribute('data-test-accuracy'));
  assert.ok(accuracy > 0 && accuracy <= 1, `test accuracy ${accuracy}`);
  assert.equal((100 * accuracy).toFixed(1), shown);
  assert.equal(await status.getAttribute('data-epochs'), '3');
  assert.equal(await status.getAttribute('data-steps'), steps);
  assert.deepEqual(problems, []);
  await page.close();
});
