// The Studio's explanation panel: what the trained model says about a review and why.
//  1. Type-as-you-go: the prediction and per-token attention follow the textarea (debounced,
//     stale replies dropped).
//  2. Counterfactuals: every token is a button; clicking masks it (or replaces it with the word in
//     the "replace with" box) and the prediction and attention are recomputed at once, with Δp.
//  3. "Is attention an explanation?": attention, gradient × input and leave-one-out per token in
//     one heatmap, the permutation and uniform-attention tests in words, and rank correlations.
//  4. Numbers you can touch: hovering or focusing an attention cell shows e_t, the softmax
//     numerator and denominator, α_t and the token's share of the logit.
// The test-set errors (confusion matrix, misclassified reviews) are in errors_panel.ts.
// The engine does the work (analysis/explanations.hpp through the worker); review text from data
// files is only ever set as text (el() children, textContent), never parsed as HTML.
import type { EngineBridge } from '../../engine/bridge';
import type { Prediction, ReviewAnalysis } from '../../engine/protocol';
import { el } from '../dom';
import { createHeatmap, formatValue, type HeatmapData, type ScaleKind } from '../heatmap';
import { softmaxLines } from '../softmax_numbers';
import { formulaList } from '../math';

/** The three rows of the "Is attention an explanation?" map, as the engine computes them. */
const EXPLANATION_FORMULAS: [string, string][] = [
  [
    'Attention α (pooling over the encoder states h)',
    '\\alpha_t = \\frac{\\exp e_t}{\\sum_s \\exp e_s}, \\quad \\text{logit} = w_{\\text{out}}^\\top \\sum_t \\alpha_t h_t + b',
  ],
  [
    'Gradient × input (over token t’s embedding x_t)',
    '\\sum_d \\frac{\\partial\\, \\text{logit}}{\\partial x_{t,d}} \\, x_{t,d}',
  ],
  [
    'Leave-one-out (token t replaced by the unknown word)',
    '\\Delta p_t = P(\\text{positive} \\mid x_{t \\to \\text{unk}}) - P(\\text{positive} \\mid x)',
  ],
];

const DEBOUNCE_MS = 150;
const SHUFFLES = 20;
const MASK = '<mask>';
const DISABLED_HINT = 'Train or load a model first: the explanations need a trained classifier.';

/** Kendall's τ-a between two equally long lists (ties count as neither concordant nor discordant). */
function kendallTau(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  if (n < 2) return NaN;
  let score = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) score += Math.sign(a[i] - a[j]) * Math.sign(b[i] - b[j]);
  }
  return score / ((n * (n - 1)) / 2);
}

