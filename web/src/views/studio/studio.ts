// Sentiment Studio: pick data (built-in corpus, synthetic generator, or the user's CSV / TSV /
// aclImdb .tar.gz by file picker or drop), see its statistics, choose a model and its
// hyperparameters (kept in the URL), train with live loss / accuracy charts, watch the attention
// over a few reviews change as training proceeds (every snapshot kept on a timeline, thinned
// evenly beyond MAX_SNAPSHOTS), race a second configuration in a second worker from the same
// seed, recover from divergence with a lower learning rate, and save / load models.
//
// All engine work happens in workers (EngineBridge); this class only renders, once per
// animation frame at most. Text from data files (file names, reviews, tokens) is only ever set
// as text nodes.
import { prefersReducedMotion } from '../../app/theme';
import { EngineBridge } from '../../engine/bridge';
import type { DataSource, TrainingProgress, WatchedAttention } from '../../engine/protocol';
import { download } from '../../export/export';
import * as store from '../../storage/model_store';
import { createLineChart, SERIES_COLOURS, SERIES_DASHES, type ChartSeries } from '../chart';
import { el, readoutRow } from '../dom';
import { createHeatmap, formatValue, type Heatmap } from '../heatmap';
import { attentionModeToggle, createLinkView, type AttentionMode, type LinkView } from '../link_view';
import type { ViewContext } from '../types';
import type { DataStats, DataSummary } from '../../../generated/attn_engine.mjs';
import { BowPanel } from './bow_panel';
import { ExplainPanel } from './explain_panel';
import { folderArchive } from './folder_archive';
import { sentenceFilesPicker, sentenceSource, type SentencePair } from './sentence_files';
import {
  applyRecipe,
  baselineRecipe,
  checkHoldout,
  hasEngineRecipes,
  matchingRecipe,
  RECIPE_LABELS,
  suggestsRealDataRecipe,
  useEngineRecipes,
  type RecipeName,
} from './recipes';
import {
  CHOICES,
  DEFAULTS,
  describeDifference,
  formatRate,
  modelConfig,
  RACES,
  settingsFromModel,
  settingsFromParams,
  settingsToParams,
  trainerSettings,
  type RaceKind,
  type StudioSettings,
} from './settings';

export const WATCHED = ['the acting was not good', 'a wonderful film with a moving story'];
export const MAX_SNAPSHOTS = 500;
/** About this many attention snapshots per run (every 2 steps at least, every 100 at most). */
const SNAPSHOTS_PER_RUN = 100;
const PLAY_MS = 250;
const CHART_MS = 1000;
const RENDER_MS = 200;
const TABLES_MS = 2000;

type RunState = 'idle' | 'preparing' | 'training' | 'paused' | 'finished' | 'cancelled' | 'failed' | 'diverged';

/** One side of a run (A: the main engine; B: the race challenger). */
interface Curves {
  label: string;
  steps: number[];
  smoothed: number[];
  ema: number;
  seen: number;
  epochX: number[];
  valLoss: number[];
  valAccuracy: number[];
  trainAccuracy: number[];
  latest: TrainingProgress | null;
}

interface Snapshot {
  step: number;
  a?: WatchedAttention[];
  b?: WatchedAttention[];
}

interface WatchedView {
  stripA: HTMLParagraphElement;
  stripB: HTMLParagraphElement;
  stripDiff: HTMLParagraphElement;
  heatmap: Heatmap;
  /** The same pooling weights as lines from the pooling query to every token. */
  links: LinkView;
}

