// The life of a training run, shared by the views that train (Studio, Seq2seq, Transformer): one
// state machine, so every view enables Train / Pause / Resume / Cancel by the same rules. Pure:
// tests/js/run_state.test.mjs walks it in node.

export type RunState = 'idle' | 'preparing' | 'training' | 'paused' | 'finished' | 'cancelled' | 'failed' | 'diverged';

/**
 * What happens to a run: `prepare` (data and model being built), `start` (steps run), `pause` /
 * `resume`, and its ends: `finish`, `cancel` (stopped by the user), `fail`, `diverge` (the loss
 * became non-finite).
 */
export type RunEvent = 'prepare' | 'start' | 'pause' | 'resume' | 'finish' | 'cancel' | 'fail' | 'diverge';

const ENDS: Record<string, RunState> = { finish: 'finished', cancel: 'cancelled', diverge: 'diverged' };

/** A run is in progress: settings and data are locked, another run cannot start. */
export function isBusy(state: RunState): boolean {
  return state === 'preparing' || state === 'training' || state === 'paused';
}

/**
 * The state after `event`, or null where the event cannot happen in `state` (a pause that
 * arrives after the run ended, a second Train while one runs): callers ignore it.
 */
export function transition(state: RunState, event: RunEvent): RunState | null {
  switch (event) {
    case 'prepare':
      return isBusy(state) ? null : 'preparing';
    case 'start':
      return state === 'preparing' ? 'training' : null;
    case 'pause':
      return state === 'training' ? 'paused' : null;
    case 'resume':
      return state === 'paused' ? 'training' : null;
    case 'fail':
      // Also after a run: the evaluation or inspection that follows it can fail too.
      return 'failed';
    default:
      // A run ends from any of its busy states (a model rejected while preparing ends it too).
      return isBusy(state) ? ENDS[event] : null;
  }
}

/** Which run buttons can be pressed in `state`. */
export function enabledControls(state: RunState): { train: boolean; pause: boolean; resume: boolean; cancel: boolean } {
  return {
    train: !isBusy(state),
    pause: state === 'training',
    resume: state === 'paused',
    cancel: state === 'training' || state === 'paused',
  };
}
