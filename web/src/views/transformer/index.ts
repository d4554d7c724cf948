// Transformer view: open the Transformer the project trained on IMDB (web/public/models/, one
// click), or train (or load) a small Transformer sentiment classifier in a worker of its own, then look at its self-attention per layer and head — a grid of heatmaps with each layer's
// head average, a token-to-token line view of one head, what-ifs (a causal mask the model was not
// trained with, heads ablated with the change in P(positive) and in test accuracy) and the
// positional encodings the encoder adds to its embeddings. The view's own EngineBridge (created
// on first show) keeps the Sentiment Studio's model untouched. This module is the coordinator
// (settings, the run, the sentence); the panels are heads_panel.ts (the maps as small multiples),
// ablation_panel.ts (heads switched off on the test set) and positional_panel.ts.
import { VIEW_TITLES } from '../../app/nav';
import { EngineBridge } from '../../engine/bridge';
import type { TrainingProgress } from '../../engine/protocol';
import type { TransformerInspection } from '../../../generated/attn_engine.mjs';
import { dashboard, el, errorMessage, readoutRow, trainCard, viewPart } from '../dom';
import './transformer.css';
import { percent } from '../format';
import { AblationPanel } from './ablation_panel';
import { headFormulas, HeadsPanel } from './heads_panel';
import { LinesPanel } from './lines_panel';
import { PositionalPanel } from './positional_panel';
import { RunControls } from '../run_controls';
import type { ViewDefinition } from '../types';
import { explainedIn } from '../../app/course_links';
import {
  fetchShippedModel,
  findShippedModel,
  shippedLabel,
  shippedRecipe,
  type ShippedModel,
} from '../studio/shipped_models';

const DEFAULT_TEXT = 'the acting was not good but the music was wonderful';

