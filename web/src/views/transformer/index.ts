// Transformer view: train (or load) a small Transformer sentiment classifier in a worker of its
// own, then look at its self-attention per layer and head — a grid of heatmaps with each layer's
// head average, a token-to-token line view of one head, what-ifs (a causal mask the model was not
// trained with, heads ablated with the change in P(positive) and in test accuracy) and the
// positional encodings the encoder adds to its embeddings. The view's own EngineBridge (created
// on first show) keeps the Sentiment Studio's model untouched.
import { VIEW_TITLES } from '../../app/nav';
import { EngineBridge } from '../../engine/bridge';
import type { TrainingProgress } from '../../engine/protocol';
import type {
  HeadAblationReport,
  PositionalEncodingTable,
  TransformerInspection,
} from '../../../generated/attn_engine.mjs';
import { dashboard, el, readoutRow, trainCard, viewPart } from '../dom';
import { formulaList } from '../math';
import './transformer.css';
import { createHeatmap, formatValue, type Heatmap } from '../heatmap';
import { softmaxLines } from '../softmax_numbers';
import { createLinkView } from '../link_view';
import { RunControls } from '../run_controls';
import type { ViewDefinition } from '../types';
import { explainedIn } from '../../app/course_links';

const DEFAULT_TEXT = 'the acting was not good but the music was wonderful';
const PE_POSITIONS = 24;

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Cell (q, k) of head (l, h) in an [L × H × T × T] array (the weights unless `of` is given). */
function at(r: TransformerInspection, l: number, h: number, q: number, k: number, of = r.attention): number {
  const t = r.tokens.length;
  return of[((l * r.heads + h) * t + q) * t + k];
}

class TransformerPanel {
  readonly element = el('section', { className: 'transformer' });
  private engine: EngineBridge | null = null;
  private inspection: TransformerInspection | null = null;
  private inspectedCausal = false;
  private liveAt = 0;
  private liveBusy = false;
  private firstLoss: number | null = null;
  private layers = 0;
  private heads = 0;
  private abort: AbortController | null = null;
  private inspectSeq = 0;

  private readonly layersSelect = el('select', { id: 'tf-layers' });
  private readonly headsSelect = el('select', { id: 'tf-heads' });
  private readonly poolingSelect = el('select', { id: 'tf-pooling' });
  private readonly epochsInput = el('input', { id: 'tf-epochs', type: 'number', min: '1', max: '40', value: '8' });
  private readonly run = new RunControls({
    stateHost: this.element,
    texts: {
      idle: 'No model yet: choose the size and press Train (a few seconds), or load a Transformer model file.',
      preparing: 'Loading the built-in corpus and building the model…',
      training: 'Training…',
      finished: 'Finished.',
      cancelled: 'Cancelled: the model keeps the parameters it had reached.',
      failed: 'Failed.',
    },
    onTrain: () => void this.train(),
    cancel: () => this.abort?.abort(),
    onError: (error) => this.fail(error),
    onChange: (_, busy) => {
      for (const c of [this.layersSelect, this.headsSelect, this.poolingSelect, this.epochsInput]) c.disabled = busy;
      this.fileInput.disabled = busy;
      this.ablateButton.disabled = busy || this.layers === 0;
    },
  });
  private readonly fileInput = el('input', {
    id: 'tf-model-file',
    type: 'file',
    accept: '.attn,.bin,application/octet-stream',
  });
  private readonly progress = el('progress', { id: 'tf-progress', max: 1, value: 0 });
  private readonly stepOut = el('output', { id: 'tf-step' });
  private readonly lossOut = el('output', { id: 'tf-loss' });

  private readonly textInput = el('input', { id: 'tf-text', type: 'text', autocomplete: 'off', spellcheck: false });
  private readonly inspectButton = el('button', { type: 'button', textContent: 'Inspect', disabled: true });
  private readonly causalBox = el('input', { id: 'tf-causal', type: 'checkbox' });
  private readonly probabilityOut = el('output', { id: 'tf-probability' });
  private readonly ablationBoxes = el('fieldset', { className: 'tf-ablation' });
  private readonly grid = el('div', { className: 'tf-grid', dataset: { testid: 'tf-grid' } });
  private maps: Heatmap[][] = []; // [L][H + 1]: heads then the layer's average

