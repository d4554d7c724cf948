import { fromTensor, heatmapOf } from '../../engine_data';
import type { Exercise } from '../types';

export const positionalEncoding: Exercise = {
  id: 'positional_encoding',
  title: 'Sinusoidal positional encodings',
  functionName: 'positionalEncoding',
  prompt: `Complete <code>positionalEncoding(maxLen, d)</code>: a $\\text{maxLen} \\times d$ table whose
    row $pos$ is added to the embedding of the token at position $pos$ (from 0). Column pairs share a
    frequency: $PE[pos, 2i] = \\sin(pos / 10000^{2i/d})$ and
    $PE[pos, 2i+1] = \\cos(pos / 10000^{2i/d})$. When $d$ is odd the last column is a sine
    without a cosine partner.`,
  starter: `function positionalEncoding(maxLen, d) {
  // -> [maxLen][d]
  return Array.from({ length: maxLen }, (_, pos) =>
    Array.from({ length: d }, (_, j) => {
      const i = j; // TODO: columns 2i and 2i + 1 share one frequency
      const angle = pos / Math.pow(10000, i / d);
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }));
}
`,
  solution: `function positionalEncoding(maxLen, d) {
  return Array.from({ length: maxLen }, (_, pos) =>
    Array.from({ length: d }, (_, j) => {
      const i = Math.floor(j / 2); // the pair (2i, 2i + 1)
      const angle = pos / Math.pow(10000, (2 * i) / d);
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }));
}
`,
  hints: [
    'Position 0 is all sines of 0 and cosines of 0: [0, 1, 0, 1, …].',
    'Columns 2i and 2i + 1 use the same angle pos / 10000^(2i/d): i = Math.floor(j / 2).',
  ],
  cases() {
    return [
      { name: 'position 0 only (d = 4): [0, 1, 0, 1]', args: [1, 4] },
      { name: 'maxLen = 4, d = 4: the second pair turns 100 times slower', args: [4, 4] },
      { name: 'an odd model size d = 5 (the last column is a lone sine)', args: [3, 5] },
      { name: 'd = 1: one sine column', args: [3, 1] },
      { name: 'maxLen = 50, d = 16', args: [50, 16] },
    ];
  },
  async reference(call, [maxLen, d]) {
    return fromTensor(await call('sinusoidalPositionalEncoding', maxLen as number, d as number));
  },
  figure: (value) => heatmapOf(value, 'pos', 'c', [-1, 1]),
  diagnose(expected, got) {
    const e = expected as number[][];
    if (!Array.isArray(got) || e[0].length < 3) return null;
    const row = got[e.length - 1];
    if (!Array.isArray(row)) return null;
    const d = e[0].length,
      pos = e.length - 1;
    const noPairs = Array.from({ length: d }, (_, j) => {
      const angle = pos / Math.pow(10000, j / d);
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    });
    if (pos > 0 && noPairs.every((x, j) => Math.abs(x - Number(row[j])) < 1e-6)) {
      return 'Every column got its own frequency: columns 2i and 2i + 1 share the exponent 2i/d (i = Math.floor(j / 2)).';
    }
    return null;
  },
};
