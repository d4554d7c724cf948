// The Studio's data choice: the built-in corpus, synthetic reviews, or the user's CSV / TSV /
// aclImdb .tar.gz (file picker, drop, or an unpacked folder), how a file's test set is drawn, and
// loading it into the main engine. Only the chosen source's inputs are shown (the synthetic
// generator's fields, or the file pickers and the test-set choice). Its statistics (StatsPanel)
// are placed by the Studio.
import type { EngineBridge } from '../../engine/bridge';
import type { DataSource } from '../../engine/protocol';
import type { DataSummary } from '../../../generated/attn_engine.mjs';
import { el, errorMessage } from '../dom';
import { folderArchive } from './folder_archive';
import { sentenceFilesPicker, sentenceSource, type SentencePair } from './sentence_files';
import { checkHoldout } from './recipes';
import { CHOICES, DEFAULTS, type StudioSettings } from './settings';
import type { HoldoutSplit, StatsPanel } from './stats_panel';
import { splitNote } from './split_note';

/** What the data panel needs from the Studio. */
export interface DataHost {
  readonly engine: EngineBridge;
  settings(): StudioSettings;
  busy(): boolean;
  writeUrl(): void;
  /** New data is in the engine (any model it had is gone). */
  dataLoaded(summary: DataSummary): Promise<void>;
  /** Loading failed (the message is under the data choice). */
  dataFailed(): void;
}

export class DataPanel {
  readonly element = el('section', { className: 'studio-data' });
  private file: File | null = null;
  /** The two-file layout (one sentence per line, one file per class), when chosen instead of `file`. */
  private sentencePair: SentencePair | null = null;
  /** The data the main engine holds; null: none yet or a new choice not loaded. */
  loaded: Promise<boolean> | null = null;
  /** The hold-out share (percent) and seed the loaded data was split with. */
  loadedSplit: HoldoutSplit = { percent: DEFAULTS.holdoutPercent, seed: DEFAULTS.splitSeed };

  private readonly radios = new Map<string, HTMLInputElement>();
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
  private readonly progress = el('progress', { id: 'data-progress', max: 1 });
  private readonly progressBox = el(
    'span',
    { hidden: true },
    el('label', { htmlFor: 'data-progress' }, 'Loading '),
    this.progress,
  );
  private readonly splitRadios = new Map<StudioSettings['testSet'], HTMLInputElement>();
  private readonly splitPercent = el('input', { id: 'split-percent', type: 'number', step: 'any', value: '10' });
  private readonly splitSeed = el('input', { id: 'split-seed', type: 'number', value: '1' });
  private readonly splitError = el('p', { className: 'error', role: 'alert', id: 'split-error' });
  private readonly splitNote = el('p', { className: 'hint', id: 'split-note', role: 'status' });
  private readonly status = el('p', { id: 'data-status', role: 'status' });
  /** The inputs that belong to one source, shown only while it is chosen. */
  private readonly sourceInputs: Partial<Record<StudioSettings['data'], HTMLElement>> = {};
  /** Shown by the Studio too (a failed load before training). */
  readonly error = el('p', { className: 'error', role: 'alert', id: 'data-error' });

  constructor(
    private readonly host: DataHost,
    private readonly stats: StatsPanel,
  ) {
    this.build();
  }

