// The lab's experiment "masks on self-attention": n tokens with random queries, keys and values,
// the engine's scaled dot-product attention under a padding mask and optionally a causal one, its
// weight matrix and output as heatmaps whose cells explain themselves with their numbers.
import type { EngineBridge } from '../../engine/bridge';
import { el } from '../dom';
import { createHeatmap } from '../heatmap';
import { formulaList } from '../math';
import { softmaxLines } from '../softmax_numbers';
import type { Change } from './inputs';
import { dot, f, plainVector, products, vector } from './numbers';
import { normals } from './sample';
import { MAX_SELF_LENGTH, defaultLabState, type LabState } from './state';

const SELF_DIM = 4; // d_k = d_v of the self-attention demo

export class SelfAttentionExperiment {
  readonly element: HTMLElement;
  private state: LabState = defaultLabState();
  private selfRequest = 0;
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

  constructor(
    private readonly engine: EngineBridge,
    private readonly change: Change,
  ) {
    this.element = this.build();
  }

  /** Whether going from `before` to `state` changes this experiment. */
  static changed(before: LabState, state: LabState): boolean {
    return (
      before.length !== state.length ||
      before.valid !== state.valid ||
      before.causal !== state.causal ||
      before.sample !== state.sample
    );
  }

  /** Sets the controls from `state`. */
  sync(state: LabState): void {
    this.state = state;
    this.lengthInput.value = String(state.length);
    this.validInput.max = String(state.length);
    this.validInput.value = String(state.valid);
    this.causalBox.checked = state.causal;
  }

  private build(): HTMLElement {
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

  /** Computes and shows `state`'s tokens, padding and causal mask. */
  async compute(state: LabState): Promise<void> {
    this.state = state;
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
        scale: 'signed',
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
    const contribution = Array.from(row(v, j), (x) => x * weight);
    return [
      `q${i + 1}·k${j + 1} = ${products(row(q, i), row(k, j))} = ${f(qk)}`,
      `scale 1/√d_k = 1/√${SELF_DIM} = ${f(scale)}, score = ${f(qk)} × ${f(scale)} = ${f(scores[j])}`,
      ...softmaxLines(scores, j, { visible, name: 'weight', over: `the visible keys of row ${i + 1}`, weight }),
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
