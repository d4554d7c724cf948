// The Studio's sentences about the loaded data and a finished run: pure functions, so node tests
// (tests/js/studio_units.test.mjs) cover every case without a page.
import type { DataSummary } from '../../../generated/attn_engine.mjs';
import { VALIDATION_SHARE } from './settings';
import { percent } from '../format';

/**
 * The fewest reviews a class needs before a stratified hold-out of `share` (0–1) takes one of it:
 * the engine holds out round(share × n) per class (data/splits.cpp), which is 0 below n = 0.5 / share.
 */
export function minimumPerClass(share: number): number {
  return Math.ceil(0.5 / share - 1e-9);
}

const SOURCE_NAMES: Record<string, string> = { builtin: 'the built-in corpus', synthetic: 'synthetic reviews' };

/**
 * One line on what is loaded, next to Train; with no test set it says why and what to load
 * (`holdoutPercent`: the file's hold-out share in percent).
 */
export function describeData(summary: DataSummary, holdoutPercent: number): string {
  const name = SOURCE_NAMES[summary.source] ?? summary.source;
  const text = `Data: ${name} — ${summary.trainExamples} training reviews, ${summary.testExamples} test reviews.`;
  if (summary.testExamples > 0) return text;
  const min = minimumPerClass(holdoutPercent / 100);
  return (
    `${text} No test set: a ${holdoutPercent}% hold-out takes a review only from a class with at least ${min} reviews, ` +
    `so a run can train but cannot report a test accuracy. Load at least ${min} reviews of each class ` +
    '(a few hundred for a test figure worth reading), or hold out a larger share.'
  );
}

/** What a finished (not cancelled) run reports. */
export interface RunOutcome {
  steps: number;
  /** Epochs that ran, and the epochs the settings asked for. */
  epochsRun: number;
  epochsPlanned: number;
  /** The epoch (0-based) whose parameters the model kept; −1 without validation. */
  bestEpoch: number;
  /** The engine's flag: patience ran out (also when that happened in the last planned epoch). */
  earlyStopped: boolean;
  patience: number;
  /** null: the data has no test set. */
  testAccuracy: number | null;
}

/**
 * The status line at the end of a run. "Stopped early" only when epochs were skipped: patience
 * running out in the last planned epoch skips nothing. No test set, no test figure.
 */
export function outcomeText(o: RunOutcome): string {
  const skipped = o.earlyStopped && o.epochsRun < o.epochsPlanned;
  let text = skipped
    ? `Stopped early after epoch ${o.epochsRun} of ${o.epochsPlanned} (${o.steps} steps): ` +
      `the validation loss had not improved for ${o.patience} epochs`
    : `Finished ${o.epochsRun} epochs (${o.steps} steps)`;
  text +=
    o.testAccuracy === null
      ? '; no test accuracy: the data has no test set (see the note by Train).'
      : `; test accuracy ${percent(o.testAccuracy)}.`;
  // As the command line does, the model ends with its best validation epoch's parameters.
  if (o.bestEpoch >= 0)
    text += ` Kept the parameters of epoch ${o.bestEpoch + 1} of ${o.epochsRun}, the lowest validation loss.`;
  return text;
}

/** The validation readout's label: which estimate it is. */
/** How the engine carved the validation split from the training reviews (DataSummary.split). */
export type SplitKind = 'random' | 'by group';

/** The validation readout's label: which estimate it is. */
export function validationLabel(split: SplitKind): string {
  return split === 'by group'
    ? `Validation (${100 * VALIDATION_SHARE}% of the training reviews, whole movies held out)`
    : `Validation (a random ${100 * VALIDATION_SHARE}% of the training reviews)`;
}

/** The note under the readouts: why validation and test accuracy differ. */
export function validationNote(split: SplitKind): string {
  const how =
    split === 'by group'
      ? `on ${100 * VALIDATION_SHARE}% of the training reviews, chosen by movie (or group) so that no movie is on both sides, `
      : `on a random ${100 * VALIDATION_SHARE}% of the training reviews `;
  const why =
    split === 'by group'
      ? 'Expect the test figure to be close but usually a little lower: the kept epoch was chosen because its ' +
        'validation score was good.'
      : 'Expect the test figure to be a little lower: the validation reviews come from the same pool as the training ' +
        'reviews (in IMDB, reviews of the same films), while an aclImdb test half is of other films, and the kept epoch ' +
        'was chosen because its validation score was good.';
  return (
    `Validation accuracy is measured after each epoch ${how}and picks the epoch the model keeps; ` +
    `the test accuracy at the end is measured once, on the test set. ${why}`
  );
}
