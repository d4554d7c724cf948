// The Translation tab's training readout and charts: the run's model, step, speed, loss and BLEU
// (last epoch, and after training), the loss of each batch and the held-out BLEU per epoch (the
// finished runs and the one training now), and the lecture's figure, BLEU by source length with one
// line per finished run (the shared length_chart.ts). It keeps each model's finished run; the
// coordinator (index.ts) tells it when a run starts, progresses and ends.
import type { Seq2SeqEpoch, Seq2SeqEvaluation, Seq2SeqProgress } from '../../engine/protocol';
import { createLineChart } from '../chart';
import { el, readoutRow, viewPart } from '../dom';
import { formatBleu, percent } from '../format';
import { createLengthChart } from './length_chart';
import { bleuByLengthSeries, epochBleuSeries, modelChoice, type ModelId, type RunResult } from './models';

export class TrainingPanel {
  private readonly runs = new Map<ModelId, RunResult>();
  private current: RunResult | null = null;
  private losses: number[] = [];
  private frameRequested = false;
  private latest: Seq2SeqProgress | null = null;

  private readonly readout = {
    model: el('output', { id: 'mt-run-model' }),
    step: el('output', { id: 'mt-step' }),
    speed: el('output', { id: 'mt-speed' }),
    loss: el('output', { id: 'mt-loss' }),
    bleu: el('output', { id: 'mt-bleu' }),
    final: el('output', { id: 'mt-final' }),
  };
  private readonly lossChart = createLineChart({
    title: 'Training loss (each batch)',
    testId: 'mt-loss-chart',
    xLabel: 'Step',
    yLabel: 'Loss',
    xFrom: 0,
  });
  private readonly bleuChart = createLineChart({
    title: 'Held-out BLEU after each epoch (greedy output, all references)',
    testId: 'mt-bleu-chart',
    xLabel: 'Epoch',
    yLabel: 'BLEU',
    yRange: [0, 100],
    xFrom: 0,
  });
  private readonly lengthChart = createLengthChart(
    'BLEU by source length, one line per model trained on the same data',
    'Source length (words; buckets 1–5, 6–10, 11–15 …)',
  );
  private readonly lengthHint = el('p', { className: 'hint', dataset: { testid: 'mt-length-hint' } });

  /** The run's readout and its loss and BLEU-per-epoch charts. */
  readonly element = viewPart(
    el('h3', {}, 'Training'),
    el(
      'dl',
      { className: 'train-readout' },
      readoutRow('Model', this.readout.model),
      readoutRow('Step', this.readout.step),
      readoutRow('Speed', this.readout.speed),
      readoutRow('Loss (last batch)', this.readout.loss),
      readoutRow('Held-out BLEU (last epoch)', this.readout.bleu),
      readoutRow('Held-out, after training', this.readout.final),
    ),
    this.lossChart.element,
    this.bleuChart.element,
  );
  /** The lecture's figure and its hint. */
  readonly lengthPart = viewPart(el('h3', {}, 'BLEU by source length'), this.lengthChart.element, this.lengthHint);

  /** `epochs`: the number of epochs asked for (the step readout's "epoch n" stays within it). */
  constructor(private readonly epochs: () => number) {
    this.drawRuns();
  }

  /** New data: the finished runs describe other pairs. */
  clearRuns(): void {
    this.runs.clear();
    this.drawRuns();
  }

  /** A run of `model` is being prepared: the readouts and the loss chart start again. */
  begin(model: ModelId): void {
    this.losses = [];
    this.latest = null;
    for (const output of Object.values(this.readout)) output.textContent = '';
    this.readout.step.dataset.step = '0';
    this.readout.model.textContent = modelChoice(model).label;
    this.current = { model, epochBleu: [], bleu: 0, bleuByLength: [] };
    this.lossChart.update([]);
  }

