// The Seq2seq view's Translation tab: train an English→French model on real sentence pairs in the
// engine worker — the built-in corpus (web/public/data/pairs-en-fr.tsv, docs/translation-corpus.md)
// or a pairs file the learner drops in — with no attention, Bahdanau's, Luong's, or as a
// Transformer encoder–decoder; watch the loss and the held-out BLEU per epoch; translate a
// sentence and see its alignment (RNN) or its cross-attention per layer and head and the decoder's
// masked self-attention (Transformer), greedy against the beam's candidates; and draw the
// lecture's figure, BLEU by source length with one line per model trained on the same data.
// This module is the coordinator of the tab's panels: data_card.ts (the pairs), training_panel.ts
// (the readouts and charts), translate_panel.ts (the translation's drawing); models.ts holds the
// pure parts.
import { EngineBridge } from '../../engine/bridge';
import { defaultWorkers, trainOnTwoWorkers } from '../../engine/data_parallel';
import type { Seq2SeqProgress } from '../../engine/protocol';
import { el, errorMessage, viewPart } from '../dom';
import { RunControls } from '../run_controls';
import { builtinPairs, DataCard, type PairsData } from './data_card';
import {
  defaultModel,
  MODELS,
  modelChoice,
  presetEpochs,
  presetSize,
  presetSummary,
  recipeTable,
  runSettings,
  type ModelId,
  type PresetSize,
  type RecipeTable,
} from './models';
import { TrainingPanel } from './training_panel';
import { TranslatePanel } from './translate_panel';
import './translation.css';

/** The helper worker of a 2-worker run, once its session is built, or why it could not start. */
type Helper = { bridge: EngineBridge; error?: undefined } | { bridge: null; error: string };

export class TranslationPanel {
  readonly element = el('section', { className: 'translation', dataset: { testid: 'translation' } });
  private data: PairsData | null = null;
  /** The presets the data trains: the corpus', or a large file's (models.ts presetSize). */
  private size: PresetSize = 'corpus';
  /** Set once the learner picks a model: loading a large file then keeps their choice. */
  private modelPicked = false;
  /** Set while "Train every model" runs: the models still to train. */
  private queue: ModelId[] = [];
  private cancelled = false;

  private readonly dataCard = new DataCard({
    onPairs: (data) => this.loadFile(data),
    onBuiltin: () => this.useBuiltin(),
  });
  private readonly modelSelect = el('select', { id: 'mt-model' });
  // Empty until the engine's recipes arrive (then the preset's epochs, unless typed in first).
  private readonly epochsInput = el('input', { id: 'mt-epochs', type: 'number', min: '1', max: '50' });
  private readonly presetHint = el('p', { className: 'hint', dataset: { testid: 'mt-preset' } });
  /** The engine's recipe table (train/seq2seq_recipes.cpp), fetched once. */
  private readonly recipes: Promise<RecipeTable>;
  /** Engine workers a run trains on (data parallel, docs/data-parallel.md). */
  private readonly workersSelect = el(
    'select',
    { id: 'mt-workers' },
    el('option', { value: '1', textContent: '1' }),
    el('option', { value: '2', textContent: '2' }),
  );
  private readonly allButton = el('button', { type: 'button', textContent: 'Train every model in turn' });
  private readonly run = new RunControls({
    stateHost: this.element,
    ids: { train: 'mt-train' },
    texts: {
      idle: 'No model yet: pick a model and press Train (a preset trains in a minute or two on the built-in corpus, about five minutes on a large file).',
      preparing: 'Reading the pairs and building the model…',
      training: 'Training…',
      paused: 'Paused. You can translate with the current parameters.',
      finished: 'Finished.',
      cancelled: 'Cancelled: the model keeps its parameters so far.',
      failed: 'Training failed.',
    },
    onTrain: () => void this.trainModels([this.model()]),
    pause: async () => void (await this.engine.seq2seqPause()),
    resume: async () => void (await this.engine.seq2seqResume()),
    cancel: async () => {
      this.cancelled = true;
      await this.engine.seq2seqCancel();
    },
    onError: (error) => (this.error.textContent = errorMessage(error)),
    onChange: (_, busy) => {
      for (const input of [
        this.modelSelect,
        this.epochsInput,
        this.workersSelect,
        this.dataCard.fileInput,
        this.dataCard.builtinButton,
        this.allButton,
      ])
        input.disabled = busy;
      this.element.toggleAttribute('data-busy', busy);
    },
  });
  private readonly error = el('p', { className: 'error', role: 'alert' });
  private readonly training = new TrainingPanel(() => Number(this.epochsInput.value));
  private readonly translate: TranslatePanel;

