// The Studio's page layout: the heading and intro, then a dashboard — data, settings and the loaded
// reviews' statistics in a side panel, the shipped models and the live training in the main area —
// and the rest in tabs below (stacked on narrow screens: styles/studio.css). The panels are built
// by studio.ts; this module only places them.
import { explainedIn } from '../../app/course_links';
import { el } from '../dom';
import { createTabs } from '../tabs';
import type { TrainingPanel } from './training_panel';

/** The panels' elements, as studio.ts built them. */
export interface StudioParts {
  /** Next to Train: the loaded data, the recipe the run will train with and the suggested one. */
  setup: HTMLElement[];
  training: Pick<TrainingPanel, 'element' | 'parts' | 'charts'>;
  timeline: HTMLElement;
  data: HTMLElement;
  /** The settings form's parts. */
  model: HTMLElement[];
  stats: HTMLElement;
  shipped: HTMLElement;
  explain: HTMLElement;
  errors: HTMLElement;
  save: HTMLElement;
}

/** The Studio's children, in page order (the training panel's own contents are placed in it). */
export function studioLayout(p: StudioParts): Node[] {
  const setup = el('div', { className: 'train-setup', id: 'train-setup' }, ...p.setup);
  p.training.element.append(
    el('h3', { id: 'train-heading' }, 'Train a sentiment model'),
    setup,
    ...p.training.parts(),
    p.training.charts,
    p.timeline,
  );
  const model = el('section', { className: 'studio-model' }, el('h3', { id: 'model-heading' }, 'Model'), ...p.model);
  model.setAttribute('aria-labelledby', 'model-heading');
  // The statistics come after the settings: a long data summary must not push them down.
  const statistics = el(
    'section',
    { className: 'studio-stats' },
    el('h3', { id: 'stats-heading' }, 'The loaded reviews'),
    p.stats,
  );
  statistics.setAttribute('aria-labelledby', 'stats-heading');
  const side = el('aside', { className: 'studio-side' }, p.data, model, statistics);
  side.setAttribute('aria-label', 'Data and settings');
  const tabs = createTabs('studio', 'Model results and storage', [
    { id: 'explain', label: 'Explanation', content: p.explain },
    { id: 'errors', label: 'Test-set errors', content: p.errors },
    { id: 'save', label: 'Save and load', content: p.save },
  ]);
  tabs.element.classList.add('studio-tabs');
  return [
    el('h2', { tabIndex: -1 }, 'Sentiment Studio'),
    el(
      'p',
      { className: 'intro' },
      'Train a sentiment classifier with attention in your browser and watch what it attends to. ' +
        'Everything runs in background workers on this page; nothing is uploaded.',
    ),
    explainedIn('studio'),
    el(
      'div',
      { className: 'studio-workspace' },
      side,
      el('div', { className: 'studio-main' }, p.shipped, p.training.element),
    ),
    tabs.element,
  ];
}
