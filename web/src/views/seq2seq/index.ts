// Seq2seq Alignment: train a small encoder–decoder (digit reversal or date normalisation, with
// Bahdanau, Luong or no attention) in the engine worker, then decode an input and watch the
// decoder emit one token per step — the current output token, its attention over the input
// characters, and the alignment matrix growing row by row (the shared heatmap, which is also the
// table alternative). With prefers-reduced-motion the final alignment shows at once.
import { VIEW_TITLES } from '../../app/nav';
import { prefersReducedMotion } from '../../app/theme';
import type { EngineBridge } from '../../engine/bridge';
import type { Seq2SeqProgress, Seq2SeqTranslation } from '../../engine/protocol';
import { createLineChart } from '../chart';
import { dashboard, el, readoutRow, trainCard, viewPart } from '../dom';
import { createHeatmap } from '../heatmap';
import { attentionModeToggle, createLinkView, type AttentionMode } from '../link_view';
import { RunControls } from '../run_controls';
import { formulaList } from '../math';
import type { ViewDefinition } from '../types';
import { explainedIn } from '../../app/course_links';

/** Per task: the size that trains in the browser in seconds (reverse) to minutes (dates). */
const TASKS = {
  reverse: {
    label: 'Reverse a digit string (4071 → 1704)',
    trainSize: 2000,
    testSize: 200,
    epochs: 8,
    example: '4071385',
  },
  dates: {
    label: 'Normalise a date (3 May 1979 → 1979-05-03)',
    trainSize: 6000,
    testSize: 200,
    epochs: 6,
    example: '3 May 1979',
  },
} as const;
type TaskName = keyof typeof TASKS;

const STEP_MS = 450;

/** Spaces are invisible in a table header: show them as ␣. */
const shown = (token: string) => (token === ' ' ? '␣' : token);

function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

class Seq2SeqPanel {
  readonly element = el('section', { className: 'seq2seq' });
  private latest: Seq2SeqProgress | null = null;
  private frameRequested = false;
  private firstLoss: number | null = null;
  private animation: number | null = null;
  private translation: Seq2SeqTranslation | null = null;

  private readonly taskSelect = el('select', { id: 's2s-task' });
  private readonly attentionSelect = el('select', { id: 's2s-attention' });
  private readonly epochsInput = el('input', {
    id: 's2s-epochs',
    type: 'number',
    min: '1',
    max: '50',
    value: '8',
  });
  private readonly run = new RunControls({
    stateHost: this.element,
    texts: {
      idle: 'No model yet: choose a task and an attention, then press Train.',
      preparing: 'Generating the data and building the model…',
      training: 'Training…',
      paused: 'Paused. You can decode with the current parameters.',
      finished: 'Finished: the model holds its best validated epoch.',
      cancelled: 'Cancelled: the model keeps its best validated parameters.',
      failed: 'Training failed.',
    },
    onTrain: () => void this.train(),
    pause: async () => void (await this.engine.seq2seqPause()),
    resume: async () => void (await this.engine.seq2seqResume()),
    cancel: async () => void (await this.engine.seq2seqCancel()),
    onError: (error) => (this.error.textContent = error instanceof Error ? error.message : String(error)),
    onChange: (_, busy) => {
      for (const input of [this.taskSelect, this.attentionSelect, this.epochsInput]) input.disabled = busy;
    },
  });
  private readonly readout = {
    step: el('output', { id: 's2s-step' }),
    loss: el('output', { id: 's2s-loss' }),
    validation: el('output', { id: 's2s-validation' }),
    test: el('output', { id: 's2s-test' }),
  };
  private readonly byLength = el('table', {
    className: 's2s-by-length',
    hidden: true,
  });
  // Held-out exact match by input length of every run finished in this view, per task and
  // attention (the latest run of each), drawn as one series per attention: train the same task
  // with and without attention to see where the fixed-length context gives out.
  private readonly lengthResults = new Map<
    string,
    Map<string, { sourceLength: number; count: number; exact: number }[]>
  >();
  private readonly lengthChart = createLineChart({
    title: 'Held-out exact match by input length, per attention',
    testId: 's2s-length-chart',
    xLabel: 'Input length (characters)',
    yLabel: 'Exact match',
    yRange: [0, 1],
  });
  private readonly lengthHint = el(
    'p',
    { className: 'hint', hidden: true },
    'Train the same task again with another attention (or none) to add its line to the chart.',
  );

