// The Seq2seq view's decoding: an input (typed or a held-out sample) decoded greedily or by beam
// search, then replayed step by step — the output so far, the input tinted by the step's attention
// and the alignment matrix growing row by row (a compact heatmap that fits its panel, or links).
// With prefers-reduced-motion the final alignment shows at once. Beside the result: how sure the
// model was, whether the input is like its training inputs, and — for a beam — greedy's answer and
// the beam's hypotheses with their scores (`search_comparison.ts`). The input under the decoder
// is `source_attention.ts`.
import { prefersReducedMotion } from '../../app/theme';
import type { EngineBridge } from '../../engine/bridge';
import type { Seq2SeqTranslation } from '../../engine/protocol';
import { el, errorMessage, viewPart } from '../dom';
import { formatValue } from '../format';
import { attentionModeToggle, createLinkView, type AttentionMode } from '../link_view';
import { createAlignmentMap } from './alignment_map';
import { countSearchDifferences, SearchComparison } from './search_comparison';
import { SourceAttention } from './source_attention';
import {
  inputWarnings,
  LOW_CONFIDENCE,
  meanTokenProbability,
  shown,
  TASKS,
  type TaskName,
  type TrainedLengths,
} from './tasks';

const STEP_MS = 450;

export class DecodePanel {
  private animation: number | null = null;
  private translation: Seq2SeqTranslation | null = null;
  private task: TaskName = 'reverse';
  private lengths: TrainedLengths = { minLen: 0, maxLen: 0 };
  private samples: string[] = [];
  private attentionMode: AttentionMode = 'heatmap';
  /** Whether the decode on screen has alignment rows to show. */
  private hasAlignment = false;

  private readonly input = el('input', { id: 's2s-input', type: 'text', autocomplete: 'off', spellcheck: false });
  private readonly inputError = el('p', { className: 'field-error', id: 's2s-input-error', hidden: true });
  private readonly sampleSelect = el('select', { id: 's2s-sample' });
  private readonly beamSelect = el('select', { id: 's2s-beam' });
  private readonly decodeButton = el('button', {
    type: 'button',
    className: 'primary',
    textContent: 'Decode',
    disabled: true,
  });
  private readonly finishButton = el('button', { type: 'button', textContent: 'Show all steps', disabled: true });
  private readonly compareButton = el('button', {
    type: 'button',
    textContent: 'Compare greedy and beam on the held-out samples',
    disabled: true,
  });
  private readonly compareOut = el('p', { className: 'hint', dataset: { testid: 's2s-beam-survey' } });
  private readonly status = el('p', { className: 'decode-status', role: 'status' });
  private readonly warnings = el('ul', {
    className: 's2s-warnings',
    dataset: { testid: 's2s-warnings' },
    hidden: true,
  });
  private readonly searches = new SearchComparison();
  private readonly output = el('output', { id: 's2s-output', className: 's2s-output' });
  private readonly current = el('div', { className: 's2s-current', id: 's2s-current' });
  private readonly heatmap = createAlignmentMap(
    'Alignment: attention of each output token (rows) over the input (columns)',
    's2s-alignment',
  );
  private readonly links = createLinkView('Alignment as links', 's2s-links', {
    threshold: 0.01,
    rowsName: 'output tokens',
    colsName: 'input tokens',
  });
  private readonly source = new SourceAttention();

  /** The side panel's controls. */
  readonly controls = viewPart(
    el('h3', {}, 'Decode an input'),
    el(
      'div',
      { className: 'decode-controls' },
      el('label', { htmlFor: 's2s-input' }, 'Input '),
      this.input,
      this.inputError,
      el('label', { htmlFor: 's2s-sample' }, 'or a held-out sample '),
      this.sampleSelect,
      el('label', { htmlFor: 's2s-beam' }, 'Search '),
      this.beamSelect,
      this.decodeButton,
      this.finishButton,
    ),
    this.compareButton,
    this.compareOut,
  );
  /** The main area's result. */
  readonly result = viewPart(
    el('h3', {}, 'Decoding'),
    this.status,
    this.warnings,
    el('p', {}, 'Output: ', this.output),
    this.searches.table,
    this.searches.candidatesPart,
    this.current,
    this.source.element,
    attentionModeToggle('s2s-mode', (mode) => this.showAttentionAs(mode)),
    this.heatmap.element,
    this.links.element,
  );

