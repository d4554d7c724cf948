// The Seq2seq view's held-out exact match by input length: a table for the last run and a chart
// with one line per attention (the latest run of each) for the chosen task, so that training the
// same task with and without attention shows where the fixed-length context gives out.
import { createLineChart } from '../chart';
import { el } from '../dom';
import { percent } from '../format';

type LengthRow = { sourceLength: number; count: number; exact: number };

export class LengthPanel {
  private readonly table = el('table', { className: 's2s-by-length', hidden: true });
  private readonly results = new Map<string, Map<string, LengthRow[]>>();
  private readonly chart = createLineChart({
    title: 'Held-out exact match by input length, per attention',
    testId: 's2s-length-chart',
    xLabel: 'Input length (characters)',
    yLabel: 'Exact match',
    yRange: [0, 1],
  });
  private readonly hint = el(
    'p',
    { className: 'hint', hidden: true },
    'Train the same task again with another attention (or none) to add its line to the chart.',
  );
  readonly elements: HTMLElement[] = [this.table, this.chart.element, this.hint];

  /** `label`: the attention's name for a value of the attention select. */
  constructor(private readonly label: (attention: string) => string) {}

  /** A new run starts: the last run's table goes. */
  clear(): void {
    this.table.hidden = true;
  }

  /** The last run's rows as a table; a finished run's also join the chart. */
  show(task: string, attention: string, rows: LengthRow[], finished: boolean): void {
    const caption = el('caption', {}, 'Held-out exact match by input length');
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'Input length'),
      el('th', { scope: 'col' }, 'Pairs'),
      el('th', { scope: 'col' }, 'Exact match'),
    );
    const body = rows.map((r) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, String(r.sourceLength)),
        el('td', {}, String(r.count)),
        el('td', {}, percent(r.count ? r.exact / r.count : 0)),
      ),
    );
    this.table.replaceChildren(caption, el('thead', {}, head), el('tbody', {}, ...body));
    this.table.hidden = rows.length === 0;
    if (!finished) return;
    const runs = this.results.get(task) ?? new Map<string, LengthRow[]>();
    runs.set(attention, rows);
    this.results.set(task, runs);
    this.showTask(task);
  }

  /** The chart of `task`'s runs. */
  showTask(task: string): void {
    const runs = this.results.get(task);
    const series = [...(runs?.entries() ?? [])].map(([attention, rows]) => ({
      name: this.label(attention),
      xs: rows.map((r) => r.sourceLength),
      ys: rows.map((r) => (r.count ? r.exact / r.count : 0)),
    }));
    this.chart.update(series);
    this.chart.element.hidden = series.length === 0;
    this.hint.hidden = series.length !== 1;
  }
}