  private readonly input = el('input', {
    id: 's2s-input',
    type: 'text',
    autocomplete: 'off',
    spellcheck: false,
  });
  private readonly sampleSelect = el('select', { id: 's2s-sample' });
  private readonly beamSelect = el('select', { id: 's2s-beam' });
  private readonly decodeButton = el('button', {
    type: 'button',
    className: 'primary',
    textContent: 'Decode',
    disabled: true,
  });
  private readonly finishButton = el('button', {
    type: 'button',
    textContent: 'Show all steps',
    disabled: true,
  });
  private readonly decodeStatus = el('p', {
    className: 'decode-status',
    role: 'status',
  });
  private readonly output = el('output', {
    id: 's2s-output',
    className: 's2s-output',
  });
  private readonly current = el('div', {
    className: 's2s-current',
    id: 's2s-current',
  });
  private readonly heatmap = createHeatmap(
    'Alignment: attention of each output token (rows) over the input (columns)',
    's2s-alignment',
  );
  private readonly links = createLinkView('Alignment as links', 's2s-links', {
    threshold: 0.01,
    rowsName: 'output tokens',
    colsName: 'input tokens',
  });
  // The input under the decoder: each step tints its characters by that step's attention and
  // slides a highlight (a transform, animated by CSS; reduced motion: it jumps) to the character
  // attended most.
  private readonly source = el('div', {
    className: 's2s-source',
    role: 'group',
    hidden: true,
    dataset: { testid: 's2s-source' },
  });
  private readonly focus = el('span', { className: 's2s-focus', ariaHidden: 'true', hidden: true });
  private sourceTokens: HTMLElement[] = [];
  private attentionMode: AttentionMode = 'heatmap';
  /** Whether the decode on screen has alignment rows to show. */
  private hasAlignment = false;
  private readonly error = el('p', { className: 'error', role: 'alert' });

  constructor(private readonly engine: EngineBridge) {
    this.build();
    this.run.refresh();
    this.showLengthChart(this.task());
  }

  /** The alignment as a heatmap or as links (the hidden one is not drawn). */
  private showAttentionAs(mode: AttentionMode): void {
    this.attentionMode = mode;
    this.heatmap.element.hidden = !this.hasAlignment || mode === 'links';
    this.links.setVisible(this.hasAlignment && mode === 'links');
  }

