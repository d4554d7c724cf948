// The lab's experiment "why divide by √d_k?": a random query and keys at a chosen d_k, their
// softmax weights with and without the scale (the engine's 'dot' and 'scaled_dot' scores), the
// largest weight and the entropy of each, and a sweep over d_k = 1…512 exportable as CSV.
import type { EngineBridge } from '../../engine/bridge';
import { csvButton } from '../../export/export';
import { el } from '../dom';
import { createHeatmap } from '../heatmap';
import { formulaList } from '../math';
import type { Change } from './inputs';
import { weightStats } from './numbers';
import { normals } from './sample';
import { MAX_DK, defaultLabState, type LabState } from './state';

const EXPERIMENT_KEYS = 8; // keys in the scaled-vs-unscaled experiment
const SWEEP = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

export class ScalingExperiment {
  readonly element: HTMLElement;
  private state: LabState = defaultLabState();
  private experimentRequest = 0;
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

  constructor(
    private readonly engine: EngineBridge,
    private readonly change: Change,
  ) {
    this.dkValue.setAttribute('for', 'lab-dk');
    this.experimentMetrics.dataset.testid = 'experiment-metrics';
    this.sweepTable.dataset.testid = 'experiment-sweep';
    this.element = this.build();
  }

  /** Whether going from `before` to `state` changes this experiment. */
  static changed(before: LabState, state: LabState): boolean {
    return before.dk !== state.dk || before.sample !== state.sample;
  }

  /** Sets the controls from `state`. */
  sync(state: LabState): void {
    this.state = state;
    this.dkSlider.value = String(Math.log2(state.dk));
    this.dkSlider.setAttribute('aria-valuetext', `d_k = ${state.dk}`);
    this.dkValue.textContent = `d_k = ${state.dk}`;
    this.sampleInput.value = String(state.sample);
  }

  private build(): HTMLElement {
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

  /** Computes and shows `state`'s d_k and sample (and the sweep for a new sample). */
  async compute(state: LabState): Promise<void> {
    this.state = state;
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
}
