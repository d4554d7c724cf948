// The worker side of the sentiment session: owns one engine SentimentSession and trains it in
// chunks of steps. Between chunks it yields to the worker's event loop through a MessageChannel
// (a macrotask without setTimeout's 4 ms clamp), so pause/resume/cancel/predict messages are
// handled while a run is in progress. Chunk sizes adapt to hit `chunkMs` of wall time.
import type { AttnEngine, EpochReport, SentimentSession, StepsReport } from '../../generated/attn_engine.mjs';
import type {
  AttentionSnapshot,
  FromWorker,
  Prediction,
  SessionRequest,
  TrainOptions,
  TrainingOutcome,
  TrainingProgress,
} from './protocol';
import { ChunkTicker, nextChunkSize } from './chunk_loop';

type Post = (message: FromWorker, transfer?: Transferable[]) => void;

interface ActiveRun {
  id: number;
  options: TrainOptions;
  paused: boolean;
  stepsPerChunk: number;
  nextSnapshot: number;
  epochsDone: number;
  /** The latest report of a call that ran steps (a runSteps(0) report has no step details). */
  last: StepsReport | null;
  /** What happened since the last progress message, posted at most every progressMs. */
  pendingLosses: number[];
  pendingEpochs: EpochReport[];
  lastPost: number;
  resolve: (outcome: TrainingOutcome) => void;
  reject: (error: Error) => void;
}

const TRAINER_ONLY = new Set(['snapshotEvery', 'watched', 'chunkMs', 'progressMs']);

export class SessionHost {
  private readonly session: SentimentSession;
  private run: ActiveRun | null = null;
  private readonly ticker = new ChunkTicker(() => this.chunk());

  constructor(
    engine: AttnEngine,
    private readonly post: Post,
  ) {
    this.session = new engine.SentimentSession();
  }

  /** Answers one request; `train` resolves when the run ends. */
  async handle(id: number, request: SessionRequest): Promise<{ value: unknown; transfer?: Transferable[] }> {
    const s = this.session;
    switch (request.op) {
      case 'loadData': {
        this.stopRun();
        const source = request.source;
        if (source.kind === 'builtin') return { value: s.loadBuiltin() };
        if (source.kind === 'synthetic') return { value: s.loadSynthetic(source) };
        let last = 0;
        const onProgress = (bytesRead: number, bytesTotal: number, examples: number): void => {
          const now = performance.now();
          if (now - last < 100) return;
          last = now;
          this.post({
            type: 'load-progress',
            id,
            bytesRead,
            bytesTotal,
            examples,
          });
        };
        if (source.kind === 'sentences') {
          const { positive, negative } = source;
          return {
            value: s.loadSentenceFiles(
              positive.bytes,
              positive.name,
              negative.bytes,
              negative.name,
              source,
              onProgress,
            ),
          };
        }
        return { value: s.loadBytes(source.bytes, source.name, source, onProgress) };
      }
      case 'dataStats': {
        const stats = s.dataStats(request.which, request.bins ?? 20);
        return {
          value: stats,
          transfer: [stats.histogram.buffer as ArrayBuffer],
        };
      }
      case 'createModel':
        this.stopRun();
        return { value: s.createModel(request.config) };
      case 'loadModel':
        this.stopRun();
        return { value: s.loadModel(request.bytes) };
      case 'saveModel': {
        const bytes = s.saveModel(); // a fresh copy: its buffer can be transferred
        return { value: bytes.buffer, transfer: [bytes.buffer as ArrayBuffer] };
      }
      case 'train':
        return { value: await this.train(id, request.options) };
      case 'pause':
        if (this.run && !this.run.paused) {
          this.run.paused = true;
          this.flush(this.run);
        }
        return { value: { paused: this.run?.paused ?? false } };
      case 'resume':
        if (this.run?.paused) {
          this.run.paused = false;
          this.schedule();
        }
        return { value: { paused: false } };
      case 'cancel': {
        const cancelled = this.run !== null;
        this.stopRun();
        return { value: { cancelled } };
      }
      case 'evaluate':
        return { value: s.evaluate(request.which) };
      case 'trainBaseline':
        return { value: s.trainBaseline(request.settings) };
      case 'evaluateBaseline':
        return { value: s.evaluateBaseline(request.which) };
      case 'explainBaseline': {
        const e = s.explainBaseline(request.text);
        return { value: e, transfer: [e.contributions.buffer as ArrayBuffer] };
      }
      case 'predict': {
        const e = s.explain(request.text);
        const prediction: Prediction = {
          probability: e.probability,
          tokens: e.tokens,
          weights: e.weights.slice(),
        };
        return {
          value: prediction,
          transfer: [prediction.weights.buffer as ArrayBuffer],
        };
      }
      // ---- Explanations (analysis/explanations.hpp): every array is a copy, so it is transferred.
      case 'analyze': {
        const a = s.analyze(request.text, { shuffles: request.shuffles, seed: request.seed });
        const arrays = [a.ids, a.weights, a.scores, a.contributions, a.saliency, a.leaveOneOut];
        arrays.push(a.shuffledProbabilities);
        return { value: a, transfer: arrays.map((x) => x.buffer as ArrayBuffer) };
      }
      case 'predictTokens': {
        const p = s.predictTokens(request.tokens);
        return { value: p, transfer: [p.ids.buffer as ArrayBuffer, p.weights.buffer as ArrayBuffer] };
      }
      case 'misclassified': {
        const list = s.misclassified(request.which, request.limit);
        return { value: list, transfer: list.map((r) => r.weights.buffer as ArrayBuffer) };
      }
      case 'poolingProbe': {
        const p = s.poolingProbe(request.text);
        return {
          value: p,
          transfer: [p.hidden.data.buffer, p.query.buffer, p.weights.buffer] as ArrayBuffer[],
        };
      }
      case 'probabilityWithWeights':
        return {
          value: s.probabilityWithWeights(request.text, { shape: [request.weights.length], data: request.weights }),
        };
      // ---- end explanations
      // Transformer view: fresh copies, so their buffers can be transferred.
      case 'inspectTransformer': {
        const r = s.inspectTransformer(request.text, request.options);
        return { value: r, transfer: [r.attention.buffer as ArrayBuffer, r.scores.buffer as ArrayBuffer] };
      }
      case 'headAblation':
        return { value: s.headAblation(request.limit, request.causal) };
      case 'positionalEncoding': {
        const table = s.positionalEncoding(request.positions);
        return { value: table, transfer: [table.values.buffer as ArrayBuffer] };
      }
    }
    throw new Error(`unknown session request '${(request as { op: string }).op}'`);
  }

