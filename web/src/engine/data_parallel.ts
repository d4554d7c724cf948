// Data-parallel training between engine workers (docs/data-parallel.md): K identical replicas of
// one run, one per worker. Every step, replica r computes the gradient of shard r of the batch
// (shardGradient: the engine keeps its own buffer, a copy comes out); the coordinator (worker 0,
// replica 0) gathers the K buffers and sends each replica the others' (with two workers: its own,
// transferred), and every replica's engine adds the K in shard order and applies the sum
// (applyGradient(others)), so the replicas stay bit-identical. Replica r > 0 talks to the
// coordinator over a MessagePort of its own (the page hands one end to each worker): the page's
// main thread does nothing per step.
//
// The coordinator's side plugs into the ChunkedRunner as an asynchronous `advance`; a replica's
// side runs on its own, driven by the sums it receives, and computes its next shard's gradient as
// soon as it has applied a sum, while the coordinator computes its own.
//
// One implementation for every session that offers the step: the Studio's SentimentSession and the
// Translation tab's Seq2SeqSession (their reports differ; what this file reads of them is
// ShardReport).

/** What the exchange reads of a session's step report (StepsReport, Seq2SeqStepsReport). */
export interface ShardReport {
  stepsRun: number;
  step: number;
  loss: number;
  losses: Float32Array;
  epochs: unknown[];
  examplesSeen: number;
  elapsed: number;
  examplesPerSecond: number;
  done: boolean;
}

/** What the data-parallel step needs of an engine session (SentimentSession, Seq2SeqSession). */
export interface ShardSession<R extends ShardReport = ShardReport> {
  exchangeSize(): number;
  shardGradient(shard: number, shards: number): Float32Array;
  /** This replica's shard buffer (kept by the engine) and `others`, the other shards' buffers in
   *  shard order, added in shard order and applied. */
  applyGradient(others: Float32Array[]): R;
  runSteps(steps: 0): R;
}

/** The messages on a replica's port. */
export type PeerMessage =
  /** Replica → coordinator, once at the start: what must match the coordinator's run. */
  | { type: 'hello'; exchangeSize: number; plannedSteps: number }
  /** Replica → coordinator: its shard's exchange buffer for the next step, with the loss its
   *  last applied step reported (the coordinator's must be the same: a cheap check). */
  | { type: 'gradient'; buffer: Float32Array; lastLoss: number | null }
  /** Coordinator → replica: every other shard's buffer, in shard order (the replica's engine adds
   *  them and its own in shard order). */
  | { type: 'shards'; buffers: Float32Array[] }
  /** Coordinator → replica: the run ended (cancel, or the coordinator failed). */
  | { type: 'stop' }
  /** Replica → coordinator: the replica failed; the run ends with this message. */
  | { type: 'error'; message: string };

/** One report for several single-step reports, as runSteps(n) would have given. */
export function mergeReports<R extends ShardReport>(reports: R[]): R {
  const last = reports[reports.length - 1];
  const losses = new Float32Array(reports.length);
  reports.forEach((r, i) => (losses[i] = r.loss));
  return {
    ...last,
    stepsRun: reports.reduce((n, r) => n + r.stepsRun, 0),
    losses,
    epochs: reports.flatMap((r) => r.epochs),
  };
}

/** A replica as the page names its worker: shard 1 of 2 is "worker 2 of 2". */
function workerName(shard: number, shards: number): string {
  return `worker ${shard + 1} of ${shards}`;
}

/**
 * Tells the coordinator on `port` that replica `shard` of `shards` failed with `error` (the run
 * ends with this message) and returns the same message as an Error for the replica's caller.
 */
export function reportReplicaFailure(port: MessagePort, shard: number, shards: number, error: unknown): Error {
  const message = `${workerName(shard, shards)}: ${error instanceof Error ? error.message : String(error)}`;
  port.postMessage({ type: 'error', message } satisfies PeerMessage);
  return new Error(message);
}

/** Messages from one port, in order, awaited one at a time. */
class Inbox {
  private readonly queue: PeerMessage[] = [];
  private waiting: ((message: PeerMessage) => void) | null = null;

  constructor(readonly port: MessagePort) {
    port.onmessage = (event: MessageEvent<PeerMessage>) => this.push(event.data);
  }

