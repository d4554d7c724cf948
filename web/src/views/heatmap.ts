// A heatmap rendered as an HTML table whose cells are painted from a precomputed palette
// (heatmap_data.ts picks the scale: fixed 0–1 for probabilities, diverging and centred at 0 for
// signed values and differences, stretched only where it says so in the legend). A small map
// writes its value in every cell; a large one (`numbers: 'on-demand'`) draws colours only and
// gives the value on hover or focus, so that a map reads as a picture rather than a wall of
// numbers. Either way every cell carries its value in its accessible name.
//
// The table is a keyboard grid with one tab stop (roving tabindex): arrow keys, Home and End move
// between cells. Hovering or focusing a cell writes its explanation (by default "row, column:
// value"; views pass `explain` for the formula with the numbers) into a live region under the map.
// Every map carries PNG/SVG/CSV export buttons unless `exportable` is false.
import { exportButtons } from '../export/export';
import './heatmap.css';
import {
  cellColours,
  describeScale,
  formatValue,
  mapScales,
  valueRange,
  type ColourScale,
  type HeatmapData,
  type ScaleKind,
} from './heatmap_data';
import { divergingGradient, rgb, textColourOn, viridisGradient } from './palette';

export { formatValue, valueRange, type HeatmapData, type ScaleKind };

export interface HeatmapOptions {
  /** Lines explaining cell (row, col) of the current data; undefined: the default line. */
  explain?: (row: number, col: number) => string[] | undefined;
  exportable?: boolean;
  /** 'always' (default): each cell shows its value; 'on-demand': colours only, the value of the
   *  hovered or focused cell is written under the map. */
  numbers?: 'always' | 'on-demand';
  /** Columns share the map's width (down to a sliver each) so that a long map fits its panel
   *  instead of scrolling; for on-demand maps. */
  fit?: boolean;
  /** Where hovered or focused cells are explained (an aria-live element shared by several maps,
   *  e.g. small multiples side by side); default: a readout under this map. */
  readout?: HTMLElement;
}

export interface Heatmap {
  readonly element: HTMLElement;
  update(data: HeatmapData): void;
  /** The data last shown (for exports and tests). */
  current(): HeatmapData | undefined;
}

function shapeKey(data: HeatmapData): string {
  return JSON.stringify([data.rows, data.cols, data.rowLabels, data.colLabels]);
}

function paintCell(
  cell: HTMLTableCellElement,
  data: HeatmapData,
  index: number,
  colour: [number, number, number],
  numbers: boolean,
): void {
  const value = data.values[index];
  const text = formatValue(value);
  if (numbers) {
    if (cell.textContent !== text) cell.textContent = text;
  } else if (cell.getAttribute('aria-label') !== text) cell.setAttribute('aria-label', text);
  cell.dataset.value = String(value);
  cell.style.background = rgb(colour);
  cell.style.color = textColourOn(colour);
}

/** One legend line per scale: what the colours mean, the range's ends, and the rows it covers. */
function legendLine(scale: ColourScale, rows: string | null): HTMLElement {
  const line = document.createElement('div');
  line.className = 'legend';
  line.dataset.scale = scale.kind;
  if (scale.stretched) line.dataset.stretched = '';
  const lo = document.createElement('span');
  lo.textContent = formatValue(scale.range[0]);
  const bar = document.createElement('span');
  bar.className = 'legend-bar';
  bar.style.background = scale.diverging ? divergingGradient() : viridisGradient();
  bar.setAttribute('aria-hidden', 'true');
  const hi = document.createElement('span');
  hi.textContent = formatValue(scale.range[1]);
  const note = document.createElement('span');
  note.className = 'legend-note';
  note.textContent = `${rows ? `${rows}: ` : ''}${describeScale(scale)}`;
  if (scale.kind === 'ids') line.append(note);
  else line.append(lo, bar, hi, note);
  return line;
}

