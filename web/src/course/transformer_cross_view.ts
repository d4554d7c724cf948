// "Your cross-attention in a trained Transformer", lesson 11: trains a small Transformer
// encoder–decoder (causal mask) on digit reversal in the engine worker, then decodes held-out
// inputs greedily twice through the engine's cross-attention step API
// (transformer_cross_decode.ts): once with the engine's own cross-attention, once with the
// learner's crossAttention (their draft of the cross_attention exercise) computing every decoder
// block's cross-attention, head by head, in the code sandbox — one run per block and output
// position, every head and input at once. Outputs, cross-attention maps and exact match side by side.
import type { EngineBridge } from '../engine/bridge';
import { el } from '../views/dom';
import { createHeatmap } from '../views/heatmap';
import { percent, quickMode } from '../views/format';
import { EXERCISES } from './exercises';
import { createInModelDemo } from './in_model_demo';
import type { TransformerCrossDemo } from './lessons/types';
import { NP_SOURCE } from './np_helper';
import type { ProgressStore } from './progress';
import { runCases } from './sandbox';
import { claimSeq2SeqSession, ownsSeq2SeqSession, shown } from './seq2seq_demo_view';
import { exactMatch } from './seq2seq_step_decode';
import {
  decodeWithCrossAttention,
  engineCrossAttention,
  learnerCrossAttention,
  type CrossDecoded,
  type CrossEngine,
  type CrossOutcome,
} from './transformer_cross_decode';

export type TransformerCrossEngine = Pick<
  EngineBridge,
  | 'seq2seqCreate'
  | 'seq2seqTrain'
  | 'seq2seqCancel'
  | 'seq2seqSamples'
  | 'seq2seqCrossStart'
  | 'seq2seqCrossBegin'
  | 'seq2seqCrossAttend'
  | 'seq2seqCrossContinue'
  | 'seq2seqTargetText'
>;

const EXERCISE_ID = 'cross_attention';
/** Each sandbox run (one block of one output position: every head, every input) may take this long. */
const STEP_LIMIT_MS = 4000;

function crossEngine(engine: TransformerCrossEngine): CrossEngine {
  return {
    crossStart: (texts) => engine.seq2seqCrossStart(texts),
    crossBegin: (previous) => engine.seq2seqCrossBegin(previous),
    crossAttend: () => engine.seq2seqCrossAttend(),
    crossContinue: (heads, weights) => engine.seq2seqCrossContinue(heads, weights),
    targetText: (ids) => engine.seq2seqTargetText(ids),
  };
}

