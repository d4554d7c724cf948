// The worker side of the course's toy training runs (engine ToyRun, the chunked runToyTask): one
// run at a time, trained in chunks on the same ticker as the sessions (chunk_loop.ts), so the
// lesson's other engine calls and a cancel are answered while it trains.
import type { AttnEngine, ToyRun } from '../../generated/attn_engine.mjs';
import type { FromWorker, ToyOps, ToyRequest, ToyRunOutcome } from './protocol';
import { ChunkTicker, nextChunkSize } from './chunk_loop';

type Post = (message: FromWorker, transfer?: Transferable[]) => void;

interface ActiveRun {
  id: number;
  run: ToyRun;
  options: ToyOps['run']['args'];
  stepsPerChunk: number;
  step: number;
  plannedSteps: number;
  pendingLosses: number[];
  lastPost: number;
  resolve: (outcome: ToyRunOutcome) => void;
  reject: (error: Error) => void;
}

export class ToyHost {
  private active: ActiveRun | null = null;
  private readonly ticker = new ChunkTicker(() => this.chunk());

  constructor(
    private readonly engine: AttnEngine,
    private readonly post: Post,
  ) {}

  async handle(id: number, request: ToyRequest): Promise<{ value: unknown; transfer?: Transferable[] }> {
    if (request.op === 'cancel') {
      const cancelled = this.active !== null;
      this.stop(true);
      return { value: { cancelled } };
    }
    this.stop(true);
    const run = new this.engine.ToyRun(request.configJson);
    const outcome = await new Promise<ToyRunOutcome>((resolve, reject) => {
      this.active = {
        id,
        run,
        options: request,
        stepsPerChunk: 1,
        step: 0,
        plannedSteps: run.runSteps(0).plannedSteps,
        pendingLosses: [],
        lastPost: 0,
        resolve,
        reject,
      };
      this.ticker.schedule();
    });
    return { value: outcome, transfer: [outcome.losses.buffer as ArrayBuffer] };
  }

  private chunk(): void {
    const a = this.active;
    if (!a) return;
    try {
      const started = performance.now();
      const report = a.run.runSteps(a.stepsPerChunk);
      const ran = report.step - a.step;
      a.stepsPerChunk = nextChunkSize(a.stepsPerChunk, ran, performance.now() - started, a.options.chunkMs ?? 40);
      a.step = report.step;
      a.pendingLosses.push(...report.losses);
      if (report.done || performance.now() - a.lastPost >= (a.options.progressMs ?? 100)) this.flush(a);
      if (report.done) this.stop(false);
      else this.ticker.schedule();
    } catch (error) {
      this.active = null;
      a.run.delete();
      a.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private flush(a: ActiveRun): void {
    const losses = Float32Array.from(a.pendingLosses);
    a.pendingLosses = [];
    a.lastPost = performance.now();
    this.post({ type: 'toy-progress', id: a.id, progress: { step: a.step, plannedSteps: a.plannedSteps, losses } }, [
      losses.buffer,
    ]);
  }

  /** Ends the active run: its model is evaluated as it is (cancelled: after fewer steps). */
  private stop(cancelled: boolean): void {
    const a = this.active;
    if (!a) return;
    this.active = null;
    try {
      const r = a.run.result();
      a.resolve({
        cancelled,
        steps: a.step,
        losses: r.losses,
        testAccuracy: r.testAccuracy,
        decisiveAttention: r.decisiveAttention,
        decisiveArgmaxRate: r.decisiveArgmaxRate,
        parameters: r.parameters,
      });
    } catch (error) {
      a.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      a.run.delete();
    }
  }
}
