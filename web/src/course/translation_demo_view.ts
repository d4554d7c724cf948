// Lesson 12's translator: trains a word-level encoder–decoder with attention on sentence pairs in
// the engine worker (its one Seq2SeqSession, task 'parallel', so the session is claimed like the
// other seq2seq demos), on the built-in pairs file or one the learner picks. The engine holds out
// `testSize` English sentences with all their translations. After training it shows what the
// lesson argues, every number the engine's: per epoch the teacher-forced validation loss next to
// free-running word accuracy and exact match and the held-out BLEU (Seq2SeqEpochReport); at the
// end evaluate()'s teacher-forced token accuracy next to free-running BLEU, chrF and exact match,
// and its BLEU by source length; beam search's BLEU (corpusBleu on the beam's held-out outputs,
// which the engine does not score); and a box that translates the learner's own sentence greedily
// and with the beam (its candidates with their length-penalised scores) and shows the alignment.
// The run button then scores the model's held-out translations with the learner's corpusBleu
// (their draft of the corpus_bleu exercise, in the code sandbox) next to the engine's BLEU on the
// same tokens.
// This module trains and scores; translation_report.ts draws the numbers, translation_translator.ts
// the translate box, and the Translation tab's length_chart.ts the lecture's figure.
import type { Seq2SeqBleuBucket, Seq2SeqEpochReport } from '../../generated/attn_engine.mjs';
import type { EngineBridge } from '../engine/bridge';
import type { ChartSeries } from '../views/chart';
import { el } from '../views/dom';
import { quickMode } from '../views/format';
import { createLengthChart } from '../views/translation/length_chart';
import { lengthLine } from '../views/translation/models';
import { EXERCISES } from './exercises';
import type { EngineCall } from './exercises/types';
import { createInModelDemo } from './in_model_demo';
import type { TranslationDemo } from './lessons/types';
import { NP_SOURCE } from './np_helper';
import type { ProgressStore } from './progress';
import { runInSandbox } from './sandbox';
import { claimSeq2SeqSession, ownsSeq2SeqSession, type Seq2SeqEngine } from './seq2seq_demo_view';
import { trainedReport, yourBleuTable } from './translation_report';
import { createTranslator } from './translation_translator';

export type TranslationEngine = Seq2SeqEngine & Pick<EngineBridge, 'seq2seqSamples'>;

const EXERCISE_ID = 'corpus_bleu';
/** The learner's corpusBleu runs once on the whole held-out set (two corpora). */
const RUN_LIMIT_MS = 4000;

/** What training leaves for the learner's run: the held-out translations and their references. */
interface Scored {
  sources: string[];
  references: string[][];
  greedy: string[];
  beam: string[];
}

/** Held-out pairs grouped by source, in first-seen order: every translation is a reference (the
 *  engine's evaluate groups them the same way; this gives the page the texts to translate). */
export function groupBySource(pairs: { source: string; target: string }[]): {
  sources: string[];
  references: string[][];
} {
  const groups = new Map<string, string[]>();
  for (const p of pairs) {
    const refs = groups.get(p.source);
    if (refs) refs.push(p.target);
    else groups.set(p.source, [p.target]);
  }
  return { sources: [...groups.keys()], references: [...groups.values()] };
}

type ModelKind = 'rnn' | 'transformer';

/** The lecture's figure: held-out BLEU against source length, one line per model trained (empty
 *  buckets left out: a point at 0 for "no sentences" would read as a failure). */
export function lengthSeries(
  runs: ReadonlyMap<ModelKind, Seq2SeqBleuBucket[]>,
  names: Record<ModelKind, string>,
): ChartSeries[] {
  return (['rnn', 'transformer'] as const)
    .filter((kind) => runs.has(kind))
    .map((kind) => lengthLine(names[kind], runs.get(kind)!));
}

