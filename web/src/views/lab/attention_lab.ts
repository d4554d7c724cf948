// Attention Lab: edit a decoder state and its annotations, pick a scoring function, and watch
// scores → softmax weights → weighted annotations → context vector, computed by the engine.
// Two experiments follow: why Transformers divide by √d_k (a d_k slider over random q, K), and
// padding/causal masks on a self-attention matrix. Every heatmap cell, hovered or focused,
// explains itself with the numbers that made it.
import type { AttendResult, OutScoreParams, OutTensor } from '../../../generated/attn_engine.mjs';
import type { EngineBridge } from '../../engine/bridge';
import { csvButton } from '../../export/export';
import { el } from '../dom';
import { createHeatmap, formatValue } from '../heatmap';
import { CONTEXT_TEX, SCORE_FORMULAS, WEIGHT_TEX } from './formulas';
import { formulaList, setTex } from '../math';
import { createWeightBars } from '../weight_bars';
import { normals } from './sample';
import {
  MAX_ANNOTATIONS,
  MAX_DIM,
  MAX_DK,
  MAX_SELF_LENGTH,
  SCORE_KINDS,
  TEMPERATURE_RANGE,
  defaultLabState,
  normalise,
  sameLabState,
  type LabState,
} from './state';

const ATTENTION_DIM_FOR = (d: number) => Math.max(2, d);
const EXPERIMENT_KEYS = 8; // keys in the scaled-vs-unscaled experiment
const SELF_DIM = 4; // d_k = d_v of the self-attention demo
const SWEEP = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
const f = formatValue;

function tensor(rows: number[][]) {
  return { shape: [rows.length, rows[0].length], data: Float32Array.from(rows.flat()) };
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
/** Inputs as typed (4 significant digits, no trailing zeros); results use formatValue. */
const plain = (x: number) => String(Number(x.toPrecision(4)));
const products = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a, (x, i) => `${plain(x)}×${plain(b[i])}`).join(' + ');
const plainVector = (xs: ArrayLike<number>) => `[${Array.from(xs, plain).join(', ')}]`;
const vector = (xs: ArrayLike<number>) => `[${Array.from(xs, f).join(', ')}]`;

/** Entropy in nats and the largest weight of a probability vector. */
export function weightStats(weights: ArrayLike<number>): { entropy: number; max: number } {
  let entropy = 0;
  let max = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (w > 0) entropy -= w * Math.log(w);
    max = Math.max(max, w);
  }
  return { entropy, max };
}

/** The softmax pieces for one position, as the engine computes them (max subtracted first). */
function softmaxParts(scores: ArrayLike<number>, visible: (i: number) => boolean, i: number, tau: number) {
  let m = -Infinity;
  for (let j = 0; j < scores.length; j++) if (visible(j)) m = Math.max(m, scores[j]);
  let denominator = 0;
  for (let j = 0; j < scores.length; j++) if (visible(j)) denominator += Math.exp((scores[j] - m) / tau);
  const numerator = visible(i) ? Math.exp((scores[i] - m) / tau) : 0;
  return { m, numerator, denominator };
}

export class AttentionLab {
  readonly element = el('section', { className: 'lab' });
  private state: LabState = defaultLabState();
  private started = false;
  private readonly engine: EngineBridge;
  private readonly onState: (state: LabState) => void;
  private requestNumber = 0;
  private experimentRequest = 0;
  private selfRequest = 0;

  private readonly kindSelect = el('select', { id: 'lab-kind' });
  /** The score formula of the chosen kind, typeset (its row in `formulas`). */
  private readonly formula = el('span', { className: 'formula', id: 'lab-formula' });
  private formulaKind?: string;
  private readonly weightBars = createWeightBars('Weights α as bars', 'lab-weight-bars');
  private readonly formulas = formulaList('lab-formulas', [
    ['Score', this.formula],
    ['Weight (softmax at temperature τ)', WEIGHT_TEX],
    ['Context vector', CONTEXT_TEX],
  ]);
  private readonly temperature = el('input', { id: 'lab-temperature', type: 'range' });
  private readonly temperatureValue = el('output');
  private readonly seedInput = el('input', { id: 'lab-seed', type: 'number', min: '0', step: '1' });
  private readonly reseed = el('button', { type: 'button', textContent: 'New random parameters' });
  private readonly seedLabel = el('span', { className: 'seed' });
  private readonly inputs = el('div', { className: 'lab-inputs' });
  private readonly error = el('p', { className: 'error', role: 'alert' });
  private last?: { result: AttendResult; state: LabState };
  private readonly heatmaps = {
    scores: createHeatmap('Scores: score(s, hₜ)', 'heatmap-scores', { explain: (_, c) => this.explainScore(c) }),
    weights: createHeatmap('Weights: softmax(scores / τ)', 'heatmap-weights', {
      explain: (_, c) => this.explainWeight(c),
    }),
    weighted: createHeatmap('Weighted annotations: αₜ hₜ', 'heatmap-weighted', {
      explain: (r, c) => this.explainWeighted(r, c),
    }),
    context: createHeatmap('Context vector: c = Σₜ αₜ hₜ', 'heatmap-context', {
      explain: (_, c) => this.explainContext(c),
    }),
  };
  private readonly paramsArea = el('div', { className: 'lab-params' });
  private withParameters = new Set<string>(['general', 'additive', 'concat', 'location']);
  /** The scoring function's parameters in use: engine-initialised from the seed, then user-edited. */
  private params?: { key: string; values: OutScoreParams };

