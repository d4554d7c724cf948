// The Studio's explanation panel: what the trained model says about a review and why.
//  1. Type-as-you-go: the prediction and per-token attention follow the textarea (debounced,
//     stale replies dropped).
//  2. Counterfactuals: every token is a button; clicking masks it (or replaces it with the word in
//     the "replace with" box) and the prediction and attention are recomputed at once, with Δp.
//  3. "Is attention an explanation?": attention, gradient × input and leave-one-out per token in
//     one heatmap, the permutation and uniform-attention tests in words, and rank correlations.
//  4. Numbers you can touch: hovering or focusing an attention cell shows e_t, the softmax
//     numerator and denominator, α_t and the token's share of the logit.
//  5. Evaluation: the test-set confusion matrix and a paged browser of misclassified reviews.
// The engine does the work (analysis/explanations.hpp through the worker); review text from data
// files is only ever set as text (el() children, textContent), never parsed as HTML.
import type { EngineBridge } from '../../engine/bridge';
import type { MisclassifiedReview, Prediction, ReviewAnalysis } from '../../engine/protocol';
import { el } from '../dom';
import { createHeatmap, formatValue, type HeatmapData } from '../heatmap';

const DEBOUNCE_MS = 150;
const SHUFFLES = 20;
const PAGE_SIZE = 5;
const MISCLASSIFIED_LIMIT = 200;
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

/** Each value divided by the row's largest magnitude (all zeros stay zeros). */
function scaled(values: ArrayLike<number>): number[] {
  let top = 0;
  for (let i = 0; i < values.length; i++) top = Math.max(top, Math.abs(values[i]));
  return Array.from(values, (v) => (top > 0 ? v / top : 0));
}

