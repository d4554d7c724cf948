// Sentiment Studio. This build has the training panel (model (a) on the built-in corpus, in the
// engine worker, with pause / resume / cancel, watched reviews and a prediction box); the list
// below it says what the full studio adds.
import { TrainPanel } from '../../sentiment/train_panel';
import { placeholderView } from '../placeholder';
import type { ViewDefinition } from '../types';

export const studioView: ViewDefinition = {
  id: 'studio',
  title: 'Sentiment Studio',
  mount: ({ engine }) => {
    const view = placeholderView(
      'studio',
      'Sentiment Studio',
      'Train a sentiment classifier with attention in your browser and watch what it attends to. ' +
        'Today: model (a) on the built-in corpus, below. Still to come in the studio:',
      [
        'Data: the synthetic generator or your own files (aclImdb .tar.gz or folder, CSV, TSV) by file picker or drag-and-drop, with statistics.',
        'Live loss and accuracy charts with an ETA.',
        'The attention over a few reviews animating as training proceeds, with a timeline to scrub back.',
        'Prediction as you type; click a token to mask or replace it.',
        'A confusion matrix, misclassified reviews, race mode (two configurations from the same seed), and saving/loading models.',
      ],
      'Coming next',
    );
    view.element.append(new TrainPanel(engine).element);
    return view;
  },
};
