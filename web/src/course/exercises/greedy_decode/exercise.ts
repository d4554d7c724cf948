import { seededRandom } from '../../grader';
import { idsTableOf, toTensor } from '../../engine_data';
import type { Exercise } from '../types';

export const greedyDecode: Exercise = {
  id: 'greedy_decode',
  title: 'Greedy decoding over a decoder step',
  functionName: 'greedyDecode',
  prompt: `Complete <code>greedyDecode(stepTable, maxLen)</code>. A decoder step turns the previous
    token into logits for the next one; here the step is a table, <code>stepTable[previous]</code>
    (length $V$). Greedy decoding starts from BOS (1), takes the best token at every step — the
    largest logit among ids $\\ge 2$, since PAD (0) and BOS are never emitted; the smallest id on
    ties — and feeds it to the next step. It stops when the best token is EOS (2), which is not
    part of the output, or after <code>maxLen</code> steps. Return the emitted tokens.`,
  starter: `function greedyDecode(stepTable, maxLen) {
  // stepTable: [V][V] logits of the next token given the previous one  ->  tokens (no BOS, no EOS)
  const out = [];
  let previous = 1; // BOS
  for (let t = 0; t < maxLen; t++) {
    const z = stepTable[previous];
    const best = z.indexOf(Math.max(...z)); // TODO: PAD and BOS can never be emitted
    out.push(best); // TODO: when does it stop?
    previous = best;
  }
  return out;
}
`,
  solution: `function greedyDecode(stepTable, maxLen) {
  const out = [];
  let previous = 1; // BOS
  for (let t = 0; t < maxLen; t++) {
    const z = stepTable[previous];
    let best = 2;
    for (let v = 3; v < z.length; v++) if (z[v] > z[best]) best = v;
    if (best === 2) break; // EOS ends the output
    out.push(best);
    previous = best;
  }
  return out;
}
`,
  hints: [
    'The best token is an argmax over ids 2 … V − 1 only.',
    'Check for EOS (2) before appending: EOS stops the loop and is not returned.',
    'maxLen bounds the number of steps, so a table that loops forever still ends.',
  ],
  cases() {
    const random = seededRandom(37);
    const chain = [
      [0, 0, 0, 0, 0, 0], // PAD (never read)
      [0, 0, 0, 1, 0, 0], // BOS -> 3
      [0, 0, 1, 0, 0, 0], // EOS (never read)
      [0, 0, 0, 0, 1, 0], // 3 -> 4
      [0, 0, 0, 0, 0, 1], // 4 -> 5
      [0, 0, 1, 0, 0, 0], // 5 -> EOS
    ];
    const loop = chain.map((row, i) => (i === 5 ? [0, 0, 0, 1, 0, 0] : row)); // 5 -> 3: never ends
    const v = 7;
    const table = Array.from({ length: v }, () =>
      Array.from({ length: v }, () => Math.round((random() * 2 - 1) * 300) / 100),
    );
    return [
      { name: 'BOS → 3 → 4 → 5 → EOS', args: [chain, 10] },
      { name: 'a loop 3 → 4 → 5 → 3 …: stops after maxLen = 7 steps', args: [loop, 7] },
      {
        name: 'PAD and BOS have the largest logits: they are skipped',
        args: [chain.map((row, i) => (i === 1 ? [9, 9, 0, 1, 0, 0] : row)), 10],
      },
      {
        name: 'EOS right away: an empty output',
        args: [chain.map((row, i) => (i === 1 ? [0, 0, 1, 0, 0, 0] : row)), 10],
      },
      { name: 'maxLen = 0: no step at all', args: [chain, 0] },
      {
        name: 'a tie between 3 and 4 goes to 3 (the smaller id)',
        args: [chain.map((row, i) => (i === 1 ? [0, 0, 0, 1, 1, 0] : row)), 10],
      },
      { name: 'random table (V = 7, maxLen = 12, seed 37)', args: [table, 12] },
    ];
  },
  async reference(call, [stepTable, maxLen]) {
    return call('greedyDecodeTable', toTensor(stepTable), maxLen as number);
  },
  figure: (value) => idsTableOf(value, 'y', 't'),
  diagnose(expected, got) {
    const g = got as unknown[];
    if (!Array.isArray(g)) return null;
    if (g.includes(2)) return 'EOS (2) ends the output and is not part of it: stop before appending it.';
    if (g.includes(0) || g.includes(1))
      return 'PAD (0) and BOS (1) are never emitted: take the argmax over ids 2 and up.';
    if (g.length > (expected as number[]).length)
      return 'The output runs past EOS: stop as soon as the best token is EOS.';
    return null;
  },
};
