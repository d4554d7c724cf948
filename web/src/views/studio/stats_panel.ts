// The loaded data's statistics under the data choice: sizes, where the test set comes from, class
// balance, review lengths (a histogram with the model's maxlen marked) and vocabulary coverage.
// The numbers come from the engine (dataStats); this panel only draws them.
import type { EngineBridge } from '../../engine/bridge';
import type { DataStats, DataSummary } from '../../../generated/attn_engine.mjs';
import { SERIES_COLOURS } from '../chart';
import { el } from '../dom';
import { percent } from '../format';
import type { StudioSettings } from './settings';

/** The hold-out share (percent) and seed a file was split with. */
export interface HoldoutSplit {
  percent: number;
  seed: number;
}

export class StatsPanel {
  readonly element = el('div', { className: 'data-stats', id: 'data-stats', hidden: true });
  /** The loaded data's summary (null: nothing loaded yet). */
  summary: DataSummary | null = null;
  private stats: DataStats | null = null;
  private testStats: DataStats | null = null;

  constructor(
    private readonly engine: EngineBridge,
    private readonly settings: () => StudioSettings,
    private readonly loadedSplit: () => HoldoutSplit,
  ) {}

  /** Fetches the statistics again (after loading data, or a model whose vocabulary changes coverage). */
  async refresh(summary?: DataSummary): Promise<void> {
    const stats = await this.engine.dataStats('train', 20);
    // The test set's class counts (an empty test set has none to show).
    const testStats = await this.engine.dataStats('test', 1).catch(() => null);
    if (summary) this.summary = summary;
    this.stats = stats;
    this.testStats = testStats;
    this.render();
  }

  /** Whether statistics are shown (the engine holds data). */
  has(): boolean {
    return this.stats !== null;
  }

  hide(): void {
    this.element.hidden = true;
  }

  /** Draws the last statistics again (maxlen and the vocabulary size are marked in them). */
  render(): void {
    const stats = this.stats;
    if (!stats) return;
    const summary = this.summary;
    const settings = this.settings();
    const total = stats.positive + stats.negative;
    const share = (n: number) => (total ? percent(n / total) : '—');
    const classRow = (name: string, id: string, count: number) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, name),
        el('td', { id, dataset: { count: String(count) } }, String(count)),
        el('td', {}, share(count)),
      );
    const balance = el(
      'table',
      { className: 'class-balance', id: 'class-balance' },
      el('caption', {}, 'Class balance (training set)'),
      el('thead', {}, el('tr', {}, ...['Class', 'Reviews', 'Share'].map((h) => el('th', { scope: 'col' }, h)))),
      el(
        'tbody',
        {},
        classRow('Positive', 'stat-positive', stats.positive),
        classRow('Negative', 'stat-negative', stats.negative),
      ),
    );
    const p = stats.percentiles;
    const lengths = el(
      'p',
      {},
      `Lengths: ${stats.minTokens}–${stats.maxTokens} tokens, mean ${stats.meanTokens.toFixed(1)}, median ${p.p50}, 95% at most ${p.p95}. ` +
        `${stats.distinctWords} distinct words.`,
    );
    const coverage = el('p', { id: 'stat-coverage' });
    if (stats.coverage) {
      const c = stats.coverage;
      coverage.dataset.tokens = String(c.tokens);
      coverage.textContent =
        `Vocabulary coverage (top ${settings.numWords} words): ${percent(c.tokens)} of tokens and ${percent(c.words)} of distinct words are known; ` +
        `${c.truncated} reviews are longer than maxlen ${settings.maxlen} and get cut.`;
    } else {
      coverage.textContent = 'Vocabulary coverage: shown once a model (and so its vocabulary) exists — press Train.';
    }
    const test = this.testStats;
    const classCounts = el(
      'p',
      {
        id: 'split-counts',
        dataset: {
          trainPositive: String(stats.positive),
          trainNegative: String(stats.negative),
          testPositive: String(test?.positive ?? 0),
          testNegative: String(test?.negative ?? 0),
        },
      },
      `Training: ${stats.positive} positive, ${stats.negative} negative; ` +
        `test: ${test?.positive ?? 0} positive, ${test?.negative ?? 0} negative.`,
    );
    this.element.replaceChildren(
      el(
        'p',
        { id: 'data-summary' },
        summary
          ? `${summary.source}: ${summary.trainExamples} training reviews, ${summary.testExamples} test reviews.`
          : '',
      ),
      el('p', { id: 'data-split' }, summary ? splitDescription(summary, this.loadedSplit()) : ''),
      classCounts,
      balance,
      lengths,
      lengthHistogram(stats, settings.maxlen),
      coverage,
    );
    this.element.hidden = false;
  }
}

