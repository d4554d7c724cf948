// The Attention Lab's settings: one typed table, serialised to and from the URL hash, so a
// link reproduces what the learner sees (e.g. #lab?kind=dot&temp=1&s=5,1,20&h=3,12,45;59,2,5).
import type { ScoreKindName } from '../../generated/attn_engine.mjs';

export const SCORE_KINDS: readonly ScoreKindName[] = [
  'dot',
  'scaled_dot',
  'general',
  'additive',
  'concat',
  'location',
  'cosine',
];
export const MAX_DIM = 8;
export const MAX_ANNOTATIONS = 10;
export const TEMPERATURE_RANGE: [number, number] = [0.05, 10];

export interface LabState {
  kind: ScoreKindName;
  temperature: number;
  query: number[]; // s, [D]
  annotations: number[][]; // h_1..h_T, [T, D]
  visible: boolean[]; // [T]; false = masked (padding)
  seed: number; // for the learnable parameters of general/additive/concat/location
}

/** The course's running example. */
export function defaultLabState(): LabState {
  return {
    kind: 'dot',
    temperature: 1,
    query: [5, 1, 20],
    annotations: [
      [3, 12, 45],
      [59, 2, 5],
      [1, 43, 5],
      [4, 3, 45.3],
    ],
    visible: [true, true, true, true],
    seed: 1,
  };
}

interface Field<T> {
  read(text: string): T | undefined; // undefined: malformed, keep the default
  write(value: T): string;
}

const finite = (text: string): number | undefined => {
  const x = Number(text);
  return text.trim() !== '' && Number.isFinite(x) ? x : undefined;
};

const numberList = (max: number): Field<number[]> => ({
  read(text) {
    const values = text.split(',').map(finite);
    return values.length >= 1 && values.length <= max && values.every((x) => x !== undefined)
      ? (values as number[])
      : undefined;
  },
  write: (value) => value.join(','),
});

const FIELDS: { [K in keyof LabState]: Field<LabState[K]> } = {
  kind: {
    read: (text) => SCORE_KINDS.find((k) => k === text),
    write: (value) => value,
  },
  temperature: {
    read(text) {
      const x = finite(text);
      return x !== undefined && x >= TEMPERATURE_RANGE[0] && x <= TEMPERATURE_RANGE[1] ? x : undefined;
    },
    write: String,
  },
  query: numberList(MAX_DIM),
  annotations: {
    read(text) {
      const rows = text.split(';').map((row) => numberList(MAX_DIM).read(row));
      if (rows.length < 1 || rows.length > MAX_ANNOTATIONS || rows.some((r) => r === undefined)) return undefined;
      const width = rows[0]!.length;
      return rows.every((r) => r!.length === width) ? (rows as number[][]) : undefined;
    },
    write: (value) => value.map((row) => row.join(',')).join(';'),
  },
  visible: {
    read: (text) => (/^[01]{1,10}$/.test(text) ? [...text].map((c) => c === '1') : undefined),
    write: (value) => value.map((v) => (v ? '1' : '0')).join(''),
  },
  seed: {
    read(text) {
      const x = finite(text);
      return x !== undefined && Number.isInteger(x) && x >= 0 && x <= 2 ** 31 ? x : undefined;
    },
    write: String,
  },
};

const URL_KEYS: { [K in keyof LabState]: string } = {
  kind: 'kind',
  temperature: 'temp',
  query: 's',
  annotations: 'h',
  visible: 'mask',
  seed: 'seed',
};

export function labStateToHash(state: LabState): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(FIELDS) as (keyof LabState)[]) {
    params.set(URL_KEYS[key], (FIELDS[key] as Field<unknown>).write(state[key]));
  }
  return `#lab?${params.toString()}`;
}

/** Reads what it can from the hash; anything missing or malformed keeps its default. */
export function labStateFromHash(hash: string): LabState {
  const state = defaultLabState();
  const query = hash.startsWith('#lab?') ? hash.slice(5) : '';
  const params = new URLSearchParams(query);
  const writable = state as unknown as Record<string, unknown>;
  for (const key of Object.keys(FIELDS) as (keyof LabState)[]) {
    const text = params.get(URL_KEYS[key]);
    if (text === null) continue;
    const value = (FIELDS[key] as Field<unknown>).read(text);
    if (value !== undefined) writable[key] = value;
  }
  return normalise(state);
}

/** Makes the parts agree: every annotation as wide as the query, one mask flag per annotation. */
export function normalise(state: LabState): LabState {
  const d = state.query.length;
  const annotations = state.annotations.map((row) =>
    row.length === d ? row : [...row.slice(0, d), ...new Array(Math.max(0, d - row.length)).fill(0)],
  );
  const visible = annotations.map((_, i) => state.visible[i] ?? true);
  return { ...state, annotations, visible };
}
