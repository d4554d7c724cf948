// The Transformer view's self-attention maps: one row per layer, its heads side by side as small
// multiples (colours only, on the fixed 0–1 scale, so heads compare at a glance) and the layer's
// head average last. Hovering or focusing a cell writes its numbers under its map: for one head
// the score q·k/√d, the softmax numerator and denominator over the visible keys, and the weight.
import type { TransformerInspection } from '../../../generated/attn_engine.mjs';
import { el, viewPart } from '../dom';
import { formatValue } from '../format';
import { createHeatmap, type Heatmap } from '../heatmap';
import { formulaList } from '../math';
import { softmaxLines } from '../softmax_numbers';

/** Cell (q, k) of head (l, h) in an [L × H × T × T] array (the weights unless `of` is given). */
export function at(r: TransformerInspection, l: number, h: number, q: number, k: number, of = r.attention): number {
  const t = r.tokens.length;
  return of[((l * r.heads + h) * t + q) * t + k];
}

/** The formulas of one head, for the side panel. */
export function headFormulas(): HTMLElement {
  return viewPart(
    el('h3', {}, 'How a head attends'),
    formulaList('tf-formulas', [
      [
        'Weights of each head (d = d_model / heads; M hides later keys under the causal mask)',
        '\\alpha = \\operatorname{softmax}\\left(\\frac{Q K^\\top}{\\sqrt{d}} + M\\right)',
      ],
      ['Its output', '\\operatorname{head} = \\alpha V'],
    ]),
  );
}

export class HeadsPanel {
  readonly element = el('div', { className: 'tf-grid', dataset: { testid: 'tf-grid' } });
  private maps: Heatmap[][] = []; // [L][H + 1]: heads then the layer's average
  private inspection: TransformerInspection | null = null;
  private causal = false;

  /** A new model's size: one row of H + 1 maps per layer. */
  reset(layers: number, heads: number): void {
    this.maps = [];
    this.inspection = null;
    this.element.replaceChildren();
    for (let l = 0; l < layers; l++) {
      const row: Heatmap[] = [];
      const maps = el('div', { className: 'tf-heads' });
      // One readout per layer, under its row of maps, with room kept for it: hovering a cell
      // never moves the maps.
      const readout = el('div', {
        className: 'cell-explain tf-readout',
        ariaLive: 'polite',
        dataset: { testid: `tf-layer-${l}-explain` },
      });
      for (let h = 0; h <= heads; h++) {
        const average = h === heads;
        const title = average ? `Layer ${l + 1}, mean of the ${heads} heads` : `Layer ${l + 1}, head ${h + 1}`;
        const map = createHeatmap(title, average ? `tf-avg-${l}` : `tf-head-${l}-${h}`, {
          explain: (q, k) => this.explainCell(l, average ? -1 : h, q, k),
          numbers: 'on-demand',
          readout,
        });
        row.push(map);
        maps.append(map.element);
      }
      this.maps.push(row);
      this.element.append(el('div', { className: 'tf-layer' }, el('h4', {}, `Layer ${l + 1}`), maps, readout));
    }
  }

  /** Draws every head and each layer's mean for an inspected sentence. */
  show(r: TransformerInspection, causal: boolean): void {
    this.inspection = r;
    this.causal = causal;
    const t = r.tokens.length;
    const labels = r.tokens;
    const map = (values: ArrayLike<number>) =>
      ({ values, rows: t, cols: t, rowLabels: labels, colLabels: labels, scale: 'probability' }) as const;
    for (let l = 0; l < r.layers; l++) {
      const average = new Float32Array(t * t);
      for (let h = 0; h < r.heads; h++) {
        const values = r.attention.subarray((l * r.heads + h) * t * t, (l * r.heads + h + 1) * t * t);
        for (let i = 0; i < t * t; i++) average[i] += values[i] / r.heads;
        this.maps[l][h].update(map(values));
      }
      this.maps[l][r.heads].update(map(average));
    }
  }

  /**
   * A cell's numbers: for one head the score q·k/√d the engine computed, the softmax numerator
   * and denominator over the keys the query may see, and the weight; for a layer average the mean
   * of the heads' weights. Every row sums to 1.
   */
  private explainCell(l: number, h: number, q: number, k: number): string[] | undefined {
    const r = this.inspection;
    if (!r) return undefined;
    const t = r.tokens.length;
    const lines = [
      `Query "${r.tokens[q]}" (position ${q}) → key "${r.tokens[k]}" (position ${k}), ` +
        (h < 0 ? `mean of the ${r.heads} heads of layer ${l + 1}:` : `layer ${l + 1}, head ${h + 1}:`),
    ];
    if (h < 0) {
      let value = 0;
      let rowSum = 0;
      for (let hh = 0; hh < r.heads; hh++) {
        value += at(r, l, hh, q, k) / r.heads;
        for (let kk = 0; kk < t; kk++) rowSum += at(r, l, hh, q, kk) / r.heads;
      }
      lines.push(`weight = mean over heads of α = ${formatValue(value)}; this row sums to ${rowSum.toFixed(4)}.`);
      return lines;
    }
    const d = r.headDim;
    const score = (kk: number) => at(r, l, h, q, kk, r.scores);
    const visible = (kk: number) => !this.causal || kk <= q;
    let rowSum = 0;
    for (let kk = 0; kk < t; kk++) rowSum += at(r, l, h, q, kk);
    if (!visible(k)) {
      lines.push(
        `s = q·k/√${d} = ${formatValue(score(k))}, but the causal mask hides keys after the query: α = 0. ` +
          `This row sums to ${rowSum.toFixed(4)}.`,
      );
      return lines;
    }
    const scores = Array.from({ length: t }, (_, kk) => score(kk));
    const visibleKeys = this.causal ? `the keys up to position ${q}` : `the ${t} keys`;
    lines.push(
      `q·k = ${formatValue(score(k) * Math.sqrt(d))}; s = q·k / √${d} = ${formatValue(score(k))}`,
      ...softmaxLines(scores, k, { visible, name: 'α', over: visibleKeys }),
      `engine: α = ${formatValue(at(r, l, h, q, k))}; this row sums to ${rowSum.toFixed(4)}.`,
    );
    return lines;
  }
}
