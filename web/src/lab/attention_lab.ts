// Attention Lab: edit a decoder state and its annotations, pick a scoring function, and watch
// scores → softmax weights → weighted annotations → context vector, computed by the engine.
import type { AttendResult, OutScoreParams, OutTensor } from '../../generated/attn_engine.mjs';
import type { EngineBridge } from '../engine/bridge';
import { createHeatmap } from '../views/heatmap';
import { el } from '../views/dom';
import { SCORE_FORMULAS } from './formulas';
import {
  MAX_ANNOTATIONS,
  MAX_DIM,
  SCORE_KINDS,
  TEMPERATURE_RANGE,
  defaultLabState,
  labStateToHash,
  normalise,
  type LabState,
} from './state';

const ATTENTION_DIM_FOR = (d: number) => Math.max(2, d);

function tensor(rows: number[][]) {
  return { shape: [rows.length, rows[0].length], data: Float32Array.from(rows.flat()) };
}

export class AttentionLab {
  readonly element = el('section', { className: 'lab' });
  private state: LabState;
  private readonly engine: EngineBridge;
  private readonly onState: (state: LabState) => void;
  private requestNumber = 0;

  private readonly kindSelect = el('select', { id: 'lab-kind' });
  private readonly formula = el('p', { className: 'formula' });
  private readonly temperature = el('input', { id: 'lab-temperature', type: 'range' });
  private readonly temperatureValue = el('output');
  private readonly seedInput = el('input', { id: 'lab-seed', type: 'number', min: '0', step: '1' });
  private readonly seedLabel = el('label', { htmlFor: 'lab-seed', className: 'seed' }, 'Parameter seed ');
  private readonly inputs = el('div', { className: 'lab-inputs' });
  private readonly error = el('p', { className: 'error', role: 'alert' });
  private readonly heatmaps = {
    scores: createHeatmap('Scores: score(s, hₜ)', 'heatmap-scores'),
    weights: createHeatmap('Weights: softmax(scores / τ)', 'heatmap-weights'),
    weighted: createHeatmap('Weighted annotations: αₜ hₜ', 'heatmap-weighted'),
    context: createHeatmap('Context vector: c = Σₜ αₜ hₜ', 'heatmap-context'),
  };
  private readonly paramsArea = el('div', { className: 'lab-params' });

  constructor(engine: EngineBridge, initial: LabState, onState: (state: LabState) => void) {
    this.engine = engine;
    this.state = normalise(initial);
    this.onState = onState;
    this.build();
    this.renderInputs();
    void this.compute();
  }

  /** Replaces the state (e.g. after the URL hash changed) and recomputes. */
  setState(state: LabState): void {
    if (labStateToHash(state) === labStateToHash(this.state)) return;
    this.state = normalise(state);
    this.syncControls();
    this.renderInputs();
    void this.compute();
  }

  private build(): void {
    for (const kind of SCORE_KINDS) {
      this.kindSelect.append(el('option', { value: kind, textContent: SCORE_FORMULAS[kind].label }));
    }
    this.kindSelect.addEventListener('change', () => this.change({ kind: this.kindSelect.value as LabState['kind'] }));

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
    this.seedLabel.append(this.seedInput);

    const reset = el('button', { type: 'button', textContent: 'Reset to the course example' });
    reset.addEventListener('click', () => this.setState(defaultLabState()));

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
      this.heatmaps.weighted.element,
      this.heatmaps.context.element,
    );
    this.element.append(
      el('h2', {}, 'Attention Lab'),
      el(
        'p',
        { className: 'intro' },
        'A decoder state s looks at annotations h₁…h_T. Each annotation gets a score, softmax turns the ' +
          'scores into weights that sum to 1, and the context vector is the weighted sum of the annotations. ' +
          'Edit any number; untick an annotation to mask it as padding.',
      ),
      controls,
      this.formula,
      this.inputs,
      this.error,
      outputs,
      this.paramsArea,
    );
    this.syncControls();
  }

  private syncControls(): void {
    this.kindSelect.value = this.state.kind;
    this.formula.textContent = SCORE_FORMULAS[this.state.kind].formula;
    this.temperature.value = String(Math.log(this.state.temperature));
    this.temperatureValue.textContent = `τ = ${this.state.temperature}`;
    this.seedInput.value = String(this.state.seed);
    this.seedLabel.hidden = !['general', 'additive', 'concat', 'location'].includes(this.state.kind);
  }

  private change(patch: Partial<LabState>, rerenderInputs = true): void {
    this.state = normalise({ ...this.state, ...patch });
    this.syncControls();
    if (rerenderInputs) this.renderInputs();
    this.onState(this.state);
    void this.compute();
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

  private async compute(): Promise<void> {
    const request = ++this.requestNumber;
    const { kind, query, annotations, visible, temperature, seed } = this.state;
    const d = query.length;
    const t = annotations.length;
    try {
      const params: OutScoreParams = await this.engine.call(
        'initScoreParams',
        kind,
        d,
        d,
        t,
        ATTENTION_DIM_FOR(d),
        seed,
      );
      const result: AttendResult = await this.engine.call(
        'attend',
        kind,
        { shape: [d], data: Float32Array.from(query) },
        tensor(annotations),
        { params, temperature, mask: { shape: [t], data: visible.map((v) => (v ? 1 : 0)) } },
      );
      if (request !== this.requestNumber) return; // a newer edit is on its way
      this.error.textContent = '';
      this.show(result, params);
    } catch (error) {
      if (request !== this.requestNumber) return;
      this.error.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private show(result: AttendResult, params: OutScoreParams): void {
    const t = this.state.annotations.length;
    const d = this.state.query.length;
    const keys = Array.from({ length: t }, (_, i) => `h${i + 1}`);
    const dims = Array.from({ length: d }, (_, j) => `${j + 1}`);
    this.heatmaps.scores.update({ values: result.scores.data, rows: 1, cols: t, rowLabels: ['score'], colLabels: keys });
    this.heatmaps.weights.update({
      values: result.weights.data,
      rows: 1,
      cols: t,
      rowLabels: ['α'],
      colLabels: keys,
      range: [0, 1],
    });
    this.heatmaps.weighted.update({ values: result.weighted.data, rows: t, cols: d, rowLabels: keys, colLabels: dims });
    this.heatmaps.context.update({ values: result.context.data, rows: 1, cols: d, rowLabels: ['c'], colLabels: dims });
    this.showParams(params);
  }

  private showParams(params: OutScoreParams): void {
    const entries = Object.entries(params) as [string, OutTensor][];
    if (entries.length === 0) {
      this.paramsArea.replaceChildren();
      return;
    }
    const maps = entries.map(([name, value]) => {
      const rows = value.shape.length === 2 ? value.shape[0] : 1;
      const cols = value.shape.length === 2 ? value.shape[1] : value.shape[0];
      const map = createHeatmap(`Learnable ${name} ${value.shape.join('×')} (random init, seed ${this.state.seed})`, `heatmap-param-${name}`);
      map.update({
        values: value.data,
        rows,
        cols,
        rowLabels: Array.from({ length: rows }, (_, i) => `${i + 1}`),
        colLabels: Array.from({ length: cols }, (_, j) => `${j + 1}`),
      });
      return map.element;
    });
    this.paramsArea.replaceChildren(el('h3', {}, 'Parameters of this scoring function'), ...maps);
  }
}
