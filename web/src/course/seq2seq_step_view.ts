// "Your attention in the translator": trains a small seq2seq model with Bahdanau attention in the
// engine worker (its Seq2SeqSession), then decodes held-out inputs greedily twice through the
// engine's step API (seq2seq_step_decode.ts): once with the engine's own attention, once with the
// learner's alignBatch (their draft of the alignment_batch exercise), which runs in the code
// sandbox once per output position on every input at once. Their outputs, alignment matrix and
// exact match are shown next to the engine's. A right function matches the engine; a wrong one
// visibly breaks the model.
import type { EngineBridge } from '../engine/bridge';
import { el } from '../views/dom';
import { createInModelDemo } from './in_model_demo';
import { createHeatmap } from '../views/heatmap';
import { EXERCISES } from './exercises';
import type { Seq2SeqStepDemo } from './lessons/types';
import { NP_SOURCE } from './np_helper';
import type { ProgressStore } from './progress';
import { runCases } from './sandbox';
import { claimSeq2SeqSession, ownsSeq2SeqSession, shown } from './seq2seq_demo_view';
import {
  decodeWithAttention,
  engineAttention,
  exactMatch,
  type AlignOutcome,
  type BatchAttention,
  type StepDecoded,
  type StepEngine,
} from './seq2seq_step_decode';
import { percent, quickMode } from '../views/format';

/** The bridge calls the view needs (the page's EngineBridge). */
export type Seq2SeqStepEngine = Pick<
  EngineBridge,
  | 'seq2seqCreate'
  | 'seq2seqTrain'
  | 'seq2seqCancel'
  | 'seq2seqSamples'
  | 'seq2seqStepEncode'
  | 'seq2seqStepAttend'
  | 'seq2seqDecoderStep'
  | 'seq2seqTargetText'
>;

const EXERCISE_ID = 'alignment_batch';
/** Each sandbox run (one output position, every input) may take this long. */
const STEP_LIMIT_MS = 4000;

function stepEngine(engine: Seq2SeqStepEngine): StepEngine {
  return {
    stepEncode: (texts) => engine.seq2seqStepEncode(texts),
    stepAttend: (encoding, s) =>
      engine.seq2seqStepAttend({ annotations: encoding.annotations, mask: encoding.mask }, s),
    decoderStep: (previous, state, context) => engine.seq2seqDecoderStep(previous, state, context),
    targetText: (ids) => engine.seq2seqTargetText(ids),
  };
}

/** The learner's alignBatch in the sandbox: one run per decoder step, one case per batch. */
function sandboxAttention(code: string): BatchAttention {
  const functionName = EXERCISES[EXERCISE_ID].functionName;
  return async (batches) => {
    const results = await runCases({ code, functionName, inputs: batches, prelude: NP_SOURCE }, STEP_LIMIT_MS);
    return results.map((r): AlignOutcome => ('error' in r ? { error: r.error } : (r.value as AlignOutcome)));
  };
}

function alignmentMap(title: string, testId: string, d: StepDecoded) {
  const map = createHeatmap(title, testId);
  const rows = d.alignment.length;
  const cols = d.sourceTokens.length;
  map.update({
    values: d.alignment.flatMap((row) => row.slice(0, cols)),
    rows,
    cols,
    rowLabels: d.outputTokens.slice(0, rows).map(shown),
    colLabels: d.sourceTokens.map(shown),
    range: [0, 1],
  });
  return map.element;
}

