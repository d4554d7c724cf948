import { seededRandom } from '../../grader';
import { idsTableOf } from '../../engine_data';
import type { Exercise } from '../types';

const WORDS = ['the', 'movie', 'film', 'was', 'good', 'bad', 'great', 'plot', 'acting', 'boring', 'a', 'and'];

export const imdbVocabulary: Exercise = {
  id: 'imdb_vocabulary',
  title: 'The IMDB vocabulary: reserved ids and num_words',
  functionName: 'encodeReviews',
  prompt: `Complete <code>encodeReviews(trainDocs, numWords, reviews)</code>, the encoding behind
    <code>imdb.load_data(num_words=5000)</code>. Count every word of the training documents and
    rank the words by count, most frequent first (a tie goes to the word seen first, reading the
    documents in order). Ids 0–3 are reserved (0 padding, 1 start of review, 2 out of
    vocabulary, 3 unused), so the word of rank $k$ (from 0) gets id $k + 4$; only ids below
    <code>numWords</code> are kept. Encode every review as <code>[1, id, id, …]</code>, with 2 for
    a word that has no kept id.`,
  starter: `function encodeReviews(trainDocs, numWords, reviews) {
  // trainDocs: [N][tokens], numWords: ids < numWords survive, reviews: [M][tokens]  ->  [M][1 + tokens]
  const counts = new Map();
  for (const doc of trainDocs) for (const w of doc) counts.set(w, (counts.get(w) || 0) + 1);
  const ranked = [...counts.keys()].sort((a, b) => counts.get(b) - counts.get(a)); // stable: ties keep first-seen order
  const ids = new Map(ranked.map((w, k) => [w, k + 1])); // TODO: reserved ids, numWords
  return reviews.map((r) => r.map((w) => ids.get(w) || 0)); // TODO: start and out-of-vocabulary ids
}
`,
  solution: `function encodeReviews(trainDocs, numWords, reviews) {
  const counts = new Map(); // a Map remembers first-insertion order
  for (const doc of trainDocs) for (const w of doc) counts.set(w, (counts.get(w) || 0) + 1);
  const ranked = [...counts.keys()].sort((a, b) => counts.get(b) - counts.get(a));
  const ids = new Map();
  ranked.forEach((w, k) => { if (k + 4 < numWords) ids.set(w, k + 4); });
  return reviews.map((r) => [1, ...r.map((w) => (ids.has(w) ? ids.get(w) : 2))]);
}
`,
  hints: [
    'The most frequent word gets id 4: ids 0, 1, 2 and 3 are taken by padding, start, out-of-vocabulary and unused.',
    'num_words bounds the ids, not the number of words: num_words = 6 keeps ids 4 and 5, two words.',
    'Every encoded review starts with 1, and an unknown (or dropped) word becomes 2.',
  ],
  cases() {
    const random = seededRandom(31);
    const pick = () => WORDS[Math.floor(random() * random() * WORDS.length)];
    const docs = Array.from({ length: 6 }, () => Array.from({ length: 3 + Math.floor(random() * 6) }, pick));
    const reviews = Array.from({ length: 3 }, () => Array.from({ length: 2 + Math.floor(random() * 5) }, pick));
    const small = [
      ['the', 'movie', 'was', 'good'],
      ['the', 'film', 'was', 'bad'],
      ['the', 'movie'],
    ];
    return [
      {
        name: 'three documents, num_words = 100: the → 4, movie → 5 (tie with was, seen first)',
        args: [
          small,
          100,
          [
            ['the', 'good', 'movie'],
            ['was', 'terrible'],
          ],
        ],
      },
      { name: 'num_words = 6 keeps ids 4 and 5 only (was drops out)', args: [small, 6, [['the', 'movie', 'was']]] },
      {
        name: 'num_words = 4: only the reserved ids, every word is out of vocabulary',
        args: [small, 4, [['the', 'film']]],
      },
      { name: 'an empty review is just the start id', args: [small, 100, [[]]] },
      { name: 'random documents (12 words, num_words = 9, seed 31)', args: [docs, 9, reviews] },
    ];
  },
  async reference(call, [trainDocs, numWords, reviews]) {
    return call('imdbEncode', trainDocs as string[][], numWords as number, reviews as string[][]);
  },
  figure: (value) => (Array.isArray(value) ? idsTableOf(value[0], 'ids', 't') : null),
  diagnose(expected, got) {
    const e = (expected as number[][])[0],
      g = Array.isArray(got) ? (got as unknown[])[0] : null;
    if (!Array.isArray(g)) return null;
    if (g.length === e.length - 1) return 'The encoded review should start with the start id 1.';
    if (g.length === e.length && e.some((x, i) => x >= 4 && g[i] === x - 3)) {
      return 'Your word ids are 3 too small: words start at id 4, after the four reserved ids.';
    }
    return null;
  },
};
