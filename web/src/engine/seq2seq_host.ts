// The worker side of the seq2seq session: owns one engine Seq2SeqSession and trains it in chunks
// of steps with chunk_loop.ts's ChunkedRunner (as SessionHost does), so pause / resume / cancel / translate
// are answered while a run is in progress.
//
// Translation (the Translation view): the engine's per-epoch `bleu`, evaluate's BLEU / chrF /
// bleuByLength and translate's candidates and Transformer attention pass through as the engine
// gives them. Where the loaded module predates those fields (attn_engine.d.ts), the worker
// measures the same numbers on parallel text from translate() and the engine's own corpusBleu,
// corpusChrf and bleuBySourceLength — no metric is computed in TypeScript — and says so
// (`computedBy: 'worker'`).
import type {
  AttnEngine,
  Seq2SeqEpochReport,
  Seq2SeqSession,
  Seq2SeqStepsReport,
} from '../../generated/attn_engine.mjs';
import type {
  FromWorker,
  Seq2SeqBleuBucket,
  Seq2SeqCandidate,
  Seq2SeqEpoch,
  Seq2SeqEvaluation,
  Seq2SeqFeatures,
  Seq2SeqOutcome,
  Seq2SeqProgress,
  Seq2SeqRequest,
  Seq2SeqTrainOptions,
  Seq2SeqTranslation,
} from './protocol';
import { ChunkedRunner } from './chunk_loop';

type Post = (message: FromWorker, transfer?: Transferable[]) => void;

/** The translation contract's session keys (snake_case forms too): dropped for a module without them. */
const MODEL_KEYS = ['model', 'dModel', 'heads', 'layers', 'ff', 'dropout', 'labelSmoothing', 'bleuSentences'];
/** Held-out sources the worker decodes for an epoch's BLEU when the engine does not (its default). */
const FALLBACK_BLEU_SENTENCES = 200;
const METRIC_OPTIONS = { lowercase: true };

/** The translate() view's fields a newer module adds (read defensively: older modules lack them). */
interface TranslationExtras {
  candidates?: Seq2SeqCandidate[];
  crossAttention?: Float32Array | null;
  crossShape?: [number, number, number, number] | null;
  selfAttention?: Float32Array | null;
  selfShape?: [number, number, number, number] | null;
}

/** Held-out pairs grouped by source sentence: each source with all its references. */
export function referenceGroups(
  pairs: { source: string; target: string }[],
): { source: string; references: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const { source, target } of pairs) {
    const refs = groups.get(source);
    if (refs) refs.push(target);
    else groups.set(source, [target]);
  }
  return [...groups].map(([source, references]) => ({ source, references }));
}

export class Seq2SeqHost {
  private session: Seq2SeqSession | null = null;
  private features: Seq2SeqFeatures | null = null;
  /** Whether the session trains on parallel text (BLEU is measured only there). */
  private parallel = false;
  private bleuSentences = FALLBACK_BLEU_SENTENCES;
  private readonly runner = new ChunkedRunner<Seq2SeqStepsReport, Seq2SeqEpochReport, Seq2SeqOutcome>();

  constructor(
    private readonly engine: AttnEngine,
    private readonly post: Post,
  ) {}

