// Greedy search against beam search in the Seq2seq view: one input's two answers side by side (a
// table that says whether they differ) with the beam's hypotheses under it (the shared list widget
// `views/beam_candidates.ts`), and the survey of the held-out samples decoded both ways.
import type { EngineBridge } from '../../engine/bridge';
import type { Seq2SeqTranslation } from '../../engine/protocol';
import { createBeamCandidates } from '../beam_candidates';
import { el } from '../dom';

export class SearchComparison {
  readonly table = el('table', {
    className: 's2s-searches',
    dataset: { testid: 's2s-searches' },
    hidden: true,
  });
  private readonly candidates = createBeamCandidates('s2s-candidates');
  readonly candidatesPart = el(
    'div',
    { hidden: true },
    el('h4', {}, 'The beam’s hypotheses (best first; score = log P ÷ length penalty)'),
    this.candidates.element,
  );

  hide(): void {
    this.table.hidden = true;
    this.candidatesPart.hidden = true;
  }

  /**
   * Greedy's and the beam's answers side by side, marked when they differ; hidden for a greedy
   * decode (`greedy` null). Returns whether they differ (null: nothing compared).
   */
  show(greedy: Seq2SeqTranslation | null, best: Seq2SeqTranslation, beam: number): boolean | null {
    this.table.hidden = greedy === null;
    this.candidatesPart.hidden = greedy === null;
    if (!greedy) return null;
    this.candidates.update(best.candidates);
    const differ = greedy.output !== best.output;
    const row = (name: string, t: Seq2SeqTranslation) =>
      el('tr', {}, el('th', { scope: 'row' }, name), el('td', {}, t.output), el('td', {}, t.logProb.toFixed(3)));
    this.table.replaceChildren(
      el(
        'caption',
        {},
        differ
          ? 'Beam search and greedy differ: the beam kept a path greedy dropped.'
          : 'Beam search and greedy agree on this input (on these toy tasks they usually do: a trained model is ' +
              'nearly sure of each character, so the first choice at every step is also the best sequence).',
      ),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, 'Search'),
          el('th', { scope: 'col' }, 'Output'),
          el('th', { scope: 'col' }, 'log P'),
        ),
      ),
      el('tbody', {}, row('Greedy', greedy), row(`Beam, width ${beam} (its best)`, best)),
    );
    return differ;
  }
}

/** Decodes every sample greedily and by a beam of width `beam`; the number whose outputs differ. */
export async function countSearchDifferences(
  engine: EngineBridge,
  samples: readonly string[],
  beam: number,
): Promise<number> {
  let differ = 0;
  for (const text of samples) {
    const greedy = await engine.seq2seqTranslate(text, 1);
    const best = await engine.seq2seqTranslate(text, beam);
    if (greedy.output !== best.output) differ += 1;
  }
  return differ;
}