class TransformerPanel {
  readonly element = el('section', { className: 'transformer' });
  private engine: EngineBridge | null = null;
  private liveAt = 0;
  private liveBusy = false;
  private firstLoss: number | null = null;
  private layers = 0;
  private headCount = 0;
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
      this.shippedButton.disabled = busy || this.shipped === null;
      this.ablation.lock(busy);
    },
  });
  private readonly fileInput = el('input', {
    id: 'tf-model-file',
    type: 'file',
    accept: '.attn,.bin,application/octet-stream',
  });
  /** The Transformer the project trained on IMDB (web/public/models/): a model worth reading, one click away. */
  private shipped: ShippedModel | null = null;
  private readonly shippedButton = el('button', {
    type: 'button',
    id: 'tf-shipped',
    className: 'primary',
    textContent: 'Open the trained IMDB Transformer',
    disabled: true,
  });
  /** What the model on show is: its recipe and held-out accuracy (or how it was trained here). */
  private readonly about = el('p', { id: 'tf-model-about' });
  private readonly progress = el('progress', { id: 'tf-progress', max: 1, value: 0 });
  private readonly stepOut = el('output', { id: 'tf-step' });
  private readonly lossOut = el('output', { id: 'tf-loss' });

  private readonly textInput = el('input', { id: 'tf-text', type: 'text', autocomplete: 'off', spellcheck: false });
  private readonly inspectButton = el('button', { type: 'button', textContent: 'Inspect', disabled: true });
  private readonly causalBox = el('input', { id: 'tf-causal', type: 'checkbox' });
  private readonly probabilityOut = el('output', { id: 'tf-probability' });
  private readonly ablationBoxes = el('fieldset', { className: 'tf-ablation' });
  private readonly heads = new HeadsPanel();

  private readonly lines = new LinesPanel(() => this.saveParams());

  private readonly positional = new PositionalPanel();
  private readonly ablation = new AblationPanel(
    () => this.bridge(),
    () => this.causalBox.checked,
    (message) => (this.error.textContent = message),
  );
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
    const chosen = this.lines.choice();
    this.lines.choose(Number(layer ?? chosen.layer), Number(head ?? chosen.head));
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
    this.shippedButton.addEventListener('click', () => void this.openShipped());
    void this.listShipped();
    this.inspectButton.addEventListener('click', () => void this.inspect());
    this.textInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !this.inspectButton.disabled) void this.inspect();
    });
    this.causalBox.addEventListener('change', () => void this.inspect());
    this.ablationBoxes.addEventListener('change', () => void this.inspect());

    // A dashboard: the model to train, the sentence and the what-ifs in the side panel; training,
    // every head, the line view, the ablation and the positions in the main area.
    this.element.append(
      dashboard(
        [
          viewPart(
            el('h3', {}, 'A model worth reading'),
            el(
              'p',
              { className: 'hint' },
              'A Transformer trained by the project on 22,500 IMDB reviews: its heads have learned something, so ' +
                'its maps are worth reading. Or train a small one yourself below and watch its heads form.',
            ),
            this.shippedButton,
            this.about,
          ),
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
          headFormulas(),
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
              'Each layer’s heads side by side, then their mean, on one fixed 0–1 scale: a query’s row is its ' +
                'weights over the keys and sums to 1. Hover or focus a cell for its numbers: the score q·k/√d the ' +
                'engine computed, the softmax numerator and denominator, and the weight.',
            ),
            this.heads.element,
          ),
          this.lines.element,
          this.ablation.element,
          this.positional.element,
          this.error,
        ],
      ),
    );
  }

  private fail(error: unknown): void {
    this.error.textContent = error instanceof Error ? error.message : String(error);
  }

  private async train(): Promise<void> {
    this.error.textContent = '';
    this.about.textContent = '';
    delete this.about.dataset.heldOutAccuracy;
    delete this.element.dataset.model;
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
    await this.loadModel(file.name, () => file.arrayBuffer(), `Loaded ${file.name}`);
  }

  /** The shipped Transformer's manifest entry: the button says what it is and how good. */
  private async listShipped(): Promise<void> {
    try {
      this.shipped = await findShippedModel('transformer');
      this.shippedButton.textContent = shippedLabel(this.shipped);
      this.shippedButton.title = this.shipped.title;
      this.run.refresh();
    } catch (error) {
      this.shippedButton.hidden = true;
      this.about.textContent = `The trained model is not available: ${errorMessage(error)}`;
    }
  }

  private async openShipped(): Promise<void> {
    const m = this.shipped;
    if (!m) return;
    const opened = await this.loadModel(m.title, () => fetchShippedModel(m.file), `Opened ${m.title}`);
    // The button was disabled while it loaded, which drops the focus: give it back (keyboard users).
    if (document.activeElement === document.body) this.shippedButton.focus({ preventScroll: true });
    if (!opened) return;
    this.about.textContent = `${m.title}: ${shippedRecipe(m)}`;
    this.about.dataset.heldOutAccuracy = String(m.heldOutAccuracy);
    this.element.dataset.model = m.file;
  }

  /**
   * Loads a model file into the view's worker (with the built-in corpus, whose test reviews the
   * head ablation measures) and inspects the sentence with it; false when it failed or is not a
   * Transformer.
   */
  private async loadModel(name: string, bytes: () => Promise<ArrayBuffer>, done: string): Promise<boolean> {
    this.error.textContent = '';
    this.about.textContent = '';
    delete this.about.dataset.heldOutAccuracy;
    delete this.element.dataset.model;
    this.run.send('prepare', `Loading ${name}…`);
    try {
      const engine = this.bridge();
      await engine.ready;
      await engine.loadData({ kind: 'builtin' });
      const info = await engine.loadModel(await bytes());
      const config = JSON.parse(info.classifier) as { encoder?: string };
      if (config.encoder !== 'transformer') {
        // The worker now holds that model: nothing here can be inspected until the next one.
        this.layers = 0;
        this.heads.reset(0, 0);
        this.ablation.reset(false);
        this.ablationBoxes.replaceChildren();
        this.inspectButton.disabled = true;
        throw new Error(
          `${name} holds a ${config.encoder ?? 'non-Transformer'} model: the Transformer view needs a transformer model`,
        );
      }
      await this.modelReady(info.classifier);
      this.run.send('finish', `${done} (${info.parameters.toLocaleString('en')} parameters).`);
      await this.inspect();
      return true;
    } catch (error) {
      this.fail(error);
      this.run.send('fail');
      return false;
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
    const config = JSON.parse(classifierJson) as { layers: number; heads: number; pooling?: string };
    this.layers = config.layers;
    this.headCount = config.heads;
    // The form shows the model on show where it has the choice (a loaded model's shape).
    for (const [select, value] of [
      [this.layersSelect, String(config.layers)],
      [this.headsSelect, String(config.heads)],
      [this.poolingSelect, config.pooling ?? ''],
    ] as const)
      if ([...select.options].some((o) => o.value === value)) select.value = value;
    this.ablation.reset(true);
    this.ablationBoxes.replaceChildren(el('legend', {}, 'Ablate heads (their output is zeroed before W_o)'));
    this.lines.reset(this.layers, this.headCount);
    for (let l = 0; l < this.layers; l++) {
      for (let h = 0; h < this.headCount; h++) {
        const id = `tf-ablate-${l}-${h}`;
        const box = el('input', { id, type: 'checkbox', dataset: { layer: String(l), head: String(h) } });
        this.ablationBoxes.append(el('label', { htmlFor: id }, box, ` layer ${l + 1} head ${h + 1} `));
      }
    }
    this.lines.choose(Number(this.element.dataset.wantLayer ?? 0), Number(this.element.dataset.wantHead ?? 0));
    this.heads.reset(this.layers, this.headCount);
    this.inspectButton.disabled = false;
    this.run.refresh();
    await this.positional.show(this.bridge());
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
    // data-inspecting marks maps that are not yet the latest request's (the tests wait it out).
    this.element.dataset.inspecting = '';
    try {
      const engine = this.bridge();
      const r = await engine.inspectTransformer(text, { causal, ablated });
      // With heads ablated, the change is measured against the same sentence and mask without.
      const base = ablated.length ? (await engine.inspectTransformer(text, { causal })).probability : r.probability;
      if (seq !== this.inspectSeq) return; // a newer request is on its way
      this.show(r, causal, base, ablated.length > 0);
      this.saveParams();
    } catch (error) {
      this.fail(error);
    } finally {
      if (seq === this.inspectSeq) delete this.element.dataset.inspecting;
    }
  }

  private saveParams(): void {
    const params = new URLSearchParams();
    params.set('text', this.textInput.value);
    const { layer, head } = this.lines.choice();
    params.set('layer', layer);
    params.set('head', head);
    if (this.causalBox.checked) params.set('causal', '1');
    this.replaceParams(params);
  }

  private show(r: TransformerInspection, causal: boolean, base: number, ablated: boolean): void {
    const change = r.probability - base;
    this.probabilityOut.textContent = ablated
      ? `${r.probability.toFixed(4)} (${change >= 0 ? '+' : ''}${change.toFixed(4)} from ${base.toFixed(4)} with all heads)`
      : r.probability.toFixed(4);
    this.probabilityOut.dataset.probability = String(r.probability);
    this.probabilityOut.dataset.change = String(change);
    this.element.dataset.causal = causal ? '1' : '0';
    this.heads.show(r, causal);
    this.lines.show(r);
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
      'Open the Transformer sentiment classifier the project trained on IMDB reviews, or train a small one here ' +
        '(in a worker of its own; the maps refresh about once a second while it trains), then look inside it: the ' +
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
