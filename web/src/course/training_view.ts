// "Train one": runs a small model (or several, to compare) on a synthetic task in the app's engine
// worker (its toy runs, trained in chunks so the lesson's other engine calls still get answers)
// and shows the loss curves on the app's line chart, the test accuracy and how much attention
// lands on the decisive tokens.
import type { EngineBridge } from '../engine/bridge';
import { createLineChart, type ChartSeries } from '../views/chart';
import { el } from '../views/dom';
import { mathBlock } from '../views/math';
import type { TrainingDemo } from './lessons/types';
import type { ProgressStore } from './progress';
import { percent } from '../views/format';

/** The bridge calls a demo needs (the page's EngineBridge). */
export type ToyEngine = Pick<EngineBridge, 'toyRun' | 'toyCancel'>;

export function createTrainingView(demo: TrainingDemo, engine: ToyEngine, progressStore: ProgressStore): HTMLElement {
  const button = el('button', {
    type: 'button',
    className: 'primary',
    textContent: demo.runs.length > 1 ? 'Train them' : 'Train one',
  });
  const results = el('div', { className: 'training-results' });
  const status = el('p', { className: 'muted', role: 'status' });
  const chart = createLineChart({
    title: `Training loss: ${demo.title}`,
    testId: `loss-chart-${demo.id}`,
    xLabel: 'step',
    yLabel: 'batch loss',
  });
  chart.element.hidden = true;
  const element = el(
    'section',
    { className: 'training', dataset: { testid: `training-${demo.id}` } },
    el('h3', {}, `Train one: ${demo.title}`),
    mathBlock('p', demo.description),
    el('div', { className: 'buttons' }, button),
    status,
    chart.element,
    results,
  );
  let running = false;
  let stopped = false;
  button.addEventListener('click', async () => {
    if (running) {
      stopped = true;
      void engine.toyCancel();
      return;
    }
    running = true;
    stopped = false;
    results.replaceChildren();
    element.dataset.state = 'running';
    button.textContent = 'Stop';
    const series: ChartSeries[] = [];
    chart.element.hidden = false;
    try {
      for (const run of demo.runs) {
        const steps = Number(run.config.steps ?? 300);
        const card = el('div', { className: 'training-card' }, el('h4', {}, run.label));
        const bar = el('progress', { max: steps, value: 0 });
        card.append(bar);
        results.append(card);
        const xs: number[] = [];
        const ys: number[] = [];
        series.push({ name: run.label, xs, ys });
        const r = await engine.toyRun(JSON.stringify(run.config), (p) => {
          // Leaving the lesson removes this view: stop the run rather than train for nobody.
          if (!element.isConnected) void engine.toyCancel();
          for (const loss of p.losses) {
            xs.push(xs.length + 1);
            ys.push(loss);
          }
          bar.max = p.plannedSteps;
          bar.value = p.step;
          status.textContent = `${run.label}: step ${p.step} of ${p.plannedSteps}, loss ${ys.at(-1)?.toFixed(3) ?? '—'}`;
          chart.update(series);
        });
        if (stopped || r.cancelled) throw new Error('cancelled');
        bar.remove();
        card.append(
          el(
            'dl',
            {},
            el('dt', {}, 'test accuracy'),
            el('dd', { dataset: { testid: 'test-accuracy' } }, percent(r.testAccuracy)),
            ...(run.config.pooling === 'attention'
              ? [
                  el('dt', {}, 'attention on the decisive tokens'),
                  el('dd', {}, `${percent(r.decisiveAttention)} of the weight`),
                  el('dt', {}, 'most-attended token is decisive'),
                  el('dd', {}, `${percent(r.decisiveArgmaxRate)} of test sequences`),
                ]
              : []),
          ),
        );
      }
      progressStore.markTrained(demo.id);
      status.textContent = 'Done.';
      element.dataset.state = 'done';
    } catch (error) {
      status.textContent =
        error instanceof Error && error.message === 'cancelled' ? 'Stopped.' : `Training failed: ${String(error)}`;
      element.dataset.state = 'stopped';
    } finally {
      running = false;
      button.textContent = demo.runs.length > 1 ? 'Train them again' : 'Train another';
    }
  });
  return element;
}
