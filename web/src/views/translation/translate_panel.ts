// The Translation tab's translation: a typed sentence (or a held-out one) translated greedily or
// by beam search, with the beam's candidates and greedy's answer beside them, and what the model
// looked at — the RNN's alignment (output words × source words, Bahdanau's figure: colours on the
// fixed 0–1 scale, each weight on hover or focus), or the Transformer's cross-attention for a
// chosen layer and head (or the heads' mean) and its decoder's masked self-attention. The maps are
// the shared heatmap with numbers on demand; unlike the toy tab's alignment_map.ts their columns
// keep their width, so that whole words stay readable as labels (a long sentence scrolls inside
// the map's box).
import type { EngineBridge } from '../../engine/bridge';
import type { Seq2SeqTranslation } from '../../engine/protocol';
import { createBeamCandidates } from '../beam_candidates';
import { el, errorMessage, viewPart } from '../dom';
import { createHeatmap } from '../heatmap';
import { headMean, headSlice, shownToken, type ModelId } from './models';

const EXAMPLE = "He doesn't like apples.";

/** A map of words × words: colours on the fixed 0–1 scale, each weight on hover or focus. */
function wordMap(title: string, testId: string) {
  return createHeatmap(title, testId, { numbers: 'on-demand' });
}

export class TranslatePanel {
  private translation: Seq2SeqTranslation | null = null;

  private readonly input = el('input', { id: 'mt-input', type: 'text', autocomplete: 'off', value: EXAMPLE });
  private readonly sampleSelect = el('select', { id: 'mt-sample' });
  private readonly beamSelect = el('select', { id: 'mt-beam' });
  private readonly button = el('button', {
    type: 'button',
    id: 'mt-translate',
    className: 'primary',
    textContent: 'Translate',
    disabled: true,
  });
  private readonly status = el('p', { className: 'decode-status', role: 'status' });
  private readonly output = el('output', { id: 'mt-output', className: 'mt-output' });
  private readonly candidates = createBeamCandidates('mt-candidates');
  private readonly candidatesPart = el(
    'div',
    { hidden: true },
    el('h4', {}, 'The beam’s candidates (best first; score = log P ÷ length penalty)'),
    this.candidates.element,
  );
  private readonly greedyLine = el('p', { className: 'mt-greedy', dataset: { testid: 'mt-greedy' }, hidden: true });
  private readonly alignment = wordMap(
    'Alignment: how much each French word (rows) attended to each English word (columns)',
    'mt-alignment',
  );
  private readonly layerSelect = el('select', { id: 'mt-layer' });
  private readonly headSelect = el('select', { id: 'mt-head' });
  private readonly transformerControls = el(
    'div',
    { className: 'mt-heads', hidden: true },
    el('label', { htmlFor: 'mt-layer' }, 'Decoder block '),
    this.layerSelect,
    el('label', { htmlFor: 'mt-head' }, 'Head '),
    this.headSelect,
  );
  private readonly selfAttention = wordMap(
    'Decoder self-attention (masked): each French word (rows) over the words before it and itself (columns)',
    'mt-self-attention',
  );
  private readonly noAlignment = el(
    'p',
    { className: 'hint', hidden: true, dataset: { testid: 'mt-no-alignment' } },
    'This model has no attention: the decoder sees the sentence only through the encoder’s last state, one ' +
      'fixed-length vector, so there is no alignment to show.',
  );

  readonly controls = viewPart(
    el('h3', {}, 'Translate a sentence'),
    el(
      'div',
      { className: 'decode-controls' },
      el('label', { htmlFor: 'mt-input' }, 'English '),
      this.input,
      el('label', { htmlFor: 'mt-sample' }, 'or a held-out sentence '),
      this.sampleSelect,
      el('label', { htmlFor: 'mt-beam' }, 'Search '),
      this.beamSelect,
      this.button,
    ),
  );
  readonly result = viewPart(
    el('h3', {}, 'Translation'),
    this.status,
    el('p', {}, 'French: ', this.output),
    this.greedyLine,
    this.candidatesPart,
    this.noAlignment,
    this.transformerControls,
    this.alignment.element,
    this.selfAttention.element,
  );

