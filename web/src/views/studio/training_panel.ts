// The Studio's live training: the run controls (Train / Pause / Resume / Cancel, and Race), the
// status line, the readouts (step, loss, accuracy, validation, speed, time left), the divergence
// notice with its retry, and the loss and accuracy charts of both sides of a race.
import { createLineChart } from '../chart';
import { el, errorMessage, readoutRow } from '../dom';
import { RunControls, type RunControlsOptions } from '../run_controls';
import { chartSeries, type Curves } from './curves';
import { formatRate, RACES, type RaceKind } from './settings';
import { validationLabel, validationNote, type SplitKind } from './readouts';
import { percent } from '../format';

/** Redrawing the charts about once a second is plenty, and keeps each frame's work small. */
const CHART_MS = 1000;

export interface TrainingActions extends Pick<RunControlsOptions, 'pause' | 'resume' | 'cancel' | 'onChange'> {
  train: (race: boolean) => void;
  /** Train again with this learning rate (after a divergence). */
  retry: (learningRate: number) => void;
}

export class TrainingPanel {
  readonly controls: RunControls;
  /** The controls, status, notices and readouts (the settings form goes between heading and these). */
  readonly element = el('section', { className: 'train-panel' });
  readonly charts: HTMLElement;
  readonly error = el('p', { className: 'error', role: 'alert', id: 'train-error' });
  private readonly raceSelect = el('select', { id: 'race-kind' });
  private readonly raceButton = el('button', { type: 'button', textContent: 'Race', id: 'race-start' });
  private readonly readout = {
    step: el('output', { id: 'train-step' }),
    loss: el('output', { id: 'train-loss' }),
    accuracy: el('output', { id: 'train-accuracy' }),
    validation: el('output', { id: 'train-validation' }),
    speed: el('output', { id: 'train-speed' }),
    eta: el('output', { id: 'train-eta' }),
  };
  // The validation readout names its estimate; setSplit follows the loaded data's split.
  private readonly validationRow = readoutRow(validationLabel('random'), this.readout.validation);
  private readonly validationNote = el('p', { className: 'hint', id: 'validation-note' }, validationNote('random'));
  readonly raceReadout = el('p', { id: 'race-readout', hidden: true });
  private readonly diverged = el('div', { className: 'diverged', id: 'diverged', hidden: true });
  private readonly divergedText = el('p', { className: 'error', role: 'alert', id: 'diverged-message' });
  private readonly retryButton = el('button', { type: 'button', id: 'retry-lower-lr' });
  private retryRate = 0;
  private readonly lossChart = createLineChart({
    title: 'Loss: training (per step, smoothed) and validation (per epoch)',
    testId: 'chart-loss',
    xLabel: 'Step',
    yLabel: 'Loss',
    xFrom: 0,
    xInteger: true,
  });
  private readonly accuracyChart = createLineChart({
    title: 'Accuracy per epoch: training and validation',
    testId: 'chart-accuracy',
    xLabel: 'Step',
    yLabel: 'Accuracy',
    xFrom: 0,
    xInteger: true,
    yRange: [0, 1],
  });
  private chartsDrawn = 0;
  private workers = 1;

  constructor(actions: TrainingActions) {
    this.controls = new RunControls({
      ids: {
        train: 'train-start',
        pause: 'train-pause',
        resume: 'train-resume',
        cancel: 'train-cancel',
        status: 'train-status',
      },
      stateHost: this.element,
      texts: {
        idle: 'No model yet: choose settings and press Train (or Race to train two configurations side by side).',
        preparing: 'Loading the data and building the model…',
        training: 'Training…',
        paused: 'Paused.',
        finished: 'Finished.',
        cancelled: 'Cancelled: the model keeps its best validated parameters.',
        failed: 'Training failed.',
        diverged: 'Training diverged.',
      },
      onTrain: () => actions.train(false),
      pause: actions.pause,
      resume: actions.resume,
      cancel: actions.cancel,
      onError: (error) => (this.error.textContent = errorMessage(error)),
      onChange: (state, busy) => {
        this.raceButton.disabled = busy;
        actions.onChange?.(state, busy);
      },
    });
    for (const [value, race] of Object.entries(RACES))
      this.raceSelect.append(el('option', { value, textContent: race.label }));
    this.raceButton.addEventListener('click', () => actions.train(true));
    this.retryButton.addEventListener('click', () => actions.retry(this.retryRate));
    this.diverged.append(this.divergedText, this.retryButton);
    this.element.setAttribute('aria-labelledby', 'train-heading');
    this.charts = el('div', { className: 'studio-charts' }, this.lossChart.element, this.accuracyChart.element);
  }