  private readonly lineLayer = el('select', { id: 'tf-line-layer' });
  private readonly lineHead = el('select', { id: 'tf-line-head' });
  private readonly lineView = createLinkView('Token to token', 'tf-lines', { threshold: 0.01 });

  private readonly peMap = createHeatmap(
    'Positional encoding added at each position (rows) in each model dimension (columns)',
    'tf-positional',
  );
  private readonly ablateButton = el('button', {
    type: 'button',
    textContent: 'Measure each head on the test set',
    disabled: true,
  });
  private readonly ablationTable = el('table', { className: 'tf-ablation-table', hidden: true });
  private readonly error = el('p', { className: 'error', role: 'alert' });

  constructor(private readonly replaceParams: (p: URLSearchParams) => void) {
    this.build();
    this.run.refresh();
  }

  /** The view's own worker, started on first show. */
  bridge(): EngineBridge {
    this.engine ??= new EngineBridge();
    return this.engine;
  }

  /** The URL's sentence, line-view layer/head and causal toggle; re-inspects when a model is there. */
  applyParams(params: URLSearchParams): void {
    const text = params.get('text');
    if (text !== null) this.textInput.value = text;
    this.causalBox.checked = params.get('causal') === '1';
    const layer = params.get('layer');
    const head = params.get('head');
    if (layer !== null) this.element.dataset.wantLayer = layer;
    if (head !== null) this.element.dataset.wantHead = head;
    if (layer !== null && Number(layer) < this.layers) this.lineLayer.value = layer;
    if (head !== null && Number(head) < this.heads) this.lineHead.value = head;
    if (this.layers > 0) void this.inspect();
  }