function newCurves(label: string): Curves {
  return {
    label,
    steps: [],
    smoothed: [],
    ema: 0,
    seen: 0,
    epochX: [],
    valLoss: [],
    valAccuracy: [],
    trainAccuracy: [],
    latest: null,
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/** Steps between snapshots for about SNAPSHOTS_PER_RUN of them (90% of the data trains). */
export function snapshotEvery(s: Pick<StudioSettings, 'epochs' | 'batchSize'>, trainExamples: number): number {
  const planned = s.epochs * Math.ceil((0.9 * trainExamples) / Math.max(1, s.batchSize));
  return Math.min(100, Math.max(2, Math.ceil(planned / SNAPSHOTS_PER_RUN)));
}

/** Keeps at most `max` snapshots: beyond it every second one goes (the newest always stays). */
export function thinSnapshots<T>(list: T[], max: number): T[] {
  if (list.length <= max) return list;
  const kept = list.filter((_, i) => i % 2 === 0);
  if (kept.at(-1) !== list.at(-1)) kept.push(list.at(-1)!);
  return kept;
}

export class Studio {
  readonly element = el('section', { className: 'studio', dataset: { testid: 'view-studio' } });
  private settings: StudioSettings = { ...DEFAULTS };
  private file: File | null = null;
  /** The two-file layout (one sentence per line, one file per class), when chosen instead of `file`. */
  private sentencePair: SentencePair | null = null;
  /** The data the main engine holds; null: none yet or a new choice not loaded. */
  private loaded: Promise<boolean> | null = null;
  private state: RunState = 'idle';
  private racing = false;
  private challenger: EngineBridge | null = null;
  private challengerSettings: StudioSettings | null = null;
  private curves: Curves[] = [];
  private snapshots: Snapshot[] = [];
  private watchedTexts: string[] = [];
  private watchedViews: WatchedView[] = [];
  private attentionMode: AttentionMode = 'heatmap';
  private following = true;
  private playTimer: number | null = null;
  private frameRequested = false;
  private chartsDrawn = 0;
  private renderedAt = 0;
  private summary: DataSummary | null = null;
  private lastStats: DataStats | null = null;
  private lastTestStats: DataStats | null = null;
  /** The hold-out share (percent) and seed the loaded data was split with. */
  private loadedSplit = { percent: DEFAULTS.holdoutPercent, seed: DEFAULTS.splitSeed };
  private tablesDrawn = 0;
  private shownSnapshot = '';
  private lastRate = DEFAULTS.learningRate;
  private readonly explain: ExplainPanel;
  private readonly bow: BowPanel;

  // ---- data ----
  private readonly dataSection = el('section', { className: 'studio-data' });
  private readonly dataRadios = new Map<string, HTMLInputElement>();
  private readonly syntheticCount = el('input', { id: 'data-count', type: 'number', min: '10', value: '1000' });
  private readonly syntheticSeed = el('input', { id: 'data-seed', type: 'number', value: '7' });
  private readonly fileInput = el('input', {
    id: 'data-upload',
    type: 'file',
    accept: '.csv,.tsv,.txt,.tar.gz,.tgz,.gz',
  });
  private readonly folderInput = el('input', {
    id: 'data-folder',
    type: 'file',
    webkitdirectory: true,
    multiple: true,
  });
  private readonly dropZone = el('div', { className: 'drop-zone', id: 'data-drop', dataset: { testid: 'data-drop' } });
  private readonly loadButton = el('button', { type: 'button', textContent: 'Load data', id: 'data-load' });
  private readonly dataProgress = el('progress', { id: 'data-progress', max: 1 });
  private readonly progressBox = el(
    'span',
    { hidden: true },
    el('label', { htmlFor: 'data-progress' }, 'Loading '),
    this.dataProgress,
  );
  private readonly splitRadios = new Map<StudioSettings['testSet'], HTMLInputElement>();
  private readonly splitPercent = el('input', { id: 'split-percent', type: 'number', step: 'any', value: '10' });
  private readonly splitSeed = el('input', { id: 'split-seed', type: 'number', value: '1' });
  private readonly splitError = el('p', { className: 'error', role: 'alert', id: 'split-error' });
  private readonly splitNote = el('p', { className: 'hint', id: 'split-note', role: 'status' });
  private readonly dataStatus = el('p', { id: 'data-status', role: 'status' });
  private readonly dataError = el('p', { className: 'error', role: 'alert', id: 'data-error' });
  private readonly stats = el('div', { className: 'data-stats', id: 'data-stats', hidden: true });

  // ---- training ----
  private readonly trainSection = el('section', { className: 'train-panel' });
  private readonly inputs = new Map<keyof StudioSettings, HTMLInputElement | HTMLSelectElement>();
  private readonly recipeSelect = el('select', { id: 'set-recipe' });
  private readonly recipeSuggestion = el('div', {
    className: 'recipe-suggestion',
    id: 'recipe-suggestion',
    role: 'status',
    hidden: true,
  });
  private readonly recipeSuggestionText = el('p', {});
  private readonly recipeSuggestionButton = el('button', {
    type: 'button',
    id: 'recipe-suggestion-apply',
    textContent: `Use the ${RECIPE_LABELS.imdb} recipe`,
  });
  private readonly settingsError = el('p', { className: 'error', role: 'alert', id: 'settings-error' });
  private readonly trainButton = el('button', {
    type: 'button',
    className: 'primary',
    textContent: 'Train',
    id: 'train-start',
  });
  private readonly pauseButton = el('button', {
    type: 'button',
    textContent: 'Pause',
    disabled: true,
    id: 'train-pause',
  });
  private readonly resumeButton = el('button', {
    type: 'button',
    textContent: 'Resume',
    disabled: true,
    id: 'train-resume',
  });
  private readonly cancelButton = el('button', {
    type: 'button',
    textContent: 'Cancel',
    disabled: true,
    id: 'train-cancel',
  });
  private readonly raceSelect = el('select', { id: 'race-kind' });
  private readonly raceButton = el('button', { type: 'button', textContent: 'Race', id: 'race-start' });
  private readonly status = el('p', { className: 'train-status', role: 'status', id: 'train-status' });
  private readonly readout = {
    step: el('output', { id: 'train-step' }),
    loss: el('output', { id: 'train-loss' }),
    accuracy: el('output', { id: 'train-accuracy' }),
    validation: el('output', { id: 'train-validation' }),
    speed: el('output', { id: 'train-speed' }),
    eta: el('output', { id: 'train-eta' }),
  };
  private readonly raceReadout = el('p', { id: 'race-readout', hidden: true });
  private readonly diverged = el('div', { className: 'diverged', id: 'diverged', hidden: true });
  private readonly divergedText = el('p', { className: 'error', role: 'alert', id: 'diverged-message' });
  private readonly retryButton = el('button', { type: 'button', id: 'retry-lower-lr' });
  private readonly trainError = el('p', { className: 'error', role: 'alert', id: 'train-error' });
  private readonly lossChart = createLineChart({
    title: 'Loss: training (per step, smoothed) and validation (per epoch)',
    testId: 'chart-loss',
    xLabel: 'Step',
    yLabel: 'Loss',
  });
  private readonly accuracyChart = createLineChart({
    title: 'Accuracy per epoch: training and validation',
    testId: 'chart-accuracy',
    xLabel: 'Step',
    yLabel: 'Accuracy',
    yRange: [0, 1],
  });
  private readonly watchedInput = el('textarea', { id: 'watched-text', rows: 2, value: WATCHED.join('\n') });
  private readonly watched = el('div', { className: 'watched', id: 'train-watched' });
  private readonly timeline = el('input', {
    id: 'timeline',
    type: 'range',
    min: '0',
    max: '0',
    value: '0',
    disabled: true,
  });
  private readonly timelineStep = el('output', { id: 'timeline-step' });
  private readonly playButton = el('button', {
    type: 'button',
    textContent: 'Play',
    id: 'timeline-play',
    disabled: true,
  });

  // ---- save / load ----
  private readonly saveSection = el('section', { className: 'studio-save' });
  private readonly downloadButton = el('button', {
    type: 'button',
    textContent: 'Download model (.attn)',
    id: 'model-download',
    disabled: true,
  });
  private readonly uploadInput = el('input', { id: 'model-upload', type: 'file', accept: '.attn' });
  private readonly storeName = el('input', { id: 'store-name', type: 'text', value: 'my model', autocomplete: 'off' });
  private readonly storeButton = el('button', {
    type: 'button',
    textContent: 'Save in this browser',
    id: 'store-save',
    disabled: true,
  });
  private readonly storeList = el('table', { className: 'store-list', id: 'store-list' });
  private readonly saveStatus = el('p', { role: 'status', id: 'save-status' });
  private readonly saveError = el('p', { className: 'error', role: 'alert', id: 'save-error' });
  private hasModel = false;

  constructor(
    private readonly engine: EngineBridge,
    private readonly context: Pick<ViewContext, 'replaceParams'>,
  ) {
    this.explain = new ExplainPanel(engine);
    this.bow = new BowPanel(
      engine,
      () => this.explain.reviewText,
      () => ({ seed: this.settings.seed, ...baselineRecipe() }),
    );
    this.explain.addComparison(this.bow.element, () => this.bow.textChanged());
    this.buildData();
    this.buildTraining();
    this.buildSave();
    const heading = el('h2', { tabIndex: -1 }, 'Sentiment Studio');
    this.element.append(
      heading,
      el(
        'p',
        { className: 'intro' },
        'Train a sentiment classifier with attention in your browser and watch what it attends to. ' +
          'Everything runs in background workers on this page; nothing is uploaded.',
      ),
      this.dataSection,
      this.trainSection,
      this.explain.element,
      this.saveSection,
    );
    this.setState('idle');
    void this.refreshStore();
    void this.loadRecipes();
  }

  /** The real-data presets are the engine's recipe table (the CLI's defaults), read once. */
  private async loadRecipes(): Promise<void> {
    if (!hasEngineRecipes()) useEngineRecipes(await this.engine.call('sentimentRecipes'));
    for (const option of this.recipeSelect.options) option.disabled = false;
    this.showRecipe();
    this.updateRecipeSuggestion();
  }

  /** Applies the route's parameters (first visit, links, back/forward). */
  show(params: URLSearchParams): void {
    const next = settingsFromParams(params);
    // A link cannot carry a file: fall back to the built-in corpus unless one was chosen here.
    if (next.data === 'file' && !this.file && !this.sentencePair) next.data = 'builtin';
    const dataChanged =
      next.data !== this.settings.data ||
      (next.data === 'synthetic' &&
        (next.syntheticCount !== this.settings.syntheticCount || next.syntheticSeed !== this.settings.syntheticSeed));
    this.settings = next;
    this.writeForm();
    if ((dataChanged || !this.loaded) && next.data !== 'file' && !this.busy()) void this.loadData();
  }

  // ---------------------------------------------------------------------------------------------
  // Data

  private buildData(): void {
    const heading = el('h3', { id: 'data-heading' }, 'Data');
    this.dataSection.setAttribute('aria-labelledby', 'data-heading');
    const fieldset = el('fieldset', { className: 'data-choice' }, el('legend', {}, 'Reviews to train on'));
    const labels: Record<string, string> = {
      builtin: 'Built-in corpus (short film reviews)',
      synthetic: 'Synthetic reviews',
      file: 'My file: CSV, TSV or aclImdb .tar.gz',
    };
    for (const value of CHOICES.data) {
      const radio = el('input', { type: 'radio', name: 'data-source', value, id: `data-${value}` });
      radio.addEventListener('change', () => {
        if (!radio.checked) return;
        this.settings.data = value;
        this.loaded = null;
        this.writeUrl();
        if (value !== 'file') void this.loadData();
        else if (this.file || this.sentencePair) void this.loadData();
      });
      this.dataRadios.set(value, radio);
      fieldset.append(el('div', {}, radio, el('label', { htmlFor: radio.id }, ` ${labels[value]}`)));
    }
    for (const input of [this.syntheticCount, this.syntheticSeed]) {
      input.addEventListener('change', () => {
        this.settings.syntheticCount = Number(this.syntheticCount.value);
        this.settings.syntheticSeed = Number(this.syntheticSeed.value);
        this.writeUrl();
        if (this.settings.data === 'synthetic') this.loaded = null;
      });
    }
    this.folderInput.addEventListener('change', () => {
      const files = this.folderInput.files;
      // A copy: clearing the input (so the same folder can be chosen again) empties its FileList.
      if (files?.length) void this.chooseFolder([...files]);
    });
    this.fileInput.addEventListener('change', () => {
      const file = this.fileInput.files?.[0];
      if (file) this.chooseFile(file);
    });
    this.dropZone.append(
      el('p', {}, 'Drop a CSV, TSV or aclImdb .tar.gz file here, or '),
      el('label', { htmlFor: 'data-upload' }, 'choose a file: '),
      this.fileInput,
      el('br'),
      el('label', { htmlFor: 'data-folder' }, 'or an unpacked aclImdb folder: '),
      this.folderInput,
      sentenceFilesPicker((pair) => this.chooseFile(null, pair)),
    );
    this.dropZone.addEventListener('dragover', (event) => {
      event.preventDefault();
      this.dropZone.classList.add('dragging');
    });
    this.dropZone.addEventListener('dragleave', () => this.dropZone.classList.remove('dragging'));
    // A file dropped anywhere on the Studio loads like one dropped on the zone (left to the
    // browser, it would open the file and leave the page, losing the session).
    this.element.addEventListener('dragover', (event) => event.preventDefault());
    this.element.addEventListener('drop', (event) => {
      event.preventDefault();
      this.dropZone.classList.remove('dragging');
      if (this.busy()) {
        this.dataError.textContent = 'Cancel the training run before loading other data.';
        return;
      }
      const file = event.dataTransfer?.files?.[0];
      if (file) this.chooseFile(file);
      else this.dataError.textContent = 'Nothing to load: drop a file (not text or a link).';
    });
    this.loadButton.addEventListener('click', () => void this.loadData());
    const split = el(
      'fieldset',
      { className: 'data-split', id: 'data-split-choice' },
      el('legend', {}, 'Test set of a file or folder'),
    );
    const splitLabels: Record<StudioSettings['testSet'], string> = {
      source: 'Its own test half where it has one (an aclImdb archive with test/), else the hold-out below',
      holdout: 'A stratified, seeded hold-out (from the training half of an archive that has both)',
    };
    for (const value of CHOICES.testSet) {
      const radio = el('input', { type: 'radio', name: 'data-split', value, id: `split-${value}` });
      radio.addEventListener('change', () => {
        if (radio.checked) this.splitChanged();
      });
      this.splitRadios.set(value, radio);
      split.append(el('div', {}, radio, el('label', { htmlFor: radio.id }, ` ${splitLabels[value]}`)));
    }
    for (const input of [this.splitPercent, this.splitSeed])
      input.addEventListener('change', () => this.splitChanged());
    split.append(
      el(
        'div',
        {},
        el('label', { htmlFor: 'split-percent' }, 'Hold out (% of the reviews, per class) '),
        this.splitPercent,
        el('label', { htmlFor: 'split-seed' }, ' split seed '),
        this.splitSeed,
      ),
      this.splitError,
      this.splitNote,
    );
    this.dataSection.append(
      heading,
      fieldset,
      el(
        'div',
        { className: 'synthetic-options' },
        el('label', { htmlFor: 'data-count' }, 'Synthetic reviews '),
        this.syntheticCount,
        el('label', { htmlFor: 'data-seed' }, ' generator seed '),
        this.syntheticSeed,
      ),
      this.dropZone,
      el(
        'p',
        { className: 'hint' },
        'CSV/TSV: one review per line with a label column (0/1, pos/neg) and a text column; the test set is held out of it as chosen below. ' +
          'The file is read on this page only.',
      ),
      split,
      el('div', { className: 'train-controls' }, this.loadButton, this.progressBox),
      this.dataStatus,
      this.dataError,
      this.stats,
    );
  }

  private chooseFile(file: File | null, pair: SentencePair | null = null): void {
    this.file = file;
    this.sentencePair = pair;
    this.settings.data = 'file';
    this.dataRadios.get('file')!.checked = true;
    this.writeUrl();
    void this.loadData();
  }

  /**
   * An unpacked aclImdb folder: its {train,test}/{pos,neg}/*.txt reviews (all pos/neg files when
   * there is no train half) are packed into an aclImdb .tar.gz in memory, which the engine splits
   * like any archive (its test half, or the hold-out chosen below).
   */
  private async chooseFolder(files: File[]): Promise<void> {
    this.folderInput.value = '';
    this.dataError.textContent = '';
    this.progressBox.hidden = false;
    const archive = await folderArchive(files, (done, total) => {
      this.dataProgress.value = done / total;
      this.dataStatus.textContent = `Reading the folder… ${done} of ${total} reviews`;
    });
    if (!archive) {
      this.progressBox.hidden = true;
      this.dataError.textContent =
        'No reviews in that folder: an aclImdb folder has train/pos, train/neg (and test/…) with one .txt file per review.';
      return;
    }
    this.chooseFile(new File([archive], 'aclImdb-folder.tar.gz', { type: 'application/gzip' }));
  }

  private async source(): Promise<DataSource> {
    const s = this.settings;
    if (s.data === 'synthetic') return { kind: 'synthetic', count: s.syntheticCount, seed: s.syntheticSeed };
    if (s.data === 'file') {
      if (this.sentencePair) {
        const check = checkHoldout(this.splitPercent.value, this.splitSeed.value);
        if ('error' in check) throw new Error(check.error);
        this.loadedSplit = { percent: Number(this.splitPercent.value), seed: check.seed };
        return sentenceSource(this.sentencePair, check.fraction, check.seed);
      }
      if (!this.file) throw new Error('Choose a file first (or drop one on the box above).');
      const check = checkHoldout(this.splitPercent.value, this.splitSeed.value);
      if ('error' in check) throw new Error(check.error);
      this.loadedSplit = { percent: Number(this.splitPercent.value), seed: check.seed };
      // A fresh copy each time: loadData transfers (detaches) the buffer it is given.
      return {
        kind: 'bytes',
        bytes: await this.file.arrayBuffer(),
        name: this.file.name,
        testSet: s.testSet,
        testFraction: check.fraction,
        seed: check.seed,
      };
    }
    return { kind: 'builtin' };
  }

  /** Loads the chosen data into the main engine and shows its statistics. */
  private loadData(): Promise<boolean> {
    const run = (async () => {
      this.dataError.textContent = '';
      this.dataStatus.textContent =
        this.settings.data === 'file' && this.file
          ? `Reading ${this.file.name}…`
          : this.settings.data === 'file' && this.sentencePair
            ? `Reading ${this.sentencePair.positive.name} and ${this.sentencePair.negative.name}…`
            : 'Loading…';
      this.progressBox.hidden = false;
      this.dataProgress.removeAttribute('value');
      this.loadButton.disabled = true;
      this.dataSection.dataset.state = 'loading';
      try {
        const summary = await this.engine.loadData(await this.source(), (p) => {
          if (p.bytesTotal > 0) this.dataProgress.value = p.bytesRead / p.bytesTotal;
          this.dataStatus.textContent = `Reading… ${p.examples} reviews so far`;
        });
        this.hasModel = false;
        this.updateModelButtons();
        this.dataStatus.textContent = '';
        this.splitNote.textContent = '';
        await this.showStats(summary);
        this.bow.dataChanged();
        this.dataSection.dataset.state = 'loaded';
        return true;
      } catch (error) {
        this.dataStatus.textContent = '';
        this.dataError.textContent = `Could not load the data: ${message(error)}`;
        this.stats.hidden = true;
        this.dataSection.dataset.state = 'failed';
        return false;
      } finally {
        this.progressBox.hidden = true;
        this.loadButton.disabled = this.busy();
      }
    })();
    this.loaded = run;
    return run;
  }

  private async showStats(summary?: DataSummary): Promise<void> {
    const stats = await this.engine.dataStats('train', 20);
    // The test set's class counts (an empty test set has none to show).
    const testStats = await this.engine.dataStats('test', 1).catch(() => null);
    if (summary) this.summary = summary;
    const stored = this.summary ?? undefined;
    this.lastStats = stats;
    this.lastTestStats = testStats;
    this.renderStats(stats, stored);
    this.updateRecipeSuggestion();
  }

  /** A change of the test-set choice: checked at once, applied when the data is loaded again. */
  private splitChanged(): void {
    const check = checkHoldout(this.splitPercent.value, this.splitSeed.value);
    this.splitError.textContent = 'error' in check ? check.error : '';
    this.settings.testSet = this.splitRadios.get('holdout')!.checked ? 'holdout' : 'source';
    if (!('error' in check)) {
      this.settings.holdoutPercent = Number(this.splitPercent.value);
      this.settings.splitSeed = check.seed;
    }
    this.writeUrl();
    if (this.settings.data === 'file') {
      this.loaded = null;
      this.splitNote.textContent = 'The new test set applies when the data is loaded again (Load data, or Train).';
    } else {
      this.splitNote.textContent =
        'This applies to a file or folder; the built-in and synthetic data have their own split.';
    }
  }

  /** Where the loaded test set comes from, in words. */
  private splitDescription(summary: DataSummary): string {
    if (summary.source === 'builtin') return "Test set: the built-in corpus' own test half.";
    if (summary.source === 'synthetic') return 'Test set: a stratified fifth of the generated reviews.';
    if (!summary.heldOut) return `Test set: the archive's own test half (${summary.testExamples} reviews).`;
    const { percent, seed } = this.loadedSplit;
    const from = summary.sourceHasTest
      ? "the archive's training half (its own test half is set aside)"
      : 'the reviews (the source has no test half of its own)';
    return `Test set: a stratified hold-out of ${percent}% (seed ${seed}) of ${from}.`;
  }

  /** The real-data recipe is suggested while a large data set is loaded and the form differs from it. */
  private updateRecipeSuggestion(): void {
    const reviews = this.summary ? this.summary.trainExamples + this.summary.testExamples : 0;
    const show = suggestsRealDataRecipe(this.settings, reviews);
    this.recipeSuggestion.hidden = !show;
    this.recipeSuggestionText.textContent = show
      ? `${reviews} reviews are loaded: a data set this large trains better with the “${RECIPE_LABELS.imdb}” recipe ` +
        '(the command line’s settings for real reviews: longer reviews, dropout, a decaying learning rate, early stopping).'
      : '';
  }

  /** Fills the settings with a recipe's values and shows them. */
  private useRecipe(name: RecipeName): void {
    const before = this.settings;
    this.settings = applyRecipe(name, this.settings);
    this.writeForm();
    if (this.lastStats && (before.maxlen !== this.settings.maxlen || before.numWords !== this.settings.numWords)) {
      this.renderStats(this.lastStats, this.summary ?? undefined);
    }
    this.writeUrl();
    this.updateRecipeSuggestion();
  }

  private showRecipe(): void {
    this.recipeSelect.value = matchingRecipe(this.settings) ?? 'custom';
  }

  private renderStats(stats: DataStats, summary?: DataSummary): void {
    const total = stats.positive + stats.negative;
    const share = (n: number) => (total ? percent(n / total) : '—');
    const balance = el(
      'table',
      { className: 'class-balance', id: 'class-balance' },
      el('caption', {}, 'Class balance (training set)'),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col' }, 'Class'),
          el('th', { scope: 'col' }, 'Reviews'),
          el('th', { scope: 'col' }, 'Share'),
        ),
      ),
      el(
        'tbody',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, 'Positive'),
          el('td', { id: 'stat-positive', dataset: { count: String(stats.positive) } }, String(stats.positive)),
          el('td', {}, share(stats.positive)),
        ),
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, 'Negative'),
          el('td', { id: 'stat-negative', dataset: { count: String(stats.negative) } }, String(stats.negative)),
          el('td', {}, share(stats.negative)),
        ),
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
        `Vocabulary coverage (top ${this.settings.numWords} words): ${percent(c.tokens)} of tokens and ${percent(c.words)} of distinct words are known; ` +
        `${c.truncated} reviews are longer than maxlen ${this.settings.maxlen} and get cut.`;
    } else {
      coverage.textContent = 'Vocabulary coverage: shown once a model (and so its vocabulary) exists — press Train.';
    }
    const test = this.lastTestStats;
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
    if (summary) this.dataSection.dataset.testSet = summary.heldOut ? 'holdout' : 'source';
    this.stats.replaceChildren(
      el(
        'p',
        { id: 'data-summary' },
        summary
          ? `${summary.source}: ${summary.trainExamples} training reviews, ${summary.testExamples} test reviews.`
          : '',
      ),
      el('p', { id: 'data-split' }, summary ? this.splitDescription(summary) : ''),
      classCounts,
      balance,
      lengths,
      this.histogram(stats),
      coverage,
    );
    this.stats.hidden = false;
  }

  /** The review-length histogram as SVG bars, with the model's maxlen as a vertical line. */
  private histogram(stats: DataStats): HTMLElement {
    const NS = 'http://www.w3.org/2000/svg';
    const W = 480;
    const H = 160;
    const left = 40;
    const bottom = 130;
    const bins = stats.histogram.length;
    const maxCount = Math.max(1, ...stats.histogram);
    const span = Math.max(bins * stats.binWidth, this.settings.maxlen * 1.05);
    const x = (tokens: number) => left + (tokens / span) * (W - left - 10);
    const y = (count: number) => bottom - (count / maxCount) * (bottom - 10);
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute(
      'aria-label',
      `Review lengths in tokens: ${bins} bins of ${stats.binWidth}; the model's maxlen ${this.settings.maxlen} is marked.`,
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
      }).append(
        Object.assign(document.createElementNS(NS, 'title'), {
          textContent: `${i * stats.binWidth}–${(i + 1) * stats.binWidth - 1} tokens: ${count}`,
        }),
      );
    });
    add('line', { x1: left, x2: W - 10, y1: bottom, y2: bottom, stroke: 'currentColor' });
    add('text', { x: left, y: bottom + 14, 'font-size': 11, fill: 'currentColor' }, '0');
    add(
      'text',
      { x: W - 10, y: bottom + 14, 'font-size': 11, 'text-anchor': 'end', fill: 'currentColor' },
      `${Math.round(span)} tokens`,
    );
    add('text', { x: left - 4, y: 14, 'font-size': 11, 'text-anchor': 'end', fill: 'currentColor' }, String(maxCount));
    const mx = x(this.settings.maxlen);
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
    add(
      'text',
      { x: mx - 4, y: 16, 'font-size': 11, 'text-anchor': 'end', fill: SERIES_COLOURS[1] },
      `maxlen ${this.settings.maxlen}`,
    );
    return el(
      'figure',
      { className: 'length-histogram', dataset: { testid: 'length-histogram', maxlen: String(this.settings.maxlen) } },
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
              el(
                'tr',
                {},
                el('td', {}, `${i * stats.binWidth}–${(i + 1) * stats.binWidth - 1}`),
                el('td', {}, String(count)),
              ),
            ),
          ),
        ),
      ),
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Model, hyperparameters, training

  private buildTraining(): void {
    const heading = el('h3', { id: 'train-heading' }, 'Train a sentiment model');
    this.trainSection.setAttribute('aria-labelledby', 'train-heading');
    const form = el('fieldset', { className: 'studio-settings' }, el('legend', {}, 'Model and hyperparameters'));
    const select = (key: keyof typeof CHOICES & keyof StudioSettings, label: string, names: Record<string, string>) => {
      const s = el('select', { id: `set-${key}` });
      for (const value of CHOICES[key]) if (names[value]) s.append(el('option', { value, textContent: names[value] }));
      this.inputs.set(key, s);
      form.append(el('div', { className: 'setting' }, el('label', { htmlFor: s.id }, label), s));
    };
    const number = (key: keyof StudioSettings, label: string, step = '1') => {
      const input = el('input', { id: `set-${key}`, type: 'number', step });
      this.inputs.set(key, input);
      form.append(el('div', { className: 'setting' }, el('label', { htmlFor: input.id }, label), input));
    };
    for (const name of Object.keys(RECIPE_LABELS) as RecipeName[]) {
      // "imdb" waits for the engine's recipe table (loadRecipes).
      this.recipeSelect.append(
        el('option', {
          value: name,
          textContent: RECIPE_LABELS[name],
          disabled: name === 'imdb' && !hasEngineRecipes(),
        }),
      );
    }
    this.recipeSelect.append(
      el('option', { value: 'custom', textContent: 'Custom (changed by hand)', disabled: true }),
    );
    this.recipeSelect.addEventListener('change', () => this.useRecipe(this.recipeSelect.value as RecipeName));
    form.append(
      el('div', { className: 'setting' }, el('label', { htmlFor: 'set-recipe' }, 'Recipe'), this.recipeSelect),
    );
    select('encoder', 'Encoder', {
      bilstm: 'Bidirectional LSTM',
      bigru: 'Bidirectional GRU',
      transformer: 'Transformer',
    });
    select('pooling', 'Pooling', { attention: 'Attention', last: 'Last state', mean: 'Mean' });
    select('score', 'Attention score', {
      additive: 'Additive (Bahdanau)',
      dot: 'Dot',
      scaled_dot: 'Scaled dot',
      general: 'General (bilinear)',
    });
    number('embedDim', 'Embedding size');
    number('units', 'Units');
    number('maxlen', 'Max length (tokens)');
    number('numWords', 'Vocabulary size');
    number('epochs', 'Epochs');
    number('batchSize', 'Batch size');
    number('learningRate', 'Learning rate', 'any');
    number('dropout', 'Dropout', 'any');
    number('wordDropout', 'Word dropout', 'any');
    select('schedule', 'Learning-rate schedule', {
      constant: 'Constant',
      linear: 'Linear decay',
      cosine: 'Cosine decay',
      inverse_sqrt: 'Inverse square root',
    });
    number('patience', 'Early-stopping patience (0 = off)');
    number('seed', 'Seed');
    for (const input of this.inputs.values()) input.addEventListener('change', () => this.readForm());
    for (const [value, race] of Object.entries(RACES))
      this.raceSelect.append(el('option', { value, textContent: race.label }));

    this.trainButton.addEventListener('click', () => void this.train(false));
    this.raceButton.addEventListener('click', () => void this.train(true));
    this.pauseButton.addEventListener('click', () => void this.control('pause'));
    this.resumeButton.addEventListener('click', () => void this.control('resume'));
    this.cancelButton.addEventListener('click', () => void this.control('cancel'));
    this.retryButton.addEventListener('click', () => {
      const inputs = this.inputs.get('learningRate')!;
      inputs.value = formatRate(this.lastRate / 10);
      this.readForm();
      void this.train(false);
    });
    this.diverged.append(this.divergedText, this.retryButton);
    this.recipeSuggestionButton.addEventListener('click', () => this.useRecipe('imdb'));
    this.recipeSuggestion.append(this.recipeSuggestionText, this.recipeSuggestionButton);
    this.timeline.addEventListener('input', () => {
      this.following = Number(this.timeline.value) === this.snapshots.length - 1;
      this.renderSnapshot(Number(this.timeline.value));
    });
    this.playButton.addEventListener('click', () => this.togglePlay());
    this.watchedInput.addEventListener('change', () => {
      if (!this.busy()) this.watchedTexts = this.watchedList();
    });

    this.trainSection.append(
      heading,
      this.recipeSuggestion,
      form,
      this.settingsError,
      el(
        'div',
        { className: 'train-controls' },
        this.trainButton,
        this.pauseButton,
        this.resumeButton,
        this.cancelButton,
        el('label', { htmlFor: 'race-kind' }, 'Race '),
        this.raceSelect,
        this.raceButton,
      ),
      this.status,
      this.diverged,
      this.trainError,
      el(
        'dl',
        { className: 'train-readout' },
        readoutRow('Step', this.readout.step),
        readoutRow('Loss (last batch)', this.readout.loss),
        readoutRow('Training accuracy (this epoch)', this.readout.accuracy),
        readoutRow('Validation', this.readout.validation),
        readoutRow('Speed', this.readout.speed),
        readoutRow('Time left', this.readout.eta),
      ),
      this.raceReadout,
      el('div', { className: 'studio-charts' }, this.lossChart.element, this.accuracyChart.element),
      el('h4', {}, 'Attention on watched reviews while training'),
      el('label', { htmlFor: 'watched-text' }, 'Watched reviews (one per line, up to 5; used from the next run)'),
      this.watchedInput,
      el(
        'div',
        { className: 'timeline' },
        el('label', { htmlFor: 'timeline' }, 'Snapshot '),
        this.timeline,
        this.timelineStep,
        this.playButton,
      ),
      attentionModeToggle('watched-mode', (mode) => this.showAttentionAs(mode)),
      this.watched,
    );
    this.watchedTexts = this.watchedList();
  }

  private watchedList(): string[] {
    return this.watchedInput.value
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(0, 5);
  }

  private writeForm(): void {
    for (const [key, input] of this.inputs) {
      const value = this.settings[key];
      input.value = key === 'learningRate' ? formatRate(value as number) : String(value);
    }
    this.dataRadios.get(this.settings.data)!.checked = true;
    this.syntheticCount.value = String(this.settings.syntheticCount);
    this.syntheticSeed.value = String(this.settings.syntheticSeed);
    this.splitRadios.get(this.settings.testSet)!.checked = true;
    this.splitPercent.value = String(this.settings.holdoutPercent);
    this.splitSeed.value = String(this.settings.splitSeed);
    this.showRecipe();
  }

  private readForm(): void {
    const next = { ...this.settings } as Record<string, string | number>;
    for (const [key, input] of this.inputs) next[key] = key in CHOICES ? input.value : Number(input.value);
    const redraw = next.maxlen !== this.settings.maxlen || next.numWords !== this.settings.numWords;
    this.settings = next as unknown as StudioSettings;
    this.settingsError.textContent = '';
    // The histogram marks maxlen; coverage names numWords (its numbers follow at the next model).
    if (redraw && this.lastStats) this.renderStats(this.lastStats, this.summary ?? undefined);
    this.writeUrl();
    this.showRecipe();
    this.updateRecipeSuggestion();
  }

  private writeUrl(): void {
    this.context.replaceParams(settingsToParams(this.settings));
  }

  private busy(): boolean {
    return this.state === 'preparing' || this.state === 'training' || this.state === 'paused';
  }

  private setState(state: RunState, text?: string): void {
    this.state = state;
    this.trainSection.dataset.state = state;
    const busy = this.busy();
    this.trainButton.disabled = busy;
    this.raceButton.disabled = busy;
    this.loadButton.disabled = busy;
    for (const input of this.inputs.values()) input.disabled = busy;
    for (const input of [this.recipeSelect, this.recipeSuggestionButton, this.splitPercent, this.splitSeed])
      input.disabled = busy;
    for (const radio of this.splitRadios.values()) radio.disabled = busy;
    for (const radio of this.dataRadios.values()) radio.disabled = busy;
    this.fileInput.disabled = busy;
    this.folderInput.disabled = busy;
    this.pauseButton.disabled = state !== 'training';
    this.resumeButton.disabled = state !== 'paused';
    this.cancelButton.disabled = !(state === 'training' || state === 'paused');
    const texts: Record<RunState, string> = {
      idle: 'No model yet: choose settings and press Train (or Race to train two configurations side by side).',
      preparing: 'Loading the data and building the model…',
      training: 'Training…',
      paused: 'Paused.',
      finished: 'Finished.',
      cancelled: 'Cancelled: the model keeps its best validated parameters.',
      failed: 'Training failed.',
      diverged: 'Training diverged.',
    };
    this.status.textContent = text ?? texts[state];
    this.updateModelButtons();
    // While a run is followed live the watched tables refresh only every TABLES_MS; when it ends
    // (or pauses) the last snapshot's tables are drawn at once, whatever the last frame skipped.
    if (!busy || state === 'paused') {
      this.shownSnapshot = '';
      this.render();
    }
  }

  private updateModelButtons(): void {
    const usable = this.hasModel && !this.busy();
    this.downloadButton.disabled = !usable;
    this.storeButton.disabled = !usable;
  }

  private async train(race: boolean): Promise<void> {
    if (this.busy()) return;
    this.readForm();
    this.settingsError.textContent = '';
    this.trainError.textContent = '';
    delete this.status.dataset.bestEpoch;
    this.diverged.hidden = true;
    this.stopPlay();
    const settings = { ...this.settings };
    this.lastRate = settings.learningRate;
    this.watchedTexts = this.watchedList();
    this.racing = race;
    this.challengerSettings = race ? RACES[this.raceSelect.value as RaceKind].challenger(settings) : null;
    this.setState('preparing');
    // The "preparing" state is painted before the worker is woken: once it trains it takes a core,
    // and the click's own style and layout work would then compete with it for the other.
    await afterNextPaint();
    try {
      if (!this.loaded || !(await this.loaded)) {
        if (!(await this.loadData())) throw new Error('no data: ' + this.dataError.textContent);
      }
      try {
        await this.engine.createModel(modelConfig(settings));
      } catch (error) {
        this.settingsError.textContent = `Settings rejected: ${message(error)}`;
        this.setState('failed', 'Fix the highlighted setting and press Train again.');
        return;
      }
      this.hasModel = true;
      void this.showStats().catch(() => undefined);
      let challenger: EngineBridge | null = null;
      if (race) {
        challenger = this.challenger = new EngineBridge();
        this.raceReadout.hidden = false;
        this.raceReadout.textContent = 'Starting the challenger’s worker…';
        await challenger.ready;
        await challenger.loadData(await this.source());
        try {
          await challenger.createModel(modelConfig(this.challengerSettings!));
        } catch (error) {
          this.settingsError.textContent = `Challenger settings rejected: ${message(error)}`;
          throw error;
        }
      } else {
        this.raceReadout.hidden = true;
      }
      this.resetRun(settings);
      this.setState('training');
      const options = {
        ...trainerSettings(settings),
        snapshotEvery: snapshotEvery(settings, this.summary?.trainExamples ?? 0),
        watched: this.watchedTexts,
      };
      const runA = this.engine.train(options, (p) => this.onProgress(0, p));
      const runB = challenger?.train(options, (p) => this.onProgress(1, p));
      const [a, b] = await Promise.allSettled([runA, runB ?? Promise.resolve(null)]);
      if (b.status === 'rejected') this.raceReadout.textContent = `Challenger: ${message(b.reason)}`;
      if (a.status === 'rejected') throw a.reason;
      const outcome = a.value;
      this.explain.modelChanged({ trained: true });
      if (outcome.cancelled) {
        this.setState('cancelled');
      } else {
        const test = await this.engine.evaluate('test');
        let text = `Finished after ${outcome.steps} steps; test accuracy ${percent(test.accuracy)}.`;
        // As the command line does, the model ends with its best validation epoch's parameters.
        this.status.dataset.bestEpoch = String(outcome.bestEpoch + 1);
        if (outcome.bestEpoch >= 0) {
          text +=
            ` Kept the parameters of epoch ${outcome.bestEpoch + 1} of ${outcome.epochs}, the lowest validation loss` +
            `${outcome.earlyStopped ? ' (stopped early: validation stopped improving)' : ''}.`;
        }
        if (challenger && b.status === 'fulfilled') {
          const testB = await challenger.evaluate('test');
          text += ` Challenger (${describeDifference(settings, this.challengerSettings!)}): ${percent(testB.accuracy)}.`;
          this.raceReadout.textContent = `Challenger test accuracy ${percent(testB.accuracy)}.`;
        }
        this.setState('finished', text);
      }
    } catch (error) {
      const text = message(error);
      if (/training diverged/.test(text)) {
        this.explain.modelChanged({ trained: true });
        this.divergedText.textContent = text;
        this.retryButton.textContent = `Retry with learning rate ${formatRate(this.lastRate / 10)}`;
        this.diverged.hidden = false;
        this.setState('diverged', `Training diverged at learning rate ${formatRate(this.lastRate)}.`);
      } else {
        this.trainError.textContent = text;
        this.setState('failed');
      }
    } finally {
      this.endRace();
      this.render();
    }
  }

  /** Race mode ends with its run: the challenger's worker goes (its curves and snapshots stay). */
  private endRace(): void {
    this.challenger?.dispose();
    this.challenger = null;
  }

  private async control(op: 'pause' | 'resume' | 'cancel'): Promise<void> {
    const bridges = [this.engine, ...(this.challenger ? [this.challenger] : [])];
    try {
      if (op === 'pause') {
        await Promise.all(bridges.map((b) => b.pause()));
        if (this.state === 'training') this.setState('paused');
      } else if (op === 'resume') {
        await Promise.all(bridges.map((b) => b.resume()));
        if (this.state === 'paused') this.setState('training');
      } else {
        await Promise.all(bridges.map((b) => b.cancel()));
      }
    } catch (error) {
      this.trainError.textContent = message(error);
    }
  }

  private resetRun(settings: StudioSettings): void {
    const b = this.challengerSettings;
    this.curves = [newCurves('A')];
    if (b) {
      this.curves[0].label = `A (${describeDifference(b, settings)})`;
      this.curves.push(newCurves(`B (${describeDifference(settings, b)})`));
    }
    this.snapshots = [];
    this.shownSnapshot = '';
    this.chartsDrawn = 0;
    this.following = true;
    for (const output of Object.values(this.readout)) output.textContent = '';
    this.readout.step.dataset.step = '0';
    this.watched.replaceChildren();
    this.watchedViews = this.watchedTexts.map((text, i) => {
      const stripA = el('p', { className: 'predict-tokens token-strip' });
      const stripB = el('p', { className: 'token-strip', hidden: !b });
      const stripDiff = el('p', { className: 'token-strip diff-strip', hidden: !b });
      const heatmap = createHeatmap(`Attention weights on watched review ${i + 1}`, `watched-${i}`);
      const links = createLinkView(`Pooling weights on watched review ${i + 1}`, `watched-links-${i}`, {
        threshold: 0.005,
        rowsName: 'the pooling query',
        colsName: 'the tokens',
      });
      links.setVisible(this.attentionMode === 'links');
      this.watched.append(
        el(
          'div',
          { className: 'watched-review' },
          el('p', { className: 'watched-text' }, `“${text}”`),
          stripA,
          stripB,
          stripDiff,
          heatmap.element,
          links.element,
        ),
      );
      return { stripA, stripB, stripDiff, heatmap, links };
    });
    this.timeline.max = '0';
    this.timeline.value = '0';
    this.timeline.disabled = true;
    this.playButton.disabled = true;
    this.timelineStep.textContent = '';
    this.lossChart.update([]);
    this.accuracyChart.update([]);
  }

  private onProgress(side: number, p: TrainingProgress): void {
    const c = this.curves[side];
    if (!c) return;
    c.latest = p;
    const first = p.step - p.losses.length + 1;
    for (let i = 0; i < p.losses.length; i++) {
      // Exponential moving average with bias correction (the first steps are not pulled to 0).
      c.seen += 1;
      c.ema = 0.9 * c.ema + 0.1 * p.losses[i];
      c.steps.push(first + i);
      c.smoothed.push(c.ema / (1 - 0.9 ** c.seen));
    }
    const epochs = this.settings.epochs || 1;
    for (const e of p.epochs) {
      c.epochX.push(((e.epoch + 1) * p.plannedSteps) / epochs);
      c.trainAccuracy.push(e.trainAccuracy);
      c.valLoss.push(e.validation?.loss ?? NaN);
      c.valAccuracy.push(e.validation?.accuracy ?? NaN);
      if (side === 0 && e.validation)
        this.readout.validation.textContent = `loss ${e.validation.loss.toFixed(3)}, accuracy ${percent(e.validation.accuracy)}`;
    }
    if (p.snapshot) this.addSnapshot(side, p.snapshot.step, p.snapshot.items);
    if (this.frameRequested) return;
    this.frameRequested = true;
    // At most RENDER_MS apart, in an animation frame: the page's drawing (software raster without
    // a GPU) must leave the CPU to the workers that train.
    const wait = Math.max(0, this.renderedAt + RENDER_MS - performance.now());
    window.setTimeout(
      () =>
        requestAnimationFrame(() => {
          this.frameRequested = false;
          this.renderedAt = performance.now();
          this.render();
        }),
      wait,
    );
  }

  private addSnapshot(side: number, step: number, items: WatchedAttention[]): void {
    let entry = this.snapshots.find((s) => s.step === step);
    if (!entry) {
      entry = { step };
      this.snapshots.push(entry);
      this.snapshots.sort((x, y) => x.step - y.step);
    }
    if (side === 0) entry.a = items;
    else entry.b = items;
    this.snapshots = thinSnapshots(this.snapshots, MAX_SNAPSHOTS);
  }

  private render(): void {
    const a = this.curves[0]?.latest;
    if (a) {
      this.readout.step.textContent = `${a.step} of ${a.plannedSteps} (epoch ${a.epoch + 1})`;
      this.readout.step.dataset.step = String(a.step);
      this.readout.loss.textContent = a.loss.toFixed(4);
      this.readout.accuracy.textContent = percent(a.runningAccuracy);
      if (!this.readout.validation.textContent) this.readout.validation.textContent = '—';
      this.readout.speed.textContent = `${a.stepsPerSecond.toFixed(1)} steps/s (${Math.round(a.examplesPerSecond)} reviews/s)`;
      this.readout.eta.textContent = Number.isFinite(a.etaSeconds) && !a.done ? `${Math.ceil(a.etaSeconds)} s` : '—';
    }
    const b = this.curves[1]?.latest;
    if (b && this.racing)
      this.raceReadout.textContent = `Challenger ${this.curves[1].label}: step ${b.step} of ${b.plannedSteps}, loss ${b.loss.toFixed(4)}, ${b.stepsPerSecond.toFixed(1)} steps/s.`;
    const loss: ChartSeries[] = [];
    const accuracy: ChartSeries[] = [];
    this.curves.forEach((c, side) => {
      const colour = SERIES_COLOURS[side];
      loss.push({
        name: `${c.label}: training (smoothed)`,
        xs: c.steps,
        ys: c.smoothed,
        colour,
        dash: SERIES_DASHES[side * 2],
      });
      loss.push({
        name: `${c.label}: validation`,
        xs: c.epochX,
        ys: c.valLoss,
        colour,
        dash: SERIES_DASHES[side * 2 + 1],
      });
      accuracy.push({
        name: `${c.label}: training`,
        xs: c.epochX,
        ys: c.trainAccuracy,
        colour,
        dash: SERIES_DASHES[side * 2],
      });
      accuracy.push({
        name: `${c.label}: validation`,
        xs: c.epochX,
        ys: c.valAccuracy,
        colour,
        dash: SERIES_DASHES[side * 2 + 1],
      });
    });
    // Redrawing the charts a few times a second is plenty, and keeps each frame's work small.
    const now = performance.now();
    if (this.curves.length && (now - this.chartsDrawn >= CHART_MS || !this.busy())) {
      this.chartsDrawn = now;
      this.lossChart.update(loss);
      this.accuracyChart.update(accuracy);
    }
    const n = this.snapshots.length;
    if (n) {
      this.timeline.disabled = false;
      this.playButton.disabled = false;
      this.timeline.max = String(n - 1);
      if (this.following && this.playTimer === null) this.timeline.value = String(n - 1);
      const index = Number(this.timeline.value);
      const snap = this.snapshots[index];
      // Only a different snapshot (or the other side's half arriving) is worth a redraw.
      const key = `${snap?.step}:${snap?.a ? 1 : 0}${snap?.b ? 1 : 0}:${index}/${n}`;
      if (key !== this.shownSnapshot) this.renderSnapshot(index);
    }
  }

  /** Shows snapshot `index` in the strips and heatmaps of the watched reviews. */
  private renderSnapshot(index: number): void {
    const snap = this.snapshots[Math.max(0, Math.min(index, this.snapshots.length - 1))];
    if (!snap) return;
    this.shownSnapshot = `${snap.step}:${snap.a ? 1 : 0}${snap.b ? 1 : 0}:${index}/${this.snapshots.length}`;
    this.timelineStep.textContent = `step ${snap.step} (${index + 1} of ${this.snapshots.length})`;
    this.timeline.setAttribute('aria-valuetext', `step ${snap.step}`);
    this.watched.dataset.step = String(snap.step);
    const live = this.state === 'training' && this.following;
    const now = performance.now();
    const tablesDue = now - this.tablesDrawn >= TABLES_MS;
    if (!live || tablesDue) this.tablesDrawn = now;
    this.watchedViews.forEach((view, i) => {
      const a = snap.a?.[i];
      const b = snap.b?.[i];
      const tokens = a?.tokens ?? b?.tokens ?? [];
      const wa = a?.weights ?? new Float32Array(0);
      const wb = b?.weights ?? new Float32Array(0);
      showStrip(view.stripA, a ? `A: P(positive) = ${a.probability.toFixed(2)}: ` : '', a?.tokens ?? [], wa);
      const race = this.curves.length > 1;
      view.stripB.hidden = view.stripDiff.hidden = !race;
      if (race) {
        showStrip(view.stripB, b ? `B: P(positive) = ${b.probability.toFixed(2)}: ` : '', b?.tokens ?? [], wb);
        const diff = tokens.map((_, t) => (wb[t] ?? 0) - (wa[t] ?? 0));
        showDiffStrip(view.stripDiff, tokens, diff);
      }
      const rows: { label: string; values: ArrayLike<number> }[] = [];
      if (wa.length) rows.push({ label: 'A', values: wa });
      if (race && wb.length) rows.push({ label: 'B', values: wb });
      if (race && wa.length && wb.length) rows.push({ label: 'B − A', values: tokens.map((_, t) => wb[t] - wa[t]) });
      // While following a live run the tables (the costly part to paint) refresh every TABLES_MS;
      // scrubbing, a paused or a finished run shows every snapshot's numbers at once.
      if (live && !tablesDue) return;
      if (!rows.length) {
        view.heatmap.element.hidden = true;
        return;
      }
      view.heatmap.element.hidden = this.attentionMode === 'links';
      // Pooling: one query (per model) to every token; drawn only while the link view is shown.
      const pools = rows.filter((r) => r.label !== 'B − A');
      const pooled: number[] = [];
      for (const r of pools) for (let t = 0; t < tokens.length; t++) pooled.push(r.values[t] ?? 0);
      view.links.update({
        values: pooled,
        rows: pools.length,
        cols: tokens.length,
        rowLabels: pools.map((r) => (race ? `pooling ${r.label}` : 'pooling')),
        colLabels: tokens,
      });
      const values: number[] = [];
      for (const r of rows) for (let t = 0; t < tokens.length; t++) values.push(r.values[t] ?? 0);
      view.heatmap.update({
        values,
        rows: rows.length,
        cols: tokens.length,
        rowLabels: rows.map((r) => r.label),
        colLabels: tokens,
      });
    });
  }

  /** The watched reviews' attention as heatmaps or as links (the other one is hidden and not drawn). */
  private showAttentionAs(mode: AttentionMode): void {
    this.attentionMode = mode;
    this.watched.dataset.mode = mode;
    for (const view of this.watchedViews) {
      if (view.heatmap.current()) view.heatmap.element.hidden = mode === 'links';
      view.links.setVisible(mode === 'links');
    }
  }

  private togglePlay(): void {
    if (this.playTimer !== null) {
      this.stopPlay();
      return;
    }
    if (this.snapshots.length < 2) return;
    // Reduced motion: no animation, just the first snapshot, then the user scrubs.
    if (prefersReducedMotion()) {
      this.timeline.value = '0';
      this.following = false;
      this.renderSnapshot(0);
      return;
    }
    let index = Number(this.timeline.value) >= this.snapshots.length - 1 ? 0 : Number(this.timeline.value);
    this.following = false;
    this.playButton.textContent = 'Stop';
    this.playButton.setAttribute('aria-pressed', 'true');
    const tick = () => {
      this.timeline.value = String(index);
      this.renderSnapshot(index);
      index += 1;
      if (index >= this.snapshots.length) {
        this.following = true;
        this.stopPlay();
      } else this.playTimer = window.setTimeout(tick, PLAY_MS);
    };
    tick();
  }

  private stopPlay(): void {
    if (this.playTimer !== null) window.clearTimeout(this.playTimer);
    this.playTimer = null;
    this.playButton.textContent = 'Play';
    this.playButton.removeAttribute('aria-pressed');
  }

  // ---------------------------------------------------------------------------------------------
  // Save and load

  private buildSave(): void {
    const heading = el('h3', { id: 'save-heading' }, 'Save and load models');
    this.saveSection.setAttribute('aria-labelledby', 'save-heading');
    this.downloadButton.addEventListener('click', () => void this.downloadModel());
    this.uploadInput.addEventListener('change', () => {
      const file = this.uploadInput.files?.[0];
      if (file) void this.loadModelBytes(file.arrayBuffer(), `the file ${file.name}`);
      this.uploadInput.value = '';
    });
    this.storeButton.addEventListener('click', () => void this.storeModel());
    this.saveSection.append(
      heading,
      el(
        'div',
        { className: 'save-controls' },
        this.downloadButton,
        el('label', { htmlFor: 'model-upload' }, 'Load a model file '),
        this.uploadInput,
      ),
      el(
        'div',
        { className: 'save-controls' },
        el('label', { htmlFor: 'store-name' }, 'Name '),
        this.storeName,
        this.storeButton,
      ),
      this.saveStatus,
      this.saveError,
      this.storeList,
    );
  }

  private async downloadModel(): Promise<void> {
    this.saveError.textContent = '';
    try {
      const bytes = await this.engine.saveModel();
      download(new Blob([bytes], { type: 'application/octet-stream' }), 'sentiment-model.attn');
      this.saveStatus.textContent = `Model file made (${bytes.byteLength} bytes).`;
    } catch (error) {
      this.saveError.textContent = `Could not save the model: ${message(error)}`;
    }
  }

  private async storeModel(): Promise<void> {
    this.saveError.textContent = '';
    const name = this.storeName.value.trim();
    if (!name) {
      this.saveError.textContent = 'Give the model a name first.';
      return;
    }
    try {
      const bytes = await this.engine.saveModel();
      await store.saveModel(name, bytes, { settings: settingsToParams(this.settings).toString() });
      this.saveStatus.textContent = `Saved “${name}” in this browser.`;
      await this.refreshStore();
    } catch (error) {
      this.saveError.textContent = `Could not save the model: ${message(error)}`;
    }
  }

  private async loadModelBytes(bytes: Promise<ArrayBuffer>, what: string): Promise<void> {
    this.saveError.textContent = '';
    if (this.busy()) {
      this.saveError.textContent = 'Cancel the training run before loading a model.';
      return;
    }
    try {
      const info = await this.engine.loadModel(await bytes);
      this.hasModel = true;
      this.updateModelButtons();
      this.saveStatus.textContent = `Loaded ${what}: ${info.parameters} parameters, vocabulary ${info.vocabulary}, maxlen ${info.maxlen}.`;
      this.saveSection.dataset.loaded = what;
      // The form shows the loaded model's architecture (Train would rebuild it from the form).
      this.settings = settingsFromModel(this.settings, info);
      this.writeForm();
      this.writeUrl();
      if (this.lastStats) void this.showStats().catch(() => undefined);
      this.explain.modelChanged({ trained: true });
    } catch (error) {
      this.saveError.textContent = `Could not load ${what}: ${message(error)}`;
    }
  }

  private async refreshStore(): Promise<void> {
    let models: store.StoredModelInfo[];
    try {
      models = await store.listModels();
    } catch (error) {
      this.saveError.textContent = `Browser storage is not available: ${message(error)}`;
      return;
    }
    const head = el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['Name', 'Saved', 'Size'].map((h) => el('th', { scope: 'col' }, h)),
        el('th', { scope: 'col' }, el('span', { className: 'visually-hidden' }, 'Actions')),
      ),
    );
    const body = el('tbody');
    for (const m of models.sort((x, y) => y.savedAt - x.savedAt)) {
      const load = el('button', { type: 'button', textContent: 'Load' });
      load.setAttribute('aria-label', `Load ${m.name}`);
      load.addEventListener(
        'click',
        () =>
          void this.loadModelBytes(
            store.loadModel(m.name).then((r) => r.bytes),
            `“${m.name}” from this browser`,
          ),
      );
      const remove = el('button', { type: 'button', textContent: 'Delete' });
      remove.setAttribute('aria-label', `Delete ${m.name}`);
      remove.addEventListener('click', async () => {
        try {
          await store.deleteModel(m.name);
        } catch (error) {
          this.saveError.textContent = `Could not delete “${m.name}”: ${message(error)}`;
        }
        await this.refreshStore();
      });
      body.append(
        el(
          'tr',
          { dataset: { name: m.name } },
          el('th', { scope: 'row' }, m.name),
          el('td', {}, new Date(m.savedAt).toLocaleString()),
          el('td', {}, `${(m.bytes / 1024).toFixed(1)} KiB`),
          el('td', {}, load, ' ', remove),
        ),
      );
    }
    if (!models.length) body.append(el('tr', {}, el('td', { colSpan: 4 }, 'No models saved in this browser yet.')));
    this.storeList.replaceChildren(el('caption', {}, 'Models saved in this browser'), head, body);
  }
}