  /** The run's controls, status line, notices and readouts, in their order on the page. */
  parts(): HTMLElement[] {
    return [
      el(
        'div',
        { className: 'train-controls' },
        ...this.controls.buttons,
        el('label', { htmlFor: 'race-kind' }, 'Race '),
        this.raceSelect,
        this.raceButton,
      ),
      this.controls.status,
      this.diverged,
      this.error,
      el(
        'dl',
        { className: 'train-readout' },
        readoutRow('Step', this.readout.step),
        readoutRow('Loss (last batch)', this.readout.loss),
        readoutRow('Training accuracy (this epoch)', this.readout.accuracy),
        this.validationRow,
        readoutRow('Speed', this.readout.speed),
        readoutRow('Time left', this.readout.eta),
      ),
      this.validationNote,
      this.raceReadout,
    ];
  }

  /** The loaded data's validation split: random, or whole movies (groups) held out. */
  setSplit(split: SplitKind): void {
    this.validationRow.querySelector('dt')!.textContent = validationLabel(split);
    this.validationNote.textContent = validationNote(split);
    this.validationRow.dataset.split = split;
  }

  raceKind(): RaceKind {
    return this.raceSelect.value as RaceKind;
  }

  /** The run trains on `count` engine workers (data-workers on the panel; the speed names it). */
  setWorkers(count: number): void {
    this.workers = count;
    this.element.dataset.workers = String(count);
  }

  /** Clears the notices, readouts and charts of the last run as a new one starts. */
  begin(): void {
    this.error.textContent = '';
    for (const key of ['bestEpoch', 'epochs', 'steps', 'testAccuracy']) delete this.controls.status.dataset[key];
    this.diverged.hidden = true;
    this.raceReadout.hidden = true;
    this.raceReadout.textContent = '';
    this.reset();
  }

  /** Empties the readouts and charts for a new run. */
  reset(): void {
    this.chartsDrawn = 0;
    for (const output of Object.values(this.readout)) output.textContent = '';
    this.readout.step.dataset.step = '0';
    this.lossChart.update([]);
    this.accuracyChart.update([]);
  }

  showValidation(loss: number, accuracy: number): void {
    this.readout.validation.textContent = `loss ${loss.toFixed(3)}, accuracy ${percent(accuracy)}`;
  }

  /** The divergence notice, with a retry at a tenth of `rate`. */
  showDiverged(text: string, rate: number): void {
    this.divergedText.textContent = text;
    this.retryRate = rate / 10;
    this.retryButton.textContent = `Retry with learning rate ${formatRate(this.retryRate)}`;
    this.diverged.hidden = false;
  }

  /** The readouts of side A (and the challenger's line); the charts at most every CHART_MS while `live`. */
  render(curves: Curves[], racing: boolean, live: boolean): void {
    const a = curves[0]?.latest;
    if (a) {
      this.readout.step.textContent = `${a.step} of ${a.plannedSteps} (epoch ${a.epoch + 1})`;
      this.readout.step.dataset.step = String(a.step);
      this.readout.loss.textContent = a.loss.toFixed(4);
      this.readout.accuracy.textContent = percent(a.runningAccuracy);
      if (!this.readout.validation.textContent) this.readout.validation.textContent = '—';
      const on = this.workers > 1 ? ` on ${this.workers} workers` : '';
      this.readout.speed.textContent = `${a.stepsPerSecond.toFixed(1)} steps/s (${Math.round(a.examplesPerSecond)} reviews/s)${on}`;
      this.readout.eta.textContent = Number.isFinite(a.etaSeconds) && !a.done ? `${Math.ceil(a.etaSeconds)} s` : '—';
    }
    const b = curves[1]?.latest;
    if (b && racing)
      this.raceReadout.textContent = `Challenger ${curves[1].label}: step ${b.step} of ${b.plannedSteps}, loss ${b.loss.toFixed(4)}, ${b.stepsPerSecond.toFixed(1)} steps/s.`;
    const now = performance.now();
    if (curves.length && (now - this.chartsDrawn >= CHART_MS || !live)) {
      this.chartsDrawn = now;
      const series = chartSeries(curves);
      this.lossChart.update(series.loss);
      this.accuracyChart.update(series.accuracy);
    }
  }
}
