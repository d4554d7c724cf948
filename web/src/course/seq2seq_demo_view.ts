// Seq2seq demos of the course: trains one or more encoder–decoders in the engine worker (its one
// Seq2SeqSession, so runs go one after the other), then shows each run's held-out exact match by
// source length when runs are compared (a line chart and a table) — and, when the demo asks for
// it, a per-epoch table of teacher-forced loss against free-running accuracy and a box to decode
// the learner's own input with its alignment matrix (the shared heatmap).
import type { Seq2SeqEpochReport, Seq2SeqMetrics } from '../../generated/attn_engine.mjs';
import type { EngineBridge } from '../engine/bridge';
import { createAlignmentMap } from '../views/seq2seq/alignment_map';
import { el } from '../views/dom';
import type { Seq2SeqDemo } from './lessons/types';
import type { ProgressStore } from './progress';
import { mathBlock } from '../views/math';
import { percent, quickMode } from '../views/format';

/** The bridge calls a demo needs (the page's EngineBridge). */
export type Seq2SeqEngine = Pick<
  EngineBridge,
  'seq2seqCreate' | 'seq2seqTrain' | 'seq2seqCancel' | 'seq2seqEvaluate' | 'seq2seqTranslate'
>;

const SVG = 'http://www.w3.org/2000/svg';
/** Spaces are invisible in a table header: show them as ␣. */
export const shown = (token: string) => (token === ' ' ? '␣' : token);

// The worker has one seq2seq session: the demo that created it last owns it. A demo whose session
// was replaced (another demo trained since) must train again before it can translate.
let sessionOwner = 0;
let nextOwner = 1;

/** Takes the session for a view outside this module (seq2seq_step_view.ts); returns its owner id. */
export function claimSeq2SeqSession(): number {
  sessionOwner = nextOwner++;
  return sessionOwner;
}
export const ownsSeq2SeqSession = (owner: number): boolean => owner !== 0 && owner === sessionOwner;

interface RunResult {
  label: string;
  metrics: Seq2SeqMetrics;
  epochs: Seq2SeqEpochReport[];
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Exact match (0..1) against source length, one line per run; the table next to it has the numbers. */
function lengthChart(results: RunResult[]): SVGSVGElement {
  const width = 420;
  const height = 200;
  const pad = { left: 40, right: 10, top: 10, bottom: 34 };
  const lengths = [...new Set(results.flatMap((r) => r.metrics.byLength.map((b) => b.sourceLength)))].sort(
    (a, b) => a - b,
  );
  const lo = lengths[0] ?? 0;
  const hi = lengths.at(-1) ?? 1;
  const x = (n: number) => pad.left + ((n - lo) / Math.max(1, hi - lo)) * (width - pad.left - pad.right);
  const y = (v: number) => pad.top + (1 - v) * (height - pad.top - pad.bottom);
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 's2s-length-chart', role: 'img' });
  chart.setAttribute(
    'aria-label',
    'Exact match against input length: ' +
      results.map((r) => `${r.label} ${percent(r.metrics.exactMatch)} overall`).join('; ') +
      '. The table below has every value.',
  );
  for (const v of [0, 0.5, 1]) {
    chart.append(svg('line', { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: 'grid' }));
    const label = svg('text', { x: pad.left - 6, y: y(v) + 4, 'text-anchor': 'end' });
    label.textContent = `${v * 100}%`;
    chart.append(label);
  }
  for (const n of lengths) {
    const label = svg('text', { x: x(n), y: height - pad.bottom + 14, 'text-anchor': 'middle' });
    label.textContent = String(n);
    chart.append(label);
  }
  const axis = svg('text', { x: (pad.left + width - pad.right) / 2, y: height - 4, 'text-anchor': 'middle' });
  axis.textContent = 'input length (digits)';
  chart.append(axis);
  results.forEach((r, i) => {
    const points = r.metrics.byLength
      .filter((b) => b.count > 0)
      .map((b) => `${x(b.sourceLength).toFixed(1)},${y(b.exact / b.count).toFixed(1)}`);
    chart.append(svg('polyline', { points: points.join(' '), class: `series series-${i}` }));
    for (const p of points) {
      const [cx, cy] = p.split(',');
      chart.append(svg('circle', { cx, cy, r: 3, class: `series-${i}` }));
    }
  });
  return chart;
}

