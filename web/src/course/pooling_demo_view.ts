// "Your pooling in the model": trains a small sentiment classifier with dot-product attention
// pooling in the engine worker (its sentiment session, on the built-in corpus), then runs the
// learner's attentionPool (their draft of the attention_pooling exercise) in the code sandbox on
// one batch of the reviews' encoder outputs — reviews of different lengths padded to the model's
// maxlen, with their mask — and the learned query, and lets the classifier finish each review
// from the learner's weights on its real tokens (probabilityWithWeights). Their weights, weight
// on padding, P(positive) and accuracy are shown next to the engine's own. A right function
// matches the engine to float tolerance; one that gives padding weight takes it from the review
// (padding's states are zero) and visibly changes what the model says: the pooled vector is the
// engine's scaled by k (the weight left on the review), so the logit is b + k·(w·c) and every
// answer slides toward P(no evidence) = σ(b) — confidence falls, the class rarely changes.
import type { EngineBridge } from '../engine/bridge';
import { el } from '../views/dom';
import { createInModelDemo } from './in_model_demo';
import { createHeatmap } from '../views/heatmap';
import { EXERCISES } from './exercises';
import type { PoolingDemo } from './lessons/types';
import { NP_SOURCE } from './np_helper';
import { paddedBatch, splitWeights } from './pooling_batch';
import { drawPoolingShift } from './pooling_shift';
import { sentence } from './grader';
import type { ProgressStore } from './progress';
import { runInSandbox } from './sandbox';
import { claimSentimentSession, ownsSentimentSession } from './sentiment_owner';
import { percent, quickMode } from '../views/format';

/** The bridge calls the demo needs (the page's EngineBridge). */
export type PoolingEngine = Pick<
  EngineBridge,
  'loadData' | 'createModel' | 'train' | 'poolingProbe' | 'probabilityWithWeights'
>;

const EXERCISE_ID = 'attention_pooling';

