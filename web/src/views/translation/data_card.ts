// The Translation tab's data card: the sentence pairs every run trains on — the built-in corpus or
// a file the learner picks or drops in — and, once the engine has read them, the split, the
// vocabularies and their <unk> rates per side, training and held out (the text from models.ts).
// The card reports what the learner chose; the coordinator (index.ts) has the engine read it.
import type { Seq2SeqInfo } from '../../../generated/attn_engine.mjs';
import { el, errorMessage, viewPart } from '../dom';
import { dataSummary, unknownCell, unknownRows } from './models';

const BUILTIN = { url: 'data/pairs-en-fr.tsv', name: 'pairs-en-fr.tsv' };

export interface PairsData {
  bytes: ArrayBuffer;
  name: string;
  builtin: boolean;
}

/** The built-in corpus (web/public/data/pairs-en-fr.tsv, docs/translation-corpus.md). */
export async function builtinPairs(): Promise<PairsData> {
  const response = await fetch(new URL(BUILTIN.url, document.baseURI));
  if (!response.ok) throw new Error(`could not load the built-in corpus (${response.status} ${response.statusText})`);
  return { bytes: await response.arrayBuffer(), name: BUILTIN.name, builtin: true };
}

export interface DataCardEvents {
  /** The learner picked or dropped a file (already read). */
  onPairs(data: PairsData): Promise<void>;
  /** The learner asked for the built-in corpus. */
  onBuiltin(): Promise<void>;
}

export class DataCard {
  readonly fileInput = el('input', {
    id: 'mt-file',
    type: 'file',
    accept: '.txt,.tsv,text/plain,text/tab-separated-values',
  });
  readonly builtinButton = el('button', { type: 'button', textContent: 'Use the built-in corpus' });
  private readonly dropZone = el(
    'div',
    { className: 'mt-drop', dataset: { testid: 'mt-drop' } },
    el('p', {}, 'Drop a pairs file here (English ', el('kbd', {}, 'Tab'), ' French, one pair per line; .txt or .tsv).'),
  );
  private readonly dataStatus = el('p', { className: 'mt-data-status', dataset: { testid: 'mt-data-status' } });
  /** Why the last file was refused (the engine names the file and the line). */
  readonly error = el('p', { className: 'error', role: 'alert', dataset: { testid: 'mt-data-error' } });
  /** The loaded data's <unk> rates per side, training and held out (hidden until data is read). */
  private readonly unknownTable = el('table', { className: 'mt-unk', dataset: { testid: 'mt-unk' }, hidden: true });

  readonly element = viewPart(
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
    this.error,
  );

  constructor(private readonly events: DataCardEvents) {
    this.fileInput.setAttribute('aria-describedby', 'mt-file-help');
    this.fileInput.addEventListener('change', () => {
      const file = this.fileInput.files?.[0];
      if (file) void this.loadFile(file);
      this.fileInput.value = '';
    });
    this.builtinButton.addEventListener('click', () => void this.events.onBuiltin());
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
        this.error.textContent = 'Wait for the training to end (or cancel it) before loading another file.';
        return;
      }
      void this.loadFile(file);
    });
    this.dataStatus.textContent =
      'Built-in corpus: 4,129 English→French pairs written for this project (not yet loaded).';
  }

  private async loadFile(file: File): Promise<void> {
    this.error.textContent = '';
    let bytes: ArrayBuffer;
    try {
      bytes = await file.arrayBuffer();
    } catch (error) {
      this.error.textContent = `${file.name}: the file could not be read (${errorMessage(error)})`;
      return;
    }
    await this.events.onPairs({ bytes, name: file.name, builtin: false });
  }

  /** The pairs, the split, the vocabularies and what they cannot represent. */
  showSummary(name: string, info: Seq2SeqInfo): void {
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
}
