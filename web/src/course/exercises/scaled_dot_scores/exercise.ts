import { randomMatrix, randomVector, seededRandom } from '../../grader';
import { fromTensor, heatmapOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const scaledDotScores: Exercise = {
  id: 'scaled_dot_scores',
  title: 'Scaled dot-product scores',
  functionName: 'scaledDotScore',
  prompt: `Complete <code>scaledDotScore(query, keys)</code>: return the $T$ scores
    $k_t^\\top q / \\sqrt{d_k}$, where $d_k$ is the length of the query (and of each key).`,
  starter: `function scaledDotScore(query, keys) {
  // query: [d_k], keys: [T][d_k]  ->  [T]
  return keys.map((k) => {
    let dot = 0;
    for (let i = 0; i < query.length; i++) dot += query[i] * k[i];
    return dot; // TODO: scale
  });
}
`,
  solution: `function scaledDotScore(query, keys) {
  const scale = Math.sqrt(query.length);
  return keys.map((k) => k.reduce((dot, k_i, i) => dot + k_i * query[i], 0) / scale);
}
`,
  hints: ['d_k is query.length.', 'Divide each dot product by Math.sqrt(d_k) — the square root, not d_k itself.'],
  cases() {
    const random = seededRandom(7);
    return [
      {
        name: 'd_k = 4, three keys',
        args: [
          [1, 1, 1, 1],
          [
            [1, 0, 0, 0],
            [1, 1, 1, 1],
            [2, 0, 2, 0],
          ],
        ],
      },
      { name: 'd_k = 1 (the scale is 1)', args: [[3], [[2], [-1]]] },
      ...[
        [4, 16],
        [6, 9],
      ].map(([t, d], i) => ({
        name: `random #${i + 1} (T = ${t}, d_k = ${d}, seed 7)`,
        args: [randomVector(random, d), randomMatrix(random, t, d)],
      })),
    ];
  },
  async reference(call, [query, keys]) {
    return fromTensor(await call('scores', 'scaled_dot', toTensor(query), toTensor(keys), null));
  },
  figure: (value) => heatmapOf(value, 'q', 'k'),
  diagnose(expected, got, [query]) {
    const dk = (query as number[]).length;
    if (!Array.isArray(got) || !Array.isArray(expected) || dk === 1) return null;
    const i = (expected as number[]).findIndex((v) => Math.abs(v) > 1e-3);
    if (i < 0 || typeof got[i] !== 'number') return null;
    const ratio = (got[i] as number) / (expected as number[])[i];
    if (Math.abs(ratio - Math.sqrt(dk)) < 1e-3 * Math.sqrt(dk)) {
      return `Your scores are √d_k = ${Math.sqrt(dk)} times too large: the division by √d_k is missing.`;
    }
    if (Math.abs(ratio - 1 / Math.sqrt(dk)) < 1e-3)
      return `Your scores are divided by d_k = ${dk}; divide by its square root instead.`;
    return null;
  },
};