  // Scaled vs unscaled.
  private readonly dkSlider = el('input', {
    id: 'lab-dk',
    type: 'range',
    min: '0',
    max: String(Math.log2(MAX_DK)),
    step: 'any',
  });
  private readonly dkValue = el('output');
  private readonly sampleInput = el('input', { id: 'lab-sample', type: 'number', min: '0', step: '1' });
  private readonly experimentMetrics = el('table', { className: 'metrics' });
  private readonly sweepTable = el('table', { className: 'metrics' });
  private sweepRows: (string | number)[][] = [];
  private readonly unscaledMap = createHeatmap('Unscaled: softmax(q·kⱼ)', 'heatmap-unscaled');
  private readonly scaledMap = createHeatmap('Scaled: softmax(q·kⱼ / √d_k)', 'heatmap-scaled');

  // Self-attention with masks.
  private readonly lengthInput = el('input', {
    id: 'lab-length',
    type: 'number',
    min: '2',
    max: String(MAX_SELF_LENGTH),
    step: '1',
  });
  private readonly validInput = el('input', { id: 'lab-valid', type: 'number', min: '1', step: '1' });
  private readonly causalBox = el('input', { id: 'lab-causal', type: 'checkbox' });
  private readonly selfError = el('p', { className: 'error', role: 'alert' });
  private readonly selfWeights = createHeatmap(
    'Self-attention weights softmax(QKᵀ/√d_k + mask)',
    'heatmap-self-weights',
    {
      explain: (r, c) => this.explainSelf(r, c),
    },
  );
  private readonly selfOutput = createHeatmap('Output: weights × V', 'heatmap-self-output', {
    explain: (r, c) => this.explainSelfOutput(r, c),
  });
  private self?: {
    q: Float32Array;
    k: Float32Array;
    v: Float32Array;
    mask: Uint8Array;
    weights: Float32Array;
    n: number;
  };

  constructor(engine: EngineBridge, onState: (state: LabState) => void) {
    this.engine = engine;
    this.onState = onState;
    this.temperatureValue.setAttribute('for', 'lab-temperature');
    this.dkValue.setAttribute('for', 'lab-dk');
    this.experimentMetrics.dataset.testid = 'experiment-metrics';
    this.sweepTable.dataset.testid = 'experiment-sweep';
    this.build();
  }

  /** Replaces the state (e.g. from the URL) and recomputes what changed. */
  setState(next: LabState): void {
    const state = normalise(next);
    if (this.started && sameLabState(state, this.state)) return;
    const before = this.state;
    this.state = state;
    this.syncControls();
    this.renderInputs();
    if (!this.started || !this.sameMain(before)) void this.compute();
    if (!this.started || before.dk !== state.dk || before.sample !== state.sample) void this.computeExperiment();
    if (!this.started || this.selfChanged(before)) void this.computeSelf();
    this.started = true;
  }

  private sameMain(before: LabState): boolean {
    const keys: (keyof LabState)[] = ['kind', 'temperature', 'query', 'annotations', 'visible', 'seed'];
    return keys.every((k) => JSON.stringify(before[k]) === JSON.stringify(this.state[k]));
  }

  private selfChanged(before: LabState): boolean {
    const s = this.state;
    return (
      before.length !== s.length || before.valid !== s.valid || before.causal !== s.causal || before.sample !== s.sample
    );
  }

