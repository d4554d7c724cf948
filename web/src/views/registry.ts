// Every view of the app, in nav order. Adding a view is adding a folder and a line here.
import { homeView } from './home';
import { labView } from './lab';
import { seq2seqView } from './seq2seq';
import { studioView } from './studio';
import { transformerView } from './transformer';
import type { ViewDefinition } from './types';

export const VIEWS: readonly ViewDefinition[] = [homeView, labView, studioView, seq2seqView, transformerView];
export const DEFAULT_VIEW = 'home';
