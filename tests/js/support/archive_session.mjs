// What the node tests that load aclImdb archives into the engine share (data_splits,
// grouped_splits, aclimdb_subset): the wasm module, one SentimentSession, and the page's own
// archive helpers (web/src/views/studio/folder_archive.ts: its ustar writer tarArchive and
// aclImdbPath), loaded through Vite's SSR loader. Open it in before(), close it in after().
import { loadEngine } from './engine.mjs';
import { loadWebModules } from './web_modules.mjs';

/** Resolves with {engine, session, tarArchive, aclImdbPath, close}. */
export async function openArchiveSession() {
  const engine = await loadEngine();
  const session = new engine.SentimentSession();
  const loaded = await loadWebModules('/src/views/studio/folder_archive.ts');
  const { tarArchive, aclImdbPath } = loaded.modules[0];
  return {
    engine,
    session,
    tarArchive,
    aclImdbPath,
    close: async () => {
      session.delete();
      await loaded.close();
    },
  };
}
