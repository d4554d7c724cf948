// The bag-of-n-grams baseline in the Studio: trained on the loaded data in one call (seconds),
// then shown in the explanation panel under the attention weights, so a learner compares "what
// the linear model weighs" (each token's share of the baseline's logit, signed) with "what
// attention looks at". The engine computes everything (SentimentSession's baseline through the
// worker); tokens from the review are only ever set as text.
import type { EngineBridge } from '../../engine/bridge';
import type { BaselineExplanation } from '../../engine/protocol';
import { el } from '../dom';
import { percent } from '../format';

const DEBOUNCE_MS = 150;
/** The n-grams listed under the tokens, largest |contribution| first. */
const LISTED_NGRAMS = 8;

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** Token spans coloured by sign (positive blue, negative orange), strength relative to the largest |c|. */
export function contributionSpans(e: Pick<BaselineExplanation, 'tokens' | 'contributions'>): HTMLSpanElement[] {
  let top = 1e-9;
  for (const c of e.contributions) top = Math.max(top, Math.abs(c));
  return e.tokens.map((token, i) => {
    const c = e.contributions[i] ?? 0;
    const span = el('span', {
      className: `token ${c > 0 ? 'more-b' : c < 0 ? 'more-a' : ''}`,
      textContent: token,
      title: `contribution to the logit ${signed(c)}`,
      dataset: { contribution: String(c) },
    });
    span.style.setProperty('--weight', (Math.abs(c) / top).toFixed(3));
    return span;
  });
}

export class BowPanel {
  readonly element: HTMLElement;
  private readonly trainButton = el('button', {
    type: 'button',
    id: 'baseline-train',
    textContent: 'Train the bag-of-n-grams baseline',
  });
  private readonly status = el('p', { id: 'baseline-status', role: 'status' });
  private readonly error = el('p', { className: 'error', role: 'alert' });
  private readonly tokens = el('p', {
    className: 'token-strip diff-strip baseline-tokens',
    dataset: { testid: 'baseline-tokens' },
  });
  private readonly ngrams = el('ul', { className: 'baseline-ngrams', dataset: { testid: 'baseline-ngrams' } });
  private trained = false;
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `text` reads the review being explained; call `textChanged` when it changes. */
  constructor(
    private readonly engine: EngineBridge,
    private readonly text: () => string,
    private readonly settings: () => { seed: number; epochs?: number; learningRate?: number },
  ) {
    this.element = el(
      'div',
      { className: 'baseline-panel', dataset: { testid: 'baseline-panel', state: 'untrained' } },
      el('h3', { textContent: 'What a linear model weighs: the bag-of-n-grams baseline' }),
      el(
        'p',
        { className: 'hint' },
        'A logistic regression on the words and word pairs of a review (NB-weighted, the CLI’s “bow” model). ' +
          'Each token shows its share of the baseline’s logit: blue pushes towards positive, orange towards ' +
          'negative. Compare it with the attention weights above, which say where the model looks, not which way.',
      ),
      el('div', { className: 'buttons' }, this.trainButton),
      this.status,
      this.error,
      this.tokens,
      this.ngrams,
    );
    this.trainButton.addEventListener('click', () => void this.train());
  }

  /** New data: the baseline stays in the engine, but its numbers were for the old test set. */
  dataChanged(): void {
    if (this.trained) void this.train();
  }

  textChanged(): void {
    clearTimeout(this.timer);
    this.seq++;
    this.timer = setTimeout(() => void this.update(), DEBOUNCE_MS);
  }

  private async train(): Promise<void> {
    this.trainButton.disabled = true;
    this.error.textContent = '';
    this.element.dataset.state = 'training';
    this.status.textContent = 'Training the baseline…';
    try {
      const info = await this.engine.trainBaseline(this.settings());
      const test = await this.engine.evaluateBaseline('test');
      this.trained = true;
      this.status.textContent =
        `Baseline: ${info.features} n-grams` +
        (test.tp + test.fp + test.tn + test.fn > 0 ? `, test accuracy ${percent(test.accuracy)}.` : '.');
      this.element.dataset.state = 'trained';
      await this.update();
    } catch (error) {
      this.element.dataset.state = 'failed';
      this.status.textContent = '';
      this.error.textContent = `Could not train the baseline: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.trainButton.disabled = false;
    }
  }

  private async update(): Promise<void> {
    if (!this.trained) return;
    const seq = ++this.seq;
    const text = this.text();
    try {
      const e = await this.engine.explainBaseline(text);
      if (seq !== this.seq) return;
      this.tokens.replaceChildren(
        el('span', { textContent: `P(positive) = ${e.probability.toFixed(3)} · ` }),
        ...contributionSpans(e),
      );
      this.tokens.dataset.probability = String(e.probability);
      const listed = [...e.ngrams]
        .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
        .slice(0, LISTED_NGRAMS);
      this.ngrams.replaceChildren(
        ...listed.map((n) => el('li', { textContent: `“${n.ngram}” ${signed(n.contribution)}` })),
      );
      this.element.dataset.state = 'explained';
    } catch (error) {
      if (seq === this.seq) this.error.textContent = error instanceof Error ? error.message : String(error);
    }
  }
}