function crossMap(title: string, testId: string, d: CrossDecoded) {
  // Colours only, so the two maps read as pictures side by side (a reversal's anti-diagonal);
  // each cell's weight on hover or focus.
  const map = createHeatmap(title, testId, { numbers: 'on-demand' });
  const cols = d.sourceTokens.length;
  const rows = d.alignment.length;
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

export function createTransformerCrossView(
  demo: TransformerCrossDemo,
  engine: TransformerCrossEngine,
  progress: ProgressStore,
): HTMLElement {
  return createInModelDemo({
    className: 'training transformer-cross',
    testId: `cross-${demo.id}`,
    title: 'Your cross-attention in a trained Transformer',
    intro:
      'A small Transformer encoder–decoder (causal mask) learns here to reverse digit strings. Then it decodes ' +
      'inputs it has never seen, greedily, twice: once with the engine’s own cross-attention, once with your ' +
      'crossAttention from the exercise above (your current draft) doing the cross-attention of every decoder ' +
      'block at every step, one call per head — the queries from the decoder’s stream, the keys and values ' +
      'from the encoder’s output, the real source lengths of a padded batch. The engine does the rest (the ' +
      'masked self-attention, W_O, the feed-forward network, the choice of the next digit). The engine’s ' +
      'projections have biases: each input row gets a trailing 1 and each W a last row holding the bias, so ' +
      'x W + b is still one matrix product.',
    trainLabel: 'Train the Transformer',
    runLabel: 'Decode with my crossAttention',
    idleText: 'Train the model first; then decode with your crossAttention.',
    trainedText: 'Trained. Now decode with your crossAttention.',
    staleText: 'Another model was trained on this page since: train this one again first.',
    resultsClassName: 'cross-results',
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
      setState('running', 'Decoding with the engine’s cross-attention…');
      const pairs = await engine.seq2seqSamples(demo.heldOut);
      const texts = pairs.map((p) => p.source);
      const targets = pairs.map((p) => p.target);
      const steps = crossEngine(engine);
      const theirs = await decodeWithCrossAttention(steps, texts, engineCrossAttention(steps));
      setState('running', 'Decoding with your crossAttention (in the sandbox, one run per block and position)…');
      const code = progress.snapshot.drafts[EXERCISE_ID] ?? EXERCISES[EXERCISE_ID].starter;
      const functionName = EXERCISES[EXERCISE_ID].functionName;
      const mine = await decodeWithCrossAttention(
        steps,
        texts,
        learnerCrossAttention(async (heads) =>
          (await runCases({ code, functionName, inputs: heads, prelude: NP_SOURCE }, STEP_LIMIT_MS)).map(
            (r): CrossOutcome => ('error' in r ? { error: r.error } : (r.value as CrossOutcome)),
          ),
        ),
      );
      const figures = el('div', { className: 'exercise-figures' });
      const showInput = (i: number) =>
        figures.replaceChildren(
          crossMap(`engine: ${theirs[i].source} → ${theirs[i].output}`, 'cross-engine-map', theirs[i]),
          crossMap(`yours: ${mine[i].source} → ${mine[i].output}`, 'cross-your-map', mine[i]),
        );
      showInput(0);
      const engineAccuracy = exactMatch(theirs, targets);
      const mineAccuracy = exactMatch(mine, targets);
      const mark = (d: CrossDecoded, target: string) =>
        d.failure !== null ? 'no usable cross-attention' : `${d.output} ${d.output === target ? '✓' : '✗'}`;
      const table = el(
        'table',
        { className: 'lesson-table cross-table', dataset: { testid: 'cross-table' } },
        el(
          'thead',
          {},
          el('tr', {}, ...['input', 'target', 'engine', 'yours'].map((name) => el('th', { scope: 'col' }, name))),
        ),
        el(
          'tbody',
          {},
          ...pairs.map((p, i) =>
            el(
              'tr',
              {},
              el('td', {}, el('button', { type: 'button', title: 'show its cross-attention' }, p.source)),
              el('td', {}, p.target),
              el('td', {}, mark(theirs[i], p.target)),
              el('td', {}, mark(mine[i], p.target)),
            ),
          ),
        ),
      );
      results.replaceChildren(
        el(
          'p',
          { dataset: { testid: 'cross-accuracy' } },
          `Exact match on ${pairs.length} held-out inputs: engine ${percent(engineAccuracy)}, ` +
            `with your crossAttention ${percent(mineAccuracy)}.`,
        ),
        el(
          'p',
          { className: 'muted' },
          'The maps: the last decoder block’s cross-attention at each output step, averaged over the heads.',
        ),
        figures,
        table,
      );
      table
        .querySelectorAll('tbody button')
        .forEach((button, i) => button.addEventListener('click', () => showInput(i)));
      const failure = mine.find((d) => d.failure !== null)?.failure ?? null;
      const same = mine.every((d, i) => d.failure === null && d.output === theirs[i].output);
      if (failure !== null) setState('done', `Your crossAttention could not drive the decoder (${failure}).`);
      else if (same) setState('done', 'Your cross-attention gives the model the same outputs as the engine’s own.');
      else setState('done', 'Your cross-attention changes what the model writes: compare the columns.');
    },
  });
}
