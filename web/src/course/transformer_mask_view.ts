// "What the mask is for", lesson 11: trains a small Transformer encoder–decoder in the engine worker
// (its Seq2SeqSession, model 'transformer') twice — with the causal mask and with no mask at all —
// and shows, for each, the engine's teacher-forced numbers (validation loss, token accuracy)
// next to free-running exact match on held-out inputs and a few of its outputs. Then "Train with
// my decoderMask" runs the learner's draft of the decoder_mask exercise once in the sandbox
// (decoderMask([L], L): one sentence of L positions, no padding — the engine hides each batch's
// padding itself), draws the mask and trains a third model with it (setDecoderMask, through
// seq2seqCreate's decoderMask). A mask that lets a position see the next one trains to a near
// perfect teacher-forced score and decodes nothing right. Every model keeps its last epoch
// (the lesson's restoreBest false) and the table's loss is that epoch's: the engine's default,
// the epoch that decodes best, is an early one for a decoder that peeks (docs/course.md).
// Two tables: each model's numbers, and what each writes for the same few held-out inputs.
import type { Seq2SeqEvaluation } from '../../generated/attn_engine.mjs';
import type { EngineBridge } from '../engine/bridge';
import type { Seq2SeqCreateSettings } from '../engine/protocol';
import { el } from '../views/dom';
import { createHeatmap } from '../views/heatmap';
import { percent, quickMode } from '../views/format';
import { EXERCISES } from './exercises';
import { createInModelDemo, type SetState } from './in_model_demo';
import type { TransformerMaskDemo } from './lessons/types';
import { NP_SOURCE } from './np_helper';
import type { ProgressStore } from './progress';
import { runCases } from './sandbox';
import { claimSeq2SeqSession } from './seq2seq_demo_view';

export type TransformerMaskEngine = Pick<
  EngineBridge,
  'seq2seqCreate' | 'seq2seqTrain' | 'seq2seqCancel' | 'seq2seqEvaluate' | 'seq2seqSamples' | 'seq2seqTranslate'
>;

const EXERCISE_ID = 'decoder_mask';
/** Positions of the learner's mask drawn (its top-left corner: the longest target and a little more). */
const DRAWN = 10;

/** What one trained model scored: the engine's numbers, and a few held-out outputs. */
export interface MaskRun {
  label: string;
  /** The teacher-forced validation loss of the epoch whose parameters the model holds. */
  loss: number;
  /** That epoch (0-based) and how many ran. */
  epochKept: number;
  epochsRun: number;
  evaluation: Seq2SeqEvaluation;
  examples: { source: string; target: string; output: string }[];
  /** The session's decodeLimit: the smallest mask it takes. */
  decodeLimit: number;
}

/**
 * Trains one model with `mask` (null: the causal one) and measures it; `label` names its rows in
 * the tables, `what` its training in the status line ("with no mask").
 */
export async function trainWithMask(
  engine: TransformerMaskEngine,
  demo: TransformerMaskDemo,
  label: string,
  what: string,
  mask: number[][] | null,
  onStep: (text: string) => void,
  connected: () => boolean = () => true,
): Promise<MaskRun> {
  const settings: Seq2SeqCreateSettings = { ...demo.settings, ...(quickMode() ? demo.quick : {}) };
  if (mask) settings.decoderMask = { shape: [mask.length, mask.length], data: mask.flat() };
  const { info } = await engine.seq2seqCreate(settings);
  const losses: number[] = [];
  const outcome = await engine.seq2seqTrain({}, (p) => {
    if (!connected()) void engine.seq2seqCancel();
    for (const e of p.epochs) losses[e.epoch] = e.validationLoss ?? NaN;
    onStep(`Training ${what}… step ${p.step} of ${p.plannedSteps}`);
  });
  // The epoch whose parameters the model holds: the last one (restoreBest false, or no validation)
  // or the best validation epoch the engine put back. The table's loss must be that model's: a
  // decoder that peeks scores best free-running in an early epoch, long before its loss bottoms out.
  const last = losses.length - 1;
  const epochKept = settings.restoreBest === false || outcome.bestEpoch < 0 ? last : outcome.bestEpoch;
  const evaluation = await engine.seq2seqEvaluate('test', 0);
  const pairs = await engine.seq2seqSamples(demo.examples);
  const examples = [];
  for (const p of pairs) examples.push({ ...p, output: (await engine.seq2seqTranslate(p.source, 1)).output });
  return {
    label,
    loss: losses[epochKept] ?? NaN,
    epochKept,
    epochsRun: losses.length,
    evaluation,
    examples,
    decodeLimit: info.decodeLimit,
  };
}

