// The learner's progress, kept in localStorage so it survives reloads: solved exercises, code
// drafts, answered predictions, whether a check has failed (which unlocks the solution), and the
// models trained in the lessons' demos. One JSON object under one key; unreadable or foreign
// data is treated as "no progress".
//
// Progress also moves between browsers as a file (exportProgress / parseProgressFile /
// mergeProgress, pure and tested in node): {format, version, exportedAt, progress}. Importing
// validates the whole file first and then only adds to what this browser has, so a bad or
// foreign file changes nothing and a good one never erases local work.
export const PROGRESS_KEY = 'attention-playground.course.v1';
export const PROGRESS_FILE_FORMAT = 'attention-playground-course-progress';
export const PROGRESS_FILE_VERSION = 1;
/** Larger files are refused before they are read (a real one is a few tens of kB). */
export const MAX_PROGRESS_FILE_BYTES = 2 * 1024 * 1024;

export interface Progress {
  solved: Record<string, true>;
  drafts: Record<string, string>;
  failedOnce: Record<string, true>;
  /** Prediction id -> index of the option the learner clicked. */
  predictions: Record<string, number>;
  /** Demo id (a lesson's training, seq2seq, pooling or sentiment block) -> trained at least once. */
  modelsTrained: Record<string, true>;
}

export const emptyProgress = (): Progress => ({
  solved: {},
  drafts: {},
  failedOnce: {},
  predictions: {},
  modelsTrained: {},
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What each field's values must be, and how to say so. */
const FIELDS: Record<keyof Progress, { valid: (v: unknown) => boolean; expected: string }> = {
  solved: { valid: (v) => v === true, expected: 'true' },
  drafts: { valid: (v) => typeof v === 'string', expected: 'a string of code' },
  failedOnce: { valid: (v) => v === true, expected: 'true' },
  predictions: { valid: (v) => Number.isInteger(v) && (v as number) >= 0, expected: 'an option number' },
  modelsTrained: { valid: (v) => v === true, expected: 'true' },
};

/** Ids are the course's own (a letter or digit, then letters, digits, '_' and '-'): anything
 *  else (markup, "__proto__") is not ours. */
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/;

/** The progress file's text for `progress`. */
export function exportProgress(progress: Readonly<Progress>, now = new Date()): string {
  const file = {
    format: PROGRESS_FILE_FORMAT,
    version: PROGRESS_FILE_VERSION,
    exportedAt: now.toISOString(),
    progress,
  };
  return JSON.stringify(file, null, 1) + '\n';
}

export type ParsedProgress = { ok: true; progress: Progress } | { ok: false; message: string };

/**
 * Reads a progress file's text. Refuses (with a message saying why) anything that is not JSON,
 * not a progress file of this course, from a newer version, or holds a value of the wrong kind
 * (checked in full before anything is used). Fields missing from the file are empty.
 */
export function parseProgressFile(text: string): ParsedProgress {
  const fail = (message: string): ParsedProgress => ({ ok: false, message });
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    return fail('This file is not a progress file: it is not JSON.');
  }
  if (!isRecord(file) || file.format !== PROGRESS_FILE_FORMAT) {
    return fail('This file is not a progress file of the Attention Playground course.');
  }
  if (!Number.isInteger(file.version) || (file.version as number) < 1) {
    return fail('This progress file has no valid version number.');
  }
  if ((file.version as number) > PROGRESS_FILE_VERSION) {
    return fail(
      `This progress file was written by a newer version of the course (format ${String(file.version)}; this page reads ${PROGRESS_FILE_VERSION}). Update the page and try again.`,
    );
  }
  if (!isRecord(file.progress)) return fail('This progress file has no progress in it.');
  const progress = emptyProgress();
  for (const key of Object.keys(FIELDS) as (keyof Progress)[]) {
    const field = file.progress[key];
    if (field === undefined) continue;
    if (!isRecord(field)) return fail(`This progress file is damaged: "${key}" is not a table of entries.`);
    for (const [id, value] of Object.entries(field)) {
      if (!ID.test(id)) return fail(`This progress file is damaged: "${key}" has an entry with a strange name.`);
      if (!FIELDS[key].valid(value)) {
        return fail(`This progress file is damaged: "${key}.${id}" should be ${FIELDS[key].expected}.`);
      }
    }
    (progress[key] as Record<string, unknown>) = { ...field };
  }
  return { ok: true, progress };
}

export interface MergeReport {
  /** Entries the import added, per field. */
  added: Record<keyof Progress, number>;
  /** Drafts present on both sides: this browser's draft is kept. */
  draftsKept: number;
}

/**
 * `current` plus what `imported` has that `current` lacks: solved exercises, trained models and
 * failed checks are united; an answered prediction keeps its first answer; a draft this browser
 * already has is kept (the file's is not lost: it is still in the file). Pure: returns new objects.
 */
export function mergeProgress(
  current: Readonly<Progress>,
  imported: Readonly<Progress>,
): { progress: Progress; report: MergeReport } {
  const progress = emptyProgress();
  const added = { solved: 0, drafts: 0, failedOnce: 0, predictions: 0, modelsTrained: 0 };
  let draftsKept = 0;
  for (const key of Object.keys(FIELDS) as (keyof Progress)[]) {
    const into = { ...current[key] } as Record<string, unknown>;
    for (const [id, value] of Object.entries(imported[key])) {
      if (id in into) {
        if (key === 'drafts' && into[id] !== value) draftsKept++;
        continue;
      }
      into[id] = value;
      added[key]++;
    }
    (progress[key] as Record<string, unknown>) = into;
  }
  return { progress, report: { added, draftsKept } };
}

/** One sentence about an import, for the page's status line. */
export function describeImport(report: MergeReport): string {
  const { added, draftsKept } = report;
  const parts = [
    `${added.solved} solved exercise${added.solved === 1 ? '' : 's'}`,
    `${added.drafts} draft${added.drafts === 1 ? '' : 's'}`,
    `${added.predictions} answered prediction${added.predictions === 1 ? '' : 's'}`,
    `${added.modelsTrained} trained model${added.modelsTrained === 1 ? '' : 's'}`,
  ];
  const kept = draftsKept
    ? ` ${draftsKept} draft${draftsKept === 1 ? '' : 's'} of this browser differed from the file and ${draftsKept === 1 ? 'was' : 'were'} kept.`
    : '';
  return `Imported: ${parts.join(', ')} added.${kept}`;
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
  markTrained(id: string): void {
    if (this.data.modelsTrained[id]) return;
    this.data.modelsTrained[id] = true;
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
    this.data = emptyProgress();
    this.storage?.removeItem(PROGRESS_KEY);
    this.listeners.forEach((l) => l());
  }

  /** Reads a progress file and adds it to this browser's progress; nothing changes on failure. */
  importFile(text: string): { ok: true; message: string } | { ok: false; message: string } {
    const parsed = parseProgressFile(text);
    if (!parsed.ok) return parsed;
    const { progress, report } = mergeProgress(this.data, parsed.progress);
    this.data = progress;
    this.save();
    return { ok: true, message: describeImport(report) };
  }

  private load(): Progress {
    try {
      const parsed: unknown = JSON.parse(this.storage?.getItem(PROGRESS_KEY) ?? 'null');
      if (!isRecord(parsed)) return emptyProgress();
      const base = emptyProgress();
      for (const key of Object.keys(base) as (keyof Progress)[]) {
        if (isRecord(parsed[key])) (base[key] as Record<string, unknown>) = parsed[key] as Record<string, unknown>;
      }
      return base;
    } catch {
      return emptyProgress();
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