/** Resolves once the page has rendered a frame (a task after the next animation frame). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/**
 * Shows `label` then one span per token in `container`. The spans of the same tokens are reused
 * from the last call (a live run or a scrubbed timeline changes only the weights), so a new
 * snapshot restyles them instead of laying out new text.
 */
function tokenSpans(container: HTMLElement, label: string, tokens: string[]): HTMLSpanElement[] {
  const key = JSON.stringify(tokens);
  if (container.dataset.tokens !== key) {
    container.dataset.tokens = key;
    container.replaceChildren(
      document.createTextNode(label),
      ...tokens.map((token) => el('span', { textContent: token })),
    );
  } else if (container.firstChild?.textContent !== label) container.firstChild!.textContent = label;
  return [...container.querySelectorAll<HTMLSpanElement>(':scope > span')];
}

/** A label, then each token with its weight as background strength (relative to the largest). */
function showStrip(container: HTMLElement, label: string, tokens: string[], weights: ArrayLike<number>): void {
  let max = 1e-9;
  for (let i = 0; i < weights.length; i++) max = Math.max(max, weights[i]);
  tokenSpans(container, label, tokens).forEach((span, i) => {
    const w = weights[i];
    span.className = 'token';
    span.title = w === undefined ? 'no attention weights' : `attention ${formatValue(w)}`;
    span.style.setProperty('--weight', w === undefined ? '0' : (w / max).toFixed(3));
    if (w !== undefined) span.dataset.weight = String(w);
    else delete span.dataset.weight;
  });
}

/** Tokens coloured by B − A: blue where B attends more, orange where A does (with the sign in the title). */
function showDiffStrip(container: HTMLElement, tokens: string[], diff: number[]): void {
  const max = Math.max(1e-9, ...diff.map(Math.abs));
  tokenSpans(container, 'B − A: ', tokens).forEach((span, i) => {
    const d = diff[i];
    span.className = `token ${d >= 0 ? 'more-b' : 'more-a'}`;
    span.title = `B − A = ${formatValue(d)}`;
    span.style.setProperty('--weight', (Math.abs(d) / max).toFixed(3));
    span.dataset.diff = String(d);
  });
}
