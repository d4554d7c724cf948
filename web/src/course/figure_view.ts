// A live figure: heatmaps computed by the engine when the lesson opens.
import { createHeatmap } from '../views/heatmap';
import { el } from '../views/dom';
import type { EngineCall } from './exercises/types';
import type { LiveFigure } from './lessons/types';
import { mathBlock } from '../views/math';

export function createFigureView(figure: LiveFigure, call: EngineCall, index: number): HTMLElement {
  const row = el('div', { className: 'figure-row' }, 'Computing with the engine…');
  const element = el(
    'figure',
    { className: 'live-figure', dataset: { testid: `figure-${index}` } },
    row,
    mathBlock('figcaption', figure.caption),
  );
  figure.compute(call).then(
    (maps) => {
      row.replaceChildren();
      maps.forEach((m, i) => {
        const map = createHeatmap(m.title, `figure-${index}-${i}`, m.compact ? { numbers: 'on-demand' } : undefined);
        map.update(m.data);
        row.append(map.element);
      });
      element.dataset.state = 'ready';
    },
    (error: unknown) => {
      row.textContent = `The engine could not compute this figure: ${error instanceof Error ? error.message : String(error)}`;
    },
  );
  return element;
}
