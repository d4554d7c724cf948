// Client-side export of heatmaps (PNG, SVG) and tables (CSV), for every view. Nothing leaves the
// page: files are built here and handed to the browser as blob: URLs.
//
// The PNG and the SVG share one layout (heatmapLayout), so both show the same picture: a title,
// column labels, row labels, one square per value on the map's own colour scale (heatmap_data.ts,
// as on screen) and a legend bar with the (first) scale's ends. The SVG marks each value's square with class "cell" (one per value) and stores the
// value in data-value, so an exported file can be read back.
import { cellColours, formatValue, mapScales, valueRange, type HeatmapData } from '../views/heatmap_data';
import { rgb, textColourOn } from '../views/palette';

const SVG_NS = 'http://www.w3.org/2000/svg';
export const LEGEND_STEPS = 32;

export interface HeatmapLayout {
  width: number;
  height: number;
  cell: number;
  left: number; // x of the first column
  top: number; // y of the first row
  legendTop: number;
}

/** Geometry in CSS pixels; the PNG is drawn at `scale` device pixels per CSS pixel. */
export function heatmapLayout(data: Pick<HeatmapData, 'rows' | 'cols'>): HeatmapLayout {
  const cell = 48;
  const left = 64;
  const top = 56;
  const gridHeight = data.rows * cell;
  const width = Math.max(left + data.cols * cell + 16, 280);
  return { width, height: top + gridHeight + 52, cell, left, top, legendTop: top + gridHeight + 16 };
}

/** Colour at t in [0, 1] along the legend bar of the map's first scale. */
function legendColour(data: HeatmapData, t: number): [number, number, number] {
  const scale = mapScales(data)[0].scale;
  return scale.colour(scale.range[0] + t * (scale.range[1] - scale.range[0]));
}

/** A standalone SVG document (as text). All labels are set as text nodes, never parsed as markup. */
export function heatmapSvg(data: HeatmapData, title: string): string {
  const layout = heatmapLayout(data);
  const range = valueRange(data);
  const colours = cellColours(data);
  const svg = document.createElementNS(SVG_NS, 'svg');
  const set = (node: Element, attrs: Record<string, string | number>) => {
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const add = (name: string, attrs: Record<string, string | number>, text?: string) => {
    const node = set(document.createElementNS(SVG_NS, name), attrs);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  set(svg, {
    xmlns: SVG_NS,
    width: layout.width,
    height: layout.height,
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    'font-family': 'system-ui, sans-serif',
  });
  add('title', {}, title);
  add('rect', { x: 0, y: 0, width: layout.width, height: layout.height, fill: '#ffffff', class: 'background' });
  add('text', { x: 8, y: 22, 'font-size': 14, 'font-weight': 600, fill: '#1b1c20' }, title);
  data.colLabels.forEach((label, c) =>
    add(
      'text',
      {
        x: layout.left + (c + 0.5) * layout.cell,
        y: layout.top - 8,
        'font-size': 12,
        'text-anchor': 'middle',
        fill: '#5b5f6b',
      },
      label,
    ),
  );
  for (let r = 0; r < data.rows; r++) {
    const y = layout.top + r * layout.cell;
    add(
      'text',
      { x: layout.left - 8, y: y + layout.cell / 2 + 4, 'font-size': 12, 'text-anchor': 'end', fill: '#5b5f6b' },
      data.rowLabels[r] ?? '',
    );
    for (let c = 0; c < data.cols; c++) {
      const value = data.values[r * data.cols + c];
      const colour = colours[r * data.cols + c];
      const x = layout.left + c * layout.cell;
      add('rect', {
        x,
        y,
        width: layout.cell,
        height: layout.cell,
        fill: rgb(colour),
        class: 'cell',
        'data-value': value,
      });
      add(
        'text',
        {
          x: x + layout.cell / 2,
          y: y + layout.cell / 2 + 4,
          'font-size': 11,
          'text-anchor': 'middle',
          fill: textColourOn(colour),
        },
        formatValue(value),
      );
    }
  }
  const barWidth = Math.min(200, layout.width - layout.left - 80);
  for (let i = 0; i < LEGEND_STEPS; i++) {
    add('rect', {
      x: layout.left + (i * barWidth) / LEGEND_STEPS,
      y: layout.legendTop,
      width: barWidth / LEGEND_STEPS + 0.5,
      height: 10,
      fill: rgb(legendColour(data, i / (LEGEND_STEPS - 1))),
      class: 'legend',
    });
  }
  add(
    'text',
    { x: layout.left - 8, y: layout.legendTop + 9, 'font-size': 11, 'text-anchor': 'end', fill: '#5b5f6b' },
    formatValue(range[0]),
  );
  add(
    'text',
    { x: layout.left + barWidth + 8, y: layout.legendTop + 9, 'font-size': 11, fill: '#5b5f6b' },
    formatValue(range[1]),
  );
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg);
}

/** The same picture as heatmapSvg, painted on a canvas and encoded as PNG. */
export function heatmapPng(data: HeatmapData, title: string, scale = 2): Promise<Blob> {
  const layout = heatmapLayout(data);
  const range = valueRange(data);
  const colours = cellColours(data);
  const canvas = document.createElement('canvas');
  canvas.width = layout.width * scale;
  canvas.height = layout.height * scale;
  const g = canvas.getContext('2d');
  if (!g) return Promise.reject(new Error('this browser cannot draw on a canvas'));
  g.scale(scale, scale);
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, layout.width, layout.height);
  g.textBaseline = 'alphabetic';
  g.fillStyle = '#1b1c20';
  g.font = '600 14px system-ui, sans-serif';
  g.textAlign = 'left';
  g.fillText(title, 8, 22);
  g.font = '12px system-ui, sans-serif';
  g.fillStyle = '#5b5f6b';
  g.textAlign = 'center';
  data.colLabels.forEach((label, c) => g.fillText(label, layout.left + (c + 0.5) * layout.cell, layout.top - 8));
  for (let r = 0; r < data.rows; r++) {
    const y = layout.top + r * layout.cell;
    g.font = '12px system-ui, sans-serif';
    g.fillStyle = '#5b5f6b';
    g.textAlign = 'right';
    g.fillText(data.rowLabels[r] ?? '', layout.left - 8, y + layout.cell / 2 + 4);
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'center';
    for (let c = 0; c < data.cols; c++) {
      const value = data.values[r * data.cols + c];
      const colour = colours[r * data.cols + c];
      const x = layout.left + c * layout.cell;
      g.fillStyle = rgb(colour);
      g.fillRect(x, y, layout.cell, layout.cell);
      g.fillStyle = textColourOn(colour);
      g.fillText(formatValue(value), x + layout.cell / 2, y + layout.cell / 2 + 4);
    }
  }
  const barWidth = Math.min(200, layout.width - layout.left - 80);
  const gradient = g.createLinearGradient(layout.left, 0, layout.left + barWidth, 0);
  for (let i = 0; i < LEGEND_STEPS; i++)
    gradient.addColorStop(i / (LEGEND_STEPS - 1), rgb(legendColour(data, i / (LEGEND_STEPS - 1))));
  g.fillStyle = gradient;
  g.fillRect(layout.left, layout.legendTop, barWidth, 10);
  g.font = '11px system-ui, sans-serif';
  g.fillStyle = '#5b5f6b';
  g.textAlign = 'right';
  g.fillText(formatValue(range[0]), layout.left - 8, layout.legendTop + 9);
  g.textAlign = 'left';
  g.fillText(formatValue(range[1]), layout.left + barWidth + 8, layout.legendTop + 9);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be encoded'))), 'image/png'),
  );
}

/** RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  const field = (x: string | number) => {
    const text = typeof x === 'number' ? String(x) : x;
    // A leading = + - @ would be read as a formula by spreadsheets: prefix text cells with '.
    const safe = typeof x === 'string' && /^[=+\-@]/.test(text) ? `'${text}` : text;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** A heatmap as a table: a header row of column labels, then one row per row label. */
export function heatmapCsv(data: HeatmapData): string {
  const rows: (string | number)[][] = [['', ...data.colLabels]];
  for (let r = 0; r < data.rows; r++) {
    const row: (string | number)[] = [data.rowLabels[r] ?? ''];
    for (let c = 0; c < data.cols; c++) row.push(data.values[r * data.cols + c]);
    rows.push(row);
  }
  return toCsv(rows);
}

/** Makes the browser save `blob` as `filename`. */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the time the click handler returns; revoking later is safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from a title: lower case, letters, digits and dashes. */
export function fileStem(title: string): string {
  const stem = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return stem || 'heatmap';
}

export async function exportHeatmap(data: HeatmapData, title: string, format: 'png' | 'svg' | 'csv'): Promise<void> {
  const stem = fileStem(title);
  if (format === 'png') download(await heatmapPng(data, title), `${stem}.png`);
  else if (format === 'svg') download(new Blob([heatmapSvg(data, title)], { type: 'image/svg+xml' }), `${stem}.svg`);
  else download(new Blob([heatmapCsv(data)], { type: 'text/csv' }), `${stem}.csv`);
}

/** Buttons "PNG", "SVG", "CSV" that export whatever `current()` returns at click time. */
export function exportButtons(title: string, current: () => HeatmapData | undefined): HTMLElement {
  const bar = document.createElement('div');
  bar.className = 'export-bar';
  for (const format of ['png', 'svg', 'csv'] as const) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = format.toUpperCase();
    button.setAttribute('aria-label', `Export “${title}” as ${format.toUpperCase()}`);
    button.dataset.export = format;
    button.addEventListener('click', () => {
      const data = current();
      if (data) void exportHeatmap(data, title, format);
    });
    bar.append(button);
  }
  return bar;
}

/** A "CSV" button for any table of numbers (metrics, histories). */
export function csvButton(label: string, filename: string, rows: () => (string | number)[][]): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = label;
  button.dataset.export = 'csv';
  button.addEventListener('click', () => download(new Blob([toCsv(rows())], { type: 'text/csv' }), filename));
  return button;
}