  /** The run ended (or was cancelled) with the held-out `metrics`; a finished run joins the figure.
   *  `bestEpoch` (0-based, -1 without validation) is the epoch whose parameters the model holds. */
  finish(metrics: Seq2SeqEvaluation, cancelled: boolean, bestEpoch = -1): void {
    const result = this.current!;
    const epochsRun = result.epochBleu.length; // onEpoch fills one entry per validated epoch
    // Parallel text always has a BLEU (null only for the built-in toy tasks).
    result.bleu = metrics.bleu ?? 0;
    result.bleuByLength = metrics.bleuByLength;
    this.readout.final.textContent =
      `BLEU ${formatBleu(result.bleu)}, chrF ${metrics.chrf.toFixed(1)}, exact match ` +
      `${percent(metrics.exactMatch)} of ${metrics.sentences} sentences (teacher-forced token accuracy ` +
      `${percent(metrics.teacherForcedAccuracy)}, not a translation score)` +
      // As the Studio says it: the scores are those of the kept epoch, which may not be the last
      // (the per-epoch BLEU above is measured on fewer sentences, after each epoch).
      (bestEpoch >= 0 && epochsRun > 0
        ? `. Kept the parameters of epoch ${bestEpoch + 1} of ${epochsRun}, the best validation exact match.`
        : '');
    this.readout.final.dataset.bleu = String(result.bleu);
    this.readout.final.dataset.keptEpoch = String(bestEpoch + 1);
    if (!cancelled) this.runs.set(result.model, result);
    this.current = null;
    this.drawRuns();
  }

  /** The run failed: it joins nothing. */
  fail(): void {
    this.current = null;
  }

  progress(progress: Seq2SeqProgress): void {
    for (let i = 0; i < progress.losses.length; i++) this.losses.push(progress.losses[i]);
    for (const epoch of progress.epochs) this.onEpoch(epoch);
    this.latest = progress;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      const p = this.latest;
      if (!p) return;
      this.readout.step.textContent = `${p.step} of ${p.plannedSteps} (epoch ${Math.min(p.epoch + 1, this.epochs() || p.epoch + 1)})`;
      this.readout.step.dataset.step = String(p.step);
      this.readout.speed.textContent =
        `${Math.round(p.examplesPerSecond).toLocaleString('en-US')} pairs/s on ` +
        `${p.workers} worker${p.workers === 1 ? '' : 's'}`;
      this.readout.speed.dataset.workers = String(p.workers);
      this.readout.loss.textContent = p.loss.toFixed(4);
      this.readout.loss.dataset.loss = String(p.loss);
      if (this.losses.length) this.readout.loss.dataset.firstLoss = String(this.losses[0]);
      this.lossChart.update([
        { name: 'Loss', xs: Float32Array.from(this.losses, (_, i) => i + 1), ys: Float32Array.from(this.losses) },
      ]);
    });
  }

  private onEpoch(epoch: Seq2SeqEpoch): void {
    if (!this.current) return;
    this.current.epochBleu[epoch.epoch] = epoch.bleu;
    if (epoch.bleu !== null) {
      this.readout.bleu.textContent = `${formatBleu(epoch.bleu)} after epoch ${epoch.epoch + 1}`;
      this.readout.bleu.dataset.bleu = String(epoch.bleu);
      this.readout.bleu.dataset.epochs = String(epoch.epoch + 1);
    }
    this.drawRuns();
  }

  /** The BLEU-per-epoch chart (finished runs and the current one) and the lecture's figure. */
  private drawRuns(): void {
    const withCurrent = new Map(this.runs);
    if (this.current) withCurrent.set(this.current.model, { ...this.current, epochBleu: [...this.current.epochBleu] });
    this.bleuChart.update(epochBleuSeries(withCurrent));
    const lengthSeries = bleuByLengthSeries(this.runs);
    this.lengthChart.update(lengthSeries);
    this.lengthHint.textContent =
      lengthSeries.length === 0
        ? 'Each finished run adds its line here. Train with and without attention (or press “Train every model in turn”) to ' +
          'see where the fixed-length context of the RNN without attention gives out.'
        : lengthSeries.length === 1
          ? 'Train another model on the same data to compare it here.'
          : `${lengthSeries.length} models trained on the same pairs and the same held-out sentences.`;
  }
}
