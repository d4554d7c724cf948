// The contract every exercise folder fulfils (see README.md in this folder).
import type { EngineArgs, EngineMethod, EngineResult } from '../../engine/protocol';
import type { HeatmapData } from '../../views/heatmap';
import type { KnownMistake } from '../grader';

/** Calls the C++ engine (EngineBridge.call in the page). */
export type EngineCall = <M extends EngineMethod>(method: M, ...args: EngineArgs<M>) => Promise<EngineResult<M>>;

export interface ExerciseCase {
  /** Shown when the case fails, so it says what is special about it. */
  name: string;
  /** The arguments passed to the learner's function: JSON-safe numbers and nested arrays. */
  args: unknown[];
}

export interface Exercise {
  id: string;
  title: string;
  /** The function the learner completes; the sandbox looks it up by this name. */
  functionName: string;
  /** HTML with $…$ / $$…$$ TeX, rendered by KaTeX. */
  prompt: string;
  starter: string;
  solution: string;
  hints: string[];
  /** Fixed edge cases first, then seeded random ones; the same list on every call. */
  cases(): ExerciseCase[];
  /** The expected result for one case, computed by the C++ engine. */
  reference(call: EngineCall, args: unknown[]): Promise<unknown>;
  /** The result as a heatmap (learner's and reference side by side). */
  figure(value: unknown, args: unknown[]): HeatmapData | null;
  /** Optional targeted advice for a typical mistake, given the failing case. */
  diagnose?(expected: unknown, got: unknown, args: unknown[]): string | null;
  /**
   * Optional known-wrong variants of the solution (no tanh, `+` for `*`, …): when a check fails,
   * each runs in the sandbox on the failing case, and a learner whose result is a variant's gets
   * its hint (grader.matchMistake).
   */
  mistakes?: KnownMistake[];
}
