// Number formats every view and lesson shares, so one quantity reads the same everywhere.

/** A share as a percentage with one decimal: 0.8333 → "83.3%". */
export function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/**
 * A value for a map cell, a readout or an export: 3 significant-ish decimals, exponent form only
 * where fixed decimals would show nothing (below 0.001) or too much (1000 and up).
 */
export function formatValue(x: number): string {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1000 || abs < 0.001) return x.toExponential(2);
  return x.toFixed(abs >= 100 ? 1 : abs >= 10 ? 2 : 3);
}

/** A signed value with its sign always written: +0.012, −0.300 (a true minus sign). */
export function formatSigned(x: number): string {
  const text = formatValue(Math.abs(x));
  return x > 0 ? `+${text}` : x < 0 ? `−${text}` : text;
}

/** Pages opened with ?s2s-quick (the browser tests) train each demo run for a few seconds only. */
export function quickMode(): boolean {
  return new URLSearchParams(location.search).has('s2s-quick');
}

/** A BLEU score with one decimal, "–" where it was not measured. */
export function formatBleu(score: number | null): string {
  return score === null ? '–' : score.toFixed(1);
}
