import { placeholderView } from '../placeholder';
import type { ViewDefinition } from '../types';

export const studioView: ViewDefinition = {
  id: 'studio',
  title: 'Sentiment Studio',
  mount: () =>
    placeholderView(
      'studio',
      'Sentiment Studio',
      'Train a sentiment classifier with attention in your browser and watch what it attends to.',
      [
        'Data: the built-in corpus, the synthetic generator, or your own files (aclImdb .tar.gz or folder, CSV, TSV) by file picker or drag-and-drop, with statistics.',
        'Training with live loss and accuracy charts, examples per second and an ETA; pause and cancel.',
        'The attention over a few reviews animating as training proceeds, with a timeline to scrub back.',
        'Type a review and see the prediction and per-token attention as you type; click a token to mask or replace it.',
        'A confusion matrix, misclassified reviews, race mode (two configurations from the same seed), and saving/loading models.',
      ],
    ),
};
