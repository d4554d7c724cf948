// The Seq2seq view's Translation tab: train an English→French model on real sentence pairs in the
// engine worker — the built-in corpus (web/public/data/pairs-en-fr.tsv, docs/translation-corpus.md)
// or a pairs file the learner drops in — with no attention, Bahdanau's, Luong's, or as a
// Transformer encoder–decoder; watch the loss and the held-out BLEU per epoch; translate a
// sentence and see its alignment (RNN) or its cross-attention per layer and head and the decoder's
// masked self-attention (Transformer), greedy against the beam's candidates; and draw the
// lecture's figure, BLEU by source length with one line per model trained on the same data.
// This module is the coordinator; models.ts holds the pure parts and translate_panel.ts the
// translation's drawing.
import { EngineBridge } from '../../engine/bridge';
import { defaultWorkers, trainOnTwoWorkers } from '../../engine/data_parallel';
import type { Seq2SeqEpoch, Seq2SeqProgress } from '../../engine/protocol';
import { createLineChart } from '../chart';
import { el, errorMessage, readoutRow, viewPart } from '../dom';
import { percent } from '../format';
import { RunControls } from '../run_controls';
import {
  bleuByLengthSeries,
  dataSummary,
  epochBleuSeries,
  MODELS,
  modelChoice,
  presetSummary,
  recipeTable,
  runSettings,
  unknownCell,
  unknownRows,
  type ModelId,
  type RecipeTable,
  type RunResult,
} from './models';
import type { Seq2SeqInfo } from '../../../generated/attn_engine.mjs';
import { TranslatePanel } from './translate_panel';
import './translation.css';

const BUILTIN = { url: 'data/pairs-en-fr.tsv', name: 'pairs-en-fr.tsv' };

interface PairsData {
  bytes: ArrayBuffer;
  name: string;
  builtin: boolean;
}

export class TranslationPanel {
  readonly element = el('section', { className: 'translation', dataset: { testid: 'translation' } });
  private data: PairsData | null = null;
  private readonly runs = new Map<ModelId, RunResult>();
  private current: RunResult | null = null;
  private losses: number[] = [];
  private frameRequested = false;
  private latest: Seq2SeqProgress | null = null;
  /** Set while "Train every model" runs: the models still to train. */
  private queue: ModelId[] = [];
  private cancelled = false;

