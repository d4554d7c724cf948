import type { ViewDefinition } from '../types';
import { AttentionLab } from './attention_lab';
import { labStateFromParams, labStateToParams } from './state';

export const labView: ViewDefinition = {
  id: 'lab',
  title: 'Attention Lab',
  mount({ engine, replaceParams }) {
    const lab = new AttentionLab(engine, (state) => replaceParams(labStateToParams(state)));
    return {
      element: lab.element,
      show: (params) => lab.setState(labStateFromParams(params)),
    };
  },
};
