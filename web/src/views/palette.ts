// Viridis colour scale (perceptually uniform and readable with the common colour-vision
// deficiencies), as 9 control points interpolated linearly.
const VIRIDIS: [number, number, number][] = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
];

/** Colour for t in [0, 1] (clamped). */
export function viridis(t: number): [number, number, number] {
  return interpolate(VIRIDIS, t);
}

/**
 * Diverging scale for signed values and differences: blue below 0, a light grey at 0, red-orange
 * above (ColorBrewer's RdBu, reversed, 9 classes; safe for the common colour-vision deficiencies,
 * which confuse red with green, not blue with red). t = 0 is the most negative end, 0.5 is zero.
 */
const DIVERGING: [number, number, number][] = [
  [33, 102, 172],
  [67, 147, 195],
  [146, 197, 222],
  [209, 229, 240],
  [247, 247, 247],
  [253, 219, 199],
  [244, 165, 130],
  [214, 96, 77],
  [178, 24, 43],
];

function interpolate(stops: [number, number, number][], t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = stops[i];
  const b = stops[i + 1];
  return [0, 1, 2].map((c) => Math.round(a[c] + (b[c] - a[c]) * f)) as [number, number, number];
}

/** Diverging colour for t in [0, 1] (clamped); 0.5 is the neutral middle. */
export function diverging(t: number): [number, number, number] {
  return interpolate(DIVERGING, t);
}

/** The neutral middle of the diverging scale (the colour of a zero). */
export const DIVERGING_NEUTRAL = DIVERGING[4];

/** A CSS linear-gradient through the diverging scale, for legends. */
export function divergingGradient(): string {
  return `linear-gradient(to right, ${DIVERGING.map((c) => rgb(c)).join(', ')})`;
}

export function rgb([r, g, b]: [number, number, number]): string {
  return `rgb(${r}, ${g}, ${b})`;
}

/**
 * Black or white, whichever has the higher WCAG contrast on the given background: black wins
 * when (L + 0.05) / 0.05 > 1.05 / (L + 0.05), i.e. above L = √0.0525 − 0.05 ≈ 0.179.
 */
export function textColourOn([r, g, b]: [number, number, number]): string {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return luminance > Math.sqrt(0.0525) - 0.05 ? '#000' : '#fff';
}

/** A CSS linear-gradient through the scale, for legends. */
export function viridisGradient(): string {
  return `linear-gradient(to right, ${VIRIDIS.map((c) => rgb(c)).join(', ')})`;
}
