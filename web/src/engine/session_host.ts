// The worker side of the sentiment session: owns one engine SentimentSession and trains it in
// chunks of steps with chunk_loop.ts's ChunkedRunner, so pause/resume/cancel/predict messages are
// handled while a run is in progress; this file says what each progress message carries (with
// the watched reviews' attention at the run's checkpoints) and what a run resolves with.
import type { AttnEngine, EpochReport, SentimentSession, StepsReport } from '../../generated/attn_engine.mjs';
import {
  TRACK_CALLS,
  type AttentionSnapshot,
  type FromWorker,
  type Prediction,
  type SessionRequest,
  type TrainOptions,
  type TrainingOutcome,
  type TrainingProgress,
} from './protocol';
import { ChunkedRunner } from './chunk_loop';
import { chunkSteps, CoordinatorSlot, hostCoordinated, hostReplica, type ShardCoordinator } from './data_parallel';
import { snapshotInterval } from './snapshots';
import { transferables } from './transfer';

type Post = (message: FromWorker, transfer?: Transferable[]) => void;

const TRAINER_ONLY = new Set(['snapshotEvery', 'snapshots', 'watched', 'chunkMs', 'progressMs']);

export class SessionHost {
  private readonly session: SentimentSession;
  private readonly runner = new ChunkedRunner<StepsReport, EpochReport, TrainingOutcome>();
  /** The data-parallel run this worker coordinates (docs/data-parallel.md), while it lasts. */
  private readonly coordinator = new CoordinatorSlot<StepsReport>();

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
        this.runner.stop();
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
      case 'createModel':
        this.runner.stop();
        return { value: s.createModel(request.config) };
      case 'loadModel':
        this.runner.stop();
        return { value: s.loadModel(request.bytes) };
      case 'saveModel': {
        const bytes = s.saveModel(); // a fresh copy: its buffer can be transferred
        return { value: bytes.buffer, transfer: [bytes.buffer as ArrayBuffer] };
      }
      case 'train':
        return { value: await this.train(id, request.options, request.peers ?? []) };
      case 'trainReplica':
        return { value: await this.trainReplica(request.options, request.port, request.shard, request.shards) };
      case 'peerFailed':
        return { value: { failed: this.coordinator.fail(request.message) } };
      case 'pause':
        return { value: { paused: await this.runner.pause() } };
      case 'resume':
        this.runner.resume();
        return { value: { paused: false } };
      case 'cancel':
        return { value: { cancelled: this.runner.stop() } };
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
      case 'probabilityWithWeights':
        return {
          value: s.probabilityWithWeights(request.text, { shape: [request.weights.length], data: request.weights }),
        };
      default: {
        // The ops that pass through (TRACK_CALLS): the session's method of the same name with
        // the request's arguments in order; its result is a fresh copy, so every typed array in
        // it is transferred.
        const call = (TRACK_CALLS.session.ops as Record<string, { params: readonly string[] } | undefined>)[request.op];
        const method = (s as unknown as Record<string, (...args: unknown[]) => unknown>)[request.op];
        if (!call || typeof method !== 'function') break;
        const args = request as unknown as Record<string, unknown>;
        const value = method.apply(
          s,
          call.params.map((name) => args[name]),
        );
        return { value, transfer: transferables(value) };
      }
    }
    throw new Error(`unknown session request '${(request as { op: string }).op}'`);
  }

  /** The engine's trainer settings of `options` (without what only the worker reads). */
  private startTraining(options: TrainOptions): number {
    const settings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) if (!TRAINER_ONLY.has(key)) settings[key] = value;
    return this.session.startTraining(settings).plannedSteps;
  }

  /**
   * Replica `shard` of a data-parallel run that another worker coordinates through `port`: the
   * same run (data, model, options) trained on shard `shard` of every batch; nothing is posted to
   * the page until it ends.
   */
  private trainReplica(options: TrainOptions, port: MessagePort, shard: number, shards: number) {
    this.runner.stop();
    return hostReplica(this.session, port, shard, shards, () => this.startTraining(options));
  }

  /** A run of this worker alone, or (with `peers`) the coordinator's side of a data-parallel run. */
  private train(id: number, options: TrainOptions, peers: MessagePort[]): Promise<TrainingOutcome> {
    this.runner.stop();
    return hostCoordinated(
      this.session,
      peers,
      this.coordinator,
      () => this.startTraining(options),
      (coordinator, plannedSteps) => this.chunked(id, options, plannedSteps, coordinator),
    );
  }

  private chunked(
    id: number,
    options: TrainOptions,
    plannedSteps: number,
    coordinator: ShardCoordinator<StepsReport> | null,
  ): Promise<TrainingOutcome> {
    if (options.snapshots) options = { ...options, snapshotEvery: snapshotInterval(plannedSteps, options.snapshots) };
    const watched = options.snapshotEvery ? (options.watched ?? []) : [];
    return this.runner.start({
      ...chunkSteps(this.session, coordinator),
      chunkMs: options.chunkMs,
      progressMs: options.progressMs,
      // Attention snapshots of the watched reviews are taken at the run's checkpoints.
      checkpointEvery: watched.length ? options.snapshotEvery : 0,
      post: ({ report, losses, epochs, paused, checkpoint }) => {
        const snapshot = checkpoint ? this.snapshot(report.step, watched) : undefined;
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
          paused,
          done: report.done,
          snapshot,
        };
        const transfer: Transferable[] = [losses.buffer as ArrayBuffer];
        for (const item of snapshot?.items ?? []) transfer.push(item.weights.buffer as ArrayBuffer);
        this.post({ type: 'progress', id, progress }, transfer);
      },
      outcome: (final, run) => ({
        steps: final.step,
        cancelled: run.cancelled,
        earlyStopped: final.earlyStopped,
        bestEpoch: final.bestEpoch,
        epochs: run.epochs,
        elapsed: run.elapsed,
      }),
    });
  }

  private snapshot(step: number, watched: string[]): AttentionSnapshot | undefined {
    if (!watched.length) return undefined;
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
}
