// A small heatmap rendered as an HTML table: every cell shows its value, carries it in its
// accessible name, and is coloured on a viridis scale with a legend. A table (rather than a
// canvas) keeps the numbers readable, selectable and available to screen readers; large maps
// in later views paint a canvas instead.
import { rgb, textColourOn, viridis, viridisGradient } from './palette';

export interface HeatmapData {
  values: ArrayLike<number>; // row-major, rows × cols
  rows: number;
  cols: number;
  rowLabels: string[];
  colLabels: string[];
  /** Fixed colour range (e.g. [0, 1] for probabilities); default: the data's min and max. */
  range?: [number, number];
}

export interface Heatmap {
  readonly element: HTMLElement;
  update(data: HeatmapData): void;
}

export function formatValue(x: number): string {
  if (x === 0) return '0';
  const abs = Math.abs(x);
  if (abs >= 1000 || abs < 0.001) return x.toExponential(2);
  return x.toFixed(abs >= 100 ? 1 : abs >= 10 ? 2 : 3);
}

export function createHeatmap(title: string, testId: string): Heatmap {
  const element = document.createElement('figure');
  element.className = 'heatmap';
  element.dataset.testid = testId;
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  const table = document.createElement('table');
  table.setAttribute('aria-label', title);
  const legend = document.createElement('div');
  legend.className = 'legend';
  legend.setAttribute('aria-hidden', 'true');
  const legendMin = document.createElement('span');
  const legendBar = document.createElement('span');
  legendBar.className = 'legend-bar';
  legendBar.style.background = viridisGradient();
  const legendMax = document.createElement('span');
  legend.append(legendMin, legendBar, legendMax);
  element.append(caption, table, legend);

  function update(data: HeatmapData): void {
    let lo = data.range?.[0] ?? Infinity;
    let hi = data.range?.[1] ?? -Infinity;
    if (!data.range) {
      for (let i = 0; i < data.values.length; i++) {
        lo = Math.min(lo, data.values[i]);
        hi = Math.max(hi, data.values[i]);
      }
    }
    const span = hi - lo;
    legendMin.textContent = formatValue(lo);
    legendMax.textContent = formatValue(hi);

    const head = document.createElement('thead');
    const headRow = head.insertRow();
    const corner = document.createElement('th');
    corner.setAttribute('aria-hidden', 'true');
    headRow.append(corner);
    for (const label of data.colLabels) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = label;
      headRow.append(th);
    }
    const body = document.createElement('tbody');
    for (let r = 0; r < data.rows; r++) {
      const row = body.insertRow();
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = data.rowLabels[r] ?? '';
      row.append(th);
      for (let c = 0; c < data.cols; c++) {
        const value = data.values[r * data.cols + c];
        const colour = viridis(span > 0 ? (value - lo) / span : 0.5);
        const cell = row.insertCell();
        cell.textContent = formatValue(value);
        cell.dataset.value = String(value);
        cell.style.background = rgb(colour);
        cell.style.color = textColourOn(colour);
        cell.title = `${data.rowLabels[r] ?? ''} ${data.colLabels[c] ?? ''}: ${value}`;
      }
    }
    table.replaceChildren(head, body);
  }

  return { element, update };
}