  constructor(
    private readonly engine: EngineBridge,
    private readonly onError: (message: string) => void,
  ) {
    for (const [value, label] of [
      ['1', 'Greedy'],
      ['4', 'Beam, width 4'],
      ['8', 'Beam, width 8'],
    ])
      this.beamSelect.append(el('option', { value, textContent: label }));
    this.beamSelect.value = '4';
    this.sampleSelect.addEventListener('change', () => {
      if (this.sampleSelect.value) this.input.value = this.sampleSelect.value;
    });
    this.button.addEventListener('click', () => void this.translate());
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !this.button.disabled) void this.translate();
    });
    this.layerSelect.addEventListener('change', () => this.drawAttention());
    this.headSelect.addEventListener('change', () => this.drawAttention());
    this.reset();
  }

  /** A new model is being made: the last translation describes a model that no longer exists. */
  reset(): void {
    this.translation = null;
    this.button.disabled = true;
    this.status.textContent = 'Train a model to translate with it.';
    this.output.textContent = '';
    this.candidatesPart.hidden = true;
    this.greedyLine.hidden = true;
    this.noAlignment.hidden = true;
    this.transformerControls.hidden = true;
    this.alignment.element.hidden = true;
    this.selfAttention.element.hidden = true;
  }

  /** The model being trained and its held-out sentences: translating is possible (mid-run too). */
  ready(model: ModelId, samples: { source: string; target: string }[]): void {
    this.result.dataset.model = model;
    this.sampleSelect.replaceChildren(el('option', { value: '', textContent: '(choose)' }));
    const seen = new Set<string>();
    for (const s of samples) {
      if (seen.has(s.source)) continue;
      seen.add(s.source);
      this.sampleSelect.append(el('option', { value: s.source, textContent: s.source }));
    }
    this.button.disabled = false;
    this.status.textContent = 'You can translate while the model trains; press Translate again to see it improve.';
  }

  /** Training ended: translate the sentence on screen with the final parameters. */
  trained(): void {
    if (!this.button.disabled) void this.translate();
  }

  private async translate(): Promise<void> {
    const text = this.input.value.trim();
    if (text === '') {
      this.status.textContent = `Type an English sentence, for example “${EXAMPLE}”.`;
      this.input.focus();
      return;
    }
    try {
      const beam = Number(this.beamSelect.value) || 1;
      const greedy = beam > 1 ? await this.engine.seq2seqTranslate(text, 1) : null;
      const t = await this.engine.seq2seqTranslate(text, beam);
      this.translation = t;
      this.show(t, greedy, beam);
    } catch (error) {
      this.onError(errorMessage(error));
    }
  }

  private show(t: Seq2SeqTranslation, greedy: Seq2SeqTranslation | null, beam: number): void {
    this.output.textContent = t.output;
    const unknown = t.sourceTokens.filter((token) => token === '<unk>').length;
    this.status.textContent =
      `${beam === 1 ? 'Greedy search' : `Beam search, width ${beam}`}: ${t.outputTokens.length} decoder steps` +
      `${t.finished ? '' : ' (stopped at the length limit)'}, log P = ${t.logProb.toFixed(3)}.` +
      (unknown ? ` ${unknown} of the English words are not in the model’s vocabulary (<unk>).` : '');
    this.greedyLine.hidden = greedy === null;
    if (greedy) {
      const same = greedy.output === t.output;
      this.greedyLine.textContent = same
        ? `Greedy search gives the same translation (log P ${greedy.logProb.toFixed(3)}).`
        : `Greedy search gives “${greedy.output}” (log P ${greedy.logProb.toFixed(3)}): the beam kept a path greedy dropped.`;
      this.greedyLine.dataset.same = same ? '1' : '0';
    }
    this.candidatesPart.hidden = beam === 1;
    this.candidates.update(t.candidates);
    this.layerSelect.replaceChildren();
    this.headSelect.replaceChildren();
    if (t.crossShape) {
      const [layers, heads] = t.crossShape;
      for (let l = 0; l < layers; l++)
        this.layerSelect.append(el('option', { value: String(l), textContent: String(l + 1) }));
      this.layerSelect.value = String(layers - 1);
      this.headSelect.append(el('option', { value: 'mean', textContent: 'mean of the heads' }));
      for (let h = 0; h < heads; h++)
        this.headSelect.append(el('option', { value: String(h), textContent: String(h + 1) }));
    }
    this.drawAttention();
  }

  /** The alignment (RNN) or the chosen layer's and head's cross- and self-attention (Transformer). */
  private drawAttention(): void {
    const t = this.translation;
    if (!t) return;
    const rowLabels = t.outputTokens.map(shownToken);
    const colLabels = t.sourceTokens.map(shownToken);
    const transformer = t.crossShape !== null && t.crossAttention !== null;
    this.transformerControls.hidden = !transformer;
    this.selfAttention.element.hidden = !(transformer && t.selfAttention && t.selfShape);
    if (transformer) {
      const layer = Number(this.layerSelect.value);
      const head = this.headSelect.value;
      const cross =
        head === 'mean'
          ? headMean(t.crossAttention!, t.crossShape!, layer)
          : headSlice(t.crossAttention!, t.crossShape!, layer, Number(head));
      this.alignment.update({ ...cross, rowLabels, colLabels, scale: 'probability' });
      this.alignment.element.hidden = false;
      this.noAlignment.hidden = true;
      if (t.selfAttention && t.selfShape) {
        const self =
          head === 'mean'
            ? headMean(t.selfAttention, t.selfShape, layer)
            : headSlice(t.selfAttention, t.selfShape, layer, Number(head));
        // Row t is the step that produced outputTokens[t]; its input was the previous token.
        const inputs = ['<bos>', ...t.outputTokens.slice(0, -1)].map(shownToken);
        this.selfAttention.update({ ...self, rowLabels, colLabels: inputs, scale: 'probability' });
      }
      return;
    }
    const has = t.rows > 0;
    this.noAlignment.hidden = has;
    this.alignment.element.hidden = !has;
    if (has)
      this.alignment.update({
        values: t.alignment,
        rows: t.rows,
        cols: t.cols,
        rowLabels,
        colLabels,
        scale: 'probability',
      });
  }
}
