// Saved models in browser storage (web/src/storage/model_store.ts) in Chromium: save, list,
// survive a reload, overwrite, an aborted save keeps the old model, a damaged entry is named,
// delete. The module is compiled from its source by esbuild (through Vite) and evaluated in the
// built page, so it runs at the app's origin with the app's IndexedDB and adds nothing to dist/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithEsbuild } from 'vite';
import { openPage, startBrowser } from './support/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let env;
let storeScript;

before(async () => {
  env = await startBrowser();
  const file = path.join(root, 'web/src/storage/model_store.ts');
  const { code } = await transformWithEsbuild(readFileSync(file, 'utf8'), file, {
    format: 'iife',
    globalName: '__modelStore',
    target: 'es2022',
  });
  storeScript = `${code}; undefined`;
});
after(async () => {
  await env?.close();
});

/** The page with window.__modelStore (listModels, saveModel, loadModel, deleteModel). */
async function storePage(page) {
  await page.evaluate(storeScript);
  return page;
}

const bytesOf = (page, name) =>
  page.evaluate(async (n) => Array.from(new Uint8Array((await __modelStore.loadModel(n)).bytes)), name);

test('storage: save, list, survive a reload, overwrite, delete', async () => {
  const { page, problems } = await openPage(env);
  await storePage(page);
  const savedAfter = Date.now();
  await page.evaluate(async () => {
    await __modelStore.saveModel('first', new Uint8Array([1, 2, 3, 4]).buffer, { kind: 'sentiment', accuracy: 0.8 });
    await __modelStore.saveModel('second', new Uint8Array(100000).fill(7).buffer, { kind: 'seq2seq' });
  });
  let list = await page.evaluate(() => __modelStore.listModels());
  assert.deepEqual(
    list.map((m) => [m.name, m.bytes, m.meta]),
    [
      ['second', 100000, { kind: 'seq2seq' }],
      ['first', 4, { kind: 'sentiment', accuracy: 0.8 }],
    ],
  );
  const savedBefore = Date.now();
  // Each entry carries the time it was saved (the page's clock is this machine's clock).
  assert.ok(
    list.every((m) => typeof m.savedAt === 'number' && m.savedAt >= savedAfter && m.savedAt <= savedBefore),
    JSON.stringify({ savedAfter, savedBefore, at: list.map((m) => m.savedAt) }),
  );

  await page.reload();
  await storePage(page);
  assert.deepEqual(await bytesOf(page, 'first'), [1, 2, 3, 4], 'the model survives a reload');
  assert.equal((await page.evaluate(() => __modelStore.listModels())).length, 2);

  await page.evaluate(() =>
    __modelStore.saveModel('first', new Uint8Array([9, 9]).buffer, { kind: 'sentiment', v: 2 }),
  );
  assert.deepEqual(await bytesOf(page, 'first'), [9, 9], 'overwritten');
  list = await page.evaluate(() => __modelStore.listModels());
  assert.deepEqual(list.find((m) => m.name === 'first').meta, { kind: 'sentiment', v: 2 });

  await page.evaluate(() => __modelStore.deleteModel('first'));
  list = await page.evaluate(() => __modelStore.listModels());
  assert.deepEqual(
    list.map((m) => m.name),
    ['second'],
  );
  const missing = await page.evaluate(() =>
    __modelStore.loadModel('first').then(
      () => 'loaded',
      (e) => e.message,
    ),
  );
  assert.equal(missing, "could not load model 'first': there is no saved model with that name");
  await page.evaluate(() => __modelStore.deleteModel('second'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('storage: a save that fails part-way rejects with the model name and keeps the previous model', async () => {
  const { page } = await openPage(env);
  await storePage(page);
  await page.evaluate(() => __modelStore.saveModel('kept', new Uint8Array([1, 2, 3]).buffer, { version: 1 }));
  // Make the second put of the next save throw: the bytes are already written in the transaction.
  const outcome = await page.evaluate(async () => {
    const put = IDBObjectStore.prototype.put;
    let calls = 0;
    IDBObjectStore.prototype.put = function (...args) {
      calls += 1;
      if (calls === 2) throw new DOMException('simulated failure after the first put', 'QuotaExceededError');
      return put.apply(this, args);
    };
    try {
      await __modelStore.saveModel('kept', new Uint8Array([6, 6, 6, 6, 6]).buffer, { version: 2 });
      return 'saved';
    } catch (error) {
      return error.message;
    } finally {
      IDBObjectStore.prototype.put = put;
    }
  });
  assert.equal(outcome, "could not save model 'kept': storage is full: delete a saved model and try again");
  assert.deepEqual(await bytesOf(page, 'kept'), [1, 2, 3], 'the old bytes are intact');
  const entry = (await page.evaluate(() => __modelStore.listModels())).find((m) => m.name === 'kept');
  assert.deepEqual([entry.bytes, entry.meta], [3, { version: 1 }], 'and so is its index entry');

  // A failed first save of a new name leaves no entry behind.
  const fresh = await page.evaluate(async () => {
    const put = IDBObjectStore.prototype.put;
    let calls = 0;
    IDBObjectStore.prototype.put = function (...args) {
      if (++calls === 2) throw new Error('boom');
      return put.apply(this, args);
    };
    try {
      await __modelStore.saveModel('new', new Uint8Array([1]).buffer, {});
    } catch (error) {
      return error.message;
    } finally {
      IDBObjectStore.prototype.put = put;
    }
  });
  assert.equal(fresh, "could not save model 'new': boom");
  assert.deepEqual(
    (await page.evaluate(() => __modelStore.listModels())).map((m) => m.name),
    ['kept'],
  );
  await page.evaluate(() => __modelStore.deleteModel('kept'));
  await page.close();
});

test('storage: a damaged entry is reported by name on load', async () => {
  const { page } = await openPage(env);
  await storePage(page);
  await page.evaluate(() => __modelStore.saveModel('damaged', new Uint8Array([1, 2, 3, 4]).buffer, {}));
  // Change the stored bytes behind the store's back (same length, other content).
  await page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('attention-playground-models');
        open.onsuccess = () => {
          const tx = open.result.transaction('files', 'readwrite');
          tx.objectStore('files').put(new Uint8Array([1, 2, 3, 5]).buffer, 'damaged');
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  const message = await page.evaluate(() =>
    __modelStore.loadModel('damaged').then(
      () => 'loaded',
      (e) => e.message,
    ),
  );
  assert.match(message, /^saved model 'damaged' is damaged \(.*\): delete it and save the model again$/);
  await page.evaluate(() => __modelStore.deleteModel('damaged'));
  await page.close();
});