export function createPoolingDemoView(demo: PoolingDemo, engine: PoolingEngine, progress: ProgressStore): HTMLElement {
  return createInModelDemo({
    className: 'pooling-demo',
    testId: `pooling-${demo.id}`,
    title: 'Your pooling in a trained model',
    intro:
      'The classifier below (BiLSTM encoder, attention pooling with a learned query q, a logistic output) is trained here. ' +
      'Its pooling step is then done by your attentionPool from the exercise above — your current draft — on one ' +
      'batch of the reviews below, each padded to the model’s length with a mask, as in training; the model ' +
      'finishes every prediction from your weights on the review’s real tokens. Weight you give to padding is ' +
      'weight taken from the review.',
    trainLabel: 'Train the classifier',
    runLabel: 'Run my attentionPool in the model',
    idleText: 'Train the classifier first; then run your attentionPool inside it.',
    trainedText: 'Trained. Now run your attentionPool in it.',
    staleText: 'Another demo has trained a model since: train the classifier again.',
    resultsClassName: 'pooling-results',
    claim: claimSentimentSession,
    owns: ownsSentimentSession,
    train: async (setState) => {
      setState('training', 'Loading the built-in reviews…');
      await engine.loadData({ kind: 'builtin' });
      await engine.createModel(demo.model);
      setState('training', 'Training…');
      const settings = quickMode() && demo.quick ? demo.quick : demo.training;
      await engine.train(settings, (p) => {
        if ('step' in p && typeof p.step === 'number') setState('training', `Training… step ${p.step}`);
      });
      progress.markTrained(demo.id);
    },
    run: async (setState, results) => {
      setState('running', 'Running your attentionPool on the batch of reviews…');
      const probes = await Promise.all(demo.reviews.map((r) => engine.poolingProbe(r.text)));
      // One batch, as the model trains: every review padded to the model's maxlen (pooling_batch.ts).
      const width = Math.max(Number(demo.model.maxlen ?? 0), ...probes.map((p) => p.hidden.shape[0]));
      const { hidden: batch, mask } = paddedBatch(
        probes.map((p) => p.hidden),
        width,
      );
      const query = Array.from(probes[0].query);
      const code = progress.snapshot.drafts[EXERCISE_ID] ?? EXERCISES[EXERCISE_ID].starter;
      const outcome = await runInSandbox(
        {
          code,
          functionName: EXERCISES[EXERCISE_ID].functionName,
          inputs: [[batch, query, mask]],
          prelude: NP_SOURCE,
        },
        4000,
      );
      if (outcome.type !== 'results') {
        const why = outcome.type === 'timeout' ? `it did not finish in ${outcome.ms / 1000} s` : outcome.type;
        setState('failed', `Your attentionPool could not run: ${'message' in outcome ? outcome.message : why}.`);
        return;
      }
      const result = outcome.results[0];
      if ('error' in result) {
        setState('failed', sentence(`Your attentionPool threw ${result.error}`));
        return;
      }
      const all = (result.value as { weights?: unknown } | null)?.weights;
      const rows: {
        text: string;
        label: number;
        tokens: string[];
        engine: number[];
        /** The learner's weights over the whole padded row (real tokens, then padding). */
        mine: number[] | null;
        onPadding: number | null;
        pEngine: number;
        pMine: number | null;
      }[] = [];
      for (let i = 0; i < demo.reviews.length; i++) {
        const t = probes[i].weights.length;
        const raw = Array.isArray(all) ? (all as unknown[])[i] : undefined;
        const split = splitWeights(raw, t, width);
        const pMine = split ? await engine.probabilityWithWeights(demo.reviews[i].text, split.real) : null;
        rows.push({
          text: demo.reviews[i].text,
          label: demo.reviews[i].label,
          tokens: probes[i].tokens,
          engine: Array.from(probes[i].weights),
          mine: split ? (raw as unknown[]).map(Number) : null,
          onPadding: split ? split.onPadding : null,
          pEngine: probes[i].probability,
          pMine,
        });
      }
      const correct = (p: number | null, label: number) => p !== null && (p > 0.5 ? 1 : 0) === label;
      const engineAccuracy = rows.filter((r) => correct(r.pEngine, r.label)).length / rows.length;
      // How sure the model is, |P − 0.5| on average: weight on padding (zero states) dilutes a review.
      const engineConfidence = rows.reduce((a, r) => a + Math.abs(r.pEngine - 0.5), 0) / rows.length;
      const mineConfidence = rows.every((r) => r.pMine !== null)
        ? rows.reduce((a, r) => a + Math.abs((r.pMine as number) - 0.5), 0) / rows.length
        : null;
      const mineAccuracy = rows.filter((r) => correct(r.pMine, r.label)).length / rows.length;
      // The model's answer from no evidence at all (every weight 0, a zero pooled vector): σ(b).
      const first0 = demo.reviews[0];
      const pNothing = await engine.probabilityWithWeights(
        first0.text,
        new Array<number>(probes[0].weights.length).fill(0),
      );
      const changedSide = rows.filter((r) => r.pMine !== null && r.pMine > 0.5 !== r.pEngine > 0.5).length;
      const kept = rows.filter((r) => r.onPadding !== null).map((r) => 1 - (r.onPadding as number));
      const table = el(
        'table',
        { className: 'pooling-table', dataset: { testid: 'pooling-table' } },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', {}, 'review'),
            el('th', {}, 'label'),
            el('th', {}, 'tokens'),
            el('th', {}, 'your weight on padding'),
            el('th', {}, 'P engine'),
            el('th', {}, 'P yours'),
          ),
        ),
        el(
          'tbody',
          {},
          ...rows.map((r, i) =>
            el(
              'tr',
              {},
              el('td', {}, `${i + 1}. ${r.text}`),
              el('td', {}, r.label ? 'positive' : 'negative'),
              el('td', {}, `${r.tokens.length} + ${width - r.tokens.length} padding`),
              el('td', {}, r.onPadding === null ? '—' : r.onPadding.toFixed(3)),
              el('td', {}, r.pEngine.toFixed(3)),
              el('td', {}, r.pMine === null ? 'no usable weights' : r.pMine.toFixed(3)),
            ),
          ),
        ),
      );
      // The shortest review has the most padding: the one where a leak shows most. Its padding
      // positions are drawn as one column, their total weight (64 columns would not fit a phone).
      const first = rows.reduce((a, b) => (b.tokens.length < a.tokens.length ? b : a));
      const pads = width - first.tokens.length;
      const withPadding = (w: number[]) => [
        ...w.slice(0, first.tokens.length),
        w.slice(first.tokens.length).reduce((a, b) => a + b, 0),
      ];
      const heatmap = createHeatmap(
        `pooling weights of the shortest review; its ${pads} padding positions summed in the last column`,
        'pooling-weights',
      );
      heatmap.update({
        values: [
          ...withPadding([...first.engine, ...new Array<number>(pads).fill(0)]),
          ...(first.mine ? withPadding(first.mine) : new Array<number>(first.tokens.length + 1).fill(NaN)),
        ],
        rows: 2,
        cols: first.tokens.length + 1,
        rowLabels: ['engine', 'yours'],
        colLabels: [...first.tokens, `<pad> ×${pads}`],
        range: [0, 1],
      });
      results.replaceChildren(
        el(
          'p',
          { dataset: { testid: 'pooling-accuracy' } },
          `Accuracy on these ${rows.length} reviews (one batch padded to ${width} positions): engine ${percent(engineAccuracy)}, with your pooling ${percent(mineAccuracy)}.`,
        ),
        el(
          'p',
          { dataset: { testid: 'pooling-confidence' } },
          `Mean confidence |P − 0.5|: engine ${engineConfidence.toFixed(3)}, with your pooling ${
            mineConfidence === null ? '—' : mineConfidence.toFixed(3)
          }.`,
        ),
        ...(kept.length && Math.max(...rows.map((r) => r.onPadding ?? 0)) > 1e-6
          ? [
              el(
                'p',
                { dataset: { testid: 'pooling-evidence' } },
                `Why the answers move but rarely change side: padding’s states are zero, so your pooled vector is the ` +
                  `engine’s scaled by k, the weight you leave on the review (here ${Math.min(...kept).toFixed(2)} to ` +
                  `${Math.max(...kept).toFixed(2)}). The model’s logit becomes b + k·(w·c): every answer slides toward ` +
                  `its answer from no evidence at all, σ(b) = ${pNothing.toFixed(3)}, and crosses 0.5 only where k is ` +
                  `tiny. ${
                    changedSide === 0
                      ? 'None of these answers changed side: the model is less sure of everything, not more often wrong.'
                      : `${changedSide} of ${rows.length} answers changed side.`
                  }`,
              ),
            ]
          : []),
        el(
          'figure',
          { className: 'pooling-shift-figure' },
          el(
            'figcaption',
            {},
            'P(positive) of each review (numbered as in the table): filled dot with the engine’s pooling, ring with ' +
              'yours; dashed line 0.5, dotted line the model’s answer from no evidence, σ(b).',
          ),
          drawPoolingShift(
            rows.map((r) => ({ text: r.text, engine: r.pEngine, mine: r.pMine })),
            pNothing,
          ),
        ),
        heatmap.element,
        table,
      );
      const worst = Math.max(...rows.map((r) => (r.pMine === null ? Infinity : Math.abs(r.pMine - r.pEngine))));
      const leaked = Math.max(...rows.map((r) => r.onPadding ?? 0));
      setState(
        'done',
        worst < 1e-4
          ? 'Your pooling gives the model the same predictions as the engine’s own.'
          : leaked > 1e-6
            ? `Your pooling gives padding up to ${percent(leaked)} of a review’s weight, and that changes what the model says: ` +
              'padding’s states are zero, so that weight is taken from the review and its answer drifts toward the ' +
              'model’s answer from no evidence, near 0.5. Compare the columns.'
            : 'Your pooling changes what the model says: compare the columns.',
      );
    },
  });
}
