// A small SVG line chart for training curves: axes with rounded ticks, a legend, one path per
// series (colour AND dash pattern differ, so series stay apart without colour), an accessible
// data table behind a <details>, and CSV / SVG export. Long series are thinned for drawing
// (first and last point kept, bucket means between, at most MAX_DRAWN points); the CSV always has
// every point.
import { csvButton, download, fileStem } from '../export/export';
import { formatValue } from './heatmap';
import { el } from './dom';

const SVG_NS = 'http://www.w3.org/2000/svg';
const WIDTH = 520;
const HEIGHT = 240;
const MARGIN = { left: 56, right: 16, top: 16, bottom: 40 };
const MAX_DRAWN = 400;

/** Okabe–Ito colours (distinguishable with the common colour-vision deficiencies). */
export const SERIES_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
export const SERIES_DASHES = ['', '7 4', '2 3', '10 3 2 3'];

export interface ChartSeries {
  name: string;
  xs: ArrayLike<number>;
  ys: ArrayLike<number>;
  colour?: string;
  dash?: string;
}

export interface ChartOptions {
  title: string;
  testId: string;
  xLabel: string;
  yLabel: string;
  /** Fixed y range (e.g. [0, 1] for accuracy); default: the data's, padded. */
  yRange?: [number, number];
  /** The x axis starts at this value or below (0 for steps: one epoch's point is not alone on its axis). */
  xFrom?: number;
  /** x counts something (steps, epochs): its ticks are whole numbers (no 633.2). Default: whether every x is whole. */
  xInteger?: boolean;
}

export interface LineChart {
  readonly element: HTMLElement;
  update(series: ChartSeries[]): void;
  /** The series last shown (for exports and tests). */
  current(): ChartSeries[];
}

/**
 * About `count` round tick values covering [lo, hi] (steps of 1, 2 or 5 × 10^k); with `integer`
 * the step is at least 1, so a count's ticks are whole numbers.
 */