function lengthTable(results: RunResult[]): HTMLTableElement {
  const lengths = [...new Set(results.flatMap((r) => r.metrics.byLength.map((b) => b.sourceLength)))].sort(
    (a, b) => a - b,
  );
  const cell = (r: RunResult, n: number) => {
    const b = r.metrics.byLength.find((e) => e.sourceLength === n);
    return b && b.count > 0 ? `${percent(b.exact / b.count)} (${b.exact}/${b.count})` : '–';
  };
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, 'input length'),
    ...results.map((r, i) => el('th', { scope: 'col', className: `series-${i}` }, r.label)),
  );
  const rows = lengths.map((n) =>
    el('tr', {}, el('th', { scope: 'row' }, String(n)), ...results.map((r) => el('td', {}, cell(r, n)))),
  );
  const total = el(
    'tr',
    { className: 'total' },
    el('th', { scope: 'row' }, 'all'),
    ...results.map((r) => el('td', {}, `${percent(r.metrics.exactMatch)} of ${r.metrics.count}`)),
  );
  const table = el(
    'table',
    { className: 's2s-length-table', dataset: { testid: 's2s-length-table' } },
    el('caption', {}, 'Held-out exact match by input length (greedy decoding)'),
    el('thead', {}, head),
    el('tbody', {}, ...rows, total),
  );
  return table;
}

/** Per epoch: the loss with the true history fed back, against greedy decoding's accuracy. */
function epochTable(epochs: Seq2SeqEpochReport[]): HTMLTableElement {
  const head = el(
    'tr',
    {},
    ...[
      'epoch',
      'teacher forcing ratio',
      'validation loss, teacher forced',
      'e^−loss: probability of the right next character',
      'free running: characters right',
      'free running: whole outputs right',
    ].map((t) => el('th', { scope: 'col' }, t)),
  );
  const rows = epochs.map((e) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, String(e.epoch + 1)),
      el('td', {}, e.teacherForcing.toFixed(2)),
      el('td', {}, e.validationLoss === null ? '–' : e.validationLoss.toFixed(3)),
      el('td', {}, e.validationLoss === null ? '–' : percent(Math.exp(-e.validationLoss))),
      el('td', {}, e.validation ? percent(e.validation.tokenAccuracy) : '–'),
      el('td', {}, e.validation ? percent(e.validation.exactMatch) : '–'),
    ),
  );
  return el(
    'table',
    { className: 's2s-epoch-table', dataset: { testid: 's2s-epoch-table' } },
    el('caption', {}, 'Validation pairs after each epoch'),
    el('thead', {}, head),
    el('tbody', {}, ...rows),
  );
}

export function createSeq2SeqDemoView(demo: Seq2SeqDemo, engine: Seq2SeqEngine, progress?: ProgressStore): HTMLElement {
  const label = demo.runs.length > 1 ? 'Train both' : 'Train one';
  const button = el('button', { type: 'button', className: 'primary', textContent: label });
  const status = el('p', { className: 'muted', role: 'status' });
  const cards = el('div', { className: 'training-results' });
  const comparison = el('div', { className: 's2s-comparison' });
  const epochs = el('div', { className: 's2s-epochs' });
  const element = el(
    'section',
    { className: 'training seq2seq-demo', dataset: { testid: `seq2seq-${demo.id}` } },
    el('h3', {}, `Train: ${demo.title}`),
    mathBlock('p', demo.description),
    el('div', { className: 'buttons' }, button),
    status,
    cards,
    comparison,
    epochs,
  );

  let owner = 0;
  const translator = demo.translate ? createTranslator(demo.translate, engine, () => owner === sessionOwner) : null;
  if (translator) element.append(translator.element);

  let running = false;
  let stopped = false;
  button.addEventListener('click', async () => {
    if (running) {
      stopped = true;
      button.disabled = true;
      void engine.seq2seqCancel();
      return;
    }
    running = true;
    stopped = false;
    button.textContent = 'Stop';
    element.dataset.state = 'running';
    cards.replaceChildren();
    comparison.replaceChildren();
    epochs.replaceChildren();
    translator?.disable();
    const quick = quickMode();
    const results: RunResult[] = [];
    try {
      for (const run of demo.runs) {
        owner = nextOwner++;
        sessionOwner = owner;
        const settings = { ...run.settings, ...(quick ? run.quick : {}) };
        const card = el('div', { className: 'training-card' }, el('h4', {}, run.label));
        const progress = el('progress', { max: 1, value: 0 });
        card.append(progress);
        cards.append(card);
        status.textContent = `${run.label}: generating the data and building the model…`;
        const { info } = await engine.seq2seqCreate(settings);
        if (stopped) throw new Error('stopped');
        const reports: Seq2SeqEpochReport[] = [];
        const outcome = await engine.seq2seqTrain({}, (p) => {
          // Leaving the lesson removes this view: stop the run rather than train for nobody.
          if (!element.isConnected) void engine.seq2seqCancel();
          reports.push(...p.epochs);
          progress.max = Math.max(1, p.plannedSteps);
          progress.value = p.step;
          status.textContent =
            `${run.label}: step ${p.step} of ${p.plannedSteps} (epoch ${p.epoch + 1}), ` +
            `batch loss ${p.loss.toFixed(3)}`;
        });
        if (stopped || outcome.cancelled) throw new Error('stopped');
        status.textContent = `${run.label}: decoding the held-out pairs…`;
        const metrics = await engine.seq2seqEvaluate('test', 0);
        results.push({ label: run.label, metrics, epochs: reports });
        progress.remove();
        card.dataset.exactMatch = String(metrics.exactMatch);
        card.append(
          el(
            'dl',
            {},
            el('dt', {}, 'parameters'),
            el('dd', {}, info.parameters.toLocaleString('en')),
            el('dt', {}, 'training'),
            el('dd', {}, `${info.trainExamples} pairs, ${outcome.steps} steps, ${outcome.elapsed.toFixed(1)} s`),
            el('dt', {}, 'held-out exact match'),
            el('dd', { dataset: { testid: 'exact-match' } }, `${percent(metrics.exactMatch)} of ${metrics.count}`),
            el('dt', {}, 'held-out characters right'),
            el('dd', {}, percent(metrics.tokenAccuracy)),
          ),
        );
      }
      if (results.length > 1) {
        const legend = el(
          'ul',
          { className: 's2s-legend' },
          ...results.map((r, i) => el('li', { className: `series-${i}` }, r.label)),
        );
        comparison.append(el('div', {}, lengthChart(results), legend), lengthTable(results));
      }
      if (demo.epochs && results.length > 0) epochs.append(epochTable(results.at(-1)!.epochs));
      translator?.enable();
      progress?.markTrained(demo.id);
      status.textContent = 'Done.';
      element.dataset.state = 'done';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      status.textContent = message === 'stopped' ? 'Stopped.' : `Training failed: ${message}`;
      element.dataset.state = 'stopped';
    } finally {
      running = false;
      button.disabled = false;
      button.textContent = demo.runs.length > 1 ? 'Train both again' : 'Train another';
    }
  });
  return element;
}

