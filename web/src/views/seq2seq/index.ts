import { placeholderView } from '../placeholder';
import type { ViewDefinition } from '../types';

export const seq2seqView: ViewDefinition = {
  id: 'seq2seq',
  title: 'Seq2seq Alignment',
  mount: () =>
    placeholderView(
      'seq2seq',
      'Seq2seq Alignment',
      'Train an encoder–decoder with attention (date normalisation or reversal) and watch it align output to input.',
      [
        'Training in the browser, with progress and cancel.',
        'Decoding animated step by step: the current output token, its attention over the input and the growing alignment matrix.',
        'Greedy versus beam search.',
        'Accuracy by input length, with and without attention, as a chart.',
      ],
    ),
};