  private build(): void {
    for (const kind of SCORE_KINDS) {
      this.kindSelect.append(el('option', { value: kind, textContent: SCORE_FORMULAS[kind].label }));
    }
    this.kindSelect.addEventListener('change', () => this.change({ kind: this.kindSelect.value as LabState['kind'] }));
    // The engine is the authority on which scoring functions exist and which have parameters:
    // a kind it does not know is disabled rather than failing on selection.
    this.engine.call('scoreKinds').then(
      (kinds) => {
        this.withParameters = new Set(kinds.filter((k) => k.hasParameters).map((k) => k.name));
        const known = new Set<string>(kinds.map((k) => k.name));
        for (const option of this.kindSelect.options) option.disabled = !known.has(option.value);
        this.syncControls();
      },
      () => {}, // the engine status line reports a failed start
    );

    // The slider moves in log space so 0.05..10 is usable; 0 on the slider is τ = 1.
    const [lo, hi] = TEMPERATURE_RANGE;
    Object.assign(this.temperature, { min: String(Math.log(lo)), max: String(Math.log(hi)), step: '0.01' });
    this.temperature.addEventListener('input', () => {
      const t = Math.exp(Number(this.temperature.value));
      this.change({ temperature: Number(t.toPrecision(3)) }, false);
    });
    this.seedInput.addEventListener('change', () => {
      const seed = Number(this.seedInput.value);
      if (Number.isInteger(seed) && seed >= 0 && seed <= 2 ** 31) this.change({ seed });
    });
    this.reseed.addEventListener('click', () => this.change({ seed: (this.state.seed * 7919 + 17) % 100003 }));
    this.seedLabel.append(el('label', { htmlFor: 'lab-seed' }, 'Parameter seed '), this.seedInput, ' ', this.reseed);

    const reset = el('button', { type: 'button', textContent: 'Reset to the course example' });
    reset.addEventListener('click', () => {
      this.setState(defaultLabState());
      this.onState(this.state);
    });

    const controls = el(
      'div',
      { className: 'lab-controls' },
      el('label', { htmlFor: 'lab-kind' }, 'Scoring function '),
      this.kindSelect,
      el('label', { htmlFor: 'lab-temperature' }, 'Temperature τ '),
      this.temperature,
      this.temperatureValue,
      this.seedLabel,
      reset,
    );
    const outputs = el(
      'div',
      { className: 'lab-outputs' },
      this.heatmaps.scores.element,
      this.heatmaps.weights.element,
      this.weightBars.element,
      this.heatmaps.weighted.element,
      this.heatmaps.context.element,
    );
    const heading = el('h2', { tabIndex: -1 }, 'Attention Lab');
    this.element.dataset.testid = 'view-lab';
    this.element.append(
      heading,
      el(
        'p',
        { className: 'intro' },
        'A decoder state s looks at annotations h₁…h_T. Each annotation gets a score, softmax turns the ' +
          'scores into weights that sum to 1, and the context vector is the weighted sum of the annotations. ' +
          'Edit any number; untick an annotation to mask it as padding. Hover or focus any cell (arrow keys ' +
          'move inside a map) to see the arithmetic behind it.',
      ),
      controls,
      this.formulas,
      this.inputs,
      this.error,
      outputs,
      this.paramsArea,
      this.buildExperiment(),
      this.buildSelfAttention(),
    );
  }

  private buildExperiment(): HTMLElement {
    this.dkSlider.addEventListener('input', () => {
      const dk = Math.min(MAX_DK, Math.max(1, Math.round(2 ** Number(this.dkSlider.value))));
      this.change({ dk }, false);
    });
    this.sampleInput.addEventListener('change', () => {
      const sample = Number(this.sampleInput.value);
      if (Number.isInteger(sample) && sample >= 0 && sample <= 2 ** 31) this.change({ sample }, false);
    });
    const resample = el('button', { type: 'button', textContent: 'New random vectors' });
    resample.addEventListener('click', () => this.change({ sample: (this.state.sample * 7919 + 17) % 100003 }, false));
    const sweepCsv = csvButton('Export the sweep as CSV', 'scaled-vs-unscaled.csv', () => this.sweepRows);
    return el(
      'section',
      { className: 'lab-section', id: 'lab-scaling' },
      el('h3', {}, 'Why divide by √d_k? Scaled vs unscaled dot products'),
      el(
        'p',
        { className: 'intro' },
        `A query q and ${EXPERIMENT_KEYS} keys kⱼ with d_k random components each, drawn from N(0, 1). Their dot ` +
          'product has variance d_k, so without the scale the scores spread out as d_k grows and softmax ' +
          'saturates: one key takes almost all the weight (entropy → 0, gradients vanish). Dividing by √d_k ' +
          'keeps the variance at 1 at every size.',
      ),
      formulaList('lab-scaling-formulas', [
        [
          'Unscaled',
          '\\alpha_j = \\operatorname{softmax}_j(q \\cdot k_j), \\quad \\operatorname{Var}(q \\cdot k_j) = d_k',
        ],
        [
          'Scaled',
          '\\alpha_j = \\operatorname{softmax}_j\\left(\\frac{q \\cdot k_j}{\\sqrt{d_k}}\\right), \\quad ' +
            '\\operatorname{Var}\\left(\\frac{q \\cdot k_j}{\\sqrt{d_k}}\\right) = 1',
        ],
      ]),
      el(
        'div',
        { className: 'lab-controls' },
        el('label', { htmlFor: 'lab-dk' }, 'Key dimension d_k '),
        this.dkSlider,
        this.dkValue,
        el('label', { htmlFor: 'lab-sample' }, 'Random seed '),
        this.sampleInput,
        resample,
      ),
      el('div', { className: 'lab-outputs' }, this.unscaledMap.element, this.scaledMap.element, this.experimentMetrics),
      el('h4', {}, 'The same at every d_k from 1 to 512 (this seed)'),
      this.sweepTable,
      sweepCsv,
    );
  }

