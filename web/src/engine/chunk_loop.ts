// The chunked run both worker hosts (session_host.ts, seq2seq_host.ts) train with: a run
// advances one chunk of steps per macrotask, posted through a MessageChannel (no setTimeout 4 ms
// clamp), so the worker's event loop answers pause / resume / cancel / queries between chunks;
// each chunk's size adapts so it takes about `chunkMs` of wall time. What the run posts and
// resolves with is the host's: ChunkedRunner only schedules, batches and stops.

/** At most one tick in flight, however often runs are paused, resumed or restarted. */
export class ChunkTicker {
  private readonly channel = new MessageChannel();
  private pending = false;

  constructor(onTick: () => void) {
    this.channel.port1.onmessage = () => {
      this.pending = false;
      onTick();
    };
  }

  schedule(): void {
    if (this.pending) return;
    this.pending = true;
    this.channel.port2.postMessage(null);
  }

  /** Lets the worker (or a node test) exit: the channel holds its event loop open otherwise. */
  close(): void {
    this.channel.port1.close();
  }
}

/**
 * The next chunk's step count after `stepsRun` steps (of `steps` asked) took `ms`: aimed at
 * `chunkMs` (per-step time varies with the batch's length), growing at most 4× per chunk.
 */
export function nextChunkSize(steps: number, stepsRun: number, ms: number, chunkMs: number): number {
  const perStep = ms / Math.max(1, stepsRun);
  return Math.max(1, Math.min(4 * steps, Math.floor(chunkMs / Math.max(perStep, 0.01))));
}

/** What the engine's runSteps(n) reports (StepsReport, Seq2SeqStepsReport) that the run reads. */
export interface ChunkReport<E> {
  stepsRun: number;
  step: number;
  elapsed: number;
  losses: ArrayLike<number>;
  epochs: E[];
  done: boolean;
}

/** One progress message's worth: what happened since the previous one. */
export interface ChunkProgress<R, E> {
  /** The latest report of a call that ran steps (or runSteps(0)'s before the first). */
  report: R;
  /** Each step's batch loss since the previous message. */
  losses: Float32Array;
  epochs: E[];
  paused: boolean;
  /** The run stands at a checkpoint (every `checkpointEvery` steps, step 0 and the end). */
  checkpoint: boolean;
}

/** A host's side of one run. */
export interface ChunkedRunSpec<R extends ChunkReport<E>, E, O> {
  /** The engine session's runSteps: up to `steps` steps; runSteps(0) reports without training. */
  runSteps(steps: number): R;
  /** Instead of runSteps(n > 0): steps that finish asynchronously (data-parallel training waits
   *  for the other workers' gradients). The worker answers messages while they run. */
  advance?(steps: number): Promise<R>;
  /** The engine session's cancelTraining. */
  cancelTraining(): void;
  /** Posts one progress message. */
  post(progress: ChunkProgress<R, E>): void;
  /** The run's result, from runSteps(0)'s final report; `epochs` ended during this run. */
  outcome(final: R, run: { cancelled: boolean; epochs: number; elapsed: number }): O;
  /** Wall time one chunk aims at, in ms (default 40): bounds the latency of pause and cancel. */
  chunkMs?: number;
  /** At most one progress message per this many ms (default 100), besides checkpoints and the end. */
  progressMs?: number;
  /** Chunks stop at every multiple of this many steps and post there (0 or absent: no checkpoints). */
  checkpointEvery?: number;
  /** Also post right after a chunk in which an epoch ended. */
  postOnEpoch?: boolean;
}

interface ActiveRun<R extends ChunkReport<E>, E, O> {
  spec: ChunkedRunSpec<R, E, O>;
  paused: boolean;
  /** An asynchronous chunk is running (no other may start until it ends). */
  inChunk: boolean;
  /** Resolves once the asynchronous chunk under way has been taken in (its steps are pending). */
  chunkTaken: Promise<void> | null;
  stepsPerChunk: number;
  nextCheckpoint: number;
  epochsDone: number;
  last: R | null;
  pendingLosses: number[];
  pendingEpochs: E[];
  lastPost: number;
  resolve: (outcome: O) => void;
  reject: (error: Error) => void;
}

/** At most one run at a time; starting one cancels the previous (which resolves as cancelled). */
export class ChunkedRunner<R extends ChunkReport<E>, E, O> {
  private run: ActiveRun<R, E, O> | null = null;
  private readonly ticker = new ChunkTicker(() => this.chunk());

  get active(): boolean {
    return this.run !== null;
  }