  private train(id: number, options: TrainOptions): Promise<TrainingOutcome> {
    this.stopRun();
    const settings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) if (!TRAINER_ONLY.has(key)) settings[key] = value;
    this.session.startTraining(settings);
    return new Promise((resolve, reject) => {
      this.run = {
        id,
        options,
        paused: false,
        stepsPerChunk: 1,
        nextSnapshot: options.snapshotEvery && options.watched?.length ? 0 : Infinity,
        epochsDone: 0,
        last: null,
        pendingLosses: [],
        pendingEpochs: [],
        lastPost: 0,
        resolve,
        reject,
      };
      this.schedule();
    });
  }

  private schedule(): void {
    this.ticker.schedule();
  }

  private chunk(): void {
    const run = this.run;
    if (!run || run.paused) return;
    try {
      const step = run.last?.step ?? 0;
      if (step >= run.nextSnapshot) {
        this.flush(run, this.snapshot(step));
        run.nextSnapshot = step + run.options.snapshotEvery!;
      }
      const steps = Math.max(1, Math.min(run.stepsPerChunk, run.nextSnapshot - step));
      const started = performance.now();
      const report = this.session.runSteps(steps);
      const ms = performance.now() - started;
      run.stepsPerChunk = nextChunkSize(steps, report.stepsRun, ms, run.options.chunkMs ?? 40);
      if (report.stepsRun > 0) run.last = report;
      run.epochsDone += report.epochs.length;
      run.pendingLosses.push(...report.losses);
      run.pendingEpochs.push(...report.epochs);
      const snapshot = report.step >= run.nextSnapshot || report.done ? this.snapshot(report.step) : undefined;
      if (snapshot && report.step >= run.nextSnapshot) run.nextSnapshot = report.step + run.options.snapshotEvery!;
      // Fewer, fuller messages keep the page's main thread idle: at most one per progressMs.
      const due = performance.now() - run.lastPost >= (run.options.progressMs ?? 100);
      if (snapshot || report.done || due) this.flush(run, snapshot);
      if (report.done) {
        this.finish(run, false);
        return;
      }
      this.schedule();
    } catch (error) {
      this.run = null;
      run.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private snapshot(step: number): AttentionSnapshot | undefined {
    const watched = this.run?.options.watched;
    if (!watched?.length || !this.run?.options.snapshotEvery) return undefined;
    const views = this.session.snapshot(watched);
    // Views over wasm memory: copy each once here, then the copies are transferred.
    return {
      step,
      items: views.map((v, i) => ({
        text: watched[i],
        probability: v.probability,
        tokens: v.tokens,
        weights: v.weights.slice(),
      })),
    };
  }

  /** Posts the progress since the last message (the latest step's numbers, pending losses and epochs). */
  private flush(run: ActiveRun, snapshot?: AttentionSnapshot): void {
    const report = run.last ?? this.session.runSteps(0);
    const losses = Float32Array.from(run.pendingLosses);
    const stepsPerSecond = report.elapsed > 0 ? report.step / report.elapsed : 0;
    const progress: TrainingProgress = {
      step: report.step,
      epoch: report.epoch,
      loss: report.loss,
      losses,
      runningLoss: report.runningLoss,
      runningAccuracy: report.runningAccuracy,
      examplesSeen: report.examplesSeen,
      examplesPerSecond: report.examplesPerSecond,
      stepsPerSecond,
      elapsed: report.elapsed,
      plannedSteps: report.plannedSteps,
      etaSeconds: stepsPerSecond > 0 ? (report.plannedSteps - report.step) / stepsPerSecond : Infinity,
      epochs: run.pendingEpochs,
      paused: run.paused,
      done: report.done,
      snapshot,
    };
    run.pendingLosses = [];
    run.pendingEpochs = [];
    run.lastPost = performance.now();
    const transfer: Transferable[] = [losses.buffer as ArrayBuffer];
    for (const item of snapshot?.items ?? []) transfer.push(item.weights.buffer as ArrayBuffer);
    this.post({ type: 'progress', id: run.id, progress }, transfer);
  }

  private finish(run: ActiveRun, cancelled: boolean): void {
    this.run = null;
    const report = this.session.runSteps(0);
    run.resolve({
      steps: report.step,
      cancelled,
      earlyStopped: report.earlyStopped,
      bestEpoch: report.bestEpoch,
      epochs: run.epochsDone,
      elapsed: run.last?.elapsed ?? 0,
    });
  }

  /** Cancels the active run (the model keeps its best validation epoch's parameters). */
  private stopRun(): void {
    const run = this.run;
    if (!run) return;
    if (run.pendingLosses.length) this.flush(run);
    this.session.cancelTraining();
    this.finish(run, true);
  }
}