export function niceTicks(lo: number, hi: number, count = 5, integer = false): number[] {
  if (!(hi > lo)) return [lo];
  const raw = Math.max((hi - lo) / Math.max(1, count), integer ? 1 : 0);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** A tick value without trailing zeros (15, 0.2, 1e-5). */
export function tickLabel(t: number): string {
  return String(Number(t.toPrecision(6)));
}

/**
 * At most `max` points: the first and the last point as they are (a curve starts and ends where
 * its data does, and the data table's first row is the run's first step), the points between
 * replaced by the means of `max − 2` consecutive buckets.
 */
export function thin(xs: ArrayLike<number>, ys: ArrayLike<number>, max = MAX_DRAWN): [number[], number[]] {
  const n = Math.min(xs.length, ys.length);
  if (n <= max) return [Array.from(xs).slice(0, n), Array.from(ys).slice(0, n)];
  const ox: number[] = [xs[0]];
  const oy: number[] = [ys[0]];
  const inner = n - 2;
  const buckets = max - 2;
  for (let b = 0; b < buckets; b++) {
    const from = 1 + Math.floor((b * inner) / buckets);
    const to = 1 + Math.floor(((b + 1) * inner) / buckets);
    let sx = 0;
    let sy = 0;
    for (let i = from; i < to; i++) {
      sx += xs[i];
      sy += ys[i];
    }
    ox.push(sx / (to - from));
    oy.push(sy / (to - from));
  }
  ox.push(xs[n - 1]);
  oy.push(ys[n - 1]);
  return [ox, oy];
}

export function createLineChart(options: ChartOptions): LineChart {
  const element = el('figure', { className: 'line-chart', dataset: { testid: options.testId } });
  const caption = el('figcaption', {}, options.title);
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${options.title} (line chart; the data table below has the numbers)`);
  const legend = el('ul', { className: 'chart-legend' });
  const table = el('table', { className: 'chart-table' });
  const details = el('details', {}, el('summary', {}, 'Data table'), table);
  const svgButton = el('button', { type: 'button', textContent: 'Export SVG' });
  const csv = csvButton('Export CSV', `${fileStem(options.title)}.csv`, () => csvRows());
  element.append(caption, legend, svg, details, el('div', { className: 'export-buttons' }, csv, svgButton));

  const axes = document.createElementNS(SVG_NS, 'g');
  const plot = document.createElementNS(SVG_NS, 'g');
  svg.append(axes, plot);
  let drawnAxes = '';
  let drawnLegend = '';
  let series: ChartSeries[] = [];
  const styled = () =>
    series.map((s, i) => ({
      ...s,
      colour: s.colour ?? SERIES_COLOURS[i % SERIES_COLOURS.length],
      dash: s.dash ?? SERIES_DASHES[i % SERIES_DASHES.length],
    }));

  function csvRows(): (string | number)[][] {
    const rows: (string | number)[][] = [['series', options.xLabel, options.yLabel]];
    for (const s of series)
      for (let i = 0; i < Math.min(s.xs.length, s.ys.length); i++) rows.push([s.name, s.xs[i], s.ys[i]]);
    return rows;
  }

  svgButton.addEventListener('click', () => {
    const copy = svg.cloneNode(true) as SVGSVGElement;
    copy.setAttribute('xmlns', SVG_NS);
    copy.setAttribute('width', String(WIDTH));
    copy.setAttribute('height', String(HEIGHT + 24 * series.length));
    copy.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT + 24 * series.length}`);
    copy.setAttribute('font-family', 'system-ui, sans-serif');
    // Standalone: fixed colours on white instead of the page theme's currentColor.
    const background = document.createElementNS(SVG_NS, 'rect');
    for (const [k, v] of Object.entries({
      x: 0,
      y: 0,
      width: WIDTH,
      height: HEIGHT + 24 * series.length,
      fill: '#fff',
    }))
      background.setAttribute(k, String(v));
    copy.prepend(background);
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = options.title;
    copy.prepend(title);
    copy.querySelectorAll('[stroke="currentColor"]').forEach((n) => n.setAttribute('stroke', '#5b5f6b'));
    copy.querySelectorAll('[fill="currentColor"]').forEach((n) => n.setAttribute('fill', '#1b1c20'));
    styled().forEach((s, i) => {
      const y = HEIGHT + 16 + 24 * i;
      const line = document.createElementNS(SVG_NS, 'line');
      for (const [k, v] of Object.entries({
        x1: MARGIN.left,
        x2: MARGIN.left + 28,
        y1: y,
        y2: y,
        stroke: s.colour,
        'stroke-width': 2,
      }))
        line.setAttribute(k, String(v));
      if (s.dash) line.setAttribute('stroke-dasharray', s.dash);
      const text = document.createElementNS(SVG_NS, 'text');
      text.setAttribute('x', String(MARGIN.left + 36));
      text.setAttribute('y', String(y + 4));
      text.setAttribute('font-size', '12');
      text.textContent = s.name;
      copy.append(line, text);
    });
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
    download(new Blob([xml], { type: 'image/svg+xml' }), `${fileStem(options.title)}.svg`);
  });

  details.addEventListener('toggle', () => renderTable());

  function renderTable(): void {
    if (!details.open) return;
    const head = el(
      'thead',
      {},
      el('tr', {}, ...['Series', options.xLabel, options.yLabel].map((h) => el('th', { scope: 'col' }, h))),
    );
    const body = el('tbody');
    for (const s of series) {
      const [xs, ys] = thin(s.xs, s.ys, 100);
      for (let i = 0; i < xs.length; i++)
        body.append(
          el('tr', {}, el('td', {}, s.name), el('td', {}, formatValue(xs[i])), el('td', {}, formatValue(ys[i]))),
        );
    }
    table.replaceChildren(head, body);
  }

  function node(name: string, attrs: Record<string, string | number>, text?: string): SVGElement {
    const n = document.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function update(next: ChartSeries[]): void {
    series = next;
    const all = styled();
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    // x values that are all whole numbers count something: their ticks are whole too.
    let wholeXs = true;
    for (const s of all)
      for (let i = 0; i < Math.min(s.xs.length, s.ys.length); i++) {
        if (!Number.isFinite(s.ys[i])) continue;
        wholeXs &&= Number.isInteger(s.xs[i]);
        x0 = Math.min(x0, s.xs[i]);
        x1 = Math.max(x1, s.xs[i]);
        y0 = Math.min(y0, s.ys[i]);
        y1 = Math.max(y1, s.ys[i]);
      }
    const points = Number.isFinite(x0);
    element.dataset.points = String(all.reduce((n, s) => n + Math.min(s.xs.length, s.ys.length), 0));
    element.dataset.series = String(all.length);
    if (!points) [x0, x1, y0, y1] = [0, 1, 0, 1];
    if (options.yRange) [y0, y1] = options.yRange;
    if (options.xFrom !== undefined) x0 = Math.min(x0, options.xFrom);
    if (x1 === x0) x1 = x0 + 1;
    if (y1 === y0) [y0, y1] = [y0 - 0.5, y1 + 0.5];
    else if (!options.yRange) {
      const pad = 0.05 * (y1 - y0);
      [y0, y1] = [y0 - pad, y1 + pad];
    }
    const px = (x: number) => MARGIN.left + ((x - x0) / (x1 - x0)) * (WIDTH - MARGIN.left - MARGIN.right);
    const py = (y: number) => HEIGHT - MARGIN.bottom - ((y - y0) / (y1 - y0)) * (HEIGHT - MARGIN.top - MARGIN.bottom);
    // Axes, tick labels and the legend are rebuilt only when they change (SVG text is the costly
    // part to lay out); the plotted paths and points, which move every update, are replaced.
    const bottom = HEIGHT - MARGIN.bottom;
    const xTicks = niceTicks(x0, x1, 6, options.xInteger ?? (points && wholeXs));
    const yTicks = niceTicks(y0, y1, 5);
    const axesKey = [x0, x1, y0, y1, xTicks.join(), yTicks.join()].join('|');
    if (axesKey !== drawnAxes) {
      drawnAxes = axesKey;
      const axisNodes: SVGElement[] = [
        node('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: bottom, y2: bottom, stroke: 'currentColor' }),
        node('line', { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: bottom, stroke: 'currentColor' }),
      ];
      for (const t of xTicks) {
        axisNodes.push(
          node('line', { x1: px(t), x2: px(t), y1: bottom, y2: bottom + 4, stroke: 'currentColor' }),
          node(
            'text',
            { x: px(t), y: bottom + 16, 'font-size': 11, 'text-anchor': 'middle', fill: 'currentColor' },
            tickLabel(t),
          ),
        );
      }
      for (const t of yTicks) {
        axisNodes.push(
          node('line', {
            x1: MARGIN.left - 4,
            x2: WIDTH - MARGIN.right,
            y1: py(t),
            y2: py(t),
            stroke: 'currentColor',
            'stroke-opacity': 0.15,
          }),
          node(
            'text',
            { x: MARGIN.left - 6, y: py(t) + 4, 'font-size': 11, 'text-anchor': 'end', fill: 'currentColor' },
            tickLabel(t),
          ),
        );
      }
      axisNodes.push(
        node(
          'text',
          {
            x: (MARGIN.left + WIDTH - MARGIN.right) / 2,
            y: HEIGHT - 6,
            'font-size': 12,
            'text-anchor': 'middle',
            fill: 'currentColor',
          },
          options.xLabel,
        ),
        node(
          'text',
          {
            x: 14,
            y: (MARGIN.top + bottom) / 2,
            'font-size': 12,
            'text-anchor': 'middle',
            fill: 'currentColor',
            transform: `rotate(-90 14 ${(MARGIN.top + bottom) / 2})`,
          },
          options.yLabel,
        ),
      );
      axes.replaceChildren(...axisNodes);
    }
    const plotted: SVGElement[] = [];
    for (const s of all) {
      const [xs, ys] = thin(s.xs, s.ys);
      let d = '';
      for (let i = 0; i < xs.length; i++) {
        if (!Number.isFinite(ys[i])) continue;
        d += `${d ? 'L' : 'M'}${px(xs[i]).toFixed(1)},${py(Math.min(y1, Math.max(y0, ys[i]))).toFixed(1)}`;
      }
      const path = node('path', { d, fill: 'none', stroke: s.colour, 'stroke-width': 2, class: 'series' });
      if (s.dash) path.setAttribute('stroke-dasharray', s.dash);
      path.dataset.name = s.name;
      plotted.push(path);
      // A lone point (one epoch so far) is invisible as a path: mark every point when there are few.
      if (xs.length <= 30)
        for (let i = 0; i < xs.length; i++)
          if (Number.isFinite(ys[i]))
            plotted.push(node('circle', { cx: px(xs[i]), cy: py(ys[i]), r: 2.5, fill: s.colour }));
    }
    plot.replaceChildren(...plotted);
    const legendKey = JSON.stringify(all.map((s) => [s.name, s.colour, s.dash]));
    if (legendKey !== drawnLegend) {
      drawnLegend = legendKey;
      legend.replaceChildren(
        ...all.map((s) => {
          const sample = document.createElementNS(SVG_NS, 'svg');
          sample.setAttribute('width', '28');
          sample.setAttribute('height', '10');
          sample.setAttribute('aria-hidden', 'true');
          const line = node('line', { x1: 0, x2: 28, y1: 5, y2: 5, stroke: s.colour, 'stroke-width': 2 });
          if (s.dash) line.setAttribute('stroke-dasharray', s.dash);
          sample.append(line);
          return el('li', {}, sample, ` ${s.name}`);
        }),
      );
    }
    renderTable();
  }

  update([]);
  return { element, update, current: () => series };
}