  private build(): void {
    for (const n of ['1', '2']) this.layersSelect.append(el('option', { value: n, textContent: n }));
    this.layersSelect.value = '2';
    for (const n of ['1', '2', '4']) this.headsSelect.append(el('option', { value: n, textContent: n }));
    this.headsSelect.value = '2';
    for (const [value, label] of [
      ['mean', 'Mean'],
      ['attention', 'Attention'],
    ])
      this.poolingSelect.append(el('option', { value, textContent: label }));
    this.textInput.value = DEFAULT_TEXT;

    this.fileInput.addEventListener('change', () => void this.loadFile());
    this.inspectButton.addEventListener('click', () => void this.inspect());
    this.textInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !this.inspectButton.disabled) void this.inspect();
    });
    this.causalBox.addEventListener('change', () => void this.inspect());
    this.ablationBoxes.addEventListener('change', () => void this.inspect());
    this.lineLayer.addEventListener('change', () => this.renderLines());
    this.lineHead.addEventListener('change', () => this.renderLines());
    this.ablateButton.addEventListener('click', () => void this.measureHeads());

    // A dashboard: the model to train, the sentence and the what-ifs in the side panel; training,
    // every head, the line view, the ablation and the positions in the main area.
    this.element.append(
      dashboard(
        [
          trainCard(
            [
              ['Layers', this.layersSelect],
              ['Heads', this.headsSelect],
              ['Pooling', this.poolingSelect],
              ['Epochs', this.epochsInput],
            ],
            [...this.run.buttons, el('label', { htmlFor: 'tf-model-file' }, ' or load a model file '), this.fileInput],
            el(
              'p',
              { className: 'hint' },
              'd_model 32, feed-forward 64, dropout 0.1, vocabulary 500, maxlen 64; Adam 0.003, batch 16, on all 528 ' +
                'built-in training reviews (no validation split: 528 reviews are too few to pick an epoch by, so the ' +
                'last epoch is kept). Expect about 63% on the 132 test reviews: a Transformer this small overfits them.',
            ),
            this.run.status,
            this.progress,
          ),
          viewPart(
            el('h3', {}, 'A sentence'),
            el(
              'div',
              { className: 'decode-controls' },
              el('label', { htmlFor: 'tf-text' }, 'Sentence '),
              this.textInput,
              this.inspectButton,
              el(
                'label',
                { htmlFor: 'tf-causal' },
                this.causalBox,
                ' Causal mask (what-if: the model was trained without)',
              ),
            ),
            this.ablationBoxes,
          ),
          viewPart(
            el('h3', {}, 'How a head attends'),
            formulaList('tf-formulas', [
              [
                'Weights of each head (d = d_model / heads; M hides later keys under the causal mask)',
                '\\alpha = \\operatorname{softmax}\\left(\\frac{Q K^\\top}{\\sqrt{d}} + M\\right)',
              ],
              ['Its output', '\\operatorname{head} = \\alpha V'],
            ]),
          ),
        ],
        [
          viewPart(
            el('h3', {}, 'Training'),
            el(
              'dl',
              { className: 'train-readout' },
              readoutRow('Step', this.stepOut),
              readoutRow('Loss (last batch)', this.lossOut),
            ),
          ),
          viewPart(
            el('h3', {}, 'Self-attention of the sentence'),
            el('p', {}, 'P(positive): ', this.probabilityOut),
            el(
              'p',
              { className: 'hint' },
              'Hover or focus a cell of a head: the score q·k/√d the engine computed, the softmax numerator and ' +
                'denominator, and the weight; a layer average shows the mean weight. Every row sums to 1.',
            ),
            this.grid,
          ),
          viewPart(
            el('h3', {}, 'Token to token'),
            el(
              'div',
              { className: 'decode-controls' },
              el('label', { htmlFor: 'tf-line-layer' }, 'Layer '),
              this.lineLayer,
              el('label', { htmlFor: 'tf-line-head' }, 'Head '),
              this.lineHead,
            ),
            this.lineView.element,
          ),
          viewPart(el('h3', {}, 'Head ablation on the test set'), this.ablateButton, this.ablationTable),
          viewPart(
            el('h3', {}, 'Positional encodings'),
            formulaList('tf-pe-formulas', [
              ['Even dimensions 2i', 'PE_{p,\\,2i} = \\sin\\left(p / 10000^{2i/D}\\right)'],
              ['Odd dimensions 2i + 1', 'PE_{p,\\,2i+1} = \\cos\\left(p / 10000^{2i/D}\\right)'],
            ]),
            this.peMap.element,
          ),
          this.error,
        ],
      ),
    );
    this.peMap.element.hidden = true;
    this.peMap.element.classList.add('tf-positional');
    this.lineView.setVisible(false);
  }

  private fail(error: unknown): void {
    this.error.textContent = error instanceof Error ? error.message : String(error);
  }

  private async train(): Promise<void> {
    this.error.textContent = '';
    this.firstLoss = null;
    this.stepOut.textContent = '';
    this.lossOut.textContent = '';
    this.stepOut.dataset.step = '0';
    this.run.send('prepare');
    const engine = this.bridge();
    try {
      await engine.ready;
      await engine.loadData({ kind: 'builtin' });
      const info = await engine.createModel({
        encoder: 'transformer',
        embedDim: 32,
        layers: Number(this.layersSelect.value),
        heads: Number(this.headsSelect.value),
        ffDim: 64,
        pooling: this.poolingSelect.value as 'mean' | 'attention',
        numWords: 500,
        maxlen: 64,
        dropout: 0.1,
        seed: 1,
      });
      await this.modelReady(info.classifier);
      await this.inspect(); // the untrained model's maps, to compare with the trained ones
      const epochs = Math.min(40, Math.max(1, Math.round(Number(this.epochsInput.value) || 8)));
      this.run.send('start', `Training ${info.parameters.toLocaleString()} parameters…`);
      this.abort = new AbortController();
      const outcome = await engine.train(
        { epochs, batchSize: 16, learningRate: 0.003, validationSplit: 0, earlyStoppingPatience: 0, seed: 1 },
        (p) => this.onProgress(p),
        this.abort.signal,
      );
      this.abort = null;
      this.run.send(outcome.cancelled ? 'cancel' : 'finish');
      const metrics = await engine.evaluate('test');
      this.run.status.textContent += ` Test accuracy ${percent(metrics.accuracy)}.`;
      await this.inspect();
    } catch (error) {
      this.abort = null;
      this.fail(error);
      this.run.send('fail');
    }
  }

  private async loadFile(): Promise<void> {
    const file = this.fileInput.files?.[0];
    if (!file) return;
    this.error.textContent = '';
    this.run.send('prepare', `Loading ${file.name}…`);
    try {
      const engine = this.bridge();
      await engine.ready;
      await engine.loadData({ kind: 'builtin' });
      const info = await engine.loadModel(await file.arrayBuffer());
      const config = JSON.parse(info.classifier) as { encoder?: string };
      if (config.encoder !== 'transformer') {
        // The worker now holds that model: nothing here can be inspected until the next one.
        this.layers = 0;
        this.inspection = null;
        this.grid.replaceChildren();
        this.ablationBoxes.replaceChildren();
        this.inspectButton.disabled = true;
        throw new Error(
          `${file.name} holds a ${config.encoder ?? 'non-Transformer'} model: the Transformer view needs a transformer model`,
        );
      }
      await this.modelReady(info.classifier);
      this.run.send('finish', `Loaded ${file.name} (${info.parameters.toLocaleString()} parameters).`);
      await this.inspect();
    } catch (error) {
      this.fail(error);
      this.run.send('fail');
    }
  }

  private onProgress(p: TrainingProgress): void {
    if (this.firstLoss === null && p.losses.length > 0) {
      this.firstLoss = p.losses[0];
      this.lossOut.dataset.firstLoss = String(this.firstLoss);
    }
    this.stepOut.textContent = `${p.step} of ${p.plannedSteps}`;
    this.stepOut.dataset.step = String(p.step);
    this.lossOut.textContent = p.loss.toFixed(4);
    this.lossOut.dataset.loss = String(p.loss);
    this.progress.value = p.plannedSteps > 0 ? p.step / p.plannedSteps : 0;
    // Watch the heads learn: re-inspect about once a second (the worker answers between chunks
    // of steps; inference only, so the training numbers do not change).
    const now = performance.now();
    if (!this.liveBusy && now - this.liveAt > 1000) {
      this.liveAt = now;
      this.liveBusy = true;
      void this.inspect().finally(() => (this.liveBusy = false));
    }
  }

  /** A new model: its size sets the grid, the ablation boxes, the line-view choices and the PE map. */
  private async modelReady(classifierJson: string): Promise<void> {
    const config = JSON.parse(classifierJson) as { layers: number; heads: number };
    this.layers = config.layers;
    this.heads = config.heads;
    this.ablationTable.hidden = true;
    this.ablationBoxes.replaceChildren(el('legend', {}, 'Ablate heads (their output is zeroed before W_o)'));
    this.lineLayer.replaceChildren();
    this.lineHead.replaceChildren();
    for (let l = 0; l < this.layers; l++) {
      this.lineLayer.append(el('option', { value: String(l), textContent: String(l + 1) }));
      for (let h = 0; h < this.heads; h++) {
        const id = `tf-ablate-${l}-${h}`;
        const box = el('input', { id, type: 'checkbox', dataset: { layer: String(l), head: String(h) } });
        this.ablationBoxes.append(el('label', { htmlFor: id }, box, ` layer ${l + 1} head ${h + 1} `));
      }
    }
    for (let h = 0; h < this.heads; h++)
      this.lineHead.append(el('option', { value: String(h), textContent: String(h + 1) }));
    const wantLayer = Number(this.element.dataset.wantLayer ?? 0);
    const wantHead = Number(this.element.dataset.wantHead ?? 0);
    if (wantLayer < this.layers) this.lineLayer.value = String(wantLayer);
    if (wantHead < this.heads) this.lineHead.value = String(wantHead);
    this.maps = [];
    this.grid.replaceChildren();
    for (let l = 0; l < this.layers; l++) {
      const row: Heatmap[] = [];
      const line = el('div', { className: 'tf-layer' }, el('h4', {}, `Layer ${l + 1}`));
      for (let h = 0; h <= this.heads; h++) {
        const average = h === this.heads;
        const title = average
          ? `Layer ${l + 1}, average of the ${this.heads} heads: queries (rows) over keys (columns)`
          : `Layer ${l + 1}, head ${h + 1}: queries (rows) over keys (columns)`;
        const map = createHeatmap(title, average ? `tf-avg-${l}` : `tf-head-${l}-${h}`, {
          explain: (q, k) => this.explainCell(l, average ? -1 : h, q, k),
        });
        row.push(map);
        line.append(map.element);
      }
      this.maps.push(row);
      this.grid.append(line);
    }
    this.inspectButton.disabled = false;
    this.run.refresh();
    const table: PositionalEncodingTable = await this.bridge().positionalEncoding(PE_POSITIONS);
    this.peMap.update({
      values: table.values,
      rows: table.positions,
      cols: table.dim,
      rowLabels: Array.from({ length: table.positions }, (_, i) => `pos ${i}`),
      colLabels: Array.from({ length: table.dim }, (_, i) => `d${i}`),
      range: table.kind === 'sinusoidal' ? [-1, 1] : undefined,
    });
    this.peMap.element.dataset.kind = table.kind;
    this.peMap.element.hidden = false;
  }

  private ablated(): [number, number][] {
    const out: [number, number][] = [];
    for (const box of this.ablationBoxes.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'))
      if (box.checked) out.push([Number(box.dataset.layer), Number(box.dataset.head)]);
    return out;
  }

  private async inspect(): Promise<void> {
    if (this.layers === 0) return;
    const seq = ++this.inspectSeq;
    const text = this.textInput.value;
    const causal = this.causalBox.checked;
    const ablated = this.ablated();
    this.error.textContent = '';
    try {
      const engine = this.bridge();
      const r = await engine.inspectTransformer(text, { causal, ablated });
      // With heads ablated, the change is measured against the same sentence and mask without.
      const base = ablated.length ? (await engine.inspectTransformer(text, { causal })).probability : r.probability;
      if (seq !== this.inspectSeq) return; // a newer request is on its way
      this.inspection = r;
      this.inspectedCausal = causal;
      this.show(r, base, ablated.length > 0);
      this.saveParams();
    } catch (error) {
      this.fail(error);
    }
  }

  private saveParams(): void {
    const params = new URLSearchParams();
    params.set('text', this.textInput.value);
    params.set('layer', this.lineLayer.value || '0');
    params.set('head', this.lineHead.value || '0');
    if (this.causalBox.checked) params.set('causal', '1');
    this.replaceParams(params);
  }

  private show(r: TransformerInspection, base: number, ablated: boolean): void {
    const change = r.probability - base;
    this.probabilityOut.textContent = ablated
      ? `${r.probability.toFixed(4)} (${change >= 0 ? '+' : ''}${change.toFixed(4)} from ${base.toFixed(4)} with all heads)`
      : r.probability.toFixed(4);
    this.probabilityOut.dataset.probability = String(r.probability);
    this.probabilityOut.dataset.change = String(change);
    this.element.dataset.causal = this.causalBox.checked ? '1' : '0';
    const t = r.tokens.length;
    const labels = r.tokens;
    for (let l = 0; l < r.layers; l++) {
      const average = new Float32Array(t * t);
      for (let h = 0; h < r.heads; h++) {
        const values = r.attention.subarray((l * r.heads + h) * t * t, (l * r.heads + h + 1) * t * t);
        for (let i = 0; i < t * t; i++) average[i] += values[i] / r.heads;
        this.maps[l][h].update({ values, rows: t, cols: t, rowLabels: labels, colLabels: labels, range: [0, 1] });
      }
      this.maps[l][r.heads].update({
        values: average,
        rows: t,
        cols: t,
        rowLabels: labels,
        colLabels: labels,
        range: [0, 1],
      });
    }
    this.renderLines();
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
    const causal = this.inspectedCausal;
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
    const visible = (kk: number) => !causal || kk <= q;
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
    const visibleKeys = causal ? `the keys up to position ${q}` : `the ${t} keys`;
    lines.push(
      `q·k = ${formatValue(score(k) * Math.sqrt(d))}; s = q·k / √${d} = ${formatValue(score(k))}`,
      ...softmaxLines(scores, k, { visible, name: 'α', over: visibleKeys }),
      `engine: α = ${formatValue(at(r, l, h, q, k))}; this row sums to ${rowSum.toFixed(4)}.`,
    );
    return lines;
  }

  /** The selected head in the link view: queries joined to keys by lines whose opacity is the weight. */
  private renderLines(): void {
    const r = this.inspection;
    if (!r) return;
    const l = Math.min(Number(this.lineLayer.value) || 0, r.layers - 1);
    const h = Math.min(Number(this.lineHead.value) || 0, r.heads - 1);
    const t = r.tokens.length;
    this.lineView.element.dataset.head = `${l},${h}`;
    this.lineView.setVisible(true);
    this.lineView.update({
      values: r.attention.subarray((l * r.heads + h) * t * t, (l * r.heads + h + 1) * t * t),
      rows: t,
      cols: t,
      rowLabels: r.tokens,
      colLabels: r.tokens,
    });
    this.saveParams();
  }

  private async measureHeads(): Promise<void> {
    this.error.textContent = '';
    this.ablateButton.disabled = true;
    const old = this.run.status.textContent;
    this.run.status.textContent = 'Evaluating the test set once per head…';
    try {
      const report = await this.bridge().headAblation(0, this.causalBox.checked);
      this.renderAblation(report);
    } catch (error) {
      this.fail(error);
    } finally {
      this.run.status.textContent = old;
      this.ablateButton.disabled = false;
    }
  }

  private renderAblation(report: HeadAblationReport): void {
    const caption = el(
      'caption',
      {},
      `Test accuracy with one head ablated (${report.examples} reviews; all heads: ${percent(report.baselineAccuracy)})`,
    );
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'Head'),
      el('th', { scope: 'col' }, 'Accuracy'),
      el('th', { scope: 'col' }, 'Change'),
      el('th', { scope: 'col' }, 'Bar'),
    );
    const largest = Math.max(0.01, ...report.heads.map((e) => Math.abs(e.delta)));
    const body = report.heads.map((e) => {
      const bar = el('span', { className: 'tf-bar' });
      bar.style.display = 'inline-block';
      bar.style.height = '0.8em';
      bar.style.width = `${(60 * Math.abs(e.delta)) / largest}px`;
      bar.style.background = e.delta < 0 ? '#d55e00' : '#0072b2';
      bar.setAttribute('aria-hidden', 'true');
      return el(
        'tr',
        { dataset: { layer: String(e.layer), head: String(e.head), delta: String(e.delta) } },
        el('th', { scope: 'row' }, `layer ${e.layer + 1} head ${e.head + 1}`),
        el('td', {}, percent(e.accuracy)),
        el('td', {}, `${e.delta >= 0 ? '+' : ''}${(100 * e.delta).toFixed(1)} points`),
        el('td', {}, bar),
      );
    });
    this.ablationTable.replaceChildren(caption, el('thead', {}, head), el('tbody', {}, ...body));
    this.ablationTable.hidden = false;
  }
}

export const transformerView: ViewDefinition = {
  id: 'transformer',
  title: VIEW_TITLES.transformer,
  mount: ({ replaceParams }) => {
    const element = el('section', { className: 'transformer-view' });
    element.dataset.testid = 'view-transformer';
    const heading = el('h2', { tabIndex: -1 }, 'Transformer view');
    const intro = el(
      'p',
      { className: 'intro' },
      'Train a small Transformer sentiment classifier (in a worker of its own; the maps refresh about once a ' +
        'second while it trains), then look inside it: the ' +
        'self-attention of every layer and head for a sentence, each layer’s head average, a token-to-token line ' +
        'view, what happens under a causal mask or with heads switched off, and the positional encodings.',
    );
    const panel = new TransformerPanel(replaceParams);
    element.append(heading, intro, explainedIn('transformer'), panel.element);
    return {
      element,
      show(params) {
        panel.bridge();
        panel.applyParams(params);
      },
    };
  },
};
