import { VIEW_TITLES } from '../../app/nav';
import type { ViewDefinition } from '../types';
import { AttentionLab } from './attention_lab';
import { labStateFromParams, labStateToParams } from './state';

export const labView: ViewDefinition = {
  id: 'lab',
  title: VIEW_TITLES.lab,
  mount({ engine, replaceParams }) {
    const lab = new AttentionLab(engine, (state) => replaceParams(labStateToParams(state)));
    return {
      element: lab.element,
      show: (params) => lab.setState(labStateFromParams(params)),
    };
  },
};
