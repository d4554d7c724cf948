// The input under the Seq2seq view's decoder: each step tints its characters by that step's
// attention and slides a highlight (a transform, animated by CSS — styles/widgets.css `.s2s-focus`;
// reduced motion: it jumps) to the character attended most.
import { el } from '../dom';
import { formatValue } from '../format';
import { shown } from './tasks';

export class SourceAttention {
  readonly element = el('div', {
    className: 's2s-source',
    role: 'group',
    hidden: true,
    dataset: { testid: 's2s-source' },
  });
  private readonly focus = el('span', { className: 's2s-focus', ariaHidden: 'true', hidden: true });
  private tokens: HTMLElement[] = [];

  /** A new decode's input tokens, untinted; shown only when the model has attention (`visible`). */
  setTokens(tokens: readonly string[], visible: boolean): void {
    this.tokens = tokens.map((token) => el('span', { className: 'token' }, shown(token)));
    this.element.replaceChildren(this.focus, ...this.tokens);
    this.element.hidden = !visible;
  }

  /** Tints the input by step `step`'s attention (none: step 0) and moves the highlight to its peak. */
  show(weights: Float32Array | null, step: number): void {
    let peak = -1;
    this.tokens.forEach((span, j) => {
      const w = weights ? weights[j] : 0;
      span.style.setProperty('--weight', Math.min(1, w).toFixed(3));
      span.title = weights ? `attention ${formatValue(w)}` : '';
      if (weights && (peak < 0 || w > weights[peak])) peak = j;
    });
    this.element.setAttribute('aria-label', weights ? `Attention of step ${step} over the input` : 'The input');
    const appearing = this.focus.hidden;
    this.focus.hidden = peak < 0;
    if (peak < 0) {
      delete this.element.dataset.focus;
      return;
    }
    const target = this.tokens[peak];
    this.element.dataset.focus = String(peak);
    this.focus.style.height = `${target.offsetHeight}px`;
    // A highlight that was hidden appears at its first peak; it glides only from one peak to the next.
    if (appearing) this.focus.style.transition = 'none';
    this.focus.style.transform = `translate(${target.offsetLeft}px, ${target.offsetTop}px) scaleX(${target.offsetWidth})`;
    if (appearing) {
      void this.focus.offsetWidth; // commits the placement before transitions come back
      this.focus.style.transition = '';
    }
  }
}
