// Translation training speed and translation latency in the page (issue 27): the built app
// (dist/) in headless Chromium with ?debug, whose window.attnDebug gives the page's engine worker
// (EngineBridge), the bridge class (a second worker) and the page's two-worker run
// (trainOnTwoWorkers, the Translation tab's and the Studio's): the same code path the tab trains
// with, at the sizes issue 27 compares with PyTorch (bench/pytorch_seq2seq.py) instead of the
// tab's preset.
//
// Data: pairs written here (no data file) with exactly the twins' shapes: 10 source words and 9
// target words (+ EOS: 10 decoder positions) drawn from 5,996 words per side, so the
// vocabularies are 6,000 with the 4 reserved ids; 20,000 pairs, 18,000 trained on (281 steps an
// epoch). Each measurement creates the session (both workers on 2), trains, times steps
// `warm` → `warm + steps` from the progress messages (each chunk posts; the page's clock), and
// cancels. pairs/s = steps/s × 64. Rounds interleave 1 and 2 workers so both see the same load.
// The renderer's CPU time over the timed steps (its workers included) is recorded with each.
//
// Latency: a one-worker session trained for `--latency-steps` steps at learning rate 0.005 (it has
// learnt the pairs' fixed target, 9 words), then the page translates a 10-word source greedily 15 times through the
// bridge (page → worker → page, what the Translate button costs); the median and the decoded
// length are recorded.
//
//   node bench/browser/translation_speed.mjs [--models rnnsearch,transformer] [--rounds 2]
//        [--warm 5] [--steps 30] [--workers 1,2] [--latency-steps 60]
// Prints one JSON line per measurement ({"kernel": "translation_training" | "translation_latency"}).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredPage, metrics, withBrowser } from './run.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BATCH = 64;

/** The engine settings of each model at issue 27's sizes (the twins': bench/pytorch_seq2seq.py). */
export const TRANSLATION_MODELS = {
  rnnsearch: { model: 'rnn', cell: 'gru', attention: 'bahdanau', embed: 128, units: 128, attentionDim: 128 },
  transformer: {
    model: 'transformer',
    dModel: 128,
    heads: 4,
    layers: 2,
    ff: 512,
    dropout: 0.1,
    labelSmoothing: 0.1,
  },
};
const COMMON = {
  task: 'parallel',
  trainSize: 20000,
  testSize: 100,
  sourceVocab: 6000,
  targetVocab: 6000,
  epochs: 1,
  batch: BATCH,
  learningRate: 0.001,
  earlyStoppingPatience: 0,
  bleuSentences: 0,
  seed: 11,
};

/** A Seq2SeqSession's settings for `model` at issue 27's sizes, on syntheticPairs() (1 epoch). */
export function translationSettings(model) {
  if (!TRANSLATION_MODELS[model]) throw new Error(`unknown translation model '${model}' (rnnsearch, transformer)`);
  return { ...COMMON, ...TRANSLATION_MODELS[model] };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const loadAverage = () => os.loadavg().map((x) => Number(x.toFixed(2)));

/** Word `i` of a side: letters only (the word tokenizer keeps them whole), distinct per i. */
function word(prefix, i) {
  let s = '';
  do {
    s = String.fromCharCode(97 + (i % 26)) + s;
    i = Math.floor(i / 26);
  } while (i > 0);
  return prefix + s;
}

/**
 * `pairs` lines "10 source words<TAB>9 target words", words uniform over 5,996 per side, except
 * that every other pair after the first 1,000 has one fixed target ("ta tb … ti"): a model learns
 * it within a few dozen steps, so the latency item's greedy output has its 9 words + EOS (an
 * untrained model stops at a random step). The shapes, and so the step's work, are the same.
 */
export function syntheticPairs(pairs = 20000, seed = 7) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  const lines = [];
  // Every word once first, so each side's vocabulary holds all 5,996.
  for (let p = 0; p < pairs; p++) {
    const src = [];
    const tgt = [];
    for (let i = 0; i < 10; i++) src.push(word('s', p * 10 + i < 5996 ? p * 10 + i : next() % 5996));
    for (let i = 0; i < 9; i++)
      tgt.push(word('t', p >= 1000 && p % 2 ? i : p * 9 + i < 5996 ? p * 9 + i : next() % 5996));
    lines.push(`${src.join(' ')}\t${tgt.join(' ')}`);
  }
  return `${lines.join('\n')}\n`;
}

export function translationSpeedSkip() {
  if (!existsSync(path.join(root, 'dist/index.html')))
    return 'translation speed: dist/ is missing (npm run build), skipped';
  return null;
}

