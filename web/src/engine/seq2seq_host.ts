// The worker side of the seq2seq session: owns one engine Seq2SeqSession and trains it in chunks
// of steps with chunk_loop.ts's ChunkedRunner (as SessionHost does), so pause / resume / cancel / translate
// are answered while a run is in progress. A run may train on several workers (data parallel,
// docs/data-parallel.md): this worker coordinates (train with peers) or is a replica
// (trainReplica), with data_parallel.ts's exchange, the Studio's.
//
// Translation (the Translation view): the engine's per-epoch `bleu`, evaluate's BLEU / chrF /
// bleuByLength and translate's candidates and Transformer attention pass through as the engine
// gives them.
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
import { ChunkedRunner } from './chunk_loop';
import { chunkSteps, CoordinatorSlot, hostCoordinated, hostReplica, type ShardCoordinator } from './data_parallel';

type Post = (message: FromWorker, transfer?: Transferable[]) => void;

export class Seq2SeqHost {
  private session: Seq2SeqSession | null = null;
  private readonly runner = new ChunkedRunner<Seq2SeqStepsReport, Seq2SeqEpochReport, Seq2SeqOutcome>();
  private readonly coordinator = new CoordinatorSlot<Seq2SeqStepsReport>();

  constructor(
    private readonly engine: AttnEngine,
    private readonly post: Post,
  ) {}

  async handle(id: number, request: Seq2SeqRequest): Promise<{ value: unknown; transfer?: Transferable[] }> {
    if (request.op === 'create') {
      this.runner.stop();
      const { parallelText, decoderMask, ...settings } = request.settings;
      const next = parallelText
        ? this.engine.Seq2SeqSession.fromParallelText(settings, parallelText.data, parallelText.name ?? null)
        : new this.engine.Seq2SeqSession(settings);
      try {
        if (decoderMask) next.setDecoderMask(decoderMask);
      } catch (error) {
        next.delete();
        throw error;
      }
      this.session?.delete();
      this.session = next;
      return { value: { info: next.info(), samples: next.samples(8) } };
    }
    const s = this.session;
    if (!s) throw new Error('create a seq2seq session first');
    switch (request.op) {
      case 'train':
        return { value: await this.train(id, s, request.options, request.peers ?? []) };
      case 'trainReplica':
        this.runner.stop();
        return {
          value: await hostReplica(s, request.port, request.shard, request.shards, () => this.start(s)),
        };
      case 'peerFailed':
        return { value: { failed: this.coordinator.fail(request.message) } };
      case 'pause':
        return { value: { paused: await this.runner.pause() } };
      case 'resume':
        this.runner.resume();
        return { value: { paused: false } };
      case 'cancel':
        return { value: { cancelled: this.runner.stop() } };
      case 'translate': {
        const t = s.translate(request.text, request.beam);
        // The alignment is a view over wasm memory: copy it once, then transfer the copy (the
        // Transformer's attention maps are copies already).
        const value: Seq2SeqTranslation = {
          output: t.output,
          sourceTokens: t.sourceTokens,
          outputTokens: t.outputTokens,
          alignment: t.alignment.data.slice(),
          rows: t.alignment.rows,
          cols: t.alignment.cols,
          logProb: t.logProb,
          finished: t.finished,
          candidates: t.candidates,
          crossAttention: t.crossAttention,
          crossShape: t.crossShape,
          selfAttention: t.selfAttention,
          selfShape: t.selfShape,
        };
        const transfer = [value.alignment.buffer as ArrayBuffer];
        for (const copy of [value.crossAttention, value.selfAttention])
          if (copy) transfer.push(copy.buffer as ArrayBuffer);
        return { value, transfer };
      }
      case 'evaluate':
        return { value: s.evaluate(request.which, request.limit ?? 0) };
      case 'saveModel': {
        const bytes = s.saveModel(); // a fresh copy: its buffer can be transferred
        return { value: bytes.buffer, transfer: [bytes.buffer as ArrayBuffer] };
      }
      case 'loadModel':
        this.runner.stop();
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
      case 'crossStart':
        return { value: s.crossStart(request.texts) };
      case 'crossBegin':
        return { value: s.crossBegin(request.previous) };
      case 'crossAttend':
        return { value: s.crossAttend() };
      case 'crossContinue':
        return { value: s.crossContinue(request.heads, request.weights) };
    }
    throw new Error(`unknown seq2seq request '${(request as { op: string }).op}'`);
  }

  /** Starts the session's run; its planned steps. */
  private start(session: Seq2SeqSession): number {
    return session.startTraining().plannedSteps;
  }

  /** A run of this worker alone, or (with `peers`) the coordinator's side of a data-parallel run. */
  private train(
    id: number,
    session: Seq2SeqSession,
    options: Seq2SeqTrainOptions,
    peers: MessagePort[],
  ): Promise<Seq2SeqOutcome> {
    this.runner.stop();
    return hostCoordinated(
      session,
      peers,
      this.coordinator,
      () => this.start(session),
      (coordinator) => this.chunked(id, session, options, coordinator, peers.length + 1),
    );
  }

  private chunked(
    id: number,
    session: Seq2SeqSession,
    options: Seq2SeqTrainOptions,
    coordinator: ShardCoordinator<Seq2SeqStepsReport> | null,
    workers: number,
  ): Promise<Seq2SeqOutcome> {
    return this.runner.start({
      ...chunkSteps(session, coordinator),
      chunkMs: options.chunkMs,
      progressMs: options.progressMs,
      postOnEpoch: true,
      post: ({ report, losses, epochs, paused }) => {
        const progress: Seq2SeqProgress = {
          step: report.step,
          epoch: report.epoch,
          loss: report.loss,
          losses,
          elapsed: report.elapsed,
          plannedSteps: report.plannedSteps,
          stepsPerSecond: report.elapsed > 0 ? report.step / report.elapsed : 0,
          examplesPerSecond: report.examplesPerSecond,
          workers,
          epochs,
          paused,
          done: report.done,
        };
        this.post({ type: 'seq2seq-progress', id, progress }, [losses.buffer as ArrayBuffer]);
      },
      outcome: (final, run) => ({
        steps: final.step,
        cancelled: run.cancelled,
        earlyStopped: final.earlyStopped,
        bestEpoch: final.bestEpoch,
        elapsed: run.elapsed,
      }),
    });
  }
}