const fixed = (x: number, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const signed = (x: number, digits = 3) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
const quoted = (token: string) => `“${token}”`;

/** Spans (or buttons) with the attention weight as background strength, relative to the largest. */
export function highlighted(tokens: string[], weights: ArrayLike<number>): HTMLSpanElement[] {
  let max = 1e-9;
  for (let i = 0; i < weights.length; i++) max = Math.max(max, weights[i]);
  return tokens.map((token, i) => {
    const w = weights[i] ?? 0;
    const span = el('span', { className: 'token', textContent: token, title: `attention ${w.toFixed(3)}` });
    span.style.setProperty('--weight', (w / max).toFixed(3));
    return span;
  });
}

export class ExplainPanel {
  readonly element: HTMLElement;
  private readonly engine: EngineBridge;
  private trained = false;
  /** Increments with every new text: replies for an older one are dropped. */
  private textSeq = 0;
  private editSeq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The typed text's tokens and prediction, the base of the counterfactuals. */
  private base: Prediction | null = null;
  private analysis: ReviewAnalysis | null = null;
  private readonly edits = new Map<number, string>();
  /** A comparison placed under the tokens (the baseline) keeps the review box usable without a model. */
  private comparison = false;

  private readonly hint = el('p', { className: 'explain-hint', textContent: DISABLED_HINT });
  private readonly text = el('textarea', {
    id: 'predict-text',
    rows: 3,
    value: 'the acting was not good but the story was wonderful',
  });
  private readonly prediction = el('p', { id: 'explain-prediction', className: 'explain-prediction', role: 'status' });
  private readonly replacement = el('input', { id: 'explain-replacement', type: 'text', placeholder: MASK });
  private readonly tokens = el('p', {
    className: 'predict-tokens explain-tokens',
    dataset: { testid: 'explain-tokens' },
  });
  private readonly counterfactual = el('p', { id: 'explain-counterfactual', className: 'explain-counterfactual' });
  private readonly resetButton = el('button', { type: 'button', textContent: 'Reset edits', disabled: true });
  private readonly error = el('p', { className: 'error', role: 'alert' });
  private readonly heatmap = createHeatmap(
    'Per-token attribution (each row scaled by its largest magnitude; hover or focus a cell for the numbers)',
    'explain-heatmap',
    { explain: (row, col) => this.explainCell(row, col) },
  );
  private readonly tests = el('p', { id: 'explain-tests', dataset: { testid: 'explain-tests' } });
  private readonly correlation = el('p', { id: 'explain-correlation', dataset: { testid: 'explain-correlation' } });
  private readonly controls: (HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement)[];

  constructor(engine: EngineBridge) {
    this.engine = engine;
    const heading = el('h2', { id: 'explain-heading', textContent: 'Explain a prediction' });
    const label = el('label', { htmlFor: 'predict-text', textContent: 'Type a review' });
    const replaceLabel = el('label', {
      htmlFor: 'explain-replacement',
      textContent: 'Clicking a token replaces it with (empty = mask): ',
    });
    const testsHeading = el('h3', { textContent: 'Is attention an explanation?' });
    this.element = el(
      'section',
      { className: 'explain-panel', dataset: { testid: 'explain-panel', state: 'disabled' } },
      heading,
      this.hint,
      el('div', { className: 'predict-box' }, label, this.text),
      this.prediction,
      el('div', { className: 'explain-replace' }, replaceLabel, this.replacement, ' ', this.resetButton),
      this.tokens,
      this.counterfactual,
      this.error,
      testsHeading,
      formulaList('explain-formulas', EXPLANATION_FORMULAS),
      this.heatmap.element,
      this.tests,
      this.correlation,
    );
    this.element.setAttribute('aria-labelledby', heading.id);
    this.controls = [this.text, this.replacement, this.resetButton];

    this.text.addEventListener('input', () => this.schedule());
    this.resetButton.addEventListener('click', () => {
      this.edits.clear();
      void this.recompute();
    });
    this.setEnabled(false);
  }

  /** The review being explained. */
  get reviewText(): string {
    return this.text.value;
  }

  /** Places `element` under the counterfactual line; `onText` runs on every edit of the review. */
  addComparison(element: HTMLElement, onText: () => void): void {
    this.counterfactual.after(element);
    this.text.addEventListener('input', onText);
    this.comparison = true;
    this.text.disabled = false;
  }

  /** The Studio calls this whenever the model changes (created, trained, loaded). */
  modelChanged(info: { trained: boolean }): void {
    this.trained = info.trained;
    this.setEnabled(info.trained);
    if (!info.trained) {
      this.clear();
      return;
    }
    void this.update();
  }

  private setEnabled(enabled: boolean): void {
    this.element.dataset.state = enabled ? 'ready' : 'disabled';
    this.hint.hidden = enabled;
    for (const control of this.controls) control.disabled = !enabled;
    this.text.disabled = !enabled && !this.comparison;
    this.resetButton.disabled = !enabled || this.edits.size === 0;
  }

  private clear(): void {
    this.textSeq++;
    this.base = null;
    this.analysis = null;
    this.edits.clear();
    this.prediction.textContent = '';
    delete this.prediction.dataset.probability;
    this.tokens.replaceChildren();
    this.counterfactual.textContent = '';
    this.tests.textContent = '';
    this.correlation.textContent = '';
    this.error.textContent = '';
  }

  // 1. Type-as-you-go ------------------------------------------------------------------------
  private schedule(): void {
    clearTimeout(this.timer);
    this.textSeq++; // a reply for the text before this keystroke is stale from now on
    this.timer = setTimeout(() => void this.update(), DEBOUNCE_MS);
  }

  private async update(): Promise<void> {
    if (!this.trained) return;
    const seq = ++this.textSeq;
    const text = this.text.value;
    this.edits.clear();
    this.error.textContent = '';
    if (!/[\p{L}\p{N}]/u.test(text)) {
      this.base = null;
      this.analysis = null;
      this.prediction.textContent = 'Type a review to see its prediction.';
      delete this.prediction.dataset.probability;
      this.tokens.replaceChildren();
      this.counterfactual.textContent = '';
      return;
    }
    try {
      // The quick prediction first, then the heavier analysis for the same text.
      const prediction = await this.engine.predict(text);
      if (seq !== this.textSeq) return;
      this.base = prediction;
      this.showPrediction(prediction, null);
      const analysis = await this.engine.analyze(text, { shuffles: SHUFFLES, seed: 1 });
      if (seq !== this.textSeq) return;
      this.analysis = analysis;
      this.showAnalysis(analysis);
    } catch (error) {
      if (seq === this.textSeq) this.error.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private showPrediction(p: Prediction, delta: number | null): void {
    const label = p.probability > 0.5 ? 'positive' : 'negative';
    const change = delta === null ? '' : ` (Δp ${signed(delta)} after the edits)`;
    this.prediction.textContent = `${label}: P(positive) = ${p.probability.toFixed(3)}${change}`;
    this.prediction.dataset.probability = String(p.probability);
    const spans = highlighted(p.tokens, p.weights);
    this.tokens.replaceChildren(
      ...spans.map((span, i) => {
        if (i === 0 && p.tokens[0] === '<start>') return span;
        const edit = this.edits.get(i);
        const button = el('button', {
          type: 'button',
          className: 'token',
          textContent: edit === undefined ? p.tokens[i] : edit === MASK ? `${MASK} (${p.tokens[i]})` : edit,
          title: `${span.title}; click to ${edit === undefined ? 'mask or replace' : 'restore'} it`,
          dataset: { index: String(i), ...(edit === undefined ? {} : { masked: 'true' }) },
        });
        button.setAttribute('aria-pressed', String(edit !== undefined));
        button.style.cssText = span.style.cssText;
        button.addEventListener('click', () => this.toggle(i));
        return button;
      }),
    );
    this.resetButton.disabled = this.edits.size === 0;
  }

  // 2. Counterfactuals -------------------------------------------------------------------------
  private toggle(index: number): void {
    if (this.edits.has(index)) this.edits.delete(index);
    else this.edits.set(index, this.replacement.value.trim() || MASK);
    void this.recompute();
  }

  private async recompute(): Promise<void> {
    const base = this.base;
    if (!base) return;
    const seq = ++this.editSeq;
    const textSeq = this.textSeq;
    const original = base.tokens;
    if (this.edits.size === 0) {
      this.showPrediction(base, null);
      this.counterfactual.textContent = '';
      return;
    }
    const edited = original.map((token, i) => this.edits.get(i) ?? token);
    try {
      const p = await this.engine.predictTokens(edited);
      if (seq !== this.editSeq || textSeq !== this.textSeq) return;
      const delta = p.probability - base.probability;
      // The display keeps the original words (the edit is shown on the button).
      this.showPrediction({ probability: p.probability, tokens: original, weights: p.weights }, delta);
      const what = [...this.edits].map(([i, w]) => `${quoted(original[i])} → ${w}`).join(', ');
      this.counterfactual.textContent =
        `With ${what}: P(positive) ${base.probability.toFixed(3)} → ${p.probability.toFixed(3)} ` +
        `(Δp ${signed(delta)}); the attention above is recomputed for the edited review.`;
      this.counterfactual.dataset.delta = String(delta);
    } catch (error) {
      if (seq === this.editSeq) this.error.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  // 3. Is attention an explanation? ----------------------------------------------------------------
  private showAnalysis(a: ReviewAnalysis): void {
    const hasAttention = a.weights.length > 0;
    // Three measures in three units: one scale per row (the weights on the fixed 0–1 scale, the two
    // signed measures diverging around 0, each stretched to its own largest |value|).
    const rows: { label: string; values: ArrayLike<number>; kind: ScaleKind }[] = [];
    if (hasAttention) rows.push({ label: 'attention α', values: a.weights, kind: 'probability' });
    rows.push({ label: 'gradient × input', values: a.saliency, kind: 'signed' });
    rows.push({ label: 'leave-one-out Δp', values: a.leaveOneOut, kind: 'signed' });
    const cols = a.tokens.length;
    const values = new Float32Array(rows.length * cols);
    rows.forEach((row, r) => values.set(row.values, r * cols));
    const data: HeatmapData = {
      values,
      rows: rows.length,
      cols,
      rowLabels: rows.map((r) => r.label),
      colLabels: a.tokens,
      rowScales: rows.map((r) => r.kind),
    };
    this.heatmap.update(data);

    if (!hasAttention) {
      this.tests.textContent =
        'This model does not pool with attention, so there are no weights to test: only gradient × input and ' +
        'leave-one-out apply.';
      this.correlation.textContent = '';
      return;
    }
    const shuffles = a.shuffledProbabilities.length;
    this.tests.textContent =
      `Shuffling the attention weights ${shuffles} times changed P(positive) by a median of ` +
      `${fixed(a.shuffleMedianChange ?? NaN)} (at most ${fixed(a.shuffleMaxChange ?? NaN)}); uniform attention ` +
      `gives ${fixed(a.uniformProbability ?? NaN, 2)} vs ${a.probability.toFixed(2)} with the learned weights. ` +
      'Small changes mean the prediction does not depend on where the model attends (Jain & Wallace 2019).';
    this.tests.dataset.median = String(a.shuffleMedianChange);
    this.tests.dataset.uniform = String(a.uniformProbability);
    // Ranks over the words (not <start>): attention against the magnitude of the other two.
    const from = a.tokens[0] === '<start>' ? 1 : 0;
    const attention = a.weights.slice(from);
    const gradient = Array.from(a.saliency.slice(from), Math.abs);
    const loo = Array.from(a.leaveOneOut.slice(from), Math.abs);
    const tauGradient = kendallTau(attention, gradient);
    const tauLoo = kendallTau(attention, loo);
    this.correlation.textContent =
      `Rank agreement (Kendall τ, 1 = same order, 0 = unrelated) of attention with |gradient × input|: ` +
      `${fixed(tauGradient, 2)}; with |leave-one-out|: ${fixed(tauLoo, 2)}.`;
    this.correlation.dataset.tauGradient = String(tauGradient);
    this.correlation.dataset.tauLoo = String(tauLoo);
  }

  // 4. Numbers you can touch -------------------------------------------------------------------------
  private explainCell(row: number, col: number): string[] | undefined {
    const a = this.analysis;
    if (!a) return undefined;
    const token = quoted(a.tokens[col] ?? '');
    const where = `${token} (token ${col + 1} of ${a.tokens.length})`;
    const label = this.heatmap.current()?.rowLabels[row];
    if (label === 'attention α') {
      let sum = 0;
      for (const c of a.contributions) sum += c;
      return [
        `${where}: score e = ${formatValue(a.scores[col])}`,
        ...softmaxLines(a.scores, col, { name: 'weight α', over: `${a.tokens.length} tokens`, weight: a.weights[col] }),
        `contribution to the logit w_outᵀ(α h) = ${formatValue(a.contributions[col])} ` +
          `(logit ${formatValue(a.logit)} = Σ contributions ${formatValue(sum)} + bias ${formatValue(a.outputBias)})`,
      ];
    }
    if (label === 'gradient × input') {
      return [
        `${where}: gradient × input Σ_d ∂logit/∂x_d · x_d over its embedding = ${formatValue(a.saliency[col])}`,
        'positive: the word pushes towards positive; negative: towards negative (to first order)',
      ];
    }
    if (label === 'leave-one-out Δp') {
      if (col === 0 && a.tokens[0] === '<start>') return [`${where}: the start token is not left out`];
      const without = a.probability + a.leaveOneOut[col];
      return [
        `${where}: P(positive) with it replaced by the unknown-word id = ${formatValue(without)}`,
        `vs ${formatValue(a.probability)} with it: Δp = ${formatValue(a.leaveOneOut[col])}`,
      ];
    }
    return undefined;
  }
}
