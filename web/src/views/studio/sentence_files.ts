// The Studio's picker for the "one sentence per line, one file per class" layout of
// sentence-polarity corpora: two .txt files, one of positive sentences and one of negative ones.
// The engine reads them (loadSentenceFiles); this module only collects the pair and hands over
// the buffers. File names are only ever set as text.
import type { DataSource } from '../../engine/protocol';
import { el } from '../dom';

export interface SentencePair {
  positive: File;
  negative: File;
}

/** The engine's data source for a pair; fresh buffers each time (loadData transfers them). */
export async function sentenceSource(pair: SentencePair, testFraction: number, seed: number): Promise<DataSource> {
  const [positive, negative] = await Promise.all([pair.positive.arrayBuffer(), pair.negative.arrayBuffer()]);
  return {
    kind: 'sentences',
    positive: { bytes: positive, name: pair.positive.name },
    negative: { bytes: negative, name: pair.negative.name },
    testFraction,
    seed,
  };
}

/**
 * Two file inputs; `onChosen` runs once both hold a file (again whenever either changes).
 * Returns the block to place in the data panel.
 */
export function sentenceFilesPicker(onChosen: (pair: SentencePair) => void): HTMLElement {
  const accept = '.txt,.pos,.neg,text/plain';
  const positive = el('input', { id: 'data-sentences-pos', type: 'file', accept });
  const negative = el('input', { id: 'data-sentences-neg', type: 'file', accept });
  const changed = () => {
    const p = positive.files?.[0];
    const n = negative.files?.[0];
    if (p && n) onChosen({ positive: p, negative: n });
  };
  positive.addEventListener('change', changed);
  negative.addEventListener('change', changed);
  return el(
    'div',
    { className: 'sentence-files', dataset: { testid: 'sentence-files' } },
    el('span', {}, 'or two files of one sentence per line, one per class: '),
    el('label', { htmlFor: positive.id }, 'positive '),
    positive,
    el('label', { htmlFor: negative.id }, ' negative '),
    negative,
  );
}