async function readPairs(demo: TranslationDemo, file: File | undefined): Promise<{ data: string; name: string }> {
  if (file) return { data: await file.text(), name: file.name };
  const url = new URL(demo.pairsUrl, document.baseURI);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new Error(
      `the built-in pairs file ${demo.pairsUrl} could not be loaded (${String(error)}): pick a pairs file`,
    );
  }
  if (!response.ok) {
    throw new Error(`the built-in pairs file ${demo.pairsUrl} is missing (HTTP ${response.status}): pick a pairs file`);
  }
  const data = await response.text();
  // A static host (and vite preview) may answer a missing file with the page itself.
  if (/^\s*<(!doctype|html)/i.test(data)) {
    throw new Error(
      `the built-in pairs file ${demo.pairsUrl} is missing (the server sent a web page): pick a pairs file`,
    );
  }
  return { data, name: demo.pairsUrl.split('/').pop() ?? 'pairs.tsv' };
}

export function createTranslationDemoView(
  demo: TranslationDemo,
  engine: TranslationEngine,
  call: EngineCall,
  progress: ProgressStore,
): HTMLElement {
  const fileInput = el('input', { type: 'file', accept: '.tsv,.txt,text/plain,text/tab-separated-values' });
  fileInput.setAttribute('aria-label', 'your own pairs file (source<TAB>target per line)');
  const report = el('div', { className: 'mt-report', dataset: { testid: 'mt-report' } });
  let scored: Scored | null = null;
  let owner = 0;
  const translator = createTranslator(engine, demo.example, demo.beam, () => ownsSeq2SeqSession(owner));

  // The model to train: the RNN, or (when the lesson offers it) the Transformer.
  const t = demo.transformer;
  const names: Record<ModelKind, string> = {
    rnn: 'RNN with Bahdanau attention',
    transformer: t ? `Transformer (${t.layers ?? 2} layers, ${t.heads ?? 4} heads, d_model ${t.dModel ?? 64})` : '',
  };
  const modelSelect = el(
    'select',
    { dataset: { testid: 'mt-model' } },
    el('option', { value: 'rnn', textContent: names.rnn }),
    ...(t ? [el('option', { value: 'transformer', textContent: names.transformer })] : []),
  );
  modelSelect.setAttribute('aria-label', 'model to train');
  // Each model's held-out BLEU by source length, for the chart (one pairs file at a time).
  const lengthRuns = new Map<ModelKind, Seq2SeqBleuBucket[]>();
  let lengthFile = '';
  const chart = createLengthChart(
    'Held-out BLEU (greedy) by source length, one line per model trained',
    'source words (bucket middle)',
  );

  const tokens = (text: string) => call('mtTokenize', text, { language: demo.targetLanguage, lowercase: true });

  const root = createInModelDemo({
    className: 'training translation-demo',
    testId: `mt-${demo.id}`,
    title: 'A translator trained in your browser',
    intro:
      'An encoder–decoder with Bahdanau attention (a bidirectional GRU encoder over the English words, a GRU ' +
      'decoder writing French words)' +
      (t ? ', or a small Transformer encoder–decoder,' : '') +
      ' learns from the sentence pairs; some English sentences are held out with all their translations and ' +
      'only used to measure it. Then the page decodes the held-out sentences greedily and with beam search and ' +
      'scores them with BLEU; "Score with my corpusBleu" scores the same translations with your function from the ' +
      'exercise above.',
    trainLabel: 'Train the translator',
    runLabel: 'Score with my corpusBleu',
    idleText: 'Train the translator first (the built-in pairs, or a pairs file of your own).',
    trainedText: 'Trained. Translate a sentence below, or score the held-out translations with your corpusBleu.',
    staleText: 'Another model was trained on this page since: train this one again first.',
    resultsClassName: 'mt-your-bleu',
    claim: () => (owner = claimSeq2SeqSession()),
    owns: ownsSeq2SeqSession,
    train: async (setState, section) => {
      scored = null;
      report.replaceChildren();
      translator.element.hidden = true;
      setState('training', 'Reading the pairs…');
      const pairs = await readPairs(demo, fileInput.files?.[0]);
      setState('training', 'Building the vocabularies and the model…');
      const model: ModelKind = t && modelSelect.value === 'transformer' ? 'transformer' : 'rnn';
      const { info } = await engine.seq2seqCreate({
        ...demo.settings,
        ...(model === 'transformer' ? { ...t, model } : {}),
        ...(quickMode() ? demo.quick : {}),
        parallelText: pairs,
      });
      const epochs: Seq2SeqEpochReport[] = [];
      const outcome = await engine.seq2seqTrain({}, (p) => {
        if (!section.isConnected) void engine.seq2seqCancel();
        epochs.push(...p.epochs);
        setState('training', `Training… step ${p.step} of ${p.plannedSteps} (epoch ${p.epoch + 1})`);
      });
      if (outcome.cancelled) throw new Error('stopped');
      setState('training', 'Scoring the held-out sentences…');
      const evaluation = await engine.seq2seqEvaluate('test', 0);
      setState('training', 'Translating the held-out sentences with beam search…');
      // Every held-out pair (info.testExamples): the same sources and references evaluate scored.
      const { sources, references } = groupBySource(await engine.seq2seqSamples(info.testExamples));
      const greedy: string[] = [];
      const beam: string[] = [];
      for (const source of sources) {
        greedy.push((await engine.seq2seqTranslate(source, 1)).output);
        beam.push((await engine.seq2seqTranslate(source, demo.beam)).output);
      }
      const beamBleu = await call('corpusBleu', beam, references, { lowercase: true });
      if (lengthFile !== pairs.name) lengthRuns.clear();
      lengthFile = pairs.name;
      lengthRuns.set(model, evaluation.bleuByLength);
      chart.update(lengthSeries(lengthRuns, names));
      scored = { sources, references, greedy, beam };
      report.replaceChildren(
        ...trainedReport({
          modelName: names[model],
          fileName: pairs.name,
          info,
          evaluation,
          bestEpoch: outcome.bestEpoch,
          epochs,
          beam: demo.beam,
          beamBleu: beamBleu.score,
        }),
      );
      translator.element.hidden = false;
      progress.markTrained(demo.id);
      void translator.translate();
    },
    run: async (setState, results) => {
      if (!scored) throw new Error('train the translator first');
      const { references, greedy, beam } = scored;
      setState('running', 'Tokenising the translations and running your corpusBleu in the sandbox…');
      const refTokens = await Promise.all(references.map((refs) => Promise.all(refs.map(tokens))));
      const corpora = [greedy, beam];
      const hypTokens = await Promise.all(corpora.map((hyps) => Promise.all(hyps.map(tokens))));
      const engineScores = await Promise.all(hypTokens.map((h) => call('corpusBleuTokens', h, refTokens, 'none')));
      const code = progress.snapshot.drafts[EXERCISE_ID] ?? EXERCISES[EXERCISE_ID].starter;
      const outcome = await runInSandbox(
        {
          code,
          functionName: EXERCISES[EXERCISE_ID].functionName,
          inputs: hypTokens.map((h) => [h, refTokens]),
          prelude: NP_SOURCE,
        },
        RUN_LIMIT_MS,
      );
      const labels = ['greedy', `beam ${demo.beam}`];
      const yours: (number | string)[] =
        outcome.type === 'results'
          ? outcome.results.map((r) =>
              'error' in r ? `threw ${r.error}` : typeof r.value === 'number' ? r.value : 'not a number',
            )
          : labels.map(() =>
              outcome.type === 'timeout'
                ? `did not finish in ${outcome.ms / 1000} s`
                : outcome.type === 'missing-function'
                  ? `no function ${outcome.name}`
                  : outcome.message,
            );
      const agree = yours.map((y, i) => typeof y === 'number' && Math.abs(y - engineScores[i].score) <= 0.01);
      results.replaceChildren(
        yourBleuTable(
          greedy.length,
          labels,
          engineScores.map((e) => e.score),
          yours,
          agree,
        ),
      );
      if (agree.every(Boolean))
        setState('done', 'Your corpusBleu gives the engine’s BLEU on the model’s translations.');
      else setState('done', 'Your corpusBleu scores the model differently from the engine: compare the columns.');
    },
  });

  // The model choice and the pairs file picker sit next to the buttons.
  root
    .querySelector('.controls')
    ?.prepend(
      ...(t ? [el('label', { className: 'mt-file' }, 'Model: ', modelSelect)] : []),
      el('label', { className: 'mt-file' }, 'Pairs file (optional): ', fileInput),
    );

  root.append(report, chart.element, translator.element);
  return root;
}
