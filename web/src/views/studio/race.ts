// A Studio run as one or two sides: the main engine (A) and, in race mode, a challenger (B) in a
// worker of its own with the same data and seed and one setting changed. Both train at once;
// Pause / Resume / Cancel reach both; the challenger's worker goes when the run ends (its curves
// and snapshots stay in the view).
import { EngineBridge } from '../../engine/bridge';
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

export class Race {
  /** The challenger's settings; null: a single run. */
  readonly challengerSettings: StudioSettings | null;
  private challenger: EngineBridge | null = null;

  constructor(
    private readonly main: EngineBridge,
    settings: StudioSettings,
    kind: RaceKind | null,
  ) {
    this.challengerSettings = kind ? RACES[kind].challenger(settings) : null;
  }

  /** Starts the challenger's worker, loads the same data and builds its model (a single run: nothing). */
  async prepare(source: () => Promise<DataSource>, onStatus: (text: string) => void): Promise<void> {
    if (!this.challengerSettings) return;
    const challenger = (this.challenger = new EngineBridge());
    onStatus('Starting the challenger’s worker…');
    await challenger.ready;
    await challenger.loadData(await source());
    try {
      await challenger.createModel(modelConfig(this.challengerSettings));
    } catch (error) {
      throw new ChallengerRejected(errorMessage(error));
    }
  }

  /** Trains both sides with `options`; `onProgress` hears side 0 (main) and 1 (challenger). */
  async train(options: TrainOptions, onProgress: (side: number, p: TrainingProgress) => void): Promise<RaceResult> {
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

  /** Ends the race: the challenger's worker goes. */
  dispose(): void {
    this.challenger?.dispose();
    this.challenger = null;
  }

  private bridges(): EngineBridge[] {
    return [this.main, ...(this.challenger ? [this.challenger] : [])];
  }
}