  constructor(private readonly engine: EngineBridge) {
    this.translate = new TranslatePanel(engine, (message) => (this.error.textContent = message));
    this.recipes = engine.call('seq2seqRecipes').then(recipeTable);
    void this.recipes.then(
      (recipes) => {
        this.presetHint.textContent = presetSummary(recipes);
        if (this.epochsInput.value === '')
          this.epochsInput.value = String(runSettings(recipes, defaultModel('corpus'), NaN).epochs);
      },
      (error) => (this.error.textContent = errorMessage(error)),
    );
    this.build();
    this.run.refresh();
  }

  private build(): void {
    for (const m of MODELS) this.modelSelect.append(el('option', { value: m.id, textContent: m.label }));
    this.modelSelect.value = defaultModel(this.size);
    this.element.dataset.presets = this.size;
    this.modelSelect.addEventListener('change', () => (this.modelPicked = true));
    this.workersSelect.value = defaultWorkers();
    this.allButton.addEventListener('click', () => void this.trainModels(MODELS.map((m) => m.id)));
    const trainCard = viewPart(
      el('h3', {}, 'Train'),
      el(
        'div',
        { className: 'train-controls' },
        el('label', { htmlFor: 'mt-model' }, 'Model '),
        this.modelSelect,
        el('label', { htmlFor: 'mt-epochs' }, 'Epochs '),
        this.epochsInput,
        el('label', { htmlFor: 'mt-workers', title: 'Engine workers (cores) one run trains on' }, 'Workers '),
        this.workersSelect,
        ...this.run.buttons,
      ),
      this.run.status,
      this.allButton,
      this.presetHint,
    );
    this.element.append(
      el(
        'div',
        { className: 'dashboard' },
        el('div', { className: 'dash-side' }, this.dataCard.element, trainCard, this.translate.controls),
        el(
          'div',
          { className: 'dash-main' },
          this.training.element,
          this.translate.result,
          this.training.lengthPart,
          this.error,
        ),
      ),
    );
  }

  private model(): ModelId {
    return this.modelSelect.value as ModelId;
  }

  private async useBuiltin(): Promise<void> {
    try {
      await this.adopt(await builtinPairs());
    } catch (error) {
      this.dataCard.error.textContent = errorMessage(error);
    }
  }

  private async loadFile(data: PairsData): Promise<void> {
    try {
      await this.adopt(data);
    } catch (error) {
      // The engine names the file and the line; the data and model loaded before stay.
      this.dataCard.error.textContent = errorMessage(error);
      this.element.dataset.dataError = '1';
    }
  }

  /** Reads the pairs through the engine (a session of the chosen model): on success they become
   *  the data every run trains on; on failure nothing changes. The presets follow the data's size:
   *  when it calls for the other size's, the pairs are read again with its split (the summary and
   *  the proposed epochs are then the presets' own). */
  private async adopt(data: PairsData): Promise<void> {
    let { info } = await this.create(data, this.model());
    const size = presetSize(info.trainExamples + info.testExamples);
    if (size !== this.size) ({ info } = await this.create(data, this.model(), this.engine, size));
    this.data = data;
    this.dataCard.error.textContent = '';
    delete this.element.dataset.dataError;
    this.training.clearRuns();
    this.translate.reset();
    this.dataCard.showSummary(data.builtin ? `Built-in corpus (${data.name})` : data.name, info);
    this.element.dataset.pairs = String(info.trainExamples + info.testExamples);
    await this.choosePresets(size, info.trainExamples);
    this.element.dataset.dataName = data.name;
  }

  /**
   * The presets of data this large: the hint under Train, the epochs proposed (a large file's
   * preset trains as many pairs whatever the file's size), and, unless the learner picked a model,
   * the model that learns such data best in the preset's minutes (models.ts defaultModel).
   */
  private async choosePresets(size: PresetSize, trainPairs: number): Promise<void> {
    const recipes = await this.recipes;
    this.size = size;
    this.element.dataset.presets = size;
    if (!this.modelPicked) this.modelSelect.value = defaultModel(size);
    this.presetHint.textContent = presetSummary(recipes, size);
    this.epochsInput.value = String(presetEpochs(recipes, this.model(), size, trainPairs));
  }

