// The frame of a "your code in a trained model" demo (the pooling and the seq2seq step demos):
// a Train button that trains a model in the engine worker, then a Run button that runs the
// learner's draft inside it; a status line and the section's data-state follow the run
// (idle → training → trained → running → done | failed | error). Each demo brings its training
// and its run; the frame owns the buttons, the states, the error messages and the check that no
// other demo has replaced the trained model since.
import { el } from '../views/dom';

export type SetState = (state: string, text: string) => void;

export interface InModelDemoOptions {
  className: string;
  testId: string;
  title: string;
  intro: string;
  trainLabel: string;
  runLabel: string;
  /** The status before anything was trained. */
  idleText: string;
  /** The status once trained. */
  trainedText: string;
  /** The status when another demo has trained a model in the same session since. */
  staleText: string;
  resultsClassName: string;
  /** Claims the engine session for this demo; its token is then checked by `owns`. */
  claim: () => number;
  owns: (token: number) => boolean;
  /** Trains the model (throws on failure); it may show what training measured in `results`. */
  train: (setState: SetState, root: HTMLElement, results: HTMLElement) => Promise<void>;
  /** The run adds to what training showed in `results` instead of replacing it. */
  keepTrainingResults?: boolean;
  /** Runs the learner's code in the trained model and fills `results`; the last state is its own. */
  run: (setState: SetState, results: HTMLElement) => Promise<void>;
}

export function createInModelDemo(options: InModelDemoOptions): HTMLElement {
  const status = el('p', { role: 'status' }, options.idleText);
  const trainButton = el('button', { type: 'button' }, options.trainLabel);
  const runButton = el('button', { type: 'button', disabled: true }, options.runLabel);
  const results = el('div', { className: options.resultsClassName });
  const root = el(
    'section',
    { className: options.className, dataset: { testid: options.testId, state: 'idle' } },
    el('h3', {}, options.title),
    el('p', {}, options.intro),
    el('div', { className: 'controls' }, trainButton, runButton),
    status,
    results,
  );
  const setState: SetState = (state, text) => {
    root.dataset.state = state;
    status.textContent = text;
  };
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  let token = 0;

  trainButton.addEventListener('click', async () => {
    token = options.claim();
    trainButton.disabled = true;
    runButton.disabled = true;
    results.replaceChildren();
    try {
      await options.train(setState, root, results);
      setState('trained', options.trainedText);
      runButton.disabled = false;
    } catch (error) {
      setState('error', `Training failed: ${message(error)}`);
    } finally {
      trainButton.disabled = false;
    }
  });

  runButton.addEventListener('click', async () => {
    if (!options.owns(token)) {
      runButton.disabled = true;
      setState('idle', options.staleText);
      return;
    }
    runButton.disabled = true;
    trainButton.disabled = true;
    if (!options.keepTrainingResults) results.replaceChildren();
    try {
      await options.run(setState, results);
    } catch (error) {
      setState('error', `The engine failed: ${message(error)}`);
    } finally {
      runButton.disabled = false;
      trainButton.disabled = false;
    }
  });
  return root;
}