/** In the page: one run on `workers` workers, timed from step `warm` to `warm + steps`. */
async function measure(page, cdp, model, workers, warm, steps, tsv, overrides = {}) {
  const settings = { ...translationSettings(model), ...overrides };
  const before = loadAverage();
  // Created (and parsed) before the clock starts.
  const info = await page.evaluate(
    async ({ settings, workers, tsv }) => {
      const { engine, EngineBridge } = window.attnDebug;
      await engine.ready;
      const create = (bridge) => bridge.seq2seqCreate({ ...settings, parallelText: { data: tsv, name: 'bench.tsv' } });
      const { info } = await create(engine);
      window.__benchHelper?.dispose();
      window.__benchHelper = null;
      if (workers === 2) {
        const helper = new EngineBridge();
        await helper.ready;
        await create(helper);
        window.__benchHelper = helper;
      }
      return info;
    },
    { settings, workers, tsv },
  );
  // The renderer's CPU time over the run (roughly: from warm-up to the end of the timed steps).
  const cpu0 = (await metrics(cdp)).ProcessTime;
  const wall0 = Date.now();
  const samples = await page.evaluate(
    async ({ workers, last }) => {
      const { engine, trainOnTwoWorkers } = window.attnDebug;
      const samples = [];
      let stopping = false;
      const onProgress = (p) => {
        samples.push([p.step, performance.now(), p.workers]);
        if (p.step >= last && !stopping) {
          stopping = true;
          void engine.seq2seqCancel();
        }
      };
      const options = { progressMs: 0 };
      const helper = window.__benchHelper;
      const outcome = helper
        ? await trainOnTwoWorkers(
            (port) => helper.seq2seqTrainReplica(port, 1, 2),
            (port) => engine.seq2seqTrain(options, onProgress, [port]),
            (message) => engine.seq2seqPeerFailed(message),
          )
        : await engine.seq2seqTrain(options, onProgress);
      helper?.dispose();
      window.__benchHelper = null;
      if (!outcome.cancelled) throw new Error(`the run ended before step ${last}`);
      return samples;
    },
    { workers, last: warm + steps },
  );
  const cpuSeconds = (await metrics(cdp)).ProcessTime - cpu0;
  const wallSeconds = (Date.now() - wall0) / 1000;
  const shown = samples[samples.length - 1][2];
  if (shown !== workers) throw new Error(`asked for ${workers} workers, the run reported ${shown}`);
  const first = samples.find(([s]) => s >= warm);
  const last = samples.find(([s]) => s >= warm + steps);
  const stepsPerSecond = ((last[0] - first[0]) * 1000) / (last[1] - first[1]);
  const record = {
    impl: 'app (chromium)',
    kernel: 'translation_training',
    model,
    batch: BATCH,
    workers,
    params: info.parameters,
    source_vocab: info.sourceVocabulary,
    target_vocab: info.targetVocabulary,
    steps_timed: last[0] - first[0],
    ms_per_step_wall: Number((1000 / stepsPerSecond).toFixed(1)),
    pairs_per_second: Number((stepsPerSecond * BATCH).toFixed(1)),
    cpu_cores_used: Number((cpuSeconds / wallSeconds).toFixed(2)),
    load_average_before: before,
    load_average_after: loadAverage(),
  };
  return record;
}

/**
 * Greedy translation latency in the page: a one-worker session trained for `steps` steps (it has
 * learnt the fixed target by then), then a 10-word source translated 16 times through the bridge
 * (page → worker → page, what the Translate button costs; the first call is not counted).
 */
async function latency(page, cdp, model, steps, tsv) {
  // A larger learning rate than the throughput runs' 0.001: the RNN then learns the fixed target
  // within the steps too (the step's work is the same).
  await measure(page, cdp, model, 1, 0, steps, tsv, { learningRate: 0.005 });
  const timing = await page.evaluate(async () => {
    const { engine } = window.attnDebug;
    const sentence = 'sa sb sc sd se sf sg sh si sj';
    const ms = [];
    let t;
    for (let i = 0; i < 16; i++) {
      const start = performance.now();
      t = await engine.seq2seqTranslate(sentence, 1);
      if (i > 0) ms.push(performance.now() - start);
    }
    return { ms, tokens: t.outputTokens.length, source: t.sourceTokens.length, output: t.output };
  });
  return {
    impl: 'app (chromium)',
    kernel: 'translation_latency',
    model,
    trained_steps: steps,
    source_words: timing.source,
    output_tokens: timing.tokens,
    output: timing.output,
    ms_median: Number(median(timing.ms).toFixed(2)),
    ms_fastest: Number(Math.min(...timing.ms).toFixed(2)),
    calls: timing.ms.length,
    load_average: loadAverage(),
  };
}

/** Runs the item in `context` against the app at `appUrl`; resolves with every record. */
export async function translationSpeed(
  context,
  appUrl,
  {
    models = ['rnnsearch', 'transformer'],
    rounds = 2,
    warm = 5,
    steps = 30,
    workers = [1, 2],
    latencySteps = 60,
    log = () => {},
    onRecord = () => {},
  } = {},
) {
  const { page, cdp } = await measuredPage(context);
  const tsv = syntheticPairs();
  const records = [];
  try {
    await page.goto(`${appUrl}?debug#/seq2seq?tab=translation`);
    await page.waitForSelector('[data-testid="engine-status"][data-state="ready"]', { timeout: 60000 });
    for (const model of models) {
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 ? [...workers].reverse() : workers;
        for (const k of order) {
          const record = { ...(await measure(page, cdp, model, k, warm, steps, tsv)), round };
          records.push(record);
          onRecord(record);
          log(`translation speed: ${model}, round ${round + 1}, ${k} worker(s): ${record.pairs_per_second} pairs/s`);
        }
      }
      if (latencySteps > 0) {
        const record = await latency(page, cdp, model, latencySteps, tsv);
        records.push(record);
        onRecord(record);
        log(`translation latency: ${model}: ${record.ms_median} ms (${record.output_tokens} output tokens)`);
      }
    }
  } finally {
    await page.evaluate(() => window.__benchHelper?.dispose()).catch(() => undefined);
    await page.close();
  }
  return records;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
  const skip = translationSpeedSkip();
  if (skip) {
    process.stderr.write(`[bench] ${skip}\n`);
  } else {
    await withBrowser((context, baseUrl) =>
      translationSpeed(context, `${baseUrl}dist/index.html`, {
        models: option('models', 'rnnsearch,transformer').split(','),
        rounds: Number(option('rounds', '2')),
        warm: Number(option('warm', '5')),
        steps: Number(option('steps', '30')),
        workers: option('workers', '1,2').split(',').map(Number),
        latencySteps: Number(option('latency-steps', '60')),
        log: (message) => process.stderr.write(`[bench] ${message}\n`),
        onRecord: (record) => process.stdout.write(`${JSON.stringify(record)}\n`),
      }),
    );
  }
}