  /** A fresh session of `model` on `data` (its bytes are copied: the bridge transfers them). */
  private async create(data: PairsData, model: ModelId, engine = this.engine, size = this.size) {
    const epochs = Number(this.epochsInput.value);
    return engine.seq2seqCreate({
      ...runSettings(await this.recipes, model, epochs, size),
      parallelText: { data: data.bytes.slice(0), name: data.name },
    });
  }

  /** Trains each model in turn on the same data; each finished run joins the charts. */
  private async trainModels(models: ModelId[]): Promise<void> {
    this.queue = [...models];
    this.cancelled = false;
    this.error.textContent = '';
    this.translate.reset();
    while (this.queue.length > 0 && !this.cancelled) {
      const model = this.queue.shift()!;
      this.modelSelect.value = model;
      const ok = await this.trainOne(model, models.length > 1);
      if (!ok) break;
    }
    this.queue = [];
  }

  private async trainOne(model: ModelId, inTurn: boolean): Promise<boolean> {
    this.run.send('prepare');
    this.training.begin(model);
    let helper: Promise<Helper> | null = null;
    try {
      if (!this.data) this.data = await builtinPairs();
      // With 2 workers the helper reads the pairs while the tab's worker does (a large file takes
      // seconds to tokenise).
      if (this.workersSelect.value === '2') helper = this.startHelper(this.data, model);
      const { info, samples } = await this.create(this.data, model);
      if (this.data.builtin) this.dataCard.showSummary(`Built-in corpus (${this.data.name})`, info);
      this.translate.ready(model, samples);
      this.run.send(
        'start',
        `Training ${modelChoice(model).short}: ${info.parameters.toLocaleString('en-US')} parameters on ` +
          `${info.trainExamples.toLocaleString('en-US')} pairs${inTurn && this.queue.length ? ` (then ${this.queue.length} more)` : ''}…`,
      );
      const outcome = await this.train(helper);
      helper = null;
      const metrics = await this.engine.seq2seqEvaluate('test', 0);
      this.training.finish(metrics, outcome.cancelled, outcome.bestEpoch);
      this.run.send(outcome.cancelled ? 'cancel' : 'finish');
      this.translate.trained();
      return !outcome.cancelled;
    } catch (error) {
      void helper?.then((h) => h.bridge?.dispose());
      this.error.textContent = errorMessage(error);
      this.training.fail();
      this.run.send('fail');
      return false;
    }
  }

  /** A helper worker with the same session as the tab's worker builds, or why it could not start. */
  private async startHelper(data: PairsData, model: ModelId): Promise<Helper> {
    const bridge = new EngineBridge();
    try {
      await bridge.ready;
      await this.create(data, model, bridge);
      return { bridge };
    } catch (error) {
      bridge.dispose();
      return { bridge: null, error: errorMessage(error) };
    }
  }

  /**
   * Trains the session just created, on one worker or (Workers: 2) on two: the helper worker
   * (startHelper) has built the same session from the same data and settings and trains shard 2
   * of every batch, the page's engine worker coordinates (and alone reports progress). A helper
   * that could not start leaves the run on one worker, and the status line says why. The helper
   * goes when the run ends.
   */
  private async train(starting: Promise<Helper> | null) {
    const onProgress = (p: Seq2SeqProgress) => this.training.progress(p);
    const helper = starting ? await starting : null;
    if (helper?.error)
      this.run.status.textContent += ` (The second worker could not start: ${helper.error}; training on one.)`;
    this.element.dataset.workers = helper?.bridge ? '2' : '1';
    if (!helper?.bridge) return this.engine.seq2seqTrain({}, onProgress);
    const second = helper.bridge;
    try {
      return await trainOnTwoWorkers(
        (port) => second.seq2seqTrainReplica(port, 1, 2),
        (port) => this.engine.seq2seqTrain({}, onProgress, [port]),
        (message) => this.engine.seq2seqPeerFailed(message),
      );
    } finally {
      second.dispose();
    }
  }
}
