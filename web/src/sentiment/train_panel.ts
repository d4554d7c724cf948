// "Train a sentiment model": a small panel that trains model (a) — Embedding → BiLSTM →
// additive attention pooling → Dense — on the built-in corpus inside the engine worker, with
// Train / Pause / Resume / Cancel, a loss and accuracy readout, and a prediction box that shows
// the attention weights per word. The worker does all the work; this view only renders the
// latest progress once per animation frame, so the main thread stays free while training.
import type { EngineBridge } from '../engine/bridge';
import type { AttentionSnapshot, Prediction, TrainingProgress } from '../engine/protocol';
import { el } from '../views/dom';

/** Model (a) at the size the course uses; maxlen 200 covers every built-in review. */
export const MODEL_A = {
  encoder: 'bilstm',
  embedDim: 32,
  units: 32,
  pooling: 'attention',
  score: 'additive',
  attentionDim: 32,
  numWords: 5000,
  maxlen: 200,
  seed: 1,
} as const;

const WATCHED = ['the acting was not good', 'a wonderful film with a moving story'];

type RunState = 'idle' | 'preparing' | 'training' | 'paused' | 'finished' | 'cancelled' | 'failed';

export class TrainPanel {
  readonly element = el('section', { className: 'train-panel' });
  private readonly engine: EngineBridge;
  private state: RunState = 'idle';
  private latest: TrainingProgress | null = null;
  private frameRequested = false;
  private lastValidation = '';

  private readonly epochsInput = el('input', {
    id: 'train-epochs',
    type: 'number',
    min: '1',
    max: '50',
    value: '5',
  });
  private readonly trainButton = el('button', {
    type: 'button',
    textContent: 'Train',
  });
  private readonly pauseButton = el('button', {
    type: 'button',
    textContent: 'Pause',
    disabled: true,
  });
  private readonly resumeButton = el('button', {
    type: 'button',
    textContent: 'Resume',
    disabled: true,
  });
  private readonly cancelButton = el('button', {
    type: 'button',
    textContent: 'Cancel',
    disabled: true,
  });
  private readonly status = el('p', {
    className: 'train-status',
    role: 'status',
  });
  private readonly readout = {
    step: el('output', { id: 'train-step' }),
    loss: el('output', { id: 'train-loss' }),
    accuracy: el('output', { id: 'train-accuracy' }),
    validation: el('output', { id: 'train-validation' }),
    speed: el('output', { id: 'train-speed' }),
    eta: el('output', { id: 'train-eta' }),
  };
  private readonly reviewInput = el('textarea', {
    id: 'predict-text',
    rows: 2,
    value: WATCHED[1],
  });
  private readonly predictButton = el('button', {
    type: 'button',
    textContent: 'Predict',
    disabled: true,
  });
  private readonly prediction = el('output', { id: 'predict-result' });
  private readonly predictionTokens = el('p', { className: 'predict-tokens' });
  private readonly watched = el('div', { className: 'watched', id: 'train-watched' });
  private latestSnapshot: AttentionSnapshot | null = null;
  private readonly error = el('p', { className: 'error', role: 'alert' });

  constructor(engine: EngineBridge) {
    this.engine = engine;
    this.build();
    this.setState('idle');
  }

  private build(): void {
    const heading = el('h2', { id: 'train-heading' }, 'Train a sentiment model');
    this.element.setAttribute('aria-labelledby', 'train-heading');
    this.prediction.htmlFor.add('predict-text');
    this.trainButton.addEventListener('click', () => void this.train());
    this.pauseButton.addEventListener('click', () => void this.control('pause'));
    this.resumeButton.addEventListener('click', () => void this.control('resume'));
    this.cancelButton.addEventListener('click', () => void this.control('cancel'));
    this.predictButton.addEventListener('click', () => void this.predict());
    const row = (label: string, output: HTMLOutputElement) =>
      el('div', { className: 'readout-row' }, el('dt', {}, label), el('dd', {}, output));
    this.element.append(
      heading,
      el(
        'p',
        { className: 'intro' },
        'Model (a): word embeddings (32) → bidirectional LSTM (32 units each way) → additive attention pooling → ' +
          'one output unit, trained on the built-in corpus of short film reviews (528 for training, 10% of them held ' +
          'out for validation). Training runs in a background worker; the page stays responsive.',
      ),
      el(
        'div',
        { className: 'train-controls' },
        el('label', { htmlFor: 'train-epochs' }, 'Epochs '),
        this.epochsInput,
        this.trainButton,
        this.pauseButton,
        this.resumeButton,
        this.cancelButton,
      ),
      this.status,
      el(
        'dl',
        { className: 'train-readout' },
        row('Step', this.readout.step),
        row('Loss (last batch)', this.readout.loss),
        row('Training accuracy (this epoch)', this.readout.accuracy),
        row('Validation', this.readout.validation),
        row('Speed', this.readout.speed),
        row('Time left', this.readout.eta),
      ),
      el('h3', {}, 'Attention on two watched reviews while training'),
      this.watched,
      el(
        'div',
        { className: 'predict-box' },
        el('label', { htmlFor: 'predict-text' }, 'Review to classify'),
        this.reviewInput,
        this.predictButton,
        this.prediction,
        this.predictionTokens,
      ),
      this.error,
    );
  }

