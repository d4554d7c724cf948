// Saved models in the browser's IndexedDB, so a trained model survives a reload.
//
// Two object stores in one database: `files` holds each model's bytes, `index` its entry
// ({name, savedAt, bytes, meta, crc32}). A save writes both in ONE readwrite transaction and
// resolves only on its `complete` event: if anything fails part-way (quota, a thrown error, the
// tab closing) IndexedDB rolls the whole transaction back, so the previous model under that name
// stays intact and no entry ever points at half-written bytes.
//
// Loading checks the stored length and CRC-32 before handing the bytes out, and names the damaged
// entry; the engine's own model-file checksum (and its loader) is the final check.
//
// Errors are plain `Error`s whose message names the model and says what to do, ready to show.

export interface StoredModelInfo {
  name: string;
  /** Date.now() of the save. */
  savedAt: number;
  /** Length of the model file in bytes. */
  bytes: number;
  meta: Record<string, unknown>;
}

interface IndexEntry extends StoredModelInfo {
  crc32: number;
}

const DB_NAME = 'attention-playground-models';
const DB_VERSION = 1;
const FILES = 'files';
const INDEX = 'index';

let opening: Promise<IDBDatabase> | null = null;

function openDb(): Promise<IDBDatabase> {
  if (opening) return opening;
  opening = new Promise<IDBDatabase>((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('browser storage (IndexedDB) is not available here: models cannot be saved in this browser'));
      return;
    }
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(FILES)) db.createObjectStore(FILES);
      if (!db.objectStoreNames.contains(INDEX)) db.createObjectStore(INDEX, { keyPath: 'name' });
    };
    request.onsuccess = () => {
      const db = request.result;
      // Another tab upgrading the schema: let it, and reopen on the next call.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    request.onerror = () =>
      reject(new Error(`browser storage could not be opened: ${request.error?.message ?? 'unknown error'}`));
    request.onblocked = () =>
      reject(new Error('browser storage is blocked by another tab of this page: close the other tabs and try again'));
  }).catch((error: Error) => {
    opening = null;
    throw error;
  });
  return opening;
}

/** What a failed transaction means for the user, as a sentence that starts with the cause. */
function explain(error: DOMException | Error | null | undefined): string {
  if (!error) return 'the browser aborted the operation';
  if (error.name === 'QuotaExceededError') return 'storage is full: delete a saved model and try again';
  return error.message || error.name;
}

function checkName(name: string): void {
  if (typeof name !== 'string' || name.trim() === '') throw new Error('a saved model needs a non-empty name');
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE, as in zip/gzip) of the bytes; export/zip.ts uses it too. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Runs `work` in one transaction over `stores`; resolves with its value on `complete` only. */
async function inTransaction<T>(
  stores: string[],
  mode: IDBTransactionMode,
  failure: string,
  work: (tx: IDBTransaction, settle: (value: T) => void) => void,
): Promise<T> {
  const db = await openDb().catch((error: Error) => {
    throw new Error(`${failure}: ${error.message}`);
  });
  return new Promise<T>((resolve, reject) => {
    let tx: IDBTransaction;
    try {
      tx = db.transaction(stores, mode);
    } catch (error) {
      reject(new Error(`${failure}: ${explain(error as Error)}`));
      return;
    }
    let value: T | undefined;
    let failed: Error | null = null;
    tx.oncomplete = () => (failed ? reject(failed) : resolve(value as T));
    tx.onabort = () => reject(failed ?? new Error(`${failure}: ${explain(tx.error)}`));
    tx.onerror = (event) => {
      // A failed request aborts the transaction; report it once, from onabort.
      event.preventDefault();
      failed ??= new Error(`${failure}: ${explain((event.target as IDBRequest | null)?.error ?? tx.error)}`);
      try {
        tx.abort();
      } catch {
        // already aborting
      }
    };
    try {
      work(tx, (v) => (value = v));
    } catch (error) {
      failed = new Error(`${failure}: ${explain(error as Error)}`);
      try {
        tx.abort();
      } catch {
        // the transaction had already finished or aborted
      }
    }
  });
}

/** Every saved model's entry (not the bytes), most recently saved first. */
export async function listModels(): Promise<StoredModelInfo[]> {
  const entries = await inTransaction<IndexEntry[]>(
    [INDEX],
    'readonly',
    'could not list the saved models',
    (tx, settle) => {
      const request = tx.objectStore(INDEX).getAll();
      request.onsuccess = () => settle(request.result as IndexEntry[]);
    },
  );
  return entries
    .map(({ name, savedAt, bytes, meta }) => ({ name, savedAt, bytes, meta }))
    .sort((a, b) => b.savedAt - a.savedAt || a.name.localeCompare(b.name));
}

/**
 * Saves (or replaces) the model file under `name`. The bytes are copied, so the caller's buffer
 * stays usable. Resolves once the data is committed; on any failure rejects and leaves the
 * previous model under that name as it was.
 */
export async function saveModel(name: string, bytes: ArrayBuffer, meta: Record<string, unknown>): Promise<void> {
  checkName(name);
  if (!(bytes instanceof ArrayBuffer))
    throw new Error(`could not save model '${name}': the model file must be an ArrayBuffer`);
  const copy = bytes.slice(0);
  const entry: IndexEntry = {
    name,
    savedAt: Date.now(),
    bytes: copy.byteLength,
    meta: { ...meta },
    crc32: crc32(new Uint8Array(copy)),
  };
  await inTransaction<void>([FILES, INDEX], 'readwrite', `could not save model '${name}'`, (tx) => {
    tx.objectStore(FILES).put(copy, name);
    tx.objectStore(INDEX).put(entry);
  });
}

/** The model file saved under `name` (a fresh buffer) and its meta; rejects if missing or damaged. */
export async function loadModel(name: string): Promise<{ bytes: ArrayBuffer; meta: Record<string, unknown> }> {
  checkName(name);
  const failure = `could not load model '${name}'`;
  const [entry, stored] = await inTransaction<[IndexEntry | undefined, unknown]>(
    [FILES, INDEX],
    'readonly',
    failure,
    (tx, settle) => {
      const entryRequest = tx.objectStore(INDEX).get(name);
      const fileRequest = tx.objectStore(FILES).get(name);
      fileRequest.onsuccess = () => settle([entryRequest.result as IndexEntry | undefined, fileRequest.result]);
    },
  );
  if (!entry) throw new Error(`${failure}: there is no saved model with that name`);
  if (!(stored instanceof ArrayBuffer)) {
    throw new Error(`saved model '${name}' is damaged (its file is missing): delete it and save the model again`);
  }
  if (stored.byteLength !== entry.bytes || crc32(new Uint8Array(stored)) !== entry.crc32) {
    throw new Error(
      `saved model '${name}' is damaged (its ${stored.byteLength} bytes do not match the ${entry.bytes} bytes and checksum ` +
        'recorded when it was saved): delete it and save the model again',
    );
  }
  return { bytes: stored, meta: entry.meta };
}

/** Removes the model saved under `name` (bytes and entry together); no error if there is none. */
export async function deleteModel(name: string): Promise<void> {
  checkName(name);
  await inTransaction<void>([FILES, INDEX], 'readwrite', `could not delete model '${name}'`, (tx) => {
    tx.objectStore(FILES).delete(name);
    tx.objectStore(INDEX).delete(name);
  });
}
