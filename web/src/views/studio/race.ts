// A Studio run as one or two sides: the main engine (A) and, in race mode, a challenger (B) in a
// worker of its own with the same data and seed and one setting changed. Both train at once;
// Pause / Resume / Cancel reach both; the challenger's worker goes when the run ends (its curves
// and snapshots stay in the view).
//
// A single run may instead train on two workers (data parallel, docs/data-parallel.md): a helper
// worker holds a replica of the run (same data, model and seed) and trains shard 1 of every batch;
// the main engine coordinates it over a MessageChannel (engine/data_parallel.ts) and alone reports
// progress, so the page follows it exactly as a run of one worker. The helper goes when the run ends.
import { EngineBridge } from '../../engine/bridge';
import { trainOnTwoWorkers } from '../../engine/data_parallel';
import type { DataSource, TrainingOutcome, TrainingProgress, TrainOptions } from '../../engine/protocol';
import { errorMessage } from '../dom';
import { describeDifference, modelConfig, RACES, type RaceKind, type StudioSettings } from './settings';

/** The challenger's settings were refused by the engine (shown next to the form). */
export class ChallengerRejected extends Error {}

/** The curves' labels: "A" alone, or in a race each side named by what it changes. */
export function sideLabels(a: StudioSettings, b: StudioSettings | null): string[] {
  if (!b) return ['A'];
  return [`A (${describeDifference(b, a)})`, `B (${describeDifference(a, b)})`];
}

export interface RaceResult {
  /** The main side's outcome (its failure rejects the whole run). */
  outcome: TrainingOutcome;
  /** The challenger's failure, if it failed (the main side's result still counts). */
  challengerError?: unknown;
}

/** A worker of its own that loads the run's data (the same source again) and builds `settings`' model. */
async function startWorker(
  bridge: EngineBridge,
  settings: StudioSettings,
  source: () => Promise<DataSource>,
  rejected: (error: unknown) => Error,
): Promise<void> {
  await bridge.ready;
  await bridge.loadData(await source());
  try {
    await bridge.createModel(modelConfig(settings));
  } catch (error) {
    throw rejected(error);
  }
}

export class Race {
  /** The challenger's settings; null: a single run. */
  readonly challengerSettings: StudioSettings | null;
  private challenger: EngineBridge | null = null;
  /** The data-parallel helper (worker 2 of 2), while a single run trains on two workers. */
  private helper: EngineBridge | null = null;
  private workersWanted: number;

  constructor(
    private readonly main: EngineBridge,
    private readonly settings: StudioSettings,
    kind: RaceKind | null,
  ) {
    this.challengerSettings = kind ? RACES[kind].challenger(settings) : null;
    // A race already takes a worker per side: each side trains on one.
    this.workersWanted = this.challengerSettings ? 1 : Number(settings.workers);
  }

  /** Workers the main side trains on (1, or 2 once a helper is ready). */
  get workers(): number {
    return this.helper ? 2 : 1;
  }

  /**
   * Starts the challenger's worker (race) or the data-parallel helper, loads the same data and
   * builds its model; a single run on one worker: nothing. A helper that cannot start leaves the
   * run on one worker, and `onStatus` says why.
   */
  async prepare(source: () => Promise<DataSource>, onStatus: (text: string) => void): Promise<void> {
    if (this.challengerSettings) {
      const challenger = (this.challenger = new EngineBridge());
      onStatus('Starting the challenger’s worker…');
      await startWorker(challenger, this.challengerSettings, source, (e) => new ChallengerRejected(errorMessage(e)));
      return;
    }
    if (this.workersWanted < 2) return;
    const helper = new EngineBridge();
    try {
      await startWorker(helper, this.settings, source, (e) => (e instanceof Error ? e : new Error(String(e))));
      this.helper = helper;
    } catch (error) {
      helper.dispose();
      onStatus(`The second worker could not start (${errorMessage(error)}): training on one.`);
    }
  }

  /** Trains both sides with `options`; `onProgress` hears side 0 (main) and 1 (challenger). */
  async train(options: TrainOptions, onProgress: (side: number, p: TrainingProgress) => void): Promise<RaceResult> {
    if (this.helper) return { outcome: await this.trainParallel(this.helper, options, (p) => onProgress(0, p)) };
    const runA = this.main.train(options, (p) => onProgress(0, p));
    const runB = this.challenger?.train(options, (p) => onProgress(1, p));
    const [a, b] = await Promise.allSettled([runA, runB ?? Promise.resolve(null)]);
    if (a.status === 'rejected') throw a.reason;
    return { outcome: a.value, ...(b.status === 'rejected' ? { challengerError: b.reason } : {}) };
  }

  /** The challenger's test accuracy (null: no challenger, or it failed). */
  async challengerAccuracy(result: RaceResult): Promise<number | null> {
    if (!this.challenger || 'challengerError' in result) return null;
    return (await this.challenger.evaluate('test')).accuracy;
  }

  async pause(): Promise<void> {
    await Promise.all(this.bridges().map((b) => b.pause()));
  }

  async resume(): Promise<void> {
    await Promise.all(this.bridges().map((b) => b.resume()));
  }

  async cancel(): Promise<void> {
    await Promise.all(this.bridges().map((b) => b.cancel()));
  }

  /**
   * One run on the main worker and `helper`: the main worker coordinates (it alone reports
   * progress); the page only hands each its end of the channel, and tells the main worker if the
   * helper's worker fails outside the channel (a crash), so the run ends with that message.
   */
  private trainParallel(
    helper: EngineBridge,
    options: TrainOptions,
    onProgress: (p: TrainingProgress) => void,
  ): Promise<TrainingOutcome> {
    return trainOnTwoWorkers(
      (port) => helper.trainReplica(options, port, 1, 2),
      (port) => this.main.train(options, onProgress, undefined, [port]),
      (message) => this.main.peerFailed(message),
    );
  }

  /** Ends the race: the challenger's (or the helper's) worker goes. */
  dispose(): void {
    this.challenger?.dispose();
    this.challenger = null;
    this.helper?.dispose();
    this.helper = null;
  }

  private bridges(): EngineBridge[] {
    return [this.main, ...(this.challenger ? [this.challenger] : [])];
  }
}
