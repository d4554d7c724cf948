import { placeholderView } from '../placeholder';
import type { ViewDefinition } from '../types';

export const transformerView: ViewDefinition = {
  id: 'transformer',
  title: 'Transformer',
  mount: () =>
    placeholderView(
      'transformer',
      'Transformer view',
      'Look inside a small Transformer classifier: self-attention per layer and per head.',
      [
        'A grid of heads per layer, and a token-to-token line view.',
        'Head averaging, and ablating a head with the change in accuracy.',
        'A causal mask toggle, and the positional encodings as a heatmap.',
      ],
    ),
};
