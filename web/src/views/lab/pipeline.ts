// The lab's main experiment: the engine's attend() on the decoder state and annotations the
// learner edits — scores, softmax weights, weighted annotations, context vector — as heatmaps whose
// cells explain themselves with their numbers, and the scoring function's learnable parameters as
// heatmaps with editors.
import type { AttendResult, OutScoreParams, OutTensor } from '../../../generated/attn_engine.mjs';
import type { EngineBridge } from '../../engine/bridge';
import { el } from '../dom';
import { createHeatmap } from '../heatmap';
import { softmaxLines } from '../softmax_numbers';
import { createWeightBars } from '../weight_bars';
import { SCORE_FORMULAS } from './formulas';
import { numberInput } from './inputs';
import { dot, f, plain, plainVector, products, tensor, vector } from './numbers';
import { defaultLabState, type LabState } from './state';

const ATTENTION_DIM_FOR = (d: number) => Math.max(2, d);

export class ScorePipeline {
  private state: LabState = defaultLabState();
  private requestNumber = 0;
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
  /** The weights again as bars, whose heights glide between snapshots (views/weight_bars.ts). */
  private readonly weightBars = createWeightBars('Weights α as bars', 'lab-weight-bars');
  private readonly paramsArea = el('div', { className: 'lab-params' });
  /** The scoring function's parameters in use: engine-initialised from the seed, then user-edited. */
  private params?: { key: string; values: OutScoreParams };
  /** What the lab shows under its inputs: errors, the four maps, the parameters. */
  readonly elements: HTMLElement[];

  constructor(private readonly engine: EngineBridge) {
    const outputs = el(
      'div',
      { className: 'lab-outputs' },
      this.heatmaps.scores.element,
      this.heatmaps.weights.element,
      this.weightBars.element,
      this.heatmaps.weighted.element,
      this.heatmaps.context.element,
    );
    this.elements = [this.error, outputs, this.paramsArea];
  }

  private paramsKey(): string {
    const { kind, query, annotations, seed } = this.state;
    return `${kind}|${query.length}|${annotations.length}|${seed}`;
  }

  /** Computes and shows `state`'s pipeline; a newer call wins over one still waiting. */
  async compute(state: LabState): Promise<void> {
    this.state = state;
    const request = ++this.requestNumber;
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
      scale: 'signed',
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
    const signed = { scale: 'signed' } as const;
    this.heatmaps.weighted.update({
      values: result.weighted.data,
      rows: t,
      cols: d,
      rowLabels: keys,
      colLabels: dims,
      ...signed,
    });
    this.heatmaps.context.update({
      values: result.context.data,
      rows: 1,
      cols: d,
      rowLabels: ['c'],
      colLabels: dims,
      ...signed,
    });
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
        scale: 'signed',
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
              numberInput(Number(value.data[index].toPrecision(4)), `${name} row ${r + 1}, column ${c + 1}`, (x) => {
                if (this.params?.key !== key) return;
                (this.params.values as Record<string, OutTensor>)[name].data[index] = x;
                void this.compute(this.state);
              }),
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
    const d = state.query.length;
    return [
      ...this.scoreLines(t),
      `temperature τ = ${tau}`,
      ...softmaxLines(scores, t, {
        temperature: tau,
        visible: (j) => state.visible[j],
        name: `weight α${t + 1}`,
        over: 'the visible annotations',
        weight,
      }),
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
}