/** Which parameters the table's numbers are of. */
function keptText(runs: MaskRun[]): string {
  if (runs.every((r) => r.epochKept === r.epochsRun - 1)) return 'as its last epoch left it';
  return runs.map((r) => `${r.label}: epoch ${r.epochKept + 1} of ${r.epochsRun}`).join('; ');
}

/** A loss for the table (two significant digits: both models' fall far below 0.001), or a dash. */
const fixed = (x: number) => (Number.isFinite(x) ? x.toPrecision(2) : '–');

/** Each model's numbers, one row per model. */
function numbersTable(runs: MaskRun[]): HTMLTableElement {
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, 'decoder mask'),
    el('th', { scope: 'col' }, 'teacher-forced loss (validation)'),
    el('th', { scope: 'col' }, 'teacher-forced token accuracy'),
    el('th', { scope: 'col' }, 'free-running exact match'),
  );
  const rows = runs.map((r) =>
    el(
      'tr',
      { dataset: { run: r.label } },
      el('th', { scope: 'row' }, r.label),
      el('td', { className: 'number' }, fixed(r.loss)),
      el('td', { className: 'number' }, percent(r.evaluation.teacherForcedAccuracy)),
      el('td', { className: 'number' }, percent(r.evaluation.exactMatch)),
    ),
  );
  const count = runs[0]?.evaluation.count ?? 0;
  return el(
    'table',
    { className: 'lesson-table mask-table', dataset: { testid: 'mask-table' } },
    el(
      'caption',
      {},
      `The engine's numbers for each model trained here, ${keptText(runs)}; exact match on ${count} held-out inputs`,
    ),
    el('thead', {}, head),
    el('tbody', {}, ...rows),
  );
}

/** What each model writes for the same few held-out inputs (every run has the same test set). */
function outputsTable(runs: MaskRun[]): HTMLTableElement {
  const inputs = runs[0]?.examples ?? [];
  const row = (label: string, cells: string[]) =>
    el('tr', {}, el('th', { scope: 'row' }, label), ...cells.map((c) => el('td', {}, c)));
  return el(
    'table',
    { className: 'lesson-table mask-table', dataset: { testid: 'mask-outputs' } },
    el('caption', {}, 'What each model writes for a few held-out inputs'),
    el(
      'thead',
      {},
      el('tr', {}, el('th', { scope: 'col' }, 'input'), ...inputs.map((e) => el('th', { scope: 'col' }, e.source))),
    ),
    el(
      'tbody',
      {},
      row(
        'target',
        inputs.map((e) => e.target),
      ),
      ...runs.map((r) =>
        row(
          r.label,
          inputs.map((_, i) => {
            const e = r.examples[i];
            return e ? `${e.output || '(nothing)'} ${e.output === e.target ? '✓' : '✗'}` : '–';
          }),
        ),
      ),
    ),
  );
}

/** Why `value` is not an L × L mask of 0/1 (booleans count), or null. */
function maskProblem(value: unknown, size: number): string | null {
  if (!Array.isArray(value) || value.length !== 1) return `decoderMask([${size}], ${size}) did not return one mask`;
  const m = value[0];
  const ok =
    Array.isArray(m) &&
    m.length === size &&
    m.every((row) => Array.isArray(row) && row.length === size && row.every((x) => Number(x) === 0 || Number(x) === 1));
  return ok ? null : `its mask is not ${size} × ${size} of 0s and 1s`;
}