  push(message: PeerMessage): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve(message);
    } else {
      this.queue.push(message);
    }
  }

  next(): Promise<PeerMessage> {
    const message = this.queue.shift();
    if (message) return Promise.resolve(message);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

/** The coordinator's side: replica 0 of `peers.length + 1`, with one port per other replica. */
export class ShardCoordinator<R extends ShardReport = ShardReport> {
  private readonly inboxes: Inbox[];
  private readonly shards: number;
  private greeted = false;
  private stopped = false;
  private failure: string | null = null;
  private lastLoss: number | null = null;
  /** Wall time spent in advance(), waits for the other replicas included, in seconds. */
  private seconds = 0;

  constructor(
    private readonly session: ShardSession<R>,
    peers: MessagePort[],
    private readonly plannedSteps: number,
  ) {
    this.inboxes = peers.map((port) => new Inbox(port));
    this.shards = peers.length + 1;
  }

  /** Up to `steps` data-parallel steps; fewer if the run ends or is stopped. Rejects when a replica fails. */
  async advance(steps: number): Promise<R> {
    const started = performance.now();
    const report = await this.steps(steps).finally(() => (this.seconds += (performance.now() - started) / 1000));
    return this.timed(report);
  }

  /**
   * The run's report without training (runSteps(0)), timed by the coordinator: the engine's own
   * clock counts only applyGradient, not the shards' gradients nor the exchange.
   */
  current(): R {
    return this.timed(this.session.runSteps(0));
  }

  private timed(report: R): R {
    const elapsed = this.seconds;
    return { ...report, elapsed, examplesPerSecond: elapsed > 0 ? report.examplesSeen / elapsed : 0 };
  }

  private async steps(steps: number): Promise<R> {
    if (!this.greeted) await this.greet();
    const reports: R[] = [];
    for (let i = 0; i < steps && !this.stopped; i++) {
      const parts = [this.session.shardGradient(0, this.shards)];
      for (let r = 1; r < this.shards; r++) {
        const message = await this.receive(r);
        if (this.stopped) break;
        if (message.type !== 'gradient') throw new Error(`${workerName(r, this.shards)} sent '${message.type}'`);
        if (message.lastLoss !== this.lastLoss)
          throw new Error(
            `the workers' replicas drifted apart: ${workerName(r, this.shards)} reported loss ${message.lastLoss}, ` +
              `${workerName(0, this.shards)} ${this.lastLoss}`,
          );
        parts.push(message.buffer);
      }
      if (this.stopped) break;
      for (let r = 1; r < this.shards; r++) {
        const lengths = parts.map((p) => p.length);
        if (lengths.some((n) => n !== lengths[0]))
          throw new Error(`exchange buffers differ in length: ${lengths.join(', ')} floats`);
        // Replica r gets every other shard's buffer. With two workers that is the coordinator's own
        // copy, which nothing else needs: transferred. With more, each replica gets clones.
        const buffers = parts.filter((_, j) => j !== r);
        const transfer = this.shards === 2 ? [parts[0].buffer as ArrayBuffer] : [];
        this.inboxes[r - 1].port.postMessage({ type: 'shards', buffers } satisfies PeerMessage, transfer);
      }
      const report = this.session.applyGradient(parts.slice(1));
      this.lastLoss = report.loss;
      reports.push(report);
      if (report.done) break;
    }
    return reports.length ? mergeReports(reports) : this.session.runSteps(0);
  }

  /** Another replica failed outside its port (its worker crashed): the run ends with `message`. */
  fail(message: string): void {
    this.failure ??= message;
    for (const inbox of this.inboxes) inbox.push({ type: 'error', message });
  }

  /** Ends the replicas' runs (the coordinator's own is the caller's) and closes the ports. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const inbox of this.inboxes) {
      inbox.port.postMessage({ type: 'stop' } satisfies PeerMessage);
      inbox.port.close();
      inbox.push({ type: 'stop' }); // wakes an advance() waiting for a gradient
    }
  }

  private async greet(): Promise<void> {
    const size = this.session.exchangeSize();
    for (let r = 1; r < this.shards; r++) {
      const hello = await this.receive(r);
      if (this.stopped) return;
      if (hello.type !== 'hello') throw new Error(`${workerName(r, this.shards)} sent '${hello.type}' first`);
      if (hello.exchangeSize !== size || hello.plannedSteps !== this.plannedSteps)
        throw new Error(
          `${workerName(r, this.shards)} holds a different run (${hello.exchangeSize} floats, ` +
            `${hello.plannedSteps} steps; worker 1: ${size} floats, ${this.plannedSteps} steps)`,
        );
    }
    this.greeted = true;
  }

  private async receive(shard: number): Promise<PeerMessage> {
    if (this.failure !== null) throw new Error(this.failure);
    const message = await this.inboxes[shard - 1].next();
    if (message.type === 'error') {
      this.failure ??= message.message;
      throw new Error(this.failure);
    }
    return message;
  }
}

/** How a replica's run ended. */
export interface ReplicaOutcome {
  steps: number;
  /** The coordinator stopped it before the schedule ended. */
  cancelled: boolean;
}

/**
 * Replica `shard` (≥ 1) of `shards`: sends its shard's gradient, applies it with the other shards'
 * it gets back, and so on until its run is done or the coordinator says stop. Resolves with how it ended;
 * rejects on an engine error, after telling the coordinator.
 */
export function runReplica<R extends ShardReport>(
  session: ShardSession<R>,
  port: MessagePort,
  shard: number,
  shards: number,
  plannedSteps: number,
): Promise<ReplicaOutcome> {
  return new Promise((resolve, reject) => {
    let steps = 0;
    const end = (outcome: ReplicaOutcome | Error) => {
      port.onmessage = null;
      port.close();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const fail = (error: unknown) => end(reportReplicaFailure(port, shard, shards, error));
    const send = (lastLoss: number | null) => {
      const buffer = session.shardGradient(shard, shards);
      port.postMessage({ type: 'gradient', buffer, lastLoss } satisfies PeerMessage, [buffer.buffer as ArrayBuffer]);
    };
    port.onmessage = (event: MessageEvent<PeerMessage>) => {
      const message = event.data;
      if (message.type === 'stop') return end({ steps, cancelled: true });
      if (message.type !== 'shards') return fail(new Error(`unexpected message '${message.type}'`));
      try {
        const report = session.applyGradient(message.buffers);
        steps = report.step;
        if (report.done) return end({ steps, cancelled: false });
        send(report.loss);
      } catch (error) {
        fail(error);
      }
    };
    try {
      port.postMessage({ type: 'hello', exchangeSize: session.exchangeSize(), plannedSteps } satisfies PeerMessage);
      send(null);
    } catch (error) {
      fail(error);
    }
  });
}

/**
 * A worker host's side of a replica run (SessionHost, Seq2SeqHost): `start()` starts the same run
 * as the coordinator's and returns its planned steps; a failure there is told to the coordinator
 * (it waits for this replica) before it rejects. A run the coordinator stopped is cancelled.
 */
export async function hostReplica<R extends ShardReport>(
  session: ShardSession<R> & { cancelTraining(): void },
  port: MessagePort,
  shard: number,
  shards: number,
  start: () => number,
): Promise<ReplicaOutcome> {
  let planned: number;
  try {
    planned = start();
  } catch (error) {
    reportReplicaFailure(port, shard, shards, error);
    port.close();
    throw error;
  }
  const outcome = await runReplica(session, port, shard, shards, planned);
  if (outcome.cancelled) session.cancelTraining();
  return outcome;
}

/** The ChunkedRunner's step functions of a run on this worker alone (no coordinator) or of the
 *  coordinator's side of a data-parallel run. */
export function chunkSteps<R extends ShardReport>(
  session: ShardSession<R> & { runSteps(steps: number): R; cancelTraining(): void },
  coordinator: ShardCoordinator<R> | null,
): { runSteps(steps: number): R; advance?(steps: number): Promise<R>; cancelTraining(): void } {
  return {
    runSteps: (steps) => (coordinator && steps === 0 ? coordinator.current() : session.runSteps(steps)),
    ...(coordinator ? { advance: (steps: number) => coordinator.advance(steps) } : {}),
    cancelTraining: () => {
      coordinator?.stop();
      session.cancelTraining();
    },
  };
}

/** The data-parallel run a worker host coordinates, while it lasts (for peerFailed). */
export class CoordinatorSlot<R extends ShardReport> {
  current: ShardCoordinator<R> | null = null;

  /** A replica's worker crashed: the coordinated run (if any) ends with `message`. */
  fail(message: string): boolean {
    this.current?.fail(message);
    return this.current !== null;
  }
}

/**
 * A worker host's side of a run it trains (SessionHost, Seq2SeqHost): `start()` starts the run and
 * returns its planned steps; without peers `chunked(null)` trains it alone, with peers as the
 * coordinator of a data-parallel run, held in `slot` while it lasts. The ports are closed when the
 * run cannot start, the coordinator stopped at the end.
 */
export async function hostCoordinated<R extends ShardReport, O>(
  session: ShardSession<R>,
  peers: MessagePort[],
  slot: CoordinatorSlot<R>,
  start: () => number,
  chunked: (coordinator: ShardCoordinator<R> | null, plannedSteps: number) => Promise<O>,
): Promise<O> {
  let plannedSteps: number;
  try {
    plannedSteps = start();
  } catch (error) {
    for (const port of peers) port.close();
    throw error;
  }
  if (!peers.length) return chunked(null, plannedSteps);
  const coordinator = (slot.current = new ShardCoordinator(session, peers, plannedSteps));
  try {
    return await chunked(coordinator, plannedSteps);
  } finally {
    coordinator.stop();
    if (slot.current === coordinator) slot.current = null;
  }
}

/**
 * The page's side of a run on two workers (the Studio's, the Translation tab's): hands each worker
 * its end of a fresh channel — `replica(port)` starts the helper's replica, `coordinate(port)` the
 * main worker's run, whose result this resolves with — and tells the main worker
 * (`peerFailed(message)`) if the helper's worker fails outside the channel (a crash), so the run
 * ends with that message. The page does no per-step work.
 */
export async function trainOnTwoWorkers<O>(
  replica: (port: MessagePort) => Promise<unknown>,
  coordinate: (port: MessagePort) => Promise<O>,
  peerFailed: (message: string) => Promise<unknown>,
): Promise<O> {
  const channel = new MessageChannel();
  let over = false;
  replica(channel.port2).catch((error: unknown) => {
    if (!over)
      peerFailed(`the second worker failed: ${error instanceof Error ? error.message : String(error)}`).catch(
        () => undefined,
      );
  });
  try {
    return await coordinate(channel.port1);
  } finally {
    over = true;
  }
}

/** A run's default worker count: two where the browser reports two or more cores, else one. */
export function defaultWorkers(cores = globalThis.navigator?.hardwareConcurrency ?? 1): '1' | '2' {
  return cores >= 2 ? '2' : '1';
}