  private buildSelfAttention(): HTMLElement {
    this.lengthInput.addEventListener('change', () => {
      const length = Number(this.lengthInput.value);
      if (Number.isInteger(length) && length >= 2 && length <= MAX_SELF_LENGTH) {
        const valid = this.state.valid === this.state.length ? length : Math.min(this.state.valid, length);
        this.change({ length, valid }, false);
      }
    });
    this.validInput.addEventListener('change', () => {
      const valid = Number(this.validInput.value);
      if (Number.isInteger(valid) && valid >= 1 && valid <= this.state.length) this.change({ valid }, false);
    });
    this.causalBox.addEventListener('change', () => this.change({ causal: this.causalBox.checked }, false));
    return el(
      'section',
      { className: 'lab-section', id: 'lab-masks' },
      el('h3', {}, 'Masks on self-attention'),
      el(
        'p',
        { className: 'intro' },
        `Each of n tokens has a random query, key and value (d_k = d_v = ${SELF_DIM}); row i of the matrix is how ` +
          'much token i attends to each token j. Padding hides the keys after the real tokens; the causal mask ' +
          'hides every later token (the upper triangle), as in a decoder. Masked entries get weight 0.',
      ),
      formulaList('lab-mask-formulas', [
        ['Output', '\\operatorname{softmax}\\left(\\frac{Q K^\\top}{\\sqrt{d_k}} + M\\right) V'],
        [
          'Mask',
          'M_{ij} = \\begin{cases} 0 & \\text{token } i \\text{ may see token } j \\\\ -\\infty & \\text{otherwise} \\end{cases}',
        ],
      ]),
      el(
        'div',
        { className: 'lab-controls' },
        el('label', { htmlFor: 'lab-length' }, 'Tokens n '),
        this.lengthInput,
        el('label', { htmlFor: 'lab-valid' }, 'Real tokens (the rest is padding) '),
        this.validInput,
        el('label', { htmlFor: 'lab-causal' }, this.causalBox, ' Causal mask'),
      ),
      this.selfError,
      el('div', { className: 'lab-outputs' }, this.selfWeights.element, this.selfOutput.element),
    );
  }

  private syncControls(): void {
    const s = this.state;
    this.kindSelect.value = s.kind;
    if (this.formulaKind !== s.kind) {
      this.formulaKind = s.kind;
      setTex(this.formula, SCORE_FORMULAS[s.kind].tex, true);
    }
    this.temperature.value = String(Math.log(s.temperature));
    this.temperatureValue.textContent = `τ = ${s.temperature}`;
    this.seedInput.value = String(s.seed);
    this.seedLabel.hidden = !this.withParameters.has(s.kind);
    this.dkSlider.value = String(Math.log2(s.dk));
    this.dkSlider.setAttribute('aria-valuetext', `d_k = ${s.dk}`);
    this.dkValue.textContent = `d_k = ${s.dk}`;
    this.sampleInput.value = String(s.sample);
    this.lengthInput.value = String(s.length);
    this.validInput.max = String(s.length);
    this.validInput.value = String(s.valid);
    this.causalBox.checked = s.causal;
  }

  private change(patch: Partial<LabState>, rerenderInputs = true): void {
    const before = this.state;
    this.state = normalise({ ...this.state, ...patch });
    this.syncControls();
    if (rerenderInputs) this.renderInputs();
    this.onState(this.state);
    if (!this.sameMain(before)) void this.compute();
    if (before.dk !== this.state.dk || before.sample !== this.state.sample) void this.computeExperiment();
    if (this.selfChanged(before)) void this.computeSelf();
  }

  private numberInput(value: number, label: string, onChange: (x: number) => void): HTMLInputElement {
    const input = el('input', { type: 'number', step: 'any', value: String(value), className: 'num' });
    input.setAttribute('aria-label', label);
    input.addEventListener('input', () => {
      const x = Number(input.value);
      const ok = input.value.trim() !== '' && Number.isFinite(x);
      input.setAttribute('aria-invalid', String(!ok));
      if (ok) onChange(x);
    });
    return input;
  }

