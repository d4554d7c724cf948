// The Transformer view's model: the Transformer the project trained on IMDB (web/public/models/,
// one click), a small one trained here (its size, epochs and the run's controls) or a model file,
// and the training readout (step, loss). It builds, loads and trains the model in the view's own
// worker and tells the view when a model is there to inspect (index.ts, the coordinator).
import type { EngineBridge } from '../../engine/bridge';
import type { TrainingProgress } from '../../engine/protocol';
import { el, errorMessage, readoutRow, trainCard, viewPart } from '../dom';
import { percent } from '../format';
import { RunControls } from '../run_controls';
import {
  fetchShippedModel,
  findShippedModel,
  shippedLabel,
  shippedRecipe,
  type ShippedModel,
} from '../studio/shipped_models';

/** What the panel needs from the view. */
export interface ModelHost {
  /** The view's section: the run's data-state and the shipped model's data-model are on it. */
  readonly root: HTMLElement;
  /** The view's own worker. */
  bridge(): EngineBridge;
  /** A Transformer was built or loaded: its size sets the view's panels. */
  modelReady(classifierJson: string): Promise<void>;
  /** The worker holds a model that is not a Transformer: nothing can be inspected. */
  modelGone(): void;
  inspect(): Promise<void>;
  /** The run's state changed: the view locks what must not run alongside. */
  lock(busy: boolean): void;
  /** Writes the view's error line ('' clears it). */
  showError(message: string): void;
}

export class ModelPanel {
  private liveAt = 0;
  private liveBusy = false;
  private firstLoss: number | null = null;
  private abort: AbortController | null = null;

  private readonly layersSelect = el('select', { id: 'tf-layers' });
  private readonly headsSelect = el('select', { id: 'tf-heads' });
  private readonly poolingSelect = el('select', { id: 'tf-pooling' });
  private readonly epochsInput = el('input', { id: 'tf-epochs', type: 'number', min: '1', max: '40', value: '8' });
  private readonly run: RunControls;
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

  /** The side panel's parts: the shipped model, then the training card. */
  readonly sideParts: HTMLElement[];
  /** The main area's training readout. */
  readonly readout: HTMLElement;

  /** The view calls refresh() once it is built (the run's onChange reaches the view's panels). */
  constructor(private readonly host: ModelHost) {
    this.run = new RunControls({
      stateHost: host.root,
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
      onError: (error) => host.showError(errorMessage(error)),
      onChange: (_, busy) => {
        for (const c of [this.layersSelect, this.headsSelect, this.poolingSelect, this.epochsInput]) c.disabled = busy;
        this.fileInput.disabled = busy;
        this.shippedButton.disabled = busy || this.shipped === null;
        host.lock(busy);
      },
    });
    for (const n of ['1', '2']) this.layersSelect.append(el('option', { value: n, textContent: n }));
    this.layersSelect.value = '2';
    for (const n of ['1', '2', '4']) this.headsSelect.append(el('option', { value: n, textContent: n }));
    this.headsSelect.value = '2';
    for (const [value, label] of [
      ['mean', 'Mean'],
      ['attention', 'Attention'],
    ])
      this.poolingSelect.append(el('option', { value, textContent: label }));

    this.fileInput.addEventListener('change', () => void this.loadFile());
    this.shippedButton.addEventListener('click', () => void this.openShipped());
    void this.listShipped();

    this.sideParts = [
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
    ];
    this.readout = viewPart(
      el('h3', {}, 'Training'),
      el(
        'dl',
        { className: 'train-readout' },
        readoutRow('Step', this.stepOut),
        readoutRow('Loss (last batch)', this.lossOut),
      ),
    );
  }

  /** Shows the run's state again (the controls also depend on the shipped model and the view's). */
  refresh(): void {
    this.run.refresh();
  }

  /** The form shows the model on show where it has the choice (a loaded model's shape). */
  showShape(config: { layers: number; heads: number; pooling?: string }): void {
    for (const [select, value] of [
      [this.layersSelect, String(config.layers)],
      [this.headsSelect, String(config.heads)],
      [this.poolingSelect, config.pooling ?? ''],
    ] as const)
      if ([...select.options].some((o) => o.value === value)) select.value = value;
  }

  private async train(): Promise<void> {
    this.host.showError('');
    this.about.textContent = '';
    delete this.about.dataset.heldOutAccuracy;
    delete this.host.root.dataset.model;
    this.firstLoss = null;
    this.stepOut.textContent = '';
    this.lossOut.textContent = '';
    this.stepOut.dataset.step = '0';
    this.run.send('prepare');
    const engine = this.host.bridge();
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
      await this.host.modelReady(info.classifier);
      await this.host.inspect(); // the untrained model's maps, to compare with the trained ones
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
      await this.host.inspect();
    } catch (error) {
      this.abort = null;
      this.host.showError(errorMessage(error));
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
    this.host.root.dataset.model = m.file;
  }

  /**
   * Loads a model file into the view's worker (with the built-in corpus, whose test reviews the
   * head ablation measures) and inspects the sentence with it; false when it failed or is not a
   * Transformer.
   */
  private async loadModel(name: string, bytes: () => Promise<ArrayBuffer>, done: string): Promise<boolean> {
    this.host.showError('');
    this.about.textContent = '';
    delete this.about.dataset.heldOutAccuracy;
    delete this.host.root.dataset.model;
    this.run.send('prepare', `Loading ${name}…`);
    try {
      const engine = this.host.bridge();
      await engine.ready;
      await engine.loadData({ kind: 'builtin' });
      const info = await engine.loadModel(await bytes());
      const config = JSON.parse(info.classifier) as { encoder?: string };
      if (config.encoder !== 'transformer') {
        // The worker now holds that model: nothing here can be inspected until the next one.
        this.host.modelGone();
        throw new Error(
          `${name} holds a ${config.encoder ?? 'non-Transformer'} model: the Transformer view needs a transformer model`,
        );
      }
      await this.host.modelReady(info.classifier);
      this.run.send('finish', `${done} (${info.parameters.toLocaleString('en')} parameters).`);
      await this.host.inspect();
      return true;
    } catch (error) {
      this.host.showError(errorMessage(error));
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
      void this.host.inspect().finally(() => (this.liveBusy = false));
    }
  }
}