export function createSeq2SeqStepView(
  demo: Seq2SeqStepDemo,
  engine: Seq2SeqStepEngine,
  progress: ProgressStore,
): HTMLElement {
  return createInModelDemo({
    className: 'training seq2seq-step',
    testId: `s2s-step-${demo.id}`,
    title: 'Your attention step in a trained translator',
    intro:
      'A GRU encoder–decoder with Bahdanau attention learns here to reverse digit strings. Then it decodes ' +
      'inputs it has never seen, greedily, twice: once with the engine’s own attention, once with your ' +
      'alignBatch from the exercise above (your current draft) doing every step’s attention — scores of the ' +
      'previous decoder state against every annotation, a softmax over time, the context. The engine does the ' +
      'rest of each step (the decoder cell, the softmax over the vocabulary, the choice of the next digit).',
    trainLabel: 'Train the reversal model',
    runLabel: 'Decode with my alignBatch',
    idleText: 'Train the model first; then decode with your alignBatch.',
    trainedText: 'Trained. Now decode with your alignBatch.',
    staleText: 'Another model was trained on this page since: train this one again first.',
    resultsClassName: 's2s-step-results',
    claim: claimSeq2SeqSession,
    owns: ownsSeq2SeqSession,
    train: async (setState, root) => {
      setState('training', 'Generating the data and building the model…');
      await engine.seq2seqCreate({ ...demo.settings, ...(quickMode() ? demo.quick : {}) });
      await engine.seq2seqTrain({}, (p) => {
        if (!root.isConnected) void engine.seq2seqCancel();
        setState('training', `Training… step ${p.step} of ${p.plannedSteps}`);
      });
    },
    run: async (setState, results) => {
      setState('running', 'Decoding with the engine’s attention…');
      const pairs = await engine.seq2seqSamples(demo.heldOut);
      const texts = pairs.map((p) => p.source);
      const targets = pairs.map((p) => p.target);
      const steps = stepEngine(engine);
      const theirs = await decodeWithAttention(steps, texts, engineAttention(steps));
      setState('running', 'Decoding with your alignBatch (in the sandbox, one run per output position)…');
      const code = progress.snapshot.drafts[EXERCISE_ID] ?? EXERCISES[EXERCISE_ID].starter;
      const mine = await decodeWithAttention(steps, texts, sandboxAttention(code));
      // The alignment matrices of one input, the engine's next to the learner's; a click on an
      // input in the table shows its own.
      const figures = el('div', { className: 'exercise-figures' });
      const showInput = (i: number) =>
        figures.replaceChildren(
          alignmentMap(`engine: ${theirs[i].source} → ${theirs[i].output}`, 's2s-step-engine-alignment', theirs[i]),
          alignmentMap(`yours: ${mine[i].source} → ${mine[i].output}`, 's2s-step-your-alignment', mine[i]),
        );
      showInput(0);
      const engineAccuracy = exactMatch(theirs, targets);
      const mineAccuracy = exactMatch(mine, targets);
      const table = el(
        'table',
        { className: 'pooling-table', dataset: { testid: 's2s-step-table' } },
        el(
          'thead',
          {},
          el('tr', {}, el('th', {}, 'input'), el('th', {}, 'target'), el('th', {}, 'engine'), el('th', {}, 'yours')),
        ),
        el(
          'tbody',
          {},
          ...pairs.map((p, i) =>
            el(
              'tr',
              {},
              el('td', {}, el('button', { type: 'button', title: 'show its alignment matrices' }, p.source)),
              el('td', {}, p.target),
              el('td', {}, `${theirs[i].output} ${theirs[i].output === p.target ? '✓' : '✗'}`),
              el(
                'td',
                {},
                mine[i].failure !== null
                  ? 'no usable attention'
                  : `${mine[i].output} ${mine[i].output === p.target ? '✓' : '✗'}`,
              ),
            ),
          ),
        ),
      );
      const failure = mine.find((d) => d.failure !== null)?.failure ?? null;
      results.replaceChildren(
        el(
          'p',
          { dataset: { testid: 's2s-step-accuracy' } },
          `Exact match on ${pairs.length} held-out inputs: engine ${percent(engineAccuracy)}, ` +
            `with your alignBatch ${percent(mineAccuracy)}.`,
        ),
        figures,
        table,
      );
      table
        .querySelectorAll('tbody button')
        .forEach((button, i) => button.addEventListener('click', () => showInput(i)));
      const same = mine.every((d, i) => d.failure === null && d.output === theirs[i].output);
      if (failure !== null) setState('done', `Your alignBatch could not drive the decoder (${failure}).`);
      else if (same) setState('done', 'Your attention gives the model the same outputs as the engine’s own.');
      else setState('done', 'Your attention changes what the model writes: compare the columns.');
    },
  });
}
