// The lecture's figure as the Translation tab and lesson 12's translator both draw it: held-out
// BLEU against source length (the engine's buckets; models.ts lengthLine makes each model's line),
// one line per model trained on the same data, hidden while no run has finished.
import { createLineChart, type ChartSeries } from '../chart';

export interface LengthChart {
  readonly element: HTMLElement;
  /** Draws `series` (one per finished run); no series hides the chart. */
  update(series: ChartSeries[]): void;
}

export function createLengthChart(title: string, xLabel: string): LengthChart {
  const chart = createLineChart({ title, testId: 'mt-length-chart', xLabel, yLabel: 'BLEU', yRange: [0, 100] });
  chart.element.hidden = true;
  return {
    element: chart.element,
    update(series) {
      chart.update(series);
      chart.element.hidden = series.length === 0;
    },
  };
}