  /** Resolves when the run ends (schedule done, early stop, cancel); rejects on an engine error. */
  start(spec: ChunkedRunSpec<R, E, O>): Promise<O> {
    this.stop();
    const every = spec.checkpointEvery ?? 0;
    return new Promise((resolve, reject) => {
      this.run = {
        spec,
        paused: false,
        inChunk: false,
        chunkTaken: null,
        stepsPerChunk: 1,
        nextCheckpoint: every > 0 ? 0 : Infinity,
        epochsDone: 0,
        last: null,
        pendingLosses: [],
        pendingEpochs: [],
        lastPost: 0,
        resolve,
        reject,
      };
      this.ticker.schedule();
    });
  }

  /**
   * Pauses the active run and posts what is pending; resolves whether a run is paused. Steps
   * already under way (an asynchronous chunk) end first and are in that post, so the answer comes
   * after the run's last step: nothing more is posted until resume.
   */
  async pause(): Promise<boolean> {
    const run = this.run;
    if (run && !run.paused) {
      run.paused = true;
      if (run.chunkTaken) await run.chunkTaken;
      if (this.run === run) this.flush(run, false);
    }
    return this.run?.paused ?? false;
  }

  resume(): void {
    if (!this.run?.paused) return;
    this.run.paused = false;
    this.ticker.schedule();
  }

  /** Cancels the active run (it resolves as cancelled); returns whether there was one. */
  stop(): boolean {
    const run = this.run;
    if (!run) return false;
    if (run.pendingLosses.length) this.flush(run, false);
    run.spec.cancelTraining();
    this.finish(run, true);
    return true;
  }

  /** Stops any run and lets the event loop end (for tests; the worker lives as long as the page). */
  close(): void {
    this.stop();
    this.ticker.close();
  }

  private async chunk(): Promise<void> {
    const run = this.run;
    if (!run || run.paused || run.inChunk) return;
    const { spec } = run;
    const every = spec.checkpointEvery ?? 0;
    let taken = (): void => {};
    try {
      const step = run.last?.step ?? 0;
      if (step >= run.nextCheckpoint) {
        this.flush(run, true);
        run.nextCheckpoint = step + every;
      }
      const steps = Math.max(1, Math.min(run.stepsPerChunk, run.nextCheckpoint - step));
      const started = performance.now();
      let report: R;
      if (spec.advance) {
        run.inChunk = true;
        run.chunkTaken = new Promise((resolve) => (taken = resolve));
        report = await spec.advance(steps);
        run.inChunk = false;
        if (this.run !== run) return; // stopped (or replaced) while the steps ran
      } else {
        report = spec.runSteps(steps);
      }
      const ms = performance.now() - started;
      run.stepsPerChunk = nextChunkSize(steps, report.stepsRun, ms, spec.chunkMs ?? 40);
      if (report.stepsRun > 0) run.last = report;
      run.epochsDone += report.epochs.length;
      for (let i = 0; i < report.losses.length; i++) run.pendingLosses.push(report.losses[i]);
      run.pendingEpochs.push(...report.epochs);
      const atCheckpoint = report.step >= run.nextCheckpoint;
      if (atCheckpoint) run.nextCheckpoint = report.step + every;
      // Fewer, fuller messages keep the page's main thread idle: at most one per progressMs.
      const due = performance.now() - run.lastPost >= (spec.progressMs ?? 100);
      const epochEnded = spec.postOnEpoch === true && report.epochs.length > 0;
      if (atCheckpoint || report.done || due || epochEnded) {
        this.flush(run, atCheckpoint || (report.done && every > 0));
      }
      if (report.done) {
        this.finish(run, false);
        return;
      }
      this.ticker.schedule();
    } catch (error) {
      if (this.run !== run) return;
      this.run = null;
      run.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      run.chunkTaken = null;
      taken();
    }
  }

  private flush(run: ActiveRun<R, E, O>, checkpoint: boolean): void {
    const report = run.last ?? run.spec.runSteps(0);
    const losses = Float32Array.from(run.pendingLosses);
    const epochs = run.pendingEpochs;
    run.pendingLosses = [];
    run.pendingEpochs = [];
    run.lastPost = performance.now();
    run.spec.post({ report, losses, epochs, paused: run.paused, checkpoint });
  }

  private finish(run: ActiveRun<R, E, O>, cancelled: boolean): void {
    this.run = null;
    const final = run.spec.runSteps(0);
    run.resolve(run.spec.outcome(final, { cancelled, epochs: run.epochsDone, elapsed: run.last?.elapsed ?? 0 }));
  }
}
