// How often a training run takes an attention snapshot of its watched reviews: spaced by the
// steps the engine plans for the run (TrainingStart.plannedSteps, which knows the validation
// split, the batch size and the epochs), so any data size gets about the same number.

/**
 * Steps between snapshots for about `perRun` of them over `plannedSteps` steps: every 2 steps at
 * least (a snapshot costs a forward pass per watched review), every 100 at most (a long run
 * still moves visibly on the timeline).
 */
export function snapshotInterval(plannedSteps: number, perRun: number): number {
  return Math.min(100, Math.max(2, Math.ceil(plannedSteps / Math.max(1, perRun))));
}