/** An input box that decodes with the trained model and shows the alignment matrix. */
function createTranslator(
  options: { example: string; hint: string },
  engine: Seq2SeqEngine,
  owns: () => boolean,
): { element: HTMLElement; enable: () => void; disable: () => void } {
  const input = el('input', { type: 'text', value: options.example, autocomplete: 'off', spellcheck: false });
  input.setAttribute('aria-label', 'input to translate');
  const go = el('button', { type: 'button', textContent: 'Translate', disabled: true });
  const output = el('output', { className: 's2s-output', dataset: { testid: 's2s-output' } });
  const note = el('p', { className: 'muted', role: 'status' }, 'Train the model first.');
  const heatmap = createAlignmentMap('alignment α (output × input)', 's2s-demo-alignment');
  heatmap.element.hidden = true;
  const element = el(
    'div',
    { className: 's2s-translate' },
    mathBlock('p', options.hint),
    el('div', { className: 'buttons' }, input, go),
    output,
    note,
    heatmap.element,
  );
  const translate = async () => {
    if (!owns()) {
      note.textContent = 'Another demo has trained a model since: train this one again.';
      return;
    }
    const text = input.value.trim();
    if (!text) {
      note.textContent = 'Type something to translate.';
      return;
    }
    try {
      const t = await engine.seq2seqTranslate(text, 1);
      output.textContent = t.output;
      note.textContent = t.finished
        ? `Greedy decoding: ${t.rows} steps, the last one emits <eos>. Each row of the matrix is one output step's attention over the input characters.`
        : 'The decoder reached its length limit without emitting <eos>.';
      heatmap.element.hidden = t.rows === 0;
      if (t.rows > 0) {
        heatmap.update({
          values: t.alignment,
          rows: t.rows,
          cols: t.cols,
          rowLabels: t.outputTokens.map(shown),
          colLabels: t.sourceTokens.map(shown),
          range: [0, 1],
        });
      }
      element.dataset.state = 'translated';
    } catch (error) {
      note.textContent = `The engine could not translate this: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  go.addEventListener('click', () => void translate());
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !go.disabled) void translate();
  });
  return {
    element,
    enable() {
      go.disabled = false;
      note.textContent = '';
      void translate();
    },
    disable() {
      go.disabled = true;
      heatmap.element.hidden = true;
      output.textContent = '';
      note.textContent = 'Training…';
    },
  };
}
