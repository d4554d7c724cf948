// The beam's hypotheses as a list, best first: each with its length-normalised score (the one the
// beam ranks by), its log-probability and whether it reached <eos>. One widget for every place a
// learner compares them: the Seq2seq view's decoding, the Translation tab and lesson 12.
import type { Seq2SeqCandidate } from '../engine/protocol';
import './beam_candidates.css';
import { el } from './dom';

/** The `<ol>` the candidates are drawn into; `update` replaces its items. */
export interface BeamCandidates {
  readonly element: HTMLOListElement;
  update(candidates: readonly Seq2SeqCandidate[]): void;
}

export function createBeamCandidates(testId = 'beam-candidates'): BeamCandidates {
  const element = el('ol', { className: 'beam-candidates', dataset: { testid: testId } });
  return {
    element,
    update(candidates) {
      element.replaceChildren(
        ...candidates.map((c, i) =>
          el(
            'li',
            { dataset: { best: i === 0 ? '1' : '0' } },
            el('span', { className: 'beam-candidate-text' }, c.text),
            ` — score ${c.score.toFixed(3)}, log P ${c.logProb.toFixed(3)}${c.finished ? '' : ' (unfinished)'}`,
          ),
        ),
      );
    },
  };
}