  private build(): void {
    this.element.setAttribute('aria-labelledby', 'data-heading');
    const choice = el('fieldset', { className: 'data-choice' }, el('legend', {}, 'Reviews to train on'));
    const labels: Record<string, string> = {
      builtin: 'Built-in corpus (short film reviews)',
      synthetic: 'Synthetic reviews',
      file: 'My file: CSV, TSV or aclImdb .tar.gz',
    };
    for (const value of CHOICES.data) {
      const radio = el('input', { type: 'radio', name: 'data-source', value, id: `data-${value}` });
      radio.addEventListener('change', () => {
        if (!radio.checked) return;
        this.host.settings().data = value;
        this.showSourceInputs(value);
        this.loaded = null;
        this.host.writeUrl();
        if (value !== 'file' || this.hasFile()) void this.load();
      });
      this.radios.set(value, radio);
      choice.append(el('div', {}, radio, el('label', { htmlFor: radio.id }, ` ${labels[value]}`)));
    }
    for (const input of [this.syntheticCount, this.syntheticSeed]) {
      input.addEventListener('change', () => {
        const settings = this.host.settings();
        settings.syntheticCount = Number(this.syntheticCount.value);
        settings.syntheticSeed = Number(this.syntheticSeed.value);
        this.host.writeUrl();
        if (settings.data === 'synthetic') this.loaded = null;
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
    this.loadButton.addEventListener('click', () => void this.load());
    this.sourceInputs.synthetic = el(
      'div',
      { className: 'synthetic-options' },
      el('label', { htmlFor: 'data-count' }, 'Synthetic reviews '),
      this.syntheticCount,
      el('label', { htmlFor: 'data-seed' }, ' generator seed '),
      this.syntheticSeed,
    );
    this.sourceInputs.file = el(
      'div',
      { className: 'file-options' },
      this.dropZone,
      el(
        'p',
        { className: 'hint' },
        'CSV/TSV: one review per line with a label column (0/1, pos/neg) and a text column; the test set is held out of it as chosen below. ' +
          'The file is read on this page only.',
      ),
      this.buildSplit(),
    );
    this.element.append(
      el('h3', { id: 'data-heading' }, 'Data'),
      choice,
      this.sourceInputs.synthetic,
      this.sourceInputs.file,
      el('div', { className: 'train-controls' }, this.loadButton, this.progressBox),
      this.status,
      this.error,
    );
  }

  /**
   * Shows the inputs of `source` only (the built-in corpus has none, and loads by itself: no
   * Load button either). A file can still be dropped anywhere on the Studio.
   */
  private showSourceInputs(source: StudioSettings['data']): void {
    for (const [name, part] of Object.entries(this.sourceInputs)) part.hidden = name !== source;
    this.loadButton.hidden = source === 'builtin';
  }

  private buildSplit(): HTMLFieldSetElement {
    const split = el(
      'fieldset',
      { className: 'data-split', id: 'data-split-choice' },
      el('legend', {}, 'Test set of a file or folder'),
    );
    const labels: Record<StudioSettings['testSet'], string> = {
      source: 'Its own test half where it has one (an aclImdb archive with test/), else the hold-out below',
      holdout: 'A stratified, seeded hold-out (from the training half of an archive that has both)',
    };
    for (const value of CHOICES.testSet) {
      const radio = el('input', { type: 'radio', name: 'data-split', value, id: `split-${value}` });
      radio.addEventListener('change', () => {
        if (radio.checked) this.splitChanged();
      });
      this.splitRadios.set(value, radio);
      split.append(el('div', {}, radio, el('label', { htmlFor: radio.id }, ` ${labels[value]}`)));
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
    return split;
  }

  /**
   * A file dropped anywhere on `area` loads like one dropped on the zone (left to the browser,
   * it would open the file and leave the page, losing the session).
   */
  acceptDrops(area: HTMLElement): void {
    area.addEventListener('dragover', (event) => event.preventDefault());
    area.addEventListener('drop', (event) => {
      event.preventDefault();
      this.dropZone.classList.remove('dragging');
      if (this.host.busy()) {
        this.error.textContent = 'Cancel the training run before loading other data.';
        return;
      }
      const file = event.dataTransfer?.files?.[0];
      if (file) this.chooseFile(file);
      else this.error.textContent = 'Nothing to load: drop a file (not text or a link).';
    });
  }

  /** Whether a file was chosen (a link cannot carry one). */
  hasFile(): boolean {
    return this.file !== null || this.sentencePair !== null;
  }

  /** Shows the settings' data choice and split. */
  write(settings: StudioSettings): void {
    this.radios.get(settings.data)!.checked = true;
    this.showSourceInputs(settings.data);
    this.syntheticCount.value = String(settings.syntheticCount);
    this.syntheticSeed.value = String(settings.syntheticSeed);
    this.splitRadios.get(settings.testSet)!.checked = true;
    this.splitPercent.value = String(settings.holdoutPercent);
    this.splitSeed.value = String(settings.splitSeed);
  }

  /** Locks the choice while a run is in progress. */
  setBusy(busy: boolean): void {
    this.loadButton.disabled = busy;
    for (const input of [this.splitPercent, this.splitSeed, this.fileInput, this.folderInput]) input.disabled = busy;
    for (const radio of [...this.splitRadios.values(), ...this.radios.values()]) radio.disabled = busy;
  }

  private chooseFile(file: File | null, pair: SentencePair | null = null): void {
    this.file = file;
    this.sentencePair = pair;
    this.host.settings().data = 'file';
    this.radios.get('file')!.checked = true;
    this.showSourceInputs('file');
    this.host.writeUrl();
    void this.load();
  }

  /**
   * An unpacked aclImdb folder: its {train,test}/{pos,neg}/*.txt reviews (all pos/neg files when
   * there is no train half) are packed into an aclImdb .tar.gz in memory, which the engine splits
   * like any archive (its test half, or the hold-out chosen below).
   */
  private async chooseFolder(files: File[]): Promise<void> {
    this.folderInput.value = '';
    this.error.textContent = '';
    this.progressBox.hidden = false;
    const archive = await folderArchive(files, (done, total) => {
      this.progress.value = done / total;
      this.status.textContent = `Reading the folder… ${done} of ${total} reviews`;
    });
    if (!archive) {
      this.progressBox.hidden = true;
      this.error.textContent =
        'No reviews in that folder: an aclImdb folder has train/pos, train/neg (and test/…) with one .txt file per review.';
      return;
    }
    this.chooseFile(new File([archive], 'aclImdb-folder.tar.gz', { type: 'application/gzip' }));
  }

  /** The chosen data as the engine takes it (a file is read again: loading transfers its buffer). */
  async source(): Promise<DataSource> {
    const s = this.host.settings();
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

  /** Loads the chosen data into the main engine and shows its statistics; resolves with success. */
  load(): Promise<boolean> {
    const run = (async () => {
      this.error.textContent = '';
      const data = this.host.settings().data;
      this.status.textContent =
        data === 'file' && this.file
          ? `Reading ${this.file.name}…`
          : data === 'file' && this.sentencePair
            ? `Reading ${this.sentencePair.positive.name} and ${this.sentencePair.negative.name}…`
            : 'Loading…';
      this.progressBox.hidden = false;
      this.progress.removeAttribute('value');
      this.loadButton.disabled = true;
      this.element.dataset.state = 'loading';
      try {
        const summary = await this.host.engine.loadData(await this.source(), (p) => {
          if (p.bytesTotal > 0) this.progress.value = p.bytesRead / p.bytesTotal;
          this.status.textContent = `Reading… ${p.examples} reviews so far`;
        });
        this.status.textContent = '';
        this.splitNote.textContent = splitNote(summary);
        this.element.dataset.testSet = summary.heldOut ? 'holdout' : 'source';
        await this.host.dataLoaded(summary);
        this.element.dataset.state = 'loaded';
        return true;
      } catch (error) {
        this.status.textContent = '';
        this.error.textContent = `Could not load the data: ${errorMessage(error)}`;
        this.stats.hide();
        this.host.dataFailed();
        this.element.dataset.state = 'failed';
        return false;
      } finally {
        this.progressBox.hidden = true;
        this.loadButton.disabled = this.host.busy();
      }
    })();
    this.loaded = run;
    return run;
  }

  /** A change of the test-set choice: checked at once, applied when the data is loaded again. */
  private splitChanged(): void {
    const check = checkHoldout(this.splitPercent.value, this.splitSeed.value);
    this.splitError.textContent = 'error' in check ? check.error : '';
    const settings = this.host.settings();
    settings.testSet = this.splitRadios.get('holdout')!.checked ? 'holdout' : 'source';
    if (!('error' in check)) {
      settings.holdoutPercent = Number(this.splitPercent.value);
      settings.splitSeed = check.seed;
    }
    this.host.writeUrl();
    if (settings.data === 'file') {
      this.loaded = null;
      this.splitNote.textContent = 'The new test set applies when the data is loaded again (Load data, or Train).';
    } else {
      this.splitNote.textContent =
        'This applies to a file or folder; the built-in and synthetic data have their own split.';
    }
  }
}