const fixed = (x: number, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const signed = (x: number, digits = 3) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
const quoted = (token: string) => `“${token}”`;

/** Spans (or buttons) with the attention weight as background strength, relative to the largest. */
function highlighted(tokens: string[], weights: ArrayLike<number>): HTMLSpanElement[] {
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
  private evalSeq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The typed text's tokens and prediction, the base of the counterfactuals. */
  private base: Prediction | null = null;
  private analysis: ReviewAnalysis | null = null;
  private readonly edits = new Map<number, string>();
  private misclassified: MisclassifiedReview[] = [];
  private page = 0;
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
  private readonly confusion = el('table', {
    className: 'explain-confusion',
    dataset: { testid: 'explain-confusion' },
  });
  private readonly evaluationStatus = el('p', { className: 'explain-eval-status', role: 'status' });
  private readonly list = el('ol', {
    className: 'explain-misclassified',
    dataset: { testid: 'explain-misclassified' },
  });
  private readonly previous = el('button', { type: 'button', textContent: 'Previous', disabled: true });
  private readonly next = el('button', { type: 'button', textContent: 'Next', disabled: true });
  private readonly pageLabel = el('span', { className: 'explain-page', role: 'status' });
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
    const evalHeading = el('h3', { textContent: 'Test-set errors' });
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
      this.heatmap.element,
      this.tests,
      this.correlation,
      evalHeading,
      this.evaluationStatus,
      this.confusion,
      this.list,
      el('div', { className: 'buttons' }, this.previous, this.pageLabel, this.next),
    );
    this.element.setAttribute('aria-labelledby', heading.id);
    this.controls = [this.text, this.replacement, this.resetButton, this.previous, this.next];

    this.text.addEventListener('input', () => this.schedule());
    this.resetButton.addEventListener('click', () => {
      this.edits.clear();
      void this.recompute();
    });
    this.previous.addEventListener('click', () => this.showPage(this.page - 1));
    this.next.addEventListener('click', () => this.showPage(this.page + 1));
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
    void this.evaluate();
  }

  private setEnabled(enabled: boolean): void {
    this.element.dataset.state = enabled ? 'ready' : 'disabled';
    this.hint.hidden = enabled;
    for (const control of this.controls) control.disabled = !enabled;
    this.text.disabled = !enabled && !this.comparison;
    this.resetButton.disabled = !enabled || this.edits.size === 0;
    this.previous.disabled = !enabled || this.page === 0;
    this.next.disabled = !enabled || (this.page + 1) * PAGE_SIZE >= this.misclassified.length;
  }

  private clear(): void {
    this.textSeq++;
    this.evalSeq++;
    this.base = null;
    this.analysis = null;
    this.edits.clear();
    this.misclassified = [];
    this.page = 0;
    this.prediction.textContent = '';
    delete this.prediction.dataset.probability;
    this.tokens.replaceChildren();
    this.counterfactual.textContent = '';
    this.tests.textContent = '';
    this.correlation.textContent = '';
    this.confusion.replaceChildren();
    this.list.replaceChildren();
    this.pageLabel.textContent = '';
    this.evaluationStatus.textContent = '';
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
    const rows: { label: string; values: ArrayLike<number> }[] = [];
    if (hasAttention) rows.push({ label: 'attention α', values: a.weights });
    rows.push({ label: 'gradient × input', values: a.saliency });
    rows.push({ label: 'leave-one-out Δp', values: a.leaveOneOut });
    const cols = a.tokens.length;
    const values = new Float32Array(rows.length * cols);
    rows.forEach((row, r) => values.set(scaled(row.values), r * cols));
    const data: HeatmapData = {
      values,
      rows: rows.length,
      cols,
      rowLabels: rows.map((r) => r.label),
      colLabels: a.tokens,
      range: [-1, 1],
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
      const max = Math.max(...a.scores);
      let denominator = 0;
      for (const e of a.scores) denominator += Math.exp(e - max);
      const e = a.scores[col];
      const numerator = Math.exp(e - max);
      let sum = 0;
      for (const c of a.contributions) sum += c;
      return [
        `${where}: score e = ${formatValue(e)} (max e over the review = ${formatValue(max)})`,
        `softmax numerator exp(e − max) = exp(${formatValue(e - max)}) = ${formatValue(numerator)}`,
        `denominator Σ exp(e_s − max) over ${a.tokens.length} tokens = ${formatValue(denominator)}`,
        `weight α = ${formatValue(numerator)} / ${formatValue(denominator)} = ${formatValue(a.weights[col])}`,
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

  // 5. Evaluation ----------------------------------------------------------------------------------
  private async evaluate(): Promise<void> {
    const seq = ++this.evalSeq;
    this.evaluationStatus.textContent = 'Evaluating on the test set…';
    try {
      const metrics = await this.engine.evaluate('test');
      if (seq !== this.evalSeq) return;
      const count = metrics.tp + metrics.fp + metrics.tn + metrics.fn;
      if (count === 0) {
        this.evaluationStatus.textContent = 'There is no test set to evaluate.';
        this.confusion.replaceChildren();
        this.list.replaceChildren();
        return;
      }
      this.showConfusion(metrics);
      this.evaluationStatus.textContent =
        `Accuracy ${(metrics.accuracy * 100).toFixed(1)}% on ${count} test reviews; ` +
        `${metrics.fp + metrics.fn} misclassified, the most confidently wrong first.`;
      const list = await this.engine.misclassified('test', MISCLASSIFIED_LIMIT);
      if (seq !== this.evalSeq) return;
      this.misclassified = list;
      this.showPage(0);
    } catch (error) {
      if (seq === this.evalSeq)
        this.evaluationStatus.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private showConfusion(m: { tp: number; fp: number; tn: number; fn: number }): void {
    const cell = (value: number, name: string) => {
      const td = el('td', { textContent: String(value) });
      td.dataset.cell = name;
      return td;
    };
    const th = (text: string, scope: 'row' | 'col') => el('th', { scope, textContent: text });
    this.confusion.replaceChildren(
      el('caption', { textContent: 'Confusion matrix (test set; rows: true label, columns: prediction)' }),
      el('thead', {}, el('tr', {}, el('td'), th('predicted negative', 'col'), th('predicted positive', 'col'))),
      el(
        'tbody',
        {},
        el('tr', {}, th('negative', 'row'), cell(m.tn, 'tn'), cell(m.fp, 'fp')),
        el('tr', {}, th('positive', 'row'), cell(m.fn, 'fn'), cell(m.tp, 'tp')),
      ),
    );
  }

  private showPage(page: number): void {
    const pages = Math.max(1, Math.ceil(this.misclassified.length / PAGE_SIZE));
    this.page = Math.min(Math.max(0, page), pages - 1);
    const items = this.misclassified.slice(this.page * PAGE_SIZE, (this.page + 1) * PAGE_SIZE);
    this.list.start = this.page * PAGE_SIZE + 1;
    this.list.replaceChildren(
      ...items.map((r) =>
        el(
          'li',
          { className: 'explain-review' },
          el(
            'p',
            { className: 'explain-review-label' },
            `labelled ${r.label === 1 ? 'positive' : 'negative'}, predicted P(positive) = ${r.probability.toFixed(3)}`,
            r.origin ? ` (${r.origin})` : '',
          ),
          el('p', { className: 'explain-review-text' }, r.text),
          el('p', { className: 'predict-tokens' }, ...highlighted(r.tokens, r.weights)),
        ),
      ),
    );
    this.pageLabel.textContent = this.misclassified.length
      ? `page ${this.page + 1} of ${pages}`
      : 'No misclassified test reviews.';
    this.previous.disabled = !this.trained || this.page === 0;
    this.next.disabled = !this.trained || this.page + 1 >= pages;
  }
}
