// Saving and loading the Studio's model: a downloadable .attn file, a file picker to load one,
// and models kept in this browser's storage (IndexedDB) listed with Load and Delete.
import type { EngineBridge } from '../../engine/bridge';
import { download } from '../../export/export';
import * as store from '../../storage/model_store';
import type { ModelInfo } from '../../../generated/attn_engine.mjs';
import { el, errorMessage } from '../dom';
import { pytorchExportButton } from './pytorch_export';

/** What the save panel needs from the Studio. */
export interface SaveHost {
  readonly engine: EngineBridge;
  busy(): boolean;
  /** The URL form of the settings, stored with a model. */
  settingsParams(): string;
  /** A model was loaded into the engine. */
  modelLoaded(info: ModelInfo): void;
}

export class SavePanel {
  readonly element = el('section', { className: 'studio-save' });
  /** Whether the engine holds a model (built, trained or loaded) that can be saved. */
  private hasModel = false;
  private readonly downloadButton = el('button', {
    type: 'button',
    textContent: 'Download model (.attn)',
    id: 'model-download',
    disabled: true,
  });
  private readonly pytorchButton = pytorchExportButton(
    () => this.host.engine.exportPytorch(),
    (status, error) => {
      this.status.textContent = status;
      this.error.textContent = error;
    },
  );
  private readonly uploadInput = el('input', { id: 'model-upload', type: 'file', accept: '.attn' });
  private readonly storeName = el('input', { id: 'store-name', type: 'text', value: 'my model', autocomplete: 'off' });
  private readonly storeButton = el('button', {
    type: 'button',
    textContent: 'Save in this browser',
    id: 'store-save',
    disabled: true,
  });
  private readonly storeList = el('table', { className: 'store-list', id: 'store-list' });
  private readonly status = el('p', { role: 'status', id: 'save-status' });
  private readonly error = el('p', { className: 'error', role: 'alert', id: 'save-error' });

  constructor(private readonly host: SaveHost) {
    this.element.setAttribute('aria-labelledby', 'save-heading');
    this.downloadButton.addEventListener('click', () => void this.downloadModel());
    this.uploadInput.addEventListener('change', () => {
      const file = this.uploadInput.files?.[0];
      if (file) void this.loadModelBytes(file.arrayBuffer(), `the file ${file.name}`);
      this.uploadInput.value = '';
    });
    this.storeButton.addEventListener('click', () => void this.storeModel());
    this.element.append(
      el('h3', { id: 'save-heading' }, 'Save and load models'),
      el(
        'div',
        { className: 'save-controls' },
        this.downloadButton,
        this.pytorchButton,
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
      this.status,
      this.error,
      this.storeList,
    );
    void this.refreshStore();
  }

  /** The engine now holds a model (or, `false`, none: new data dropped it). */
  setModel(has: boolean): void {
    this.hasModel = has;
    this.update();
  }

  /** Enables saving while a model exists and no run is in progress. */
  update(): void {
    const usable = this.hasModel && !this.host.busy();
    this.downloadButton.disabled = !usable;
    this.pytorchButton.disabled = !usable;
    this.storeButton.disabled = !usable;
  }

  private async downloadModel(): Promise<void> {
    this.error.textContent = '';
    try {
      const bytes = await this.host.engine.saveModel();
      download(new Blob([bytes], { type: 'application/octet-stream' }), 'sentiment-model.attn');
      this.status.textContent = `Model file made (${bytes.byteLength} bytes).`;
    } catch (error) {
      this.error.textContent = `Could not save the model: ${errorMessage(error)}`;
    }
  }

  private async storeModel(): Promise<void> {
    this.error.textContent = '';
    const name = this.storeName.value.trim();
    if (!name) {
      this.error.textContent = 'Give the model a name first.';
      return;
    }
    try {
      const bytes = await this.host.engine.saveModel();
      await store.saveModel(name, bytes, { settings: this.host.settingsParams() });
      this.status.textContent = `Saved “${name}” in this browser.`;
      await this.refreshStore();
    } catch (error) {
      this.error.textContent = `Could not save the model: ${errorMessage(error)}`;
    }
  }

  private async loadModelBytes(bytes: Promise<ArrayBuffer>, what: string): Promise<void> {
    this.error.textContent = '';
    if (this.host.busy()) {
      this.error.textContent = 'Cancel the training run before loading a model.';
      return;
    }
    try {
      const info = await this.host.engine.loadModel(await bytes);
      this.setModel(true);
      this.status.textContent = `Loaded ${what}: ${info.parameters} parameters, vocabulary ${info.vocabulary}, maxlen ${info.maxlen}.`;
      this.element.dataset.loaded = what;
      this.host.modelLoaded(info);
    } catch (error) {
      this.error.textContent = `Could not load ${what}: ${errorMessage(error)}`;
    }
  }

  private async refreshStore(): Promise<void> {
    let models: store.StoredModelInfo[];
    try {
      models = await store.listModels();
    } catch (error) {
      this.error.textContent = `Browser storage is not available: ${errorMessage(error)}`;
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
          this.error.textContent = `Could not delete “${m.name}”: ${errorMessage(error)}`;
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