export function createHeatmap(title: string, testId: string, options: HeatmapOptions = {}): Heatmap {
  const element = document.createElement('figure');
  element.className = 'heatmap';
  element.dataset.testid = testId;
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  const table = document.createElement('table');
  table.setAttribute('aria-label', title);
  table.setAttribute('role', 'grid');
  const numbers = options.numbers !== 'on-demand';
  if (!numbers) element.classList.add('heatmap-compact');
  if (options.fit) element.classList.add('heatmap-fit');
  const legend = document.createElement('div');
  legend.className = 'legends';
  legend.dataset.testid = `${testId}-legend`;
  const explanation = options.readout ?? document.createElement('div');
  if (!options.readout) {
    explanation.className = 'cell-explain';
    explanation.dataset.testid = `${testId}-explain`;
    explanation.setAttribute('aria-live', 'polite');
  }
  element.append(caption, table, legend);
  if (!options.readout) element.append(explanation);

  let data: HeatmapData | undefined;
  let cells: HTMLTableCellElement[] = [];
  let focusIndex = 0;

  if (options.exportable !== false) element.append(exportButtons(title, () => data));

  function explain(index: number): void {
    if (!data) return;
    const r = Math.floor(index / data.cols);
    const c = index % data.cols;
    const lines = options.explain?.(r, c) ?? [
      `${data.rowLabels[r] ?? ''}, ${data.colLabels[c] ?? ''}: ${formatValue(data.values[index])}`,
    ];
    explanation.replaceChildren(
      ...lines.map((line) => {
        const p = document.createElement('p');
        p.textContent = line;
        return p;
      }),
    );
    element.dataset.explained = `${r},${c}`;
  }

  function moveFocus(index: number): void {
    if (!cells[index]) return;
    cells[focusIndex]?.setAttribute('tabindex', '-1');
    focusIndex = index;
    cells[index].setAttribute('tabindex', '0');
    cells[index].focus();
  }

  table.addEventListener('keydown', (event) => {
    if (!data || !(event.target instanceof HTMLTableCellElement)) return;
    const r = Math.floor(focusIndex / data.cols);
    const c = focusIndex % data.cols;
    const target: Record<string, [number, number]> = {
      ArrowLeft: [r, c - 1],
      ArrowRight: [r, c + 1],
      ArrowUp: [r - 1, c],
      ArrowDown: [r + 1, c],
      Home: [event.ctrlKey ? 0 : r, 0],
      End: [event.ctrlKey ? data.rows - 1 : r, data.cols - 1],
    };
    const next = target[event.key];
    if (!next) return;
    event.preventDefault();
    const [nr, nc] = next;
    if (nr >= 0 && nr < data.rows && nc >= 0 && nc < data.cols) moveFocus(nr * data.cols + nc);
  });
  table.addEventListener('focusin', (event) => {
    const index = cells.indexOf(event.target as HTMLTableCellElement);
    if (index >= 0) {
      focusIndex = index;
      explain(index);
    }
  });
  table.addEventListener('mouseover', (event) => {
    const cell = (event.target as Element).closest?.('td');
    const index = cell ? cells.indexOf(cell as HTMLTableCellElement) : -1;
    if (index >= 0) explain(index);
  });

  let shape = '';
  let legendKey = '';
  function update(next: HeatmapData): void {
    const hadFocus = table.contains(document.activeElement);
    data = next;
    element.style.setProperty('--cols', String(next.cols));
    const scales = mapScales(next);
    const colours = cellColours(next);
    const key = JSON.stringify(scales.map(({ scale, rows }) => [scale.kind, scale.range, rows]));
    if (legendKey !== key) {
      legendKey = key;
      legend.replaceChildren(
        ...scales.map(({ scale, rows }) =>
          legendLine(scale, scales.length > 1 ? rows.map((r) => next.rowLabels[r] || `row ${r + 1}`).join(', ') : null),
        ),
      );
    }
    const colour = (index: number) => colours[index];
    // Same shape and labels as the map on screen (a live run, a scrubbed timeline): the cells are
    // updated in place, which keeps the layout and the keyboard focus where they are.
    if (shape === shapeKey(next)) {
      cells.forEach((cell, i) => paintCell(cell, next, i, colour(i), numbers));
    } else {
      shape = shapeKey(next);
      const head = document.createElement('thead');
      const headRow = head.insertRow();
      // The corner cell names the axes for screen readers (an empty header cell says nothing).
      const corner = document.createElement('th');
      const cornerText = document.createElement('span');
      cornerText.className = 'visually-hidden';
      cornerText.textContent = 'row \\ column';
      corner.append(cornerText);
      headRow.append(corner);
      for (const label of next.colLabels) {
        const th = document.createElement('th');
        th.scope = 'col';
        // A compact map turns its column labels on their side (heatmap.css): a span, so the turned
        // text does not size the column; the header row is as tall as the longest label.
        if (numbers) th.textContent = label;
        else th.append(Object.assign(document.createElement('span'), { className: 'col-label', textContent: label }));
        headRow.append(th);
      }
      const longest = Math.max(1, ...next.colLabels.map((label) => label.length));
      element.style.setProperty('--label-length', String(longest));
      const body = document.createElement('tbody');
      cells = [];
      if (focusIndex >= next.rows * next.cols) focusIndex = 0;
      for (let r = 0; r < next.rows; r++) {
        const row = body.insertRow();
        const th = document.createElement('th');
        th.scope = 'row';
        const label = next.rowLabels[r] ?? '';
        if (label) th.textContent = label;
        else
          th.append(
            Object.assign(document.createElement('span'), {
              className: 'visually-hidden',
              textContent: `row ${r + 1}`,
            }),
          );
        row.append(th);
        for (let c = 0; c < next.cols; c++) {
          const cell = row.insertCell();
          cell.setAttribute('role', 'gridcell');
          cell.tabIndex = cells.length === focusIndex ? 0 : -1;
          paintCell(cell, next, cells.length, colour(cells.length), numbers);
          cells.push(cell);
        }
      }
      table.replaceChildren(head, body);
    }
    if (hadFocus) cells[focusIndex]?.focus();
    if (element.dataset.explained) {
      const [r, c] = element.dataset.explained.split(',').map(Number);
      if (r < next.rows && c < next.cols) explain(r * next.cols + c);
      else {
        explanation.replaceChildren();
        delete element.dataset.explained;
      }
    }
  }

  return { element, update, current: () => data };
}
