// Lesson 12's translate box: the learner's sentence translated greedily and with the beam (the
// shared beam_candidates.ts list of its hypotheses with their length-penalised scores) and the
// greedy output's attention drawn with the shared alignment map (the RNN's α, the Transformer's
// last-layer cross-attention averaged over its heads), while the page's seq2seq session is still
// the translator's.
import { createBeamCandidates } from '../views/beam_candidates';
import { el } from '../views/dom';
import { createAlignmentMap } from '../views/seq2seq/alignment_map';
import type { Seq2SeqEngine } from './seq2seq_demo_view';

export interface Translator {
  /** Hidden until a model is trained. */
  readonly element: HTMLElement;
  /** Translates the sentence in the box (or says why it cannot). */
  translate(): Promise<void>;
}

export function createTranslator(
  engine: Pick<Seq2SeqEngine, 'seq2seqTranslate'>,
  example: string,
  beamWidth: number,
  owns: () => boolean,
): Translator {
  const element = el('div', { className: 's2s-translate', hidden: true });
  const input = el('input', { type: 'text', value: example, autocomplete: 'off', spellcheck: false });
  input.setAttribute('aria-label', 'sentence to translate');
  const go = el('button', { type: 'button', textContent: 'Translate' });
  const output = el('div', { className: 'mt-outputs', dataset: { testid: 'mt-outputs' } });
  const candidates = createBeamCandidates('mt-candidates');
  const map = createAlignmentMap(
    'attention (French words × English words), greedy: the RNN’s α, the Transformer’s last-layer cross-attention averaged over its heads',
    'mt-alignment',
  );
  map.element.hidden = true;
  element.append(el('div', { className: 'buttons' }, input, go), output, map.element);
  const translate = async () => {
    if (!owns()) {
      output.textContent = 'Another model was trained on this page since: train the translator again first.';
      return;
    }
    const text = input.value.trim();
    if (!text) {
      output.textContent = 'Type a sentence to translate.';
      return;
    }
    try {
      const greedy = await engine.seq2seqTranslate(text, 1);
      const beam = await engine.seq2seqTranslate(text, beamWidth);
      output.replaceChildren(
        el('p', {}, `greedy: ${greedy.output} (log p = ${greedy.logProb.toFixed(2)})`),
        el('p', {}, `beam ${beamWidth}: ${beam.output} (log p = ${beam.logProb.toFixed(2)})`),
        el('p', {}, `the beam’s ${beam.candidates.length} hypotheses, best first (score = log p / lp):`),
        candidates.element,
      );
      candidates.update(beam.candidates);
      map.element.hidden = greedy.rows === 0;
      if (greedy.rows > 0) {
        map.update({
          values: greedy.alignment,
          rows: greedy.rows,
          cols: greedy.cols,
          rowLabels: greedy.outputTokens,
          colLabels: greedy.sourceTokens,
          range: [0, 1],
        });
      }
      element.dataset.state = 'translated';
    } catch (error) {
      output.textContent = `The engine could not translate this: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  go.addEventListener('click', () => void translate());
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') void translate();
  });
  return { element, translate };
}