  /** Rebuilds the editable vectors; called when their structure (T or D) changes. */
  private renderInputs(): void {
    const { query, annotations, visible } = this.state;
    const d = query.length;
    const t = annotations.length;

    const queryRow = el('div', { className: 'vector-row' }, el('span', { className: 'row-label' }, 's'));
    query.forEach((x, j) =>
      queryRow.append(
        this.numberInput(x, `decoder state s, component ${j + 1}`, (v) => {
          const next = [...this.state.query];
          next[j] = v;
          this.change({ query: next }, false);
        }),
      ),
    );

    const dimButtons = el('span', { className: 'buttons' });
    const addDim = el('button', { type: 'button', textContent: '+ dimension', disabled: d >= MAX_DIM });
    addDim.addEventListener('click', () =>
      this.change({ query: [...query, 0], annotations: annotations.map((row) => [...row, 0]) }),
    );
    const removeDim = el('button', { type: 'button', textContent: '− dimension', disabled: d <= 1 });
    removeDim.addEventListener('click', () =>
      this.change({ query: query.slice(0, -1), annotations: annotations.map((row) => row.slice(0, -1)) }),
    );
    dimButtons.append(addDim, removeDim);

    const annotationRows = annotations.map((row, i) => {
      const line = el('div', { className: 'vector-row' }, el('span', { className: 'row-label' }, `h${i + 1}`));
      row.forEach((x, j) =>
        line.append(
          this.numberInput(x, `annotation h${i + 1}, component ${j + 1}`, (v) => {
            const next = this.state.annotations.map((r) => [...r]);
            next[i][j] = v;
            this.change({ annotations: next }, false);
          }),
        ),
      );
      const visibleBox = el('input', { type: 'checkbox', checked: visible[i] });
      visibleBox.addEventListener('change', () => {
        const next = [...this.state.visible];
        next[i] = visibleBox.checked;
        this.change({ visible: next }, false);
      });
      line.append(el('label', { className: 'visible' }, visibleBox, ' visible'));
      return line;
    });

    const addRow = el('button', { type: 'button', textContent: '+ annotation', disabled: t >= MAX_ANNOTATIONS });
    addRow.addEventListener('click', () =>
      this.change({ annotations: [...annotations, new Array(d).fill(0)], visible: [...visible, true] }),
    );
    const removeRow = el('button', { type: 'button', textContent: '− annotation', disabled: t <= 1 });
    removeRow.addEventListener('click', () =>
      this.change({ annotations: annotations.slice(0, -1), visible: visible.slice(0, -1) }),
    );

    this.inputs.replaceChildren(
      el('fieldset', {}, el('legend', {}, `Decoder hidden state s (d = ${d})`), queryRow, dimButtons),
      el(
        'fieldset',
        {},
        el('legend', {}, `Annotations h₁…h${t}`),
        ...annotationRows,
        el('span', { className: 'buttons' }, addRow, removeRow),
      ),
    );
  }

  // ---- the main pipeline -------------------------------------------------------------------

  private paramsKey(): string {
    const { kind, query, annotations, seed } = this.state;
    return `${kind}|${query.length}|${annotations.length}|${seed}`;
  }

