// "Train one": runs a small model (or several, to compare) in the training worker and shows the
// loss curve, the test accuracy and how much attention lands on the decisive tokens.
import { el } from '../views/dom';
import { mathBlock } from './math';
import type { TrainingDemo } from './lessons/types';
import type { ProgressStore } from './progress';
import type { FromTrainingWorker, ToTrainingWorker } from './training_worker';

const SVG = 'http://www.w3.org/2000/svg';

function lossCurve(losses: number[]): SVGSVGElement {
  const width = 220;
  const height = 80;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'loss-curve');
  svg.setAttribute('role', 'img');
  const hi = Math.max(...losses, 1e-6);
  const points = losses.map(
    (l, i) =>
      `${((i / Math.max(1, losses.length - 1)) * width).toFixed(1)},${(height - (l / hi) * (height - 4)).toFixed(1)}`,
  );
  svg.setAttribute('aria-label', `training loss from ${losses[0]?.toFixed(3)} to ${losses.at(-1)?.toFixed(3)}`);
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', points.join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '1.5');
  svg.append(line);
  return svg;
}

function train(
  configJson: string,
  onStep: (step: number, loss: number) => void,
): {
  done: Promise<Extract<FromTrainingWorker, { type: 'done' }>>;
  cancel: () => void;
} {
  const worker = new Worker(new URL('./training_worker.ts', import.meta.url), {
    type: 'module',
  });
  let cancel = () => {};
  const done = new Promise<Extract<FromTrainingWorker, { type: 'done' }>>((resolve, reject) => {
    cancel = () => {
      worker.terminate();
      reject(new Error('cancelled'));
    };
    worker.addEventListener('message', (event: MessageEvent<FromTrainingWorker>) => {
      const m = event.data;
      if (m.type === 'step') onStep(m.step, m.loss);
      else {
        worker.terminate();
        if (m.type === 'done') resolve(m);
        else reject(new Error(m.message));
      }
    });
    worker.addEventListener('error', (event) => {
      worker.terminate();
      reject(new Error(event.message || 'the training worker failed'));
    });
    worker.postMessage({
      type: 'train',
      configJson,
    } satisfies ToTrainingWorker);
  });
  return { done, cancel };
}

export function createTrainingView(demo: TrainingDemo, progressStore: ProgressStore): HTMLElement {
  const button = el('button', {
    type: 'button',
    className: 'primary',
    textContent: demo.runs.length > 1 ? 'Train them' : 'Train one',
  });
  const results = el('div', { className: 'training-results' });
  const status = el('p', { className: 'muted', role: 'status' });
  const element = el(
    'section',
    { className: 'training', dataset: { testid: `training-${demo.id}` } },
    el('h3', {}, `Train one: ${demo.title}`),
    mathBlock('p', demo.description),
    el('div', { className: 'buttons' }, button),
    status,
    results,
  );
  let running: (() => void) | null = null;
  button.addEventListener('click', async () => {
    if (running) {
      running();
      return;
    }
    results.replaceChildren();
    element.dataset.state = 'running';
    button.textContent = 'Stop';
    try {
      for (const run of demo.runs) {
        const steps = Number(run.config.steps ?? 300);
        const card = el('div', { className: 'training-card' }, el('h4', {}, run.label));
        const progress = el('progress', { max: steps, value: 0 });
        card.append(progress);
        results.append(card);
        const job = train(JSON.stringify(run.config), (step, loss) => {
          progress.value = step + 1;
          status.textContent = `${run.label}: step ${step + 1} of ${steps}, loss ${loss.toFixed(3)}`;
        });
        running = job.cancel;
        const r = await job.done;
        progress.remove();
        card.append(
          lossCurve(r.losses),
          el(
            'dl',
            {},
            el('dt', {}, 'test accuracy'),
            el('dd', { dataset: { testid: 'test-accuracy' } }, `${(r.testAccuracy * 100).toFixed(1)} %`),
            ...(run.config.pooling === 'attention'
              ? [
                  el('dt', {}, 'attention on the decisive tokens'),
                  el('dd', {}, `${(r.decisiveAttention * 100).toFixed(1)} % of the weight`),
                  el('dt', {}, 'most-attended token is decisive'),
                  el('dd', {}, `${(r.decisiveArgmaxRate * 100).toFixed(1)} % of test sequences`),
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
      running = null;
      button.textContent = demo.runs.length > 1 ? 'Train them again' : 'Train another';
    }
  });
  return element;
}
