// The worker side of the sentiment session: owns one engine SentimentSession and trains it in
// chunks of steps. Between chunks it yields to the worker's event loop through a MessageChannel
// (a macrotask without setTimeout's 4 ms clamp), so pause/resume/cancel/predict messages are
// handled while a run is in progress. Chunk sizes adapt to hit `chunkMs` of wall time.
import type { AttnEngine, SentimentSession } from '../../generated/attn_engine.mjs';
import type {
  AttentionSnapshot,
  FromWorker,
  Prediction,
  SessionRequest,
  TrainOptions,
  TrainingOutcome,
  TrainingProgress,
} from './protocol';

type Post = (message: FromWorker, transfer?: Transferable[]) => void;

interface ActiveRun {
  id: number;
  options: TrainOptions;
  paused: boolean;
  stepsPerChunk: number;
  nextSnapshot: number;
  epochsDone: number;
  resolve: (outcome: TrainingOutcome) => void;
  reject: (error: Error) => void;
}

const TRAINER_ONLY = new Set(['snapshotEvery', 'watched', 'chunkMs']);

export class SessionHost {
  private readonly session: SentimentSession;
  private run: ActiveRun | null = null;
  private readonly tick = new MessageChannel();
  private tickPending = false;

  constructor(
    engine: AttnEngine,
    private readonly post: Post,
  ) {
    this.session = new engine.SentimentSession();
    this.tick.port1.onmessage = () => {
      this.tickPending = false;
      this.chunk();
    };
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
        const summary = s.loadBytes(source.bytes, source.name, source, (bytesRead, bytesTotal, examples) => {
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
        });
        return { value: summary };
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
          this.postProgress(this.run, this.session.runSteps(0));
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
        resolve,
        reject,
      };
      this.schedule();
    });
  }

  // At most one tick in flight, however often runs are paused, resumed or restarted.
  private schedule(): void {
    if (this.tickPending) return;
    this.tickPending = true;
    this.tick.port2.postMessage(null);
  }

  private chunk(): void {
    const run = this.run;
    if (!run || run.paused) return;
    try {
      const before = this.session.runSteps(0);
      if (before.step >= run.nextSnapshot) {
        this.postProgress(run, before, this.snapshot(before.step));
        run.nextSnapshot = before.step + run.options.snapshotEvery!;
      }
      const steps = Math.max(1, Math.min(run.stepsPerChunk, run.nextSnapshot - before.step));
      const started = performance.now();
      const report = this.session.runSteps(steps);
      const ms = performance.now() - started;
      // Aim the next chunk at chunkMs: per-step time varies with the batch's length.
      const target = run.options.chunkMs ?? 40;
      const perStep = ms / Math.max(1, report.stepsRun);
      run.stepsPerChunk = Math.max(1, Math.min(4 * steps, Math.floor(target / Math.max(perStep, 0.01))));
      run.epochsDone += report.epochs.length;
      const snapshot = report.step >= run.nextSnapshot || report.done ? this.snapshot(report.step) : undefined;
      if (snapshot && report.step >= run.nextSnapshot) run.nextSnapshot = report.step + run.options.snapshotEvery!;
      this.postProgress(run, report, snapshot, report.losses, report.epochs);
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

  private postProgress(
    run: ActiveRun,
    report: ReturnType<SentimentSession['runSteps']>,
    snapshot?: AttentionSnapshot,
    losses: Float32Array = new Float32Array(0),
    epochs: TrainingProgress['epochs'] = [],
  ): void {
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
      epochs,
      paused: run.paused,
      done: report.done,
      snapshot,
    };
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
      elapsed: report.elapsed,
    });
  }

  /** Cancels the active run (the model keeps its best validation epoch's parameters). */
  private stopRun(): void {
    const run = this.run;
    if (!run) return;
    this.session.cancelTraining();
    this.finish(run, true);
  }
}