/** Where the loaded test set comes from, in words. */
function splitDescription(summary: DataSummary, split: HoldoutSplit): string {
  if (summary.source === 'builtin') return "Test set: the built-in corpus' own test half.";
  if (summary.source === 'synthetic') return 'Test set: a stratified fifth of the generated reviews.';
  if (!summary.heldOut) return `Test set: the archive's own test half (${summary.testExamples} reviews).`;
  const from = summary.sourceHasTest
    ? "the archive's training half (its own test half is set aside)"
    : 'the reviews (the source has no test half of its own)';
  return `Test set: a stratified hold-out of ${split.percent}% (seed ${split.seed}) of ${from}.`;
}

/** The review-length histogram as SVG bars, with the model's maxlen as a vertical line, and its table. */
function lengthHistogram(stats: DataStats, maxlen: number): HTMLElement {
  const NS = 'http://www.w3.org/2000/svg';
  const W = 480;
  const H = 160;
  const left = 40;
  const bottom = 130;
  const bins = stats.histogram.length;
  const maxCount = Math.max(1, ...stats.histogram);
  const span = Math.max(bins * stats.binWidth, maxlen * 1.05);
  const x = (tokens: number) => left + (tokens / span) * (W - left - 10);
  const y = (count: number) => bottom - (count / maxCount) * (bottom - 10);
  const range = (i: number) => `${i * stats.binWidth}–${(i + 1) * stats.binWidth - 1}`;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute(
    'aria-label',
    `Review lengths in tokens: ${bins} bins of ${stats.binWidth}; the model's maxlen ${maxlen} is marked.`,
  );
  const add = (name: string, attrs: Record<string, string | number>, text?: string) => {
    const n = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    svg.append(n);
    return n;
  };
  stats.histogram.forEach((count, i) => {
    const x0 = x(i * stats.binWidth);
    const x1 = x((i + 1) * stats.binWidth);
    add('rect', {
      x: x0,
      y: y(count),
      width: Math.max(1, x1 - x0 - 1),
      height: bottom - y(count),
      fill: SERIES_COLOURS[0],
      class: 'bar',
    }).append(Object.assign(document.createElementNS(NS, 'title'), { textContent: `${range(i)} tokens: ${count}` }));
  });
  const text = { 'font-size': 11, fill: 'currentColor' };
  add('line', { x1: left, x2: W - 10, y1: bottom, y2: bottom, stroke: 'currentColor' });
  add('text', { x: left, y: bottom + 14, ...text }, '0');
  add('text', { x: W - 10, y: bottom + 14, 'text-anchor': 'end', ...text }, `${Math.round(span)} tokens`);
  add('text', { x: left - 4, y: 14, 'text-anchor': 'end', ...text }, String(maxCount));
  const mx = x(maxlen);
  add('line', {
    x1: mx,
    x2: mx,
    y1: 6,
    y2: bottom,
    stroke: SERIES_COLOURS[1],
    'stroke-width': 2,
    'stroke-dasharray': '5 3',
    class: 'maxlen',
  });
  add('text', { x: mx - 4, y: 16, 'font-size': 11, 'text-anchor': 'end', fill: SERIES_COLOURS[1] }, `maxlen ${maxlen}`);
  return el(
    'figure',
    { className: 'length-histogram', dataset: { testid: 'length-histogram', maxlen: String(maxlen) } },
    el('figcaption', {}, 'Review length (tokens), training set'),
    svg,
    el(
      'details',
      {},
      el('summary', {}, 'Data table'),
      el(
        'table',
        { className: 'chart-table' },
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Tokens'), el('th', { scope: 'col' }, 'Reviews'))),
        el(
          'tbody',
          {},
          ...Array.from(stats.histogram, (count, i) =>
            el('tr', {}, el('td', {}, range(i)), el('td', {}, String(count))),
          ),
        ),
      ),
    ),
  );
}
