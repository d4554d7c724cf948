// The learner's progress, kept in localStorage so it survives reloads: solved exercises, code
// drafts, answered predictions, and whether a check has failed (which unlocks the solution).
// One JSON object under one key; unreadable or foreign data is treated as "no progress".
export const PROGRESS_KEY = 'attention-playground.course.v1';

export interface Progress {
  solved: Record<string, true>;
  drafts: Record<string, string>;
  failedOnce: Record<string, true>;
  /** Prediction id -> index of the option the learner clicked. */
  predictions: Record<string, number>;
}

const empty = (): Progress => ({
  solved: {},
  drafts: {},
  failedOnce: {},
  predictions: {},
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export class ProgressStore {
  private data: Progress;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: Storage | null = safeLocalStorage()) {
    this.data = this.load();
  }

  get snapshot(): Readonly<Progress> {
    return this.data;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  markSolved(id: string): void {
    this.data.solved[id] = true;
    this.save();
  }
  markFailed(id: string): void {
    this.data.failedOnce[id] = true;
    this.save();
  }
  saveDraft(id: string, code: string): void {
    this.data.drafts[id] = code;
    this.save(false);
  }
  clearDraft(id: string): void {
    delete this.data.drafts[id];
    this.save(false);
  }
  answerPrediction(id: string, choice: number): void {
    this.data.predictions[id] = choice;
    this.save();
  }
  reset(): void {
    this.data = empty();
    this.storage?.removeItem(PROGRESS_KEY);
    this.listeners.forEach((l) => l());
  }

  private load(): Progress {
    try {
      const parsed: unknown = JSON.parse(this.storage?.getItem(PROGRESS_KEY) ?? 'null');
      if (!isRecord(parsed)) return empty();
      const base = empty();
      for (const key of Object.keys(base) as (keyof Progress)[]) {
        if (isRecord(parsed[key])) (base[key] as Record<string, unknown>) = parsed[key] as Record<string, unknown>;
      }
      return base;
    } catch {
      return empty();
    }
  }

  private save(notify = true): void {
    try {
      this.storage?.setItem(PROGRESS_KEY, JSON.stringify(this.data));
    } catch {
      // Storage full or disabled: progress then lasts for this visit only.
    }
    if (notify) this.listeners.forEach((l) => l());
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
