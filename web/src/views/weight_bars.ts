// Attention weights as bars, one per key, whose heights follow each new snapshot smoothly: a
// bar's height is a scaleY transform with a CSS transition (styles/widgets.css `.weight-bar`), so the
// compositor interpolates it without layout or main-thread work; with prefers-reduced-motion the
// bar jumps. Each bar's label and value are text (the bar itself is decoration).
import { el } from './dom';
import { formatValue } from './heatmap';

export interface WeightBars {
  readonly element: HTMLElement;
  /** Shows `weights` (each in [0, 1]) under `labels`; same length keeps the bars (and animates). */
  update(weights: ArrayLike<number>, labels: readonly string[]): void;
}

export function createWeightBars(caption: string, testId: string): WeightBars {
  const list = el('ol', { className: 'weight-bars' });
  const element = el('figure', { className: 'weight-bars-figure', dataset: { testid: testId } }, list);
  element.prepend(el('figcaption', {}, caption));
  let bars: { bar: HTMLElement; label: HTMLElement; value: HTMLElement }[] = [];
  return {
    element,
    update(weights, labels) {
      if (bars.length !== weights.length) {
        bars = Array.from({ length: weights.length }, () => ({
          bar: el('span', { className: 'weight-bar' }),
          label: el('span', { className: 'weight-bar-label' }),
          value: el('span', { className: 'weight-bar-value' }),
        }));
        list.replaceChildren(
          ...bars.map(({ bar, label, value }) =>
            el('li', {}, value, el('span', { className: 'weight-bar-track', ariaHidden: 'true' }, bar), label),
          ),
        );
      }
      bars.forEach(({ bar, label, value }, i) => {
        const w = Math.min(1, Math.max(0, weights[i]));
        bar.style.transform = `scaleY(${w.toFixed(4)})`;
        bar.dataset.weight = String(weights[i]);
        label.textContent = labels[i] ?? '';
        value.textContent = formatValue(weights[i]);
      });
    },
  };
}
