// The Transformer view's token-to-token line view of one chosen head: queries joined to keys by
// lines whose opacity is the weight (views/link_view.ts).
import type { TransformerInspection } from '../../../generated/attn_engine.mjs';
import { el, viewPart } from '../dom';
import { createLinkView } from '../link_view';

export class LinesPanel {
  private readonly layer = el('select', { id: 'tf-line-layer' });
  private readonly head = el('select', { id: 'tf-line-head' });
  private readonly view = createLinkView('Token to token', 'tf-lines', { threshold: 0.01 });
  private inspection: TransformerInspection | null = null;
  readonly element = viewPart(
    el('h3', {}, 'Token to token'),
    el(
      'div',
      { className: 'decode-controls' },
      el('label', { htmlFor: 'tf-line-layer' }, 'Layer '),
      this.layer,
      el('label', { htmlFor: 'tf-line-head' }, 'Head '),
      this.head,
    ),
    this.view.element,
  );

  /** `onChange`: the chosen layer or head changed (the view saves them in the URL). */
  constructor(onChange: () => void) {
    for (const select of [this.layer, this.head])
      select.addEventListener('change', () => {
        this.render();
        onChange();
      });
    this.view.setVisible(false);
  }

  /** The chosen layer and head (0-based), as the URL stores them. */
  choice(): { layer: string; head: string } {
    return { layer: this.layer.value || '0', head: this.head.value || '0' };
  }

  /** Chooses a layer and head if the model has them. */
  choose(layer: number, head: number): void {
    if (layer < this.layer.options.length) this.layer.value = String(layer);
    if (head < this.head.options.length) this.head.value = String(head);
  }

  /** A new model's size: the layers and heads to choose from. */
  reset(layers: number, heads: number): void {
    const options = (n: number) =>
      Array.from({ length: n }, (_, i) => el('option', { value: String(i), textContent: String(i + 1) }));
    this.layer.replaceChildren(...options(layers));
    this.head.replaceChildren(...options(heads));
  }

  show(r: TransformerInspection): void {
    this.inspection = r;
    this.render();
  }

  private render(): void {
    const r = this.inspection;
    if (!r) return;
    const l = Math.min(Number(this.layer.value) || 0, r.layers - 1);
    const h = Math.min(Number(this.head.value) || 0, r.heads - 1);
    const t = r.tokens.length;
    this.view.element.dataset.head = `${l},${h}`;
    this.view.setVisible(true);
    this.view.update({
      values: r.attention.subarray((l * r.heads + h) * t * t, (l * r.heads + h + 1) * t * t),
      rows: t,
      cols: t,
      rowLabels: r.tokens,
      colLabels: r.tokens,
    });
  }
}
