// What lesson 12's translator shows after training, every number the engine's: the model and its
// data (with the <unk> rates, models.ts's text shared with the Translation tab), the epoch kept,
// teacher-forced token accuracy next to free-running BLEU, chrF and exact match, the beam's BLEU,
// the per-epoch table (Seq2SeqEpochReport) and greedy BLEU by source length; and the table of the
// learner's corpusBleu next to the engine's. DOM builders only: translation_demo_view.ts trains.
import type { Seq2SeqEpochReport, Seq2SeqInfo } from '../../generated/attn_engine.mjs';
import type { Seq2SeqEvaluation } from '../engine/protocol';
import { el } from '../views/dom';
import { formatBleu as bleu, percent } from '../views/format';
import { bucketLabel, unknownCell, unknownRows } from '../views/translation/models';

/** A table with a caption, one header row and the body's rows (cells as text). */
function table(testId: string, caption: string, columns: string[], rows: HTMLElement[]): HTMLElement {
  return el(
    'table',
    { className: 's2s-epoch-table', dataset: { testid: testId } },
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col' }, c)))),
    el('tbody', {}, ...rows),
  );
}

const tableRow = (...cells: (string | HTMLElement)[]) =>
  el('tr', {}, ...cells.map((c) => (typeof c === 'string' ? el('td', {}, c) : c)));

function epochTable(epochs: Seq2SeqEpochReport[]): HTMLElement {
  return table(
    'mt-epoch-table',
    'After each epoch: on the validation pairs (a tenth of the training pairs) the loss teacher-forced ' +
      '(right history given), words and sentences free running; held-out BLEU free running (greedy) on the ' +
      'held-out English sentences',
    ['epoch', 'loss (teacher-forced)', 'words right', 'exact match', 'held-out BLEU'],
    epochs.map((e) =>
      tableRow(
        String(e.epoch + 1),
        e.validationLoss === null ? '–' : e.validationLoss.toFixed(3),
        e.validation ? percent(e.validation.tokenAccuracy) : '–',
        e.validation ? percent(e.validation.exactMatch) : '–',
        bleu(e.bleu),
      ),
    ),
  );
}

/** One trained model's numbers, as the report shows them. */
export interface TrainedReport {
  modelName: string;
  fileName: string;
  info: Seq2SeqInfo;
  evaluation: Seq2SeqEvaluation;
  /** The epoch whose parameters were kept (-1: the last epoch's). */
  bestEpoch: number;
  epochs: Seq2SeqEpochReport[];
  beam: number;
  beamBleu: number | null;
}

export function trainedReport(r: TrainedReport): HTMLElement[] {
  const { info, evaluation } = r;
  return [
    el(
      'dl',
      { className: 'mt-metrics' },
      el('dt', {}, 'model'),
      el('dd', { dataset: { testid: 'mt-model-trained' } }, r.modelName),
      el('dt', {}, 'data'),
      el(
        'dd',
        {},
        `${r.fileName}: ${info.trainExamples} training pairs; ${evaluation.sentences} English sentences held out ` +
          `with all their translations (${info.testExamples} pairs); vocabularies of ` +
          `${info.sourceVocabulary} and ${info.targetVocabulary} words; ${info.parameters.toLocaleString('en')} parameters`,
      ),
      el('dt', {}, 'unknown words'),
      el(
        'dd',
        { dataset: { testid: 'mt-unknown' } },
        unknownRows(info)
          .map((row) => {
            const held = unknownCell(row.test);
            const trained = unknownCell(row.train);
            return (
              `${row.label} (${row.tokenizer}): <unk> is ${held.words} and ${held.sentences} held out ` +
              `(${held.counts}), ${trained.words} in training`
            );
          })
          .join('; '),
      ),
      el('dt', {}, 'model kept'),
      el(
        'dd',
        { dataset: { testid: 'mt-kept' } },
        r.bestEpoch >= 0
          ? `epoch ${r.bestEpoch + 1}'s parameters (the best free-running exact match on the validation pairs, ` +
              `then word accuracy, then loss); the numbers below are that model’s`
          : 'the last epoch’s parameters',
      ),
      el('dt', {}, 'teacher-forced'),
      el(
        'dd',
        { dataset: { testid: 'mt-teacher-forced' } },
        `token accuracy ${percent(evaluation.teacherForcedAccuracy)} on the ${evaluation.count} held-out pairs: ` +
          'the right next word is the first choice, given the right history',
      ),
      el('dt', {}, 'free-running, greedy'),
      el(
        'dd',
        { dataset: { testid: 'mt-free-running' } },
        `BLEU ${bleu(evaluation.bleu)}, chrF ${evaluation.chrf.toFixed(1)} on ${evaluation.sentences} held-out ` +
          `sentences; exact match ${percent(evaluation.exactMatch)} of the sentences (any translation), ` +
          `${percent(evaluation.pairExactMatch)} of the pairs`,
      ),
      el('dt', {}, `beam search (width ${r.beam})`),
      el('dd', { dataset: { testid: 'mt-beam-bleu' } }, `BLEU ${bleu(r.beamBleu)}`),
    ),
    epochTable(r.epochs),
    table(
      'mt-bleu-by-length',
      'Greedy BLEU by source length (held-out sentences)',
      ['source words', 'sentences', 'BLEU'],
      evaluation.bleuByLength.map((b) =>
        tableRow(bucketLabel(b), String(b.sentences), b.sentences > 0 ? bleu(b.bleu) : '–'),
      ),
    ),
  ];
}

/** The learner's corpusBleu (a score, or what went wrong) next to the engine's, per search. */
export function yourBleuTable(
  translations: number,
  labels: string[],
  engineScores: number[],
  yours: (number | string)[],
  agree: boolean[],
): HTMLElement {
  return table(
    'mt-your-bleu-table',
    `BLEU of the model's ${translations} held-out translations on lowercased mtTokenize tokens (the report above counts 13a tokens)`,
    ['search', 'engine', 'your corpusBleu'],
    labels.map((label, i) =>
      tableRow(
        label,
        engineScores[i].toFixed(2),
        el(
          'td',
          { dataset: { testid: 'mt-your-score' } },
          typeof yours[i] === 'number'
            ? `${(yours[i] as number).toFixed(2)} ${agree[i] ? '✓' : '✗'}`
            : String(yours[i]),
        ),
      ),
    ),
  );
}