  private readonly fileInput = el('input', {
    id: 'mt-file',
    type: 'file',
    accept: '.txt,.tsv,text/plain,text/tab-separated-values',
  });
  private readonly builtinButton = el('button', { type: 'button', textContent: 'Use the built-in corpus' });
  private readonly dropZone = el(
    'div',
    { className: 'mt-drop', dataset: { testid: 'mt-drop' } },
    el('p', {}, 'Drop a pairs file here (English ', el('kbd', {}, 'Tab'), ' French, one pair per line; .txt or .tsv).'),
  );
  private readonly dataStatus = el('p', { className: 'mt-data-status', dataset: { testid: 'mt-data-status' } });
  private readonly dataError = el('p', { className: 'error', role: 'alert', dataset: { testid: 'mt-data-error' } });
  /** The loaded data's <unk> rates per side, training and held out (hidden until data is read). */
  private readonly unknownTable = el('table', { className: 'mt-unk', dataset: { testid: 'mt-unk' }, hidden: true });

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
      idle: 'No model yet: pick a model and press Train (the preset trains in a minute or two).',
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
        this.fileInput,
        this.builtinButton,
        this.allButton,
      ])
        input.disabled = busy;
      this.element.toggleAttribute('data-busy', busy);
    },
  });
  private readonly readout = {
    model: el('output', { id: 'mt-run-model' }),
    step: el('output', { id: 'mt-step' }),
    speed: el('output', { id: 'mt-speed' }),
    loss: el('output', { id: 'mt-loss' }),
    bleu: el('output', { id: 'mt-bleu' }),
    final: el('output', { id: 'mt-final' }),
  };
  private readonly lossChart = createLineChart({
    title: 'Training loss (each batch)',
    testId: 'mt-loss-chart',
    xLabel: 'Step',
    yLabel: 'Loss',
    xFrom: 0,
  });
  private readonly bleuChart = createLineChart({
    title: 'Held-out BLEU after each epoch (greedy output, all references)',
    testId: 'mt-bleu-chart',
    xLabel: 'Epoch',
    yLabel: 'BLEU',
    yRange: [0, 100],
    xFrom: 0,
  });
  private readonly lengthChart = createLineChart({
    title: 'BLEU by source length, one line per model trained on the same data',
    testId: 'mt-length-chart',
    xLabel: 'Source length (words; buckets 1–5, 6–10, 11–15 …)',
    yLabel: 'BLEU',
    yRange: [0, 100],
  });
  private readonly lengthHint = el('p', { className: 'hint', dataset: { testid: 'mt-length-hint' } });
  private readonly error = el('p', { className: 'error', role: 'alert' });
  private readonly translate: TranslatePanel;

  constructor(private readonly engine: EngineBridge) {
    this.translate = new TranslatePanel(engine, (message) => (this.error.textContent = message));
    this.recipes = engine.call('seq2seqRecipes').then(recipeTable);
    void this.recipes.then(
      (recipes) => {
        this.presetHint.textContent = presetSummary(recipes);
        if (this.epochsInput.value === '')
          this.epochsInput.value = String(runSettings(recipes, 'bahdanau', NaN).epochs);
      },
      (error) => (this.error.textContent = errorMessage(error)),
    );
    this.build();
    this.run.refresh();
    this.showData();
    this.drawRuns();
  }

  private build(): void {
    for (const m of MODELS) this.modelSelect.append(el('option', { value: m.id, textContent: m.label }));
    this.modelSelect.value = 'bahdanau';
    this.workersSelect.value = defaultWorkers();
    this.fileInput.setAttribute('aria-describedby', 'mt-file-help');
    this.fileInput.addEventListener('change', () => {
      const file = this.fileInput.files?.[0];
      if (file) void this.loadFile(file);
      this.fileInput.value = '';
    });
    this.builtinButton.addEventListener('click', () => void this.useBuiltin());
    this.allButton.addEventListener('click', () => void this.trainModels(MODELS.map((m) => m.id)));
    for (const type of ['dragenter', 'dragover'])
      this.dropZone.addEventListener(type, (event) => {
        event.preventDefault();
        if (!this.fileInput.disabled) this.dropZone.dataset.over = '';
      });
    this.dropZone.addEventListener('dragleave', () => delete this.dropZone.dataset.over);
    this.dropZone.addEventListener('drop', (event) => {
      event.preventDefault();
      delete this.dropZone.dataset.over;
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      if (this.fileInput.disabled) {
        this.dataError.textContent = 'Wait for the training to end (or cancel it) before loading another file.';
        return;
      }
      void this.loadFile(file);
    });

    const dataCard = viewPart(
      el('h3', {}, 'Sentence pairs'),
      this.dataStatus,
      this.unknownTable,
      el('label', { htmlFor: 'mt-file' }, 'Load a pairs file '),
      this.fileInput,
      el(
        'p',
        { className: 'hint', id: 'mt-file-help' },
        'One pair per line: the English sentence, a tab, its French translation (the manythings.org / ' +
          'Tatoeba format; a third column is ignored). Pairs are held out by source sentence; BLEU uses every ' +
          'reference of a held-out sentence.',
      ),
      this.dropZone,
      this.builtinButton,
      this.dataError,
    );
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
        el('div', { className: 'dash-side' }, dataCard, trainCard, this.translate.controls),
        el(
          'div',
          { className: 'dash-main' },
          viewPart(
            el('h3', {}, 'Training'),
            el(
              'dl',
              { className: 'train-readout' },
              readoutRow('Model', this.readout.model),
              readoutRow('Step', this.readout.step),
              readoutRow('Speed', this.readout.speed),
              readoutRow('Loss (last batch)', this.readout.loss),
              readoutRow('Held-out BLEU (last epoch)', this.readout.bleu),
              readoutRow('Held-out, after training', this.readout.final),
            ),
            this.lossChart.element,
            this.bleuChart.element,
          ),
          this.translate.result,
          viewPart(el('h3', {}, 'BLEU by source length'), this.lengthChart.element, this.lengthHint),
          this.error,
        ),
      ),
    );
  }

  private model(): ModelId {
    return this.modelSelect.value as ModelId;
  }

  private showData(): void {
    if (!this.data)
      this.dataStatus.textContent =
        'Built-in corpus: 4,129 English→French pairs written for this project (not yet loaded).';
  }

  /** The data card: the pairs, the split, the vocabularies and what they cannot represent. */
  private showSummary(name: string, info: Seq2SeqInfo): void {
    this.dataStatus.textContent = dataSummary(
      name,
      info.trainExamples,
      info.testExamples,
      info.sourceVocabulary,
      info.targetVocabulary,
    );
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, '<unk>'),
      el('th', { scope: 'col' }, 'training'),
      el('th', { scope: 'col' }, 'held out'),
    );
    const rows = unknownRows(info).map((row) =>
      el(
        'tr',
        { dataset: { side: row.side } },
        el('th', { scope: 'row' }, row.label, el('span', { className: 'hint' }, row.tokenizer)),
        ...(['train', 'test'] as const).map((part) => {
          const cell = unknownCell(row[part]);
          return el(
            'td',
            {
              title: cell.counts,
              dataset: { part, tokenRate: String(row[part].tokenRate), sentenceRate: String(row[part].sentenceRate) },
            },
            el('span', {}, cell.words),
            el('span', {}, cell.sentences),
          );
        }),
      ),
    );
    this.unknownTable.replaceChildren(
      el(
        'caption',
        {},
        'Words outside the vocabularies become <unk>: the model can neither read nor write them, so the ' +
          'held-out share is a ceiling on its quality.',
      ),
      el('thead', {}, head),
      el('tbody', {}, ...rows),
    );
    this.unknownTable.hidden = false;
  }

  private async builtinData(): Promise<PairsData> {
    const response = await fetch(new URL(BUILTIN.url, document.baseURI));
    if (!response.ok) throw new Error(`could not load the built-in corpus (${response.status} ${response.statusText})`);
    return { bytes: await response.arrayBuffer(), name: BUILTIN.name, builtin: true };
  }

  private async useBuiltin(): Promise<void> {
    try {
      await this.adopt(await this.builtinData());
    } catch (error) {
      this.dataError.textContent = errorMessage(error);
    }
  }

  private async loadFile(file: File): Promise<void> {
    this.dataError.textContent = '';
    let bytes: ArrayBuffer;
    try {
      bytes = await file.arrayBuffer();
    } catch (error) {
      this.dataError.textContent = `${file.name}: the file could not be read (${errorMessage(error)})`;
      return;
    }
    try {
      await this.adopt({ bytes, name: file.name, builtin: false });
    } catch (error) {
      // The engine names the file and the line; the data and model loaded before stay.
      this.dataError.textContent = errorMessage(error);
      this.element.dataset.dataError = '1';
    }
  }

  /** Reads the pairs through the engine (a session of the chosen model): on success they become
   *  the data every run trains on; on failure nothing changes. */
  private async adopt(data: PairsData): Promise<void> {
    const { info } = await this.create(data, this.model());
    this.data = data;
    this.dataError.textContent = '';
    delete this.element.dataset.dataError;
    this.runs.clear();
    this.drawRuns();
    this.translate.reset();
    this.showSummary(data.builtin ? `Built-in corpus (${data.name})` : data.name, info);
    this.element.dataset.pairs = String(info.trainExamples + info.testExamples);
    this.element.dataset.dataName = data.name;
  }

  /** A fresh session of `model` on `data` (its bytes are copied: the bridge transfers them). */
  private async create(data: PairsData, model: ModelId, engine = this.engine) {
    const epochs = Number(this.epochsInput.value);
    return engine.seq2seqCreate({
      ...runSettings(await this.recipes, model, epochs),
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
    this.losses = [];
    this.latest = null;
    for (const output of Object.values(this.readout)) output.textContent = '';
    this.readout.step.dataset.step = '0';
    this.readout.model.textContent = modelChoice(model).label;
    this.current = { model, epochBleu: [], bleu: 0, bleuByLength: [] };
    this.lossChart.update([]);
    try {
      if (!this.data) this.data = await this.builtinData();
      const { info, samples } = await this.create(this.data, model);
      if (this.data.builtin) this.showSummary(`Built-in corpus (${this.data.name})`, info);
      this.translate.ready(model, samples);
      this.run.send(
        'start',
        `Training ${modelChoice(model).short}: ${info.parameters.toLocaleString('en-US')} parameters on ` +
          `${info.trainExamples.toLocaleString('en-US')} pairs${inTurn && this.queue.length ? ` (then ${this.queue.length} more)` : ''}…`,
      );
      const outcome = await this.train(this.data, model);
      const metrics = await this.engine.seq2seqEvaluate('test', 0);
      const result = this.current;
      // Parallel text always has a BLEU (null only for the built-in toy tasks).
      result.bleu = metrics.bleu ?? 0;
      result.bleuByLength = metrics.bleuByLength;
      this.readout.final.textContent =
        `BLEU ${result.bleu.toFixed(1)}, chrF ${metrics.chrf.toFixed(1)}, exact match ` +
        `${percent(metrics.exactMatch)} of ${metrics.sentences} sentences (teacher-forced token accuracy ` +
        `${percent(metrics.teacherForcedAccuracy)}, not a translation score)`;
      this.readout.final.dataset.bleu = String(result.bleu);
      if (!outcome.cancelled) this.runs.set(model, result);
      this.current = null;
      this.drawRuns();
      this.run.send(outcome.cancelled ? 'cancel' : 'finish');
      this.translate.trained();
      return !outcome.cancelled;
    } catch (error) {
      this.error.textContent = errorMessage(error);
      this.current = null;
      this.run.send('fail');
      return false;
    }
  }

  /**
   * Trains the session just created, on one worker or (Workers: 2) on two: a helper worker builds
   * the same session from the same data and settings and trains shard 2 of every batch, the
   * page's engine worker coordinates (and alone reports progress). A helper that cannot start
   * leaves the run on one worker, and the status line says why. The helper goes when the run ends.
   */
  private async train(data: PairsData, model: ModelId) {
    const onProgress = (p: Seq2SeqProgress) => this.onProgress(p);
    let helper: EngineBridge | null = null;
    if (this.workersSelect.value === '2') {
      helper = new EngineBridge();
      try {
        await helper.ready;
        await this.create(data, model, helper);
      } catch (error) {
        helper.dispose();
        helper = null;
        this.run.status.textContent += ` (The second worker could not start: ${errorMessage(error)}; training on one.)`;
      }
    }
    this.element.dataset.workers = helper ? '2' : '1';
    if (!helper) return this.engine.seq2seqTrain({}, onProgress);
    const second = helper;
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

  private onProgress(progress: Seq2SeqProgress): void {
    for (let i = 0; i < progress.losses.length; i++) this.losses.push(progress.losses[i]);
    for (const epoch of progress.epochs) this.onEpoch(epoch);
    this.latest = progress;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      const p = this.latest;
      if (!p) return;
      this.readout.step.textContent = `${p.step} of ${p.plannedSteps} (epoch ${Math.min(p.epoch + 1, Number(this.epochsInput.value) || p.epoch + 1)})`;
      this.readout.step.dataset.step = String(p.step);
      this.readout.speed.textContent =
        `${Math.round(p.examplesPerSecond).toLocaleString('en-US')} pairs/s on ` +
        `${p.workers} worker${p.workers === 1 ? '' : 's'}`;
      this.readout.speed.dataset.workers = String(p.workers);
      this.readout.loss.textContent = p.loss.toFixed(4);
      this.readout.loss.dataset.loss = String(p.loss);
      if (this.losses.length) this.readout.loss.dataset.firstLoss = String(this.losses[0]);
      this.lossChart.update([
        { name: 'Loss', xs: Float32Array.from(this.losses, (_, i) => i + 1), ys: Float32Array.from(this.losses) },
      ]);
    });
  }

  private onEpoch(epoch: Seq2SeqEpoch): void {
    if (!this.current) return;
    this.current.epochBleu[epoch.epoch] = epoch.bleu;
    if (epoch.bleu !== null) {
      this.readout.bleu.textContent = `${epoch.bleu.toFixed(1)} after epoch ${epoch.epoch + 1}`;
      this.readout.bleu.dataset.bleu = String(epoch.bleu);
      this.readout.bleu.dataset.epochs = String(epoch.epoch + 1);
    }
    this.drawRuns();
  }

  /** The BLEU-per-epoch chart (finished runs and the current one) and the lecture's figure. */
  private drawRuns(): void {
    const withCurrent = new Map(this.runs);
    if (this.current) withCurrent.set(this.current.model, { ...this.current, epochBleu: [...this.current.epochBleu] });
    this.bleuChart.update(epochBleuSeries(withCurrent));
    const lengthSeries = bleuByLengthSeries(this.runs);
    this.lengthChart.update(lengthSeries);
    this.lengthChart.element.hidden = lengthSeries.length === 0;
    this.lengthHint.textContent =
      lengthSeries.length === 0
        ? 'Each finished run adds its line here. Train with and without attention (or press “Train every model in turn”) to ' +
          'see where the fixed-length context of the RNN without attention gives out.'
        : lengthSeries.length === 1
          ? 'Train another model on the same data to compare it here.'
          : `${lengthSeries.length} models trained on the same pairs and the same held-out sentences.`;
  }
}