  async handle(id: number, request: Seq2SeqRequest): Promise<{ value: unknown; transfer?: Transferable[] }> {
    if (request.op === 'create') {
      this.runner.stop();
      const { parallelText, ...given } = request.settings;
      const features = this.probe();
      const settings: Record<string, unknown> = { ...given };
      if (!features.transformer) {
        if (settings.model === 'transformer')
          throw new Error('this engine module has no Transformer encoder–decoder yet: choose an RNN model');
        for (const key of MODEL_KEYS) delete settings[key];
      }
      const next = parallelText
        ? this.engine.Seq2SeqSession.fromParallelText(settings, parallelText.data, parallelText.name ?? null)
        : new this.engine.Seq2SeqSession(settings);
      this.session?.delete();
      this.session = next;
      this.parallel = Boolean(parallelText);
      this.bleuSentences = given.bleuSentences ?? FALLBACK_BLEU_SENTENCES;
      return { value: { info: next.info(), samples: next.samples(8) } };
    }
    if (request.op === 'features') return { value: this.probe() };
    const s = this.session;
    if (!s) throw new Error('create a seq2seq session first');
    switch (request.op) {
      case 'train':
        return { value: await this.train(id, s, request.options) };
      case 'pause':
        return { value: { paused: await this.runner.pause() } };
      case 'resume':
        this.runner.resume();
        return { value: { paused: false } };
      case 'cancel':
        return { value: { cancelled: this.runner.stop() } };
      case 'translate': {
        const t = s.translate(request.text, request.beam);
        const extras = t as unknown as TranslationExtras;
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
          candidates: extras.candidates ?? [
            { text: t.output, score: t.logProb, logProb: t.logProb, finished: t.finished },
          ],
          candidatesFromEngine: extras.candidates !== undefined,
          // Copies already (attn_engine.d.ts); sliced again so that transferring them can never
          // detach the wasm memory if a module ever hands out a view.
          crossAttention: extras.crossAttention?.slice() ?? null,
          crossShape: extras.crossShape ?? null,
          selfAttention: extras.selfAttention?.slice() ?? null,
          selfShape: extras.selfShape ?? null,
        };
        const transfer = [value.alignment.buffer as ArrayBuffer];
        for (const copy of [value.crossAttention, value.selfAttention])
          if (copy) transfer.push(copy.buffer as ArrayBuffer);
        return { value, transfer };
      }
      case 'evaluate':
        return { value: this.evaluate(s, request.which, request.limit ?? 0) };
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
    }
    throw new Error(`unknown seq2seq request '${(request as { op: string }).op}'`);
  }

  /** Whether the module takes the translation contract's keys: a one-pair toy session with them. */
  private probe(): Seq2SeqFeatures {
    if (this.features) return this.features;
    let transformer = false;
    try {
      new this.engine.Seq2SeqSession({
        task: 'reverse',
        trainSize: 1,
        testSize: 1,
        model: 'rnn',
        bleuSentences: 0,
      } as never).delete();
      transformer = true;
    } catch {
      transformer = false;
    }
    this.features = { transformer };
    return this.features;
  }

  /** The epoch's held-out BLEU: the engine's, or measured here on parallel text (older modules). */
  private withBleu(session: Seq2SeqSession, epoch: Seq2SeqEpochReport): Seq2SeqEpoch {
    const given = (epoch as Partial<Seq2SeqEpoch>).bleu;
    if (given !== undefined) return epoch as Seq2SeqEpoch;
    if (!this.parallel || this.bleuSentences === 0) return { ...epoch, bleu: null };
    const groups = referenceGroups(session.samples(1_000_000)).slice(0, this.bleuSentences);
    const hypotheses = groups.map((g) => session.translate(g.source, 1).output);
    const bleu = this.engine.corpusBleu(
      hypotheses,
      groups.map((g) => g.references),
      METRIC_OPTIONS,
    ).score;
    return { ...epoch, bleu };
  }

  /** evaluate() with BLEU, chrF, exact match by source and BLEU by length on parallel text. */
  private evaluate(session: Seq2SeqSession, which: 'test' | 'train', limit: number): Seq2SeqEvaluation {
    const metrics = session.evaluate(which, limit) as Seq2SeqEvaluation;
    if (metrics.bleu !== undefined) return { ...metrics, computedBy: 'engine' };
    if (!this.parallel || which !== 'test') return metrics;
    const pairs = session.samples(limit > 0 ? limit : 1_000_000);
    const groups = referenceGroups(pairs);
    const sources = groups.map((g) => g.source);
    const references = groups.map((g) => g.references);
    const hypotheses = sources.map((source) => session.translate(source, 1).output);
    const byLength: Seq2SeqBleuBucket[] = this.engine
      .bleuBySourceLength(sources, hypotheses, references, METRIC_OPTIONS)
      .map((b) => ({ minLength: b.minWords, maxLength: b.maxWords ?? 0, sentences: b.sentences, bleu: b.bleu.score }));
    return {
      ...metrics,
      bleu: this.engine.corpusBleu(hypotheses, references, METRIC_OPTIONS).score,
      chrf: this.engine.corpusChrf(hypotheses, references, METRIC_OPTIONS).score,
      exactMatch: this.engine.exactMatch(hypotheses, references, METRIC_OPTIONS).rate,
      sentences: groups.length,
      bleuByLength: byLength,
      computedBy: 'worker',
    };
  }

  private train(id: number, session: Seq2SeqSession, options: Seq2SeqTrainOptions): Promise<Seq2SeqOutcome> {
    this.runner.stop();
    session.startTraining();
    return this.runner.start({
      runSteps: (steps) => session.runSteps(steps),
      cancelTraining: () => session.cancelTraining(),
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
          epochs: epochs.map((e) => this.withBleu(session, e)),
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