  constructor(
    private readonly engine: EngineBridge,
    private readonly host: HTMLElement,
    private readonly onError: (message: string) => void,
  ) {
    for (const [value, label] of [
      ['1', 'Greedy'],
      ['3', 'Beam, width 3'],
      ['5', 'Beam, width 5'],
    ])
      this.beamSelect.append(el('option', { value, textContent: label }));
    this.input.setAttribute('aria-describedby', 's2s-input-error');
    this.input.value = TASKS.reverse.example;
    this.sampleSelect.addEventListener('change', () => {
      if (this.sampleSelect.value) this.input.value = this.sampleSelect.value;
    });
    this.decodeButton.addEventListener('click', () => void this.decode());
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !this.decodeButton.disabled) void this.decode();
    });
    this.input.addEventListener('input', () => this.showInputError(''));
    this.finishButton.addEventListener('click', () => this.showStep(this.rows()));
    this.compareButton.addEventListener('click', () => void this.compareSearches());
    this.heatmap.element.hidden = true;
  }

  /**
   * A new model is being made: the last model's decode, samples and survey go (they describe a
   * model that no longer exists), and nothing can be decoded until `ready`.
   */
  reset(): void {
    this.stopAnimation();
    this.translation = null;
    this.hasAlignment = false;
    this.decodeButton.disabled = true;
    this.finishButton.disabled = true;
    this.compareButton.disabled = true;
    this.compareOut.textContent = '';
    this.status.textContent = '';
    this.output.textContent = '';
    this.current.replaceChildren();
    this.warnings.hidden = true;
    this.searches.hide();
    this.source.element.hidden = true;
    this.heatmap.element.hidden = true;
    this.links.setVisible(false);
    delete this.host.dataset.decodeStep;
    delete this.host.dataset.decodeSteps;
    this.showInputError('');
  }

  /** The new model's task and held-out samples: decoding is possible. */
  ready(
    task: TaskName,
    lengths: TrainedLengths,
    samples: { source: string; target: string }[],
    newTask: boolean,
  ): void {
    this.task = task;
    this.lengths = lengths;
    this.samples = samples.map((s) => s.source);
    this.sampleSelect.replaceChildren(el('option', { value: '', textContent: '(choose)' }));
    for (const s of samples)
      this.sampleSelect.append(el('option', { value: s.source, textContent: `${s.source} → ${s.target}` }));
    if (!this.input.value || newTask) this.input.value = TASKS[task].example;
    this.decodeButton.disabled = false;
    this.compareButton.disabled = samples.length === 0;
  }

  private showInputError(message: string): void {
    this.inputError.textContent = message;
    this.inputError.hidden = message === '';
    if (message) this.input.setAttribute('aria-invalid', 'true');
    else this.input.removeAttribute('aria-invalid');
  }

  /** The alignment as a heatmap or as links (the hidden one is not drawn). */
  private showAttentionAs(mode: AttentionMode): void {
    this.attentionMode = mode;
    this.heatmap.element.hidden = !this.hasAlignment || mode === 'links';
    this.links.setVisible(this.hasAlignment && mode === 'links');
  }

  private async decode(): Promise<void> {
    this.stopAnimation();
    const text = this.input.value;
    if (text.trim() === '') {
      this.showInputError(`Type an input to decode, for example “${TASKS[this.task].example}”.`);
      this.input.focus();
      return;
    }
    this.showInputError('');
    try {
      const beam = Number(this.beamSelect.value) || 1;
      // A beam is compared with greedy on the same input; greedy goes first so that the beam's
      // alignment is the one on screen.
      const greedy = beam > 1 ? await this.engine.seq2seqTranslate(text, 1) : null;
      const t = await this.engine.seq2seqTranslate(text, beam);
      this.translation = t;
      this.source.setTokens(t.sourceTokens, t.rows > 0);
      const steps = t.outputTokens.length;
      const confidence = meanTokenProbability(t.logProb, steps);
      this.host.dataset.confidence = String(confidence);
      this.status.textContent =
        `${beam === 1 ? 'Greedy' : `Beam search (width ${beam})`}: ${steps} decoder steps` +
        `${t.finished ? '' : ' (stopped at the length limit without <eos>)'}, log-probability ${t.logProb.toFixed(3)}; ` +
        `the model gave its output tokens ${formatValue(confidence)} probability on average (geometric mean).` +
        (t.rows === 0 ? ' This model has no attention, so there is no alignment to show.' : '');
      this.showWarnings(inputWarnings(this.task, text, t.sourceTokens, this.lengths), confidence);
      const differ = this.searches.show(greedy, t, beam);
      if (differ !== null) this.host.dataset.searchesDiffer = differ ? '1' : '0';
      if (prefersReducedMotion()) {
        this.showStep(this.rows());
        return;
      }
      this.finishButton.disabled = false;
      this.showStep(0);
      let step = 0;
      const advance = () => {
        step += 1;
        this.showStep(step);
        this.animation = step < this.rows() ? window.setTimeout(advance, STEP_MS) : null;
      };
      this.animation = window.setTimeout(advance, STEP_MS);
    } catch (error) {
      this.onError(errorMessage(error));
    }
  }

  /** Out-of-domain signs and low confidence, said next to the output. */
  private showWarnings(warnings: string[], confidence: number): void {
    const lines = [...warnings];
    if (confidence < LOW_CONFIDENCE)
      lines.push(
        `The model is unsure: its output tokens had ${formatValue(confidence)} probability on average ` +
          `(below ${LOW_CONFIDENCE}); do not trust this output.`,
      );
    if (warnings.length)
      lines.push('A seq2seq model always answers in the format it was trained to write, however foreign the input.');
    this.warnings.replaceChildren(...lines.map((line) => el('li', {}, line)));
    this.warnings.hidden = lines.length === 0;
    this.host.dataset.outOfDomain = warnings.length ? '1' : '0';
  }

  /** Decodes every held-out sample both ways and counts where the answers differ. */
  private async compareSearches(): Promise<void> {
    const beam = Math.max(3, Number(this.beamSelect.value) || 3);
    this.compareButton.disabled = true;
    this.compareOut.textContent = `Decoding ${this.samples.length} samples twice…`;
    try {
      const differ = await countSearchDifferences(this.engine, this.samples, beam);
      this.compareOut.textContent =
        `Beam search (width ${beam}) gives a different output from greedy on ${differ} of the ` +
        `${this.samples.length} held-out samples.`;
      this.compareOut.dataset.differ = String(differ);
    } catch (error) {
      this.compareOut.textContent = '';
      this.onError(errorMessage(error));
    } finally {
      this.compareButton.disabled = this.samples.length === 0 || this.decodeButton.disabled;
    }
  }

  private rows(): number {
    return this.translation?.outputTokens.length ?? 0;
  }

  private stopAnimation(): void {
    if (this.animation !== null) window.clearTimeout(this.animation);
    this.animation = null;
  }

  /** Shows the first `step` decoder steps: output so far, the latest step's attention, the matrix. */
  private showStep(step: number): void {
    const t = this.translation;
    if (!t) return;
    const total = t.outputTokens.length;
    step = Math.min(step, total);
    if (step >= total) {
      this.stopAnimation();
      this.finishButton.disabled = true;
    }
    this.host.dataset.decodeStep = String(step);
    this.host.dataset.decodeSteps = String(total);
    const emitted = t.outputTokens.slice(0, step).filter((token) => token !== '<eos>');
    this.output.textContent = step >= total ? t.output : emitted.join('');
    this.current.replaceChildren(
      step === 0
        ? el('p', {}, 'Step 0: the encoder has read the input; the decoder starts from <bos>.')
        : el('p', {}, `Step ${step} of ${total}: emits `, el('strong', {}, shown(t.outputTokens[step - 1]))),
    );
    if (t.rows === 0) {
      this.hasAlignment = false;
      this.heatmap.element.hidden = true;
      this.links.setVisible(false);
      return;
    }
    this.source.show(step > 0 ? t.alignment.subarray((step - 1) * t.cols, step * t.cols) : null, step);
    this.hasAlignment = step > 0;
    this.heatmap.element.hidden = step === 0 || this.attentionMode === 'links';
    this.links.setVisible(step > 0 && this.attentionMode === 'links');
    if (step === 0) return;
    const alignment = {
      values: t.alignment.subarray(0, step * t.cols),
      rows: step,
      cols: t.cols,
      rowLabels: t.outputTokens.slice(0, step).map(shown),
      colLabels: t.sourceTokens.map(shown),
    };
    this.heatmap.update({ ...alignment, scale: 'probability' });
    this.links.update(alignment);
  }
}
