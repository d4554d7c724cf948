// replaced by h-reliability
// Saved models in the browser. This stub keeps them in memory (lost on reload) with exactly the
// interface of the IndexedDB store that h-reliability builds, so the Studio compiles and works
// within one visit until that store is merged.
export interface StoredModelInfo {
  name: string;
  savedAt: number;
  bytes: number;
  meta: Record<string, unknown>;
}

const models = new Map<string, { savedAt: number; bytes: ArrayBuffer; meta: Record<string, unknown> }>();

export async function listModels(): Promise<StoredModelInfo[]> {
  return [...models.entries()].map(([name, m]) => ({
    name,
    savedAt: m.savedAt,
    bytes: m.bytes.byteLength,
    meta: m.meta,
  }));
}

export async function saveModel(name: string, bytes: ArrayBuffer, meta: Record<string, unknown>): Promise<void> {
  models.set(name, { savedAt: Date.now(), bytes: bytes.slice(0), meta: { ...meta } });
}

export async function loadModel(name: string): Promise<{ bytes: ArrayBuffer; meta: Record<string, unknown> }> {
  const m = models.get(name);
  if (!m) throw new Error(`no saved model called “${name}”`);
  return { bytes: m.bytes.slice(0), meta: { ...m.meta } };
}

export async function deleteModel(name: string): Promise<void> {
  models.delete(name);
}