export function createTransformerMaskView(
  demo: TransformerMaskDemo,
  engine: TransformerMaskEngine,
  progress: ProgressStore,
): HTMLElement {
  const runs: MaskRun[] = [];
  let size = 0;
  const table = el('div', { className: 'mask-runs' });
  const figure = el('div', { className: 'exercise-figures' });
  const show = (results: HTMLElement) => {
    table.replaceChildren(numbersTable(runs), outputsTable(runs));
    if (!results.contains(table)) results.append(figure, table);
  };
  const step = (setState: SetState) => (text: string) => setState('training', text);
  return createInModelDemo({
    className: 'training transformer-mask',
    testId: `mask-${demo.id}`,
    title: 'What the mask is for: a decoder trained without it',
    intro:
      'A small Transformer encoder–decoder learns here to reverse digit strings, twice: once with the causal ' +
      'mask, once with no mask at all, so that every target position sees the whole target while it trains. ' +
      'For each the engine measures the loss and the token accuracy with teacher forcing, and exact match when ' +
      'the model decodes held-out inputs on its own, one digit at a time. Then train a third model with the ' +
      'mask your decoderMask above returns (your current draft, for one sentence without padding).',
    trainLabel: 'Train with and without the mask',
    runLabel: 'Train with my decoderMask',
    idleText: 'Train the two models first; then train one with your decoderMask.',
    trainedText: 'Both trained. Compare the columns; then train one with your decoderMask.',
    staleText: '',
    resultsClassName: 'mask-results',
    keepTrainingResults: true,
    claim: claimSeq2SeqSession,
    owns: () => true, // each run trains its own model
    train: async (setState, root, results) => {
      runs.length = 0;
      figure.replaceChildren();
      const connected = () => root.isConnected;
      runs.push(await trainWithMask(engine, demo, 'causal', 'with the causal mask', null, step(setState), connected));
      show(results);
      size = runs[0].decodeLimit;
      const open = Array.from({ length: size }, () => new Array<number>(size).fill(1));
      runs.push(await trainWithMask(engine, demo, 'no mask', 'with no mask', open, step(setState), connected));
      show(results);
    },
    run: async (setState, results) => {
      claimSeq2SeqSession();
      setState('running', 'Running your decoderMask in the sandbox…');
      const code = progress.snapshot.drafts[EXERCISE_ID] ?? EXERCISES[EXERCISE_ID].starter;
      const [answer] = await runCases(
        { code, functionName: EXERCISES[EXERCISE_ID].functionName, inputs: [[[size], size]], prelude: NP_SOURCE },
        4000,
      );
      const value = 'error' in answer ? null : answer.value;
      const why = 'error' in answer ? answer.error : maskProblem(value, size);
      if (why !== null) {
        setState('done', `Your decoderMask could not be used (${why}).`);
        return;
      }
      const mask = (value as unknown[][][])[0].map((row) => row.map((x) => Number(x)));
      // Colours only (a 0/1 pattern reads as a picture); each cell's value on hover or focus.
      const map = createHeatmap(`your mask (the first ${DRAWN} of ${size} positions)`, 'mask-yours', {
        numbers: 'on-demand',
      });
      const n = Math.min(DRAWN, size);
      map.update({
        values: mask.slice(0, n).flatMap((row) => row.slice(0, n)),
        rows: n,
        cols: n,
        rowLabels: Array.from({ length: n }, (_, i) => `q${i}`),
        colLabels: Array.from({ length: n }, (_, j) => `k${j}`),
        range: [0, 1],
      });
      figure.replaceChildren(map.element);
      const yours = await trainWithMask(engine, demo, 'yours', 'with your decoderMask', mask, (text) =>
        setState('running', text),
      );
      const at = runs.findIndex((r) => r.label === yours.label);
      if (at >= 0) runs.splice(at, 1, yours);
      else runs.push(yours);
      show(results);
      const causal = runs[0].evaluation.exactMatch;
      const mine = yours.evaluation.exactMatch;
      setState(
        'done',
        mine >= causal - 0.1
          ? `Your mask trains a decoder that decodes as well as the causal one (exact match ${percent(mine)}).`
          : yours.evaluation.teacherForcedAccuracy >= runs[0].evaluation.teacherForcedAccuracy - 0.05
            ? `Your mask lets the decoder peek: teacher forcing looks fine (${percent(yours.evaluation.teacherForcedAccuracy)}), ` +
              `decoding fails (exact match ${percent(mine)}).`
            : `Your mask trains a worse decoder: exact match ${percent(mine)} against the causal mask’s ${percent(causal)}.`,
      );
    },
  });
}
