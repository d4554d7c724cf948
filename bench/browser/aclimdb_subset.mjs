// A small aclImdb archive cut from a real one, so a Studio bench can be checked in a minute: of
// each split the archive has (train/, test/), the first ceil(n / 2) positive and floor(n / 2)
// negative reviews in archive order, and every entry that is not a review (README, the
// vocabulary, the urls_*.txt files that name each review's movie by its id, so the engine still
// groups the kept reviews by movie). Entries are copied block for block, their own headers
// included, so the cut archive is the original minus the reviews left out.
import { gunzipSync, gzipSync } from 'node:zlib';

const BLOCK = 512;
const REVIEW = /(?:^|\/)(train|test)\/(pos|neg)\/[^/]+\.txt$/;

/** The text of a NUL-padded header field. */
const field = (header, start, length) => {
  const text = header.subarray(start, start + length).toString('latin1');
  const end = text.indexOf('\0');
  return end < 0 ? text : text.slice(0, end);
};

/**
 * `tarGz` (a gzipped ustar / GNU / pax archive, as a Buffer) with at most `perSplit` reviews of each
 * split, half of each class; gzipped. Throws when the archive holds no aclImdb review.
 */
export function aclImdbSubset(tarGz, perSplit) {
  if (!(Number.isInteger(perSplit) && perSplit >= 2))
    throw new Error(`the number of reviews to keep must be a whole number of at least 2, got ${perSplit}`);
  let tar;
  try {
    tar = gunzipSync(tarGz);
  } catch (error) {
    throw new Error(`the archive is not a gzipped tar file (${error.message})`);
  }
  const quota = { pos: Math.ceil(perSplit / 2), neg: Math.floor(perSplit / 2) };
  const taken = new Map();
  const kept = [];
  // GNU long-name ('L') and pax ('x') headers describe the entry after them: they go with it.
  let pending = [];
  let longName = null;
  let reviews = 0;
  for (let offset = 0; offset + BLOCK <= tar.length;) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const end = offset + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (!Number.isFinite(size) || end > tar.length)
      throw new Error('not a tar archive, or a damaged one (an entry runs past its end)');
    const entry = tar.subarray(offset, end);
    const body = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    const type = field(header, 156, 1);
    offset = end;
    if (type === 'L' || type === 'x') {
      pending.push(entry);
      if (type === 'L') longName = field(body, 0, size);
      else longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1] ?? longName;
      continue;
    }
    const prefix = field(header, 257, 6) === 'ustar' ? field(header, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const review = REVIEW.exec(name);
    let keep = true;
    if (review) {
      reviews++;
      const key = `${review[1]}/${review[2]}`;
      keep = (taken.get(key) ?? 0) < quota[review[2]];
      if (keep) taken.set(key, (taken.get(key) ?? 0) + 1);
    }
    if (keep) kept.push(...pending, entry);
    pending = [];
    longName = null;
  }
  if (!reviews) throw new Error('the archive holds no aclImdb review (train/pos/*.txt, train/neg/*.txt, ...)');
  kept.push(Buffer.alloc(2 * BLOCK)); // two zero blocks end an archive
  return gzipSync(Buffer.concat(kept));
}
