// The Attention Lab's settings: one typed table, serialised to and from the route's parameters,
// so a link reproduces what the learner sees (e.g. #/lab?kind=dot&temp=1&s=5,1,20&h=3,12,45;59,2,5).
// Links of the first page (#lab?...) still read: the router redirects them to #/lab?...
import type { ScoreKindName } from '../../../generated/attn_engine.mjs';

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
export const MAX_DK = 512;
export const MAX_SELF_LENGTH = 10;

export interface LabState {
  kind: ScoreKindName;
  temperature: number;
  query: number[]; // s, [D]
  annotations: number[][]; // h_1..h_T, [T, D]
  visible: boolean[]; // [T]; false = masked (padding)
  seed: number; // for the learnable parameters of general/additive/concat/location
  dk: number; // the scaled-vs-unscaled experiment's key dimension, 1..512
  length: number; // self-attention: tokens, 2..10
  valid: number; // self-attention: tokens that are not padding, 1..length
  causal: boolean; // self-attention: each token sees only itself and earlier tokens
  sample: number; // seed of the random q, K (experiment) and Q, K, V (self-attention)
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
    dk: 64,
    length: 6,
    valid: 6,
    causal: false,
    sample: 1,
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

const integerIn = (lo: number, hi: number): Field<number> => ({
  read(text) {
    const x = finite(text);
    return x !== undefined && Number.isInteger(x) && x >= lo && x <= hi ? x : undefined;
  },
  write: String,
});

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
  seed: integerIn(0, 2 ** 31),
  dk: integerIn(1, MAX_DK),
  length: integerIn(2, MAX_SELF_LENGTH),
  valid: integerIn(1, MAX_SELF_LENGTH),
  causal: {
    read: (text) => (text === '1' ? true : text === '0' ? false : undefined),
    write: (value) => (value ? '1' : '0'),
  },
  sample: integerIn(0, 2 ** 31),
};

const URL_KEYS: { [K in keyof LabState]: string } = {
  kind: 'kind',
  temperature: 'temp',
  query: 's',
  annotations: 'h',
  visible: 'mask',
  seed: 'seed',
  dk: 'dk',
  length: 'n',
  valid: 'valid',
  causal: 'causal',
  sample: 'sample',
};

export function labStateToParams(state: LabState): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(FIELDS) as (keyof LabState)[]) {
    params.set(URL_KEYS[key], (FIELDS[key] as Field<unknown>).write(state[key]));
  }
  return params;
}

/** Reads what it can; anything missing or malformed keeps its default. */
export function labStateFromParams(params: URLSearchParams): LabState {
  const state = defaultLabState();
  const writable = state as unknown as Record<string, unknown>;
  for (const key of Object.keys(FIELDS) as (keyof LabState)[]) {
    const text = params.get(URL_KEYS[key]);
    if (text === null) continue;
    const value = (FIELDS[key] as Field<unknown>).read(text);
    if (value !== undefined) writable[key] = value;
  }
  return normalise(state);
}

export function sameLabState(a: LabState, b: LabState): boolean {
  return labStateToParams(a).toString() === labStateToParams(b).toString();
}

/** Makes the parts agree: every annotation as wide as the query, one mask flag per annotation. */
export function normalise(state: LabState): LabState {
  const d = state.query.length;
  const annotations = state.annotations.map((row) =>
    row.length === d ? row : [...row.slice(0, d), ...new Array(Math.max(0, d - row.length)).fill(0)],
  );
  const visible = annotations.map((_, i) => state.visible[i] ?? true);
  const valid = Math.min(state.valid, state.length);
  return { ...state, annotations, visible, valid };
}