  private build(): void {
    for (const [value, task] of Object.entries(TASKS))
      this.taskSelect.append(el('option', { value, textContent: task.label }));
    for (const [value, label] of [
      ['bahdanau', 'Bahdanau (additive, previous state)'],
      ['luong', 'Luong (general, current state)'],
      ['none', 'None (fixed-length context)'],
    ]) {
      this.attentionSelect.append(el('option', { value, textContent: label }));
    }
    for (const [value, label] of [
      ['1', 'Greedy'],
      ['3', 'Beam, width 3'],
      ['5', 'Beam, width 5'],
    ]) {
      this.beamSelect.append(el('option', { value, textContent: label }));
    }
    this.taskSelect.addEventListener('change', () => {
      this.epochsInput.value = String(TASKS[this.task()].epochs);
      this.showLengthChart(this.task());
    });
    this.sampleSelect.addEventListener('change', () => {
      if (this.sampleSelect.value) this.input.value = this.sampleSelect.value;
    });
    this.decodeButton.addEventListener('click', () => void this.decode());
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !this.decodeButton.disabled) void this.decode();
    });
    this.finishButton.addEventListener('click', () => this.showStep(this.rows()));
    // A dashboard: what to train and what to decode in the side panel; the live training and the
    // alignment in the main area.
    this.element.append(
      dashboard(
        [
          trainCard(
            [
              ['Task', this.taskSelect],
              ['Attention', this.attentionSelect],
              ['Epochs', this.epochsInput],
            ],
            this.run.buttons,
            this.run.status,
          ),
          viewPart(
            el('h3', {}, 'Decode an input'),
            el(
              'div',
              { className: 'decode-controls' },
              el('label', { htmlFor: 's2s-input' }, 'Input '),
              this.input,
              el('label', { htmlFor: 's2s-sample' }, 'or a held-out sample '),
              this.sampleSelect,
              el('label', { htmlFor: 's2s-beam' }, 'Search '),
              this.beamSelect,
              this.decodeButton,
              this.finishButton,
            ),
          ),
          viewPart(
            el('h3', {}, 'How the decoder attends'),
            formulaList('s2s-formulas', [
              ['Bahdanau score (previous decoder state)', 'e_{tj} = v^\\top \\tanh(W s_{t-1} + U h_j)'],
              ['Luong score (general, current decoder state)', 'e_{tj} = s_t^\\top W h_j'],
              ['Weights over the input', '\\alpha_{tj} = \\frac{\\exp e_{tj}}{\\sum_k \\exp e_{tk}}'],
              ['Context', 'c_t = \\sum_j \\alpha_{tj} h_j'],
              ['Luong’s output state', '\\tilde h_t = \\tanh(W_c\\,[c_t; s_t])'],
            ]),
          ),
        ],
        [
          viewPart(
            el('h3', {}, 'Training'),
            el(
              'dl',
              { className: 'train-readout' },
              readoutRow('Step', this.readout.step),
              readoutRow('Loss (last batch)', this.readout.loss),
              readoutRow('Validation exact match', this.readout.validation),
              readoutRow('Held-out exact match', this.readout.test),
            ),
            this.byLength,
            this.lengthChart.element,
            this.lengthHint,
          ),
          viewPart(
            el('h3', {}, 'Decoding'),
            this.decodeStatus,
            el('p', {}, 'Output: ', this.output),
            this.current,
            this.source,
            attentionModeToggle('s2s-mode', (mode) => this.showAttentionAs(mode)),
            this.heatmap.element,
            this.links.element,
          ),
          this.error,
        ],
      ),
    );
    this.input.value = TASKS.reverse.example;
    this.heatmap.element.hidden = true;
  }

  private task(): TaskName {
    return this.taskSelect.value as TaskName;
  }

  private async train(): Promise<void> {
    this.error.textContent = '';
    this.latest = null;
    this.firstLoss = null;
    for (const output of Object.values(this.readout)) output.textContent = '';
    this.readout.step.dataset.step = '0';
    this.byLength.hidden = true;
    this.run.send('prepare');
    const task = this.task();
    const spec = TASKS[task];
    try {
      const epochs = Math.min(50, Math.max(1, Math.round(Number(this.epochsInput.value) || spec.epochs)));
      const { info, samples } = await this.engine.seq2seqCreate({
        task,
        attention: this.attentionSelect.value as 'bahdanau' | 'luong' | 'none',
        trainSize: spec.trainSize,
        testSize: spec.testSize,
        epochs,
        earlyStoppingPatience: 0,
      });
      this.sampleSelect.replaceChildren(el('option', { value: '', textContent: '(choose)' }));
      for (const s of samples)
        this.sampleSelect.append(
          el('option', {
            value: s.source,
            textContent: `${s.source} → ${s.target}`,
          }),
        );
      if (!this.input.value || this.element.dataset.task !== task) this.input.value = spec.example;
      this.element.dataset.task = task;
      this.decodeButton.disabled = false;
      this.run.send(
        'start',
        `Training ${info.parameters.toLocaleString()} parameters (${info.attention} attention, ${info.cell} cells) on ` +
          `${info.trainExamples} pairs…`,
      );
      const outcome = await this.engine.seq2seqTrain({}, (p) => this.onProgress(p));
      this.run.send(outcome.cancelled ? 'cancel' : 'finish');
      const metrics = await this.engine.seq2seqEvaluate('test', 0);
      this.readout.test.textContent = `${percent(metrics.exactMatch)} of ${metrics.count} (token accuracy ${percent(metrics.tokenAccuracy)})`;
      this.renderByLength(metrics.byLength);
      if (!outcome.cancelled) this.recordByLength(task, this.attentionSelect.value, metrics.byLength);
    } catch (error) {
      this.error.textContent = error instanceof Error ? error.message : String(error);
      this.run.send('fail');
    }
  }

  private renderByLength(rows: { sourceLength: number; count: number; exact: number }[]): void {
    const caption = el('caption', {}, 'Held-out exact match by input length');
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'Input length'),
      el('th', { scope: 'col' }, 'Pairs'),
      el('th', { scope: 'col' }, 'Exact match'),
    );
    const body = rows.map((r) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, String(r.sourceLength)),
        el('td', {}, String(r.count)),
        el('td', {}, percent(r.count ? r.exact / r.count : 0)),
      ),
    );
    this.byLength.replaceChildren(caption, el('thead', {}, head), el('tbody', {}, ...body));
    this.byLength.hidden = rows.length === 0;
  }

  private recordByLength(
    task: string,
    attention: string,
    rows: { sourceLength: number; count: number; exact: number }[],
  ): void {
    const runs = this.lengthResults.get(task) ?? new Map();
    runs.set(attention, rows);
    this.lengthResults.set(task, runs);
    this.showLengthChart(task);
  }

  private showLengthChart(task: string): void {
    const runs = this.lengthResults.get(task);
    const label = (value: string) =>
      [...this.attentionSelect.options].find((o) => o.value === value)?.textContent ?? value;
    const series = [...(runs?.entries() ?? [])].map(([attention, rows]) => ({
      name: label(attention),
      xs: rows.map((r) => r.sourceLength),
      ys: rows.map((r) => (r.count ? r.exact / r.count : 0)),
    }));
    this.lengthChart.update(series);
    this.lengthChart.element.hidden = series.length === 0;
    this.lengthHint.hidden = series.length !== 1;
  }

  // Progress arrives up to ten times a second; render the latest once per frame.
  private onProgress(progress: Seq2SeqProgress): void {
    if (this.firstLoss === null && progress.losses.length > 0) this.firstLoss = progress.losses[0];
    const epochs = progress.epochs;
    const last = epochs[epochs.length - 1];
    if (last?.validation) {
      this.readout.validation.textContent = `${percent(last.validation.exactMatch)} after epoch ${last.epoch + 1}`;
    }
    this.latest = progress;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      const p = this.latest;
      if (!p) return;
      this.readout.step.textContent = `${p.step} of ${p.plannedSteps} (epoch ${p.epoch + 1})`;
      this.readout.step.dataset.step = String(p.step);
      this.readout.loss.textContent = p.loss.toFixed(4);
      this.readout.loss.dataset.loss = String(p.loss);
      if (this.firstLoss !== null) this.readout.loss.dataset.firstLoss = String(this.firstLoss);
    });
  }

  private async decode(): Promise<void> {
    this.error.textContent = '';
    this.stopAnimation();
    const text = this.input.value;
    try {
      const beam = Number(this.beamSelect.value) || 1;
      const t = await this.engine.seq2seqTranslate(text, beam);
      this.translation = t;
      this.sourceTokens = t.sourceTokens.map((token) => el('span', { className: 'token' }, shown(token)));
      this.source.replaceChildren(this.focus, ...this.sourceTokens);
      this.source.hidden = t.rows === 0;
      this.decodeStatus.textContent =
        `${beam === 1 ? 'Greedy' : `Beam search (width ${beam})`}: ${t.outputTokens.length} decoder steps` +
        `${t.finished ? '' : ' (stopped at the length limit without <eos>)'}, log-probability ${t.logProb.toFixed(3)}.` +
        (t.rows === 0 ? ' This model has no attention, so there is no alignment to show.' : '');
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
      this.error.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private rows(): number {
    return this.translation?.outputTokens.length ?? 0;
  }

  private stopAnimation(): void {
    if (this.animation !== null) window.clearTimeout(this.animation);
    this.animation = null;
  }

  /** Tints the input by one step's attention (none: step 0) and moves the highlight to its peak. */
  private showSourceAttention(weights: Float32Array | null): void {
    let peak = -1;
    this.sourceTokens.forEach((span, j) => {
      const w = weights ? weights[j] : 0;
      span.style.setProperty('--weight', Math.min(1, w).toFixed(3));
      span.title = weights ? `attention ${w.toFixed(3)}` : '';
      if (weights && (peak < 0 || w > weights[peak])) peak = j;
    });
    const step = this.element.dataset.decodeStep;
    this.source.setAttribute('aria-label', weights ? `Attention of step ${step} over the input` : 'The input');
    this.focus.hidden = peak < 0;
    if (peak < 0) {
      delete this.source.dataset.focus;
      return;
    }
    const target = this.sourceTokens[peak];
    this.source.dataset.focus = String(peak);
    this.focus.style.height = `${target.offsetHeight}px`;
    this.focus.style.transform = `translate(${target.offsetLeft}px, ${target.offsetTop}px) scaleX(${target.offsetWidth})`;
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
    this.element.dataset.decodeStep = String(step);
    this.element.dataset.decodeSteps = String(total);
    const emitted = t.outputTokens.slice(0, step).filter((token) => token !== '<eos>');
    this.output.textContent = step >= total ? t.output : emitted.join('');
    this.current.replaceChildren();
    if (step === 0) {
      this.current.append(el('p', {}, 'Step 0: the encoder has read the input; the decoder starts from <bos>.'));
    } else {
      const row = step - 1;
      const token = t.outputTokens[row];
      this.current.append(el('p', {}, `Step ${step} of ${total}: emits `, el('strong', {}, shown(token))));
    }
    if (t.rows > 0)
      this.showSourceAttention(step > 0 ? t.alignment.subarray((step - 1) * t.cols, step * t.cols) : null);
    if (t.rows > 0) {
      const rows = Math.max(step, 0);
      this.hasAlignment = rows > 0;
      this.heatmap.element.hidden = rows === 0 || this.attentionMode === 'links';
      this.links.setVisible(rows > 0 && this.attentionMode === 'links');
      if (rows > 0) {
        const alignment = {
          values: t.alignment.subarray(0, rows * t.cols),
          rows,
          cols: t.cols,
          rowLabels: t.outputTokens.slice(0, rows).map(shown),
          colLabels: t.sourceTokens.map(shown),
        };
        this.heatmap.update({ ...alignment, range: [0, 1] });
        this.links.update(alignment);
      }
    } else {
      this.hasAlignment = false;
      this.heatmap.element.hidden = true;
      this.links.setVisible(false);
    }
  }
}

export const seq2seqView: ViewDefinition = {
  id: 'seq2seq',
  title: VIEW_TITLES.seq2seq,
  mount: ({ engine }) => {
    const element = el('section', { className: 'seq2seq-view' });
    element.dataset.testid = 'view-seq2seq';
    const heading = el('h2', { tabIndex: -1 }, 'Seq2seq Alignment');
    const intro = el(
      'p',
      { className: 'intro' },
      'Train an encoder–decoder (a bidirectional GRU encoder and a GRU decoder) on digit reversal or date ' +
        'normalisation, then decode an input step by step: each output character attends over the input characters, ' +
        'and the rows of attention weights stack into the alignment matrix. Without attention the decoder sees the ' +
        'input only through one fixed-length vector.',
    );
    element.append(heading, intro, explainedIn('seq2seq'), new Seq2SeqPanel(engine).element);
    return { element, show() {} };
  },
};
