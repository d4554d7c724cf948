// Sentences for the BLEU exercises (lesson 12): fixed ones with a known trap, and seeded random
// hypotheses made from references by dropping, swapping and replacing words.
import { seededRandom } from '../grader';

export const WORDS = [
  'le',
  'chat',
  'est',
  'sur',
  'la',
  'table',
  'il',
  'aime',
  'les',
  'pommes',
  'un',
  'chien',
  'noir',
  'dort',
];

/** `count` hypotheses, each with 1–3 references, drawn from WORDS (a fixed seed per exercise). */
export function randomCorpus(seed: number, count: number): { hypotheses: string[][]; references: string[][][] } {
  const random = seededRandom(seed);
  const word = () => WORDS[Math.floor(random() * WORDS.length)];
  const hypotheses: string[][] = [];
  const references: string[][][] = [];
  for (let i = 0; i < count; i++) {
    const refs = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
      Array.from({ length: 3 + Math.floor(random() * 6) }, word),
    );
    // A hypothesis close to the first reference: some words kept, some replaced or dropped.
    const hyp: string[] = [];
    for (const w of refs[0]) {
      const r = random();
      if (r < 0.6) hyp.push(w);
      else if (r < 0.8) hyp.push(word());
      else if (r < 0.9) hyp.push(w, w);
    }
    hypotheses.push(hyp.length > 0 ? hyp : [word()]);
    references.push(refs);
  }
  return { hypotheses, references };
}

/** "a b c" -> ["a", "b", "c"]. */
export const words = (text: string) => text.split(' ').filter((w) => w !== '');
