// The worker side of the seq2seq session: owns one engine Seq2SeqSession and trains it in chunks
// of steps with SessionHost's scheduling (chunk_loop.ts), so pause / resume / cancel / translate
// are answered while a run is in progress.
import type {
  AttnEngine,
  Seq2SeqEpochReport,
  Seq2SeqSession,
  Seq2SeqStepsReport,
} from '../../generated/attn_engine.mjs';
import type {
  FromWorker,
  Seq2SeqOutcome,
  Seq2SeqProgress,
  Seq2SeqRequest,
  Seq2SeqTrainOptions,
  Seq2SeqTranslation,
} from './protocol';
import { ChunkTicker, nextChunkSize } from './chunk_loop';

type Post = (message: FromWorker, transfer?: Transferable[]) => void;

interface ActiveRun {
  id: number;
  options: Seq2SeqTrainOptions;
  paused: boolean;
  stepsPerChunk: number;
  last: Seq2SeqStepsReport | null;
  pendingLosses: number[];
  pendingEpochs: Seq2SeqEpochReport[];
  lastPost: number;
  resolve: (outcome: Seq2SeqOutcome) => void;
  reject: (error: Error) => void;
}

export class Seq2SeqHost {
  private session: Seq2SeqSession | null = null;
  private run: ActiveRun | null = null;
  private readonly ticker = new ChunkTicker(() => this.chunk());

  constructor(
    private readonly engine: AttnEngine,
    private readonly post: Post,
  ) {}

  async handle(id: number, request: Seq2SeqRequest): Promise<{ value: unknown; transfer?: Transferable[] }> {
    if (request.op === 'create') {
      this.stopRun();
      const { parallelText, ...settings } = request.settings;
      const next = parallelText
        ? this.engine.Seq2SeqSession.fromParallelText(settings, parallelText.data, parallelText.name ?? null)
        : new this.engine.Seq2SeqSession(settings);
      this.session?.delete();
      this.session = next;
      return { value: { info: next.info(), samples: next.samples(8) } };
    }
    const s = this.session;
    if (!s) throw new Error('create a seq2seq session first');
    switch (request.op) {
      case 'train':
        return { value: await this.train(id, s, request.options) };
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
      case 'translate': {
        const t = s.translate(request.text, request.beam);
        // The alignment is a view over wasm memory: copy it once, then transfer the copy.
        const value: Seq2SeqTranslation = {
          output: t.output,
          sourceTokens: t.sourceTokens,
          outputTokens: t.outputTokens,
          alignment: t.alignment.data.slice(),
          rows: t.alignment.rows,
          cols: t.alignment.cols,
          logProb: t.logProb,
          finished: t.finished,
        };
        return { value, transfer: [value.alignment.buffer as ArrayBuffer] };
      }
      case 'evaluate':
        return { value: s.evaluate(request.which, request.limit ?? 0) };
      case 'saveModel': {
        const bytes = s.saveModel(); // a fresh copy: its buffer can be transferred
        return { value: bytes.buffer, transfer: [bytes.buffer as ArrayBuffer] };
      }
      case 'loadModel':
        this.stopRun();
        return { value: s.loadModel(request.bytes) };
      case 'samples':
        return { value: s.samples(request.count) };
      // The step API: every tensor the session hands out is already a copy.
      case 'stepEncode':
        return { value: s.stepEncode(request.texts) };
      case 'stepAttend':
        return { value: s.stepAttend(request.encoding, request.s) };
      case 'decoderStep':
        return { value: s.decoderStep(request.previous, request.state, request.context) };
      case 'targetText':
        return { value: s.targetText(request.ids) };
    }
    throw new Error(`unknown seq2seq request '${(request as { op: string }).op}'`);
  }

  private train(id: number, session: Seq2SeqSession, options: Seq2SeqTrainOptions): Promise<Seq2SeqOutcome> {
    this.stopRun();
    session.startTraining();
    return new Promise((resolve, reject) => {
      this.run = {
        id,
        options,
        paused: false,
        stepsPerChunk: 1,
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
    const session = this.session;
    if (!run || run.paused || !session) return;
    try {
      const steps = run.stepsPerChunk;
      const started = performance.now();
      const report = session.runSteps(steps);
      const ms = performance.now() - started;
      run.stepsPerChunk = nextChunkSize(steps, report.stepsRun, ms, run.options.chunkMs ?? 40);
      if (report.stepsRun > 0) run.last = report;
      run.pendingLosses.push(...report.losses);
      run.pendingEpochs.push(...report.epochs);
      const due = performance.now() - run.lastPost >= (run.options.progressMs ?? 100);
      if (report.done || due || report.epochs.length > 0) this.flush(run);
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

  private flush(run: ActiveRun): void {
    const report = run.last ?? this.session!.runSteps(0);
    const losses = Float32Array.from(run.pendingLosses);
    const progress: Seq2SeqProgress = {
      step: report.step,
      epoch: report.epoch,
      loss: report.loss,
      losses,
      elapsed: report.elapsed,
      plannedSteps: report.plannedSteps,
      stepsPerSecond: report.elapsed > 0 ? report.step / report.elapsed : 0,
      epochs: run.pendingEpochs,
      paused: run.paused,
      done: report.done,
    };
    run.pendingLosses = [];
    run.pendingEpochs = [];
    run.lastPost = performance.now();
    this.post({ type: 'seq2seq-progress', id: run.id, progress }, [losses.buffer as ArrayBuffer]);
  }

  private finish(run: ActiveRun, cancelled: boolean): void {
    this.run = null;
    const report = this.session!.runSteps(0);
    run.resolve({
      steps: report.step,
      cancelled,
      earlyStopped: report.earlyStopped,
      bestEpoch: report.bestEpoch,
      elapsed: run.last?.elapsed ?? 0,
    });
  }

  private stopRun(): void {
    const run = this.run;
    if (!run) return;
    if (run.pendingLosses.length) this.flush(run);
    this.session?.cancelTraining();
    this.finish(run, true);
  }
}