  private setState(state: RunState, message?: string): void {
    this.state = state;
    this.element.dataset.state = state;
    const busy = state === 'preparing' || state === 'training' || state === 'paused';
    this.trainButton.disabled = busy;
    this.epochsInput.disabled = busy;
    this.pauseButton.disabled = state !== 'training';
    this.resumeButton.disabled = state !== 'paused';
    this.cancelButton.disabled = !(state === 'training' || state === 'paused');
    const text: Record<RunState, string> = {
      idle: 'No model yet: press Train.',
      preparing: 'Loading the corpus and building the model…',
      training: 'Training…',
      paused: 'Paused.',
      finished: 'Finished.',
      cancelled: 'Cancelled: the model keeps its best validated parameters.',
      failed: 'Training failed.',
    };
    this.status.textContent = message ?? text[state];
  }

  private async train(): Promise<void> {
    this.error.textContent = '';
    this.lastValidation = '';
    this.latest = null;
    for (const output of Object.values(this.readout)) output.textContent = '';
    this.readout.step.dataset.step = '0';
    this.latestSnapshot = null;
    this.watched.replaceChildren();
    delete this.watched.dataset.step;
    this.setState('preparing');
    try {
      await this.engine.loadData({ kind: 'builtin' });
      await this.engine.createModel(MODEL_A);
      this.predictButton.disabled = false;
      this.setState('training');
      const epochs = Math.min(50, Math.max(1, Math.round(Number(this.epochsInput.value) || 5)));
      const outcome = await this.engine.train(
        {
          epochs,
          batchSize: 32,
          learningRate: 0.005,
          validationSplit: 0.1,
          earlyStoppingPatience: 0,
          snapshotEvery: 20,
          watched: WATCHED,
        },
        (progress) => this.onProgress(progress),
      );
      if (outcome.cancelled) {
        this.setState('cancelled');
      } else {
        const test = await this.engine.evaluate('test');
        this.setState(
          'finished',
          `Finished after ${outcome.steps} steps; test accuracy ${(100 * test.accuracy).toFixed(1)}%.`,
        );
      }
    } catch (error) {
      this.error.textContent = error instanceof Error ? error.message : String(error);
      this.setState('failed');
    }
  }

  private async control(op: 'pause' | 'resume' | 'cancel'): Promise<void> {
    try {
      if (op === 'pause') {
        await this.engine.pause();
        if (this.state === 'training') this.setState('paused');
      } else if (op === 'resume') {
        await this.engine.resume();
        if (this.state === 'paused') this.setState('training');
      } else {
        await this.engine.cancel();
      }
    } catch (error) {
      this.error.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private onProgress(progress: TrainingProgress): void {
    const validated = progress.epochs.at(-1)?.validation;
    if (validated) {
      this.lastValidation = `loss ${validated.loss.toFixed(3)}, accuracy ${(100 * validated.accuracy).toFixed(1)}%`;
    }
    this.latest = progress;
    if (progress.snapshot) this.latestSnapshot = progress.snapshot;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.render();
    });
  }

  private render(): void {
    const p = this.latest;
    if (!p) return;
    this.readout.step.textContent = `${p.step} of ${p.plannedSteps} (epoch ${p.epoch + 1})`;
    this.readout.step.dataset.step = String(p.step);
    this.readout.loss.textContent = p.loss.toFixed(4);
    this.readout.accuracy.textContent = `${(100 * p.runningAccuracy).toFixed(1)}%`;
    this.readout.validation.textContent = this.lastValidation || '—';
    this.readout.speed.textContent = `${p.stepsPerSecond.toFixed(1)} steps/s (${Math.round(p.examplesPerSecond)} reviews/s)`;
    this.readout.eta.textContent = Number.isFinite(p.etaSeconds) ? `${Math.ceil(p.etaSeconds)} s` : '—';
    const snapshot = this.latestSnapshot;
    if (snapshot && this.watched.dataset.step !== String(snapshot.step)) {
      this.watched.dataset.step = String(snapshot.step);
      this.watched.replaceChildren(
        ...snapshot.items.map((item) =>
          el(
            'p',
            { className: 'predict-tokens' },
            `P(positive) = ${item.probability.toFixed(2)}: `,
            ...tokenSpans(item.tokens, item.weights),
          ),
        ),
      );
    }
  }

  private async predict(): Promise<void> {
    this.error.textContent = '';
    try {
      const result = await this.engine.predict(this.reviewInput.value);
      this.showPrediction(result);
    } catch (error) {
      this.error.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private showPrediction(result: Prediction): void {
    const label = result.probability > 0.5 ? 'positive' : 'negative';
    this.prediction.textContent = `${label} (P(positive) = ${result.probability.toFixed(3)})`;
    this.prediction.dataset.probability = String(result.probability);
    this.predictionTokens.replaceChildren(...tokenSpans(result.tokens, result.weights));
  }
}

// Each word with its attention weight as background strength (relative to the largest) and the
// number in the tooltip.
function tokenSpans(tokens: string[], weights: Float32Array): HTMLSpanElement[] {
  const max = Math.max(...weights, 1e-9);
  return tokens.map((token, i) => {
    const w = weights[i] ?? 0;
    const span = el('span', { className: 'token', textContent: token, title: `attention ${w.toFixed(3)}` });
    span.style.setProperty('--weight', (w / max).toFixed(3));
    return span;
  });
}
