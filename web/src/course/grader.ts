// Compares a learner's result with the engine's reference and says where and how they differ.
// Pure functions (no DOM): the exercise view turns a Mismatch into words and heatmaps.
//
// Tolerance: |got − expected| <= ABS_TOL + REL_TOL · |expected| per number. The engine works in
// float32 and the learner's JavaScript in float64, so the two differ by ~1e-7 relative on our
// inputs (two-decimal numbers, at most a few hundred terms); 1e-4 leaves room for that and
// for summing in another order, while any real mistake (a missing √d_k, a wrong axis, an
// unsubtracted maximum) is off by far more.
export const ABS_TOL = 1e-4;
export const REL_TOL = 1e-4;

export type Mismatch =
  | { kind: 'value'; path: string; expected: number; got: unknown }
  | { kind: 'not-finite'; path: string; expected: number; got: number }
  | { kind: 'length'; path: string; expected: number; got: number }
  | { kind: 'type'; path: string; expected: string; got: string };

function describeType(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined (did you forget to return?)';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value} (${String(value)})`;
}

/** Booleans count as 1/0 so that masks may be written either way. */
function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

/** First difference between `got` and `expected` (numbers, nested arrays, plain objects), or null. */
export function compare(expected: unknown, got: unknown, path = ''): Mismatch | null {
  if (typeof expected === 'number') {
    const value = asNumber(got);
    if (value === undefined)
      return {
        kind: 'type',
        path,
        expected: 'a number',
        got: describeType(got),
      };
    if (!Number.isFinite(value)) return { kind: 'not-finite', path, expected, got: value };
    if (Math.abs(value - expected) > ABS_TOL + REL_TOL * Math.abs(expected)) {
      return { kind: 'value', path, expected, got: value };
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(got))
      return {
        kind: 'type',
        path,
        expected: `an array of ${expected.length}`,
        got: describeType(got),
      };
    if (got.length !== expected.length)
      return {
        kind: 'length',
        path,
        expected: expected.length,
        got: got.length,
      };
    for (let i = 0; i < expected.length; i++) {
      const found = compare(expected[i], got[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (got === null || typeof got !== 'object' || Array.isArray(got)) {
      return {
        kind: 'type',
        path,
        expected: `an object with ${Object.keys(expected).join(', ')}`,
        got: describeType(got),
      };
    }
    for (const key of Object.keys(expected)) {
      const found = compare(
        (expected as Record<string, unknown>)[key],
        (got as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (found) return found;
    }
    return null;
  }
  return expected === got
    ? null
    : {
        kind: 'type',
        path,
        expected: String(expected),
        got: describeType(got),
      };
}

/** Short text for a number or nested array, for "expected … got …" lines. */
export function formatData(value: unknown, maxItems = 8): string {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    if (Number.isInteger(value)) return String(value);
    const abs = Math.abs(value);
    return abs !== 0 && (abs < 1e-3 || abs >= 1e5) ? value.toExponential(3) : String(Number(value.toPrecision(5)));
  }
  if (Array.isArray(value)) {
    const items = value.slice(0, maxItems).map((v) => formatData(v, maxItems));
    return `[${items.join(', ')}${value.length > maxItems ? ', …' : ''}]`;
  }
  if (value !== null && typeof value === 'object') {
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k}: ${formatData(v, maxItems)}`)
      .join(', ')} }`;
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/** Every axis length of the arguments (nested arrays, read along their first elements). */
function axisLengths(args: unknown[]): Set<number> {
  const lengths = new Set<number>();
  const walk = (value: unknown) => {
    if (!Array.isArray(value)) return;
    lengths.add(value.length);
    walk(value[0]);
  };
  args.forEach(walk);
  return lengths;
}

/**
 * One sentence about a mismatch, e.g. "at [0]: expected 0.1192, got NaN". With the case's
 * arguments, a wrong length is blamed on a wrong axis only on evidence: when the length the
 * learner returned is the length of some axis of the inputs (one entry per feature instead of one
 * per annotation, say), not for any wrong length (an empty result, one entry too many).
 */
export function describeMismatch(m: Mismatch, args: unknown[] = []): string {
  const where = m.path ? ` at ${m.path}` : '';
  switch (m.kind) {
    case 'value':
      return `${where ? `${where.trim()}: ` : ''}expected ${formatData(m.expected)}, got ${formatData(m.got)}`;
    case 'not-finite':
      return `${where ? `${where.trim()}: ` : ''}expected ${formatData(m.expected)}, got ${formatData(m.got)} — a NaN or Infinity usually means an overflow (Math.exp of a large number) or 0/0`;
    case 'length':
      return `${where ? `${where.trim()}: ` : ''}expected ${m.expected} entries, got ${m.got}${
        axisLengths(args).has(m.got)
          ? ` — ${m.got} is the length of another axis of the inputs: is it summed or indexed along the wrong axis?`
          : ''
      }`;
    case 'type':
      return `${where ? `${where.trim()}: ` : ''}expected ${m.expected}, got ${m.got}`;
  }
}

/** Deterministic pseudo-random numbers (mulberry32) for the randomised cases: same seed, same inputs. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** rows × cols matrix of two-decimal numbers in [-scale, scale) (exact enough in float32). */
export function randomMatrix(random: () => number, rows: number, cols: number, scale = 2): number[][] {
  return Array.from({ length: rows }, () => randomVector(random, cols, scale));
}
export function randomVector(random: () => number, n: number, scale = 2): number[] {
  return Array.from({ length: n }, () => Math.round((random() * 2 - 1) * scale * 100) / 100);
}

/** A known-wrong variant of an exercise's solution, and what to tell a learner whose result is its. */
export interface KnownMistake {
  /** One sentence of advice, e.g. "The tanh is missing: …". */
  hint: string;
  /** The solution with that one mistake: run on the failing case to see what the mistake gives. */
  code: string;
}

/**
 * The hint of the first known mistake whose result on the failing case is the learner's result
 * (within the grader's tolerance) while differing from the expected one; null when none is (a
 * mistake that gives the right answer on this case is no evidence). `variants[i]` is mistake i's
 * result on the case, or undefined when it did not run.
 */
export function matchMistake(
  mistakes: readonly KnownMistake[],
  variants: readonly unknown[],
  expected: unknown,
  got: unknown,
): string | null {
  for (let i = 0; i < mistakes.length; i++) {
    const value = variants[i];
    if (value === undefined) continue;
    if (compare(expected, value) !== null && compare(value, got) === null) return mistakes[i].hint;
  }
  return null;
}

/** A sentence ending in its own punctuation gets no extra full stop. */
export function sentence(text: string): string {
  return /[.?!:]$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}
