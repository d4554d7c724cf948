// "Your pooling in the model": trains a small sentiment classifier with dot-product attention
// pooling in the engine worker (its sentiment session, on the built-in corpus), then runs the
// learner's attentionPool (their draft of the attention_pooling exercise) in the code sandbox on
// each review's encoder output and learned query, and lets the classifier finish from the
// learner's weights (probabilityWithWeights). Their weights, P(positive) and accuracy are shown
// next to the engine's own. A right function matches the engine to float tolerance; a wrong one
// visibly changes what the model says.
import type { EngineBridge } from '../engine/bridge';
import { el } from '../views/dom';
import { createInModelDemo } from './in_model_demo';
import { createHeatmap } from '../views/heatmap';
import { EXERCISES } from './exercises';
import type { PoolingDemo } from './lessons/types';
import { NP_SOURCE } from './np_helper';
import type { ProgressStore } from './progress';
import { runInSandbox } from './sandbox';
import { claimSentimentSession, ownsSentimentSession } from './sentiment_owner';

/** The bridge calls the demo needs (the page's EngineBridge). */
export type PoolingEngine = Pick<
  EngineBridge,
  'loadData' | 'createModel' | 'train' | 'poolingProbe' | 'probabilityWithWeights'
>;

const EXERCISE_ID = 'attention_pooling';
const percent = (x: number) => `${(100 * x).toFixed(1)} %`;

function quickMode(): boolean {
  return new URLSearchParams(location.search).has('s2s-quick');
}

export function createPoolingDemoView(demo: PoolingDemo, engine: PoolingEngine, progress: ProgressStore): HTMLElement {
  return createInModelDemo({
    className: 'pooling-demo',
    testId: `pooling-${demo.id}`,
    title: 'Your pooling in a trained model',
    intro:
      'The classifier below (BiLSTM encoder, attention pooling with a learned query q, a logistic output) is trained here. ' +
      'Its pooling step is then done by your attentionPool from the exercise above — your current draft — ' +
      'and the model finishes the prediction from your weights.',
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
      setState('running', 'Running your attentionPool on every review…');
      const probes = await Promise.all(demo.reviews.map((r) => engine.poolingProbe(r.text)));
      const inputs = probes.map((p) => {
        const [t, d] = p.hidden.shape;
        const hidden = Array.from({ length: t }, (_, i) => Array.from(p.hidden.data.subarray(i * d, (i + 1) * d)));
        return [[hidden], Array.from(p.query), [hidden.map(() => 1)]];
      });
      const code = progress.snapshot.drafts[EXERCISE_ID] ?? EXERCISES[EXERCISE_ID].starter;
      const outcome = await runInSandbox(
        { code, functionName: EXERCISES[EXERCISE_ID].functionName, inputs, prelude: NP_SOURCE },
        4000,
      );
      if (outcome.type !== 'results') {
        const why = outcome.type === 'timeout' ? `it did not finish in ${outcome.ms / 1000} s` : outcome.type;
        setState('failed', `Your attentionPool could not run: ${'message' in outcome ? outcome.message : why}.`);
        return;
      }
      const rows: {
        text: string;
        label: number;
        tokens: string[];
        engine: number[];
        mine: number[] | null;
        pEngine: number;
        pMine: number | null;
      }[] = [];
      for (let i = 0; i < demo.reviews.length; i++) {
        const r = outcome.results[i];
        const weights = 'value' in r ? (r.value as { weights?: unknown } | null)?.weights : undefined;
        const row = Array.isArray(weights) && Array.isArray(weights[0]) ? (weights[0] as unknown[]).map(Number) : null;
        const valid = row !== null && row.length === probes[i].weights.length && row.every(Number.isFinite);
        const pMine = valid ? await engine.probabilityWithWeights(demo.reviews[i].text, row) : null;
        rows.push({
          text: demo.reviews[i].text,
          label: demo.reviews[i].label,
          tokens: probes[i].tokens,
          engine: Array.from(probes[i].weights),
          mine: valid ? row : null,
          pEngine: probes[i].probability,
          pMine,
        });
      }
      const correct = (p: number | null, label: number) => p !== null && (p > 0.5 ? 1 : 0) === label;
      const engineAccuracy = rows.filter((r) => correct(r.pEngine, r.label)).length / rows.length;
      const mineAccuracy = rows.filter((r) => correct(r.pMine, r.label)).length / rows.length;
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
            el('th', {}, 'P engine'),
            el('th', {}, 'P yours'),
          ),
        ),
        el(
          'tbody',
          {},
          ...rows.map((r) =>
            el(
              'tr',
              {},
              el('td', {}, r.text),
              el('td', {}, r.label ? 'positive' : 'negative'),
              el('td', {}, r.pEngine.toFixed(3)),
              el('td', {}, r.pMine === null ? 'no usable weights' : r.pMine.toFixed(3)),
            ),
          ),
        ),
      );
      const first = rows[0];
      const heatmap = createHeatmap('pooling weights of the first review', 'pooling-weights');
      heatmap.update({
        values: [...first.engine, ...(first.mine ?? first.engine.map(() => NaN))],
        rows: 2,
        cols: first.tokens.length,
        rowLabels: ['engine', 'yours'],
        colLabels: first.tokens,
        range: [0, 1],
      });
      results.replaceChildren(
        el(
          'p',
          { dataset: { testid: 'pooling-accuracy' } },
          `Accuracy on these ${rows.length} reviews: engine ${percent(engineAccuracy)}, with your pooling ${percent(mineAccuracy)}.`,
        ),
        heatmap.element,
        table,
      );
      const worst = Math.max(...rows.map((r) => (r.pMine === null ? Infinity : Math.abs(r.pMine - r.pEngine))));
      setState(
        'done',
        worst < 1e-4
          ? 'Your pooling gives the model the same predictions as the engine’s own.'
          : 'Your pooling changes what the model says: compare the columns.',
      );
    },
  });
}