  private async compute(): Promise<void> {
    const request = ++this.requestNumber;
    const state = this.state;
    const { kind, query, annotations, visible, temperature, seed } = state;
    const d = query.length;
    const t = annotations.length;
    try {
      const key = this.paramsKey();
      let params = this.params?.key === key ? this.params.values : undefined;
      if (!params) {
        params = await this.engine.call('initScoreParams', kind, d, d, t, ATTENTION_DIM_FOR(d), seed);
        if (request !== this.requestNumber) return;
        this.params = { key, values: params };
      }
      const result: AttendResult = await this.engine.call(
        'attend',
        kind,
        { shape: [d], data: Float32Array.from(query) },
        tensor(annotations),
        { params, temperature, mask: { shape: [t], data: visible.map((v) => (v ? 1 : 0)) } },
      );
      if (request !== this.requestNumber) return; // a newer edit is on its way
      this.error.textContent = '';
      this.last = { result, state };
      this.show(result);
      this.showParams(params, key);
    } catch (error) {
      if (request !== this.requestNumber) return;
      this.error.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private show(result: AttendResult): void {
    const t = this.state.annotations.length;
    const d = this.state.query.length;
    const keys = Array.from({ length: t }, (_, i) => `h${i + 1}`);
    const dims = Array.from({ length: d }, (_, j) => `${j + 1}`);
    this.heatmaps.scores.update({
      values: result.scores.data,
      rows: 1,
      cols: t,
      rowLabels: ['score'],
      colLabels: keys,
    });
    this.heatmaps.weights.update({
      values: result.weights.data,
      rows: 1,
      cols: t,
      rowLabels: ['α'],
      colLabels: keys,
      range: [0, 1],
    });
    this.weightBars.update(result.weights.data, keys);
    this.heatmaps.weighted.update({ values: result.weighted.data, rows: t, cols: d, rowLabels: keys, colLabels: dims });
    this.heatmaps.context.update({ values: result.context.data, rows: 1, cols: d, rowLabels: ['c'], colLabels: dims });
  }

  private renderedParamsKey = '';

  /** Heatmaps of the parameters and, below each, its entries as editable numbers. */
  private showParams(params: OutScoreParams, key: string): void {
    const entries = Object.entries(params) as [string, OutTensor][];
    if (entries.length === 0) {
      this.paramsArea.replaceChildren();
      this.renderedParamsKey = key;
      return;
    }
    const maps = entries.map(([name, value]) => {
      const rows = value.shape.length === 2 ? value.shape[0] : 1;
      const cols = value.shape.length === 2 ? value.shape[1] : value.shape[0];
      const title = `Learnable ${name} ${value.shape.join('×')} (seed ${this.state.seed})`;
      const map = createHeatmap(title, `heatmap-param-${name}`, {
        explain: (r, c) => [
          `${name}[${r + 1}, ${c + 1}] = ${value.data[r * cols + c]}`,
          `Used in ${SCORE_FORMULAS[this.state.kind].formula}. Edit it below to see the scores move.`,
        ],
      });
      map.update({
        values: value.data,
        rows,
        cols,
        rowLabels: Array.from({ length: rows }, (_, i) => `${i + 1}`),
        colLabels: Array.from({ length: cols }, (_, j) => `${j + 1}`),
      });
      return map.element;
    });
    // Editors are rebuilt only for new parameters, so typing in one keeps its focus.
    if (key !== this.renderedParamsKey || !this.paramsArea.querySelector('.param-editors')) {
      const editors = el('details', { className: 'param-editors' }, el('summary', {}, 'Edit the parameters'));
      for (const [name, value] of entries) {
        const cols = value.shape.length === 2 ? value.shape[1] : value.shape[0];
        const grid = el('fieldset', {}, el('legend', {}, `${name} (${value.shape.join('×')})`));
        for (let r = 0; r < value.data.length / cols; r++) {
          const row = el('div', { className: 'vector-row' });
          for (let c = 0; c < cols; c++) {
            const index = r * cols + c;
            row.append(
              this.numberInput(
                Number(value.data[index].toPrecision(4)),
                `${name} row ${r + 1}, column ${c + 1}`,
                (x) => {
                  if (this.params?.key !== key) return;
                  (this.params.values as Record<string, OutTensor>)[name].data[index] = x;
                  void this.compute();
                },
              ),
            );
          }
          grid.append(row);
        }
        editors.append(grid);
      }
      this.renderedParamsKey = key;
      this.paramsArea.replaceChildren(
        el('h3', {}, 'Parameters of this scoring function'),
        el('div', { className: 'param-maps' }, ...maps),
        editors,
      );
    } else {
      this.paramsArea.querySelector('.param-maps')?.replaceChildren(...maps);
    }
  }

  // ---- numbers you can touch ------------------------------------------------------------------

  private scoreLines(t: number): string[] {
    if (!this.last) return [];
    const { state, result } = this.last;
    const s = state.query;
    const h = state.annotations[t];
    const score = result.scores.data[t];
    const label = `score(s, h${t + 1})`;
    switch (state.kind) {
      case 'dot':
        return [`${label} = sᵀh${t + 1} = ${products(s, h)} = ${f(score)}`];
      case 'scaled_dot':
        return [
          `s·h${t + 1} = ${products(s, h)} = ${f(dot(s, h))}`,
          `scale 1/√d = 1/√${s.length} = ${f(1 / Math.sqrt(s.length))}`,
          `${label} = ${f(dot(s, h))} × ${f(1 / Math.sqrt(s.length))} = ${f(score)}`,
        ];
      case 'cosine': {
        const ns = Math.sqrt(dot(s, s));
        const nh = Math.sqrt(dot(h, h));
        return [
          `s·h${t + 1} = ${products(s, h)} = ${f(dot(s, h))}`,
          `${label} = ${f(dot(s, h))} / (‖s‖ ‖h${t + 1}‖) = ${f(dot(s, h))} / (${f(ns)} × ${f(nh)}) = ${f(score)}`,
        ];
      }
      default:
        return [`${SCORE_FORMULAS[state.kind].formula} = ${f(score)} (with the parameters below)`];
    }
  }

  private explainScore(t: number): string[] | undefined {
    return this.last ? this.scoreLines(t) : undefined;
  }

  private explainWeight(t: number): string[] | undefined {
    if (!this.last) return undefined;
    const { state, result } = this.last;
    const tau = state.temperature;
    const scores = result.scores.data;
    const weight = result.weights.data[t];
    if (!state.visible[t]) return [`h${t + 1} is masked (padding): α${t + 1} = 0`, `weight α${t + 1} = ${f(weight)}`];
    const { m, numerator, denominator } = softmaxParts(scores, (j) => state.visible[j], t, tau);
    const d = state.query.length;
    return [
      ...this.scoreLines(t),
      `temperature τ = ${tau}; the largest visible score m = ${f(m)} is subtracted first (it cancels)`,
      `numerator e^((${f(scores[t])} − ${f(m)}) / ${tau}) = ${f(numerator)}`,
      `denominator Σᵤ e^((scoreᵤ − m) / τ) over the visible annotations = ${f(denominator)}`,
      `weight α${t + 1} = ${f(numerator)} / ${f(denominator)} = ${f(weight)}`,
      `contribution to the context α${t + 1} h${t + 1} = ${f(weight)} × ${plainVector(state.annotations[t])} = ${vector(
        result.weighted.data.slice(t * d, (t + 1) * d),
      )}`,
    ];
  }

  private explainWeighted(t: number, j: number): string[] | undefined {
    if (!this.last) return undefined;
    const { state, result } = this.last;
    const d = state.query.length;
    const weight = result.weights.data[t];
    return [
      `α${t + 1} × h${t + 1},${j + 1} = ${f(weight)} × ${plain(state.annotations[t][j])} = ${f(result.weighted.data[t * d + j])}`,
      `(α${t + 1} = ${f(weight)}: hover the weights for how softmax made it)`,
    ];
  }

  private explainContext(j: number): string[] | undefined {
    if (!this.last) return undefined;
    const { state, result } = this.last;
    const terms = state.annotations.map((row, t) => `${f(result.weights.data[t])}×${plain(row[j])}`).join(' + ');
    return [`c${j + 1} = Σₜ αₜ hₜ,${j + 1} = ${terms} = ${f(result.context.data[j])}`];
  }

  // ---- scaled vs unscaled ---------------------------------------------------------------------

  private async softmaxOf(kind: 'dot' | 'scaled_dot', q: Float32Array, k: Float32Array, dk: number) {
    const scores = await this.engine.call(
      'scores',
      kind,
      { shape: [dk], data: q },
      { shape: [EXPERIMENT_KEYS, dk], data: k },
      null,
    );
    return this.engine.call('softmax', scores, { temperature: 1 });
  }

  private sample(dk: number): { q: Float32Array; k: Float32Array } {
    return { q: normals(this.state.sample, 1, dk), k: normals(this.state.sample, 2, EXPERIMENT_KEYS * dk) };
  }

  private async computeExperiment(): Promise<void> {
    const request = ++this.experimentRequest;
    const dk = this.state.dk;
    const { q, k } = this.sample(dk);
    try {
      const [unscaled, scaled] = await Promise.all([
        this.softmaxOf('dot', q, k, dk),
        this.softmaxOf('scaled_dot', q, k, dk),
      ]);
      if (request !== this.experimentRequest) return;
      const keys = Array.from({ length: EXPERIMENT_KEYS }, (_, j) => `k${j + 1}`);
      const common = { rows: 1, cols: EXPERIMENT_KEYS, colLabels: keys, range: [0, 1] as [number, number] };
      this.unscaledMap.update({ ...common, values: unscaled.data, rowLabels: ['α'] });
      this.scaledMap.update({ ...common, values: scaled.data, rowLabels: ['α'] });
      const u = weightStats(unscaled.data);
      const s = weightStats(scaled.data);
      const cell = (value: number, id: string) => {
        const td = el('td', { textContent: value.toFixed(3) });
        td.dataset.testid = id;
        td.dataset.value = String(value);
        return td;
      };
      const head = el(
        'tr',
        {},
        el('th', { scope: 'col' }, el('span', { className: 'visually-hidden' }, 'softmax')),
        el('th', { scope: 'col' }, 'max weight'),
        el('th', { scope: 'col' }, 'entropy (nats)'),
      );
      this.experimentMetrics.replaceChildren(
        el(
          'caption',
          {},
          `d_k = ${dk}; uniform weights would have entropy ln ${EXPERIMENT_KEYS} = ${Math.log(EXPERIMENT_KEYS).toFixed(3)}`,
        ),
        head,
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, 'unscaled'),
          cell(u.max, 'unscaled-max'),
          cell(u.entropy, 'unscaled-entropy'),
        ),
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, 'scaled'),
          cell(s.max, 'scaled-max'),
          cell(s.entropy, 'scaled-entropy'),
        ),
      );
      if (this.sweepRows.length === 0 || this.sweepSeed !== this.state.sample) await this.computeSweep(request);
    } catch (error) {
      if (request !== this.experimentRequest) return;
      this.experimentMetrics.replaceChildren(
        el('caption', { className: 'error' }, error instanceof Error ? error.message : String(error)),
      );
    }
  }

  private sweepSeed = -1;

  private async computeSweep(request: number): Promise<void> {
    const seed = this.state.sample;
    const rows: (string | number)[][] = [
      ['d_k', 'unscaled max weight', 'unscaled entropy', 'scaled max weight', 'scaled entropy'],
    ];
    for (const dk of SWEEP) {
      const { q, k } = this.sample(dk);
      const [u, s] = await Promise.all([this.softmaxOf('dot', q, k, dk), this.softmaxOf('scaled_dot', q, k, dk)]);
      const us = weightStats(u.data);
      const ss = weightStats(s.data);
      rows.push([dk, us.max, us.entropy, ss.max, ss.entropy]);
    }
    if (request !== this.experimentRequest) return;
    this.sweepRows = rows;
    this.sweepSeed = seed;
    const [header, ...body] = rows;
    this.sweepTable.replaceChildren(
      el('caption', {}, `Max weight and entropy over ${EXPERIMENT_KEYS} keys, seed ${seed}`),
      el('tr', {}, ...header.map((h) => el('th', { scope: 'col', textContent: String(h) }))),
      ...body.map(([dk, ...values]) =>
        el(
          'tr',
          {},
          el('th', { scope: 'row', textContent: String(dk) }),
          ...values.map((v) => el('td', { textContent: Number(v).toFixed(3) })),
        ),
      ),
    );
  }

  // ---- self-attention with masks --------------------------------------------------------------

  private async computeSelf(): Promise<void> {
    const request = ++this.selfRequest;
    const { length: n, valid, causal, sample } = this.state;
    const q = normals(sample, 3, n * SELF_DIM);
    const k = normals(sample, 4, n * SELF_DIM);
    const v = normals(sample, 5, n * SELF_DIM);
    try {
      let mask = (await this.engine.call('paddingMask', n, n, valid)).data;
      if (causal) {
        const c = await this.engine.call('causalMask', n);
        mask = (await this.engine.call('combineMasks', { shape: [n, n], data: mask }, c)).data;
      }
      const shape = [n, SELF_DIM];
      const out = await this.engine.call(
        'scaledDotProductAttention',
        { shape, data: q },
        { shape, data: k },
        { shape, data: v },
        { mask: { shape: [n, n], data: mask } },
      );
      if (request !== this.selfRequest) return;
      this.selfError.textContent = '';
      this.self = { q, k, v, mask, weights: out.weights.data, n };
      const tokens = Array.from({ length: n }, (_, i) => (i < valid ? `x${i + 1}` : `pad${i + 1}`));
      this.selfWeights.update({
        values: out.weights.data,
        rows: n,
        cols: n,
        rowLabels: tokens,
        colLabels: tokens,
        range: [0, 1],
      });
      this.selfOutput.update({
        values: out.output.data,
        rows: n,
        cols: SELF_DIM,
        rowLabels: tokens,
        colLabels: Array.from({ length: SELF_DIM }, (_, j) => `${j + 1}`),
      });
    } catch (error) {
      if (request !== this.selfRequest) return;
      this.selfError.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private explainSelf(i: number, j: number): string[] | undefined {
    if (!this.self) return undefined;
    const { q, k, v, mask, weights, n } = this.self;
    const row = (x: Float32Array, r: number) => x.subarray(r * SELF_DIM, (r + 1) * SELF_DIM);
    const scale = 1 / Math.sqrt(SELF_DIM);
    const scores = Array.from({ length: n }, (_, c) => dot(row(q, i), row(k, c)) * scale);
    const visible = (c: number) => mask[i * n + c] !== 0;
    const weight = weights[i * n + j];
    if (!visible(j)) {
      const why = j >= this.state.valid ? 'padding' : 'a later token (causal mask)';
      return [`token ${j + 1} is ${why}: masked, so its weight is ${f(weight)}`];
    }
    const qk = dot(row(q, i), row(k, j));
    const { m, numerator, denominator } = softmaxParts(scores, visible, j, 1);
    const contribution = Array.from(row(v, j), (x) => x * weight);
    return [
      `q${i + 1}·k${j + 1} = ${products(row(q, i), row(k, j))} = ${f(qk)}`,
      `scale 1/√d_k = 1/√${SELF_DIM} = ${f(scale)}, score = ${f(qk)} × ${f(scale)} = ${f(scores[j])}`,
      `numerator e^(${f(scores[j])} − ${f(m)}) = ${f(numerator)} (m = the row's largest visible score)`,
      `denominator Σ over the visible keys of row ${i + 1} = ${f(denominator)}`,
      `weight = ${f(numerator)} / ${f(denominator)} = ${f(weight)}`,
      `contribution to output ${i + 1}: ${f(weight)} × v${j + 1} = ${f(weight)} × ${plainVector(row(v, j))} = ${vector(contribution)}`,
    ];
  }

  private explainSelfOutput(i: number, c: number): string[] | undefined {
    if (!this.self) return undefined;
    const { v, weights, n } = this.self;
    const terms = Array.from({ length: n }, (_, j) => `${f(weights[i * n + j])}×${f(v[j * SELF_DIM + c])}`).join(' + ');
    let sum = 0;
    for (let j = 0; j < n; j++) sum += weights[i * n + j] * v[j * SELF_DIM + c];
    return [`output${i + 1},${c + 1} = Σⱼ weight${i + 1},ⱼ vⱼ,${c + 1} = ${terms} = ${f(sum)}`];
  }
}
