// Sentiment Studio (see studio.ts): data, statistics, model and hyperparameters (in the URL),
// training with live charts and attention snapshots on a timeline, race mode, divergence
// recovery, save / load, and the explanation panel (explain_panel.ts) below the training.
import { VIEW_TITLES } from '../../app/nav';
import type { ViewDefinition } from '../types';
import { Studio } from './studio';

export const studioView: ViewDefinition = {
  id: 'studio',
  title: VIEW_TITLES.studio,
  mount: ({ engine, replaceParams }) => {
    const studio = new Studio(engine, { replaceParams });
    return { element: studio.element, show: (params) => studio.show(params) };
  },
};
