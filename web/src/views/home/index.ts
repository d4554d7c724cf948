// The landing view (`/`, `#/home`): what the playground is, and three ways in — the course, the
// Sentiment Studio, the Attention Lab — each with a small figure the engine computes when it is
// ready, plus the two other views. Nothing here trains or keeps state, so it leaves the shared
// engine free for the views.
import type { EngineBridge } from '../../engine/bridge';
import { routeHash } from '../../app/router';
import { VIEW_TITLES } from '../../app/nav';
import { el } from '../dom';
import { createHeatmap, formatValue } from '../heatmap';
import { normals } from '../lab/sample';
import type { ViewDefinition } from '../types';
import { capitalised, countInWords, createTour, tourSeen, type TourStep } from './tour';

/** The course's opening example: decoder state [5, 1, 20] against four annotations. */
const COURSE_SCORES = [927, 397, 148, 929];

/** The Studio card's sentence and the scores it shades by (set by hand for the picture). */
const REVIEW = ['a', 'slow', 'start', 'but', 'a', 'wonderful', 'ending'];
const REVIEW_SCORES = [0, 1.2, 0.3, 1.6, 0, 3.4, 1.1];

/** The guided tour's stops after the welcome: each way in. */
const WAYS_IN: readonly TourStep[] = [
  {
    target: '[data-testid="way-course"]',
    title: 'New to attention? Start with the course',
    text: 'Twelve lessons build attention up from a single dot product to a Transformer translating real sentences, with figures you can change and exercises the engine checks.',
  },
  {
    target: '[data-testid="way-studio"]',
    title: 'Train a real model',
    text: 'The Sentiment Studio trains a classifier on movie reviews while you watch which words it learns to attend to.',
  },
  {
    target: '[data-testid="way-lab"]',
    title: 'Take attention apart',
    text: 'The Attention Lab lets you edit queries, keys, masks and temperature and follow every score and weight to its numbers.',
  },
  {
    target: '.more-views',
    title: 'Sequences and Transformers',
    text: 'Seq2seq shows a translation model aligning words as it decodes; Transformer opens every head of a small model you train. The header reaches every view, from the course too.',
  },
];

/** The guided tour: what the page is (its length counted from the steps, as the tour's counter does), then each way in. */
const TOUR: readonly TourStep[] = [
  {
    target: '.lede',
    title: 'Welcome to the Attention Playground',
    text:
      'Everything here runs in your browser: a C++ engine does the maths, the page shows each step. ' +
      `${capitalised(countInWords(WAYS_IN.length))} short stops after this one show you where to start.`,
  },
  ...WAYS_IN,
];

const SELF_N = 5;
const SELF_DIM = 8;

function miniature(testId: string, caption: string): { figure: HTMLElement; body: HTMLElement } {
  const body = el('div', { className: 'mini-body' }, el('p', { className: 'mini-wait' }, 'Waiting for the engine…'));
  const figure = el('figure', { className: 'mini', dataset: { testid: testId, state: 'pending' } }, body);
  figure.append(el('figcaption', {}, caption));
  return { figure, body };
}

function wayCard(testId: string, title: string, text: string, figure: HTMLElement, href: string, action: string) {
  return el(
    'article',
    { className: 'card way', dataset: { testid: testId } },
    el('h3', {}, title),
    el('p', {}, text),
    figure,
    el('a', { className: 'button primary', href }, action),
  );
}

async function courseFigure(engine: EngineBridge, body: HTMLElement): Promise<void> {
  const weights = await engine.call(
    'softmax',
    { shape: [4], data: new Float32Array(COURSE_SCORES) },
    { temperature: 1 },
  );
  const rows = COURSE_SCORES.map((score, t) => {
    const w = weights.data[t];
    const bar = el('span', { className: 'mini-bar' });
    bar.style.width = `${(w * 100).toFixed(1)}%`;
    return el(
      'li',
      {},
      el('span', { className: 'mini-label' }, `h${t + 1}: ${score}`),
      el('span', { className: 'mini-track' }, bar),
      el('span', { className: 'mini-value' }, formatValue(w)),
    );
  });
  body.replaceChildren(el('ol', { className: 'mini-bars', ariaLabel: 'softmax weight per annotation' }, ...rows));
}

async function studioFigure(engine: EngineBridge, body: HTMLElement): Promise<void> {
  const weights = await engine.call(
    'softmax',
    { shape: [REVIEW.length], data: new Float32Array(REVIEW_SCORES) },
    { temperature: 1 },
  );
  const words = REVIEW.map((word, t) => {
    const w = weights.data[t];
    const token = el('span', { className: 'mini-token', title: `weight ${formatValue(w)}` }, word);
    token.style.setProperty('--weight', w.toFixed(3));
    return token;
  });
  body.replaceChildren(el('p', { className: 'mini-tokens' }, ...words));
}

async function labFigure(engine: EngineBridge, body: HTMLElement): Promise<void> {
  const shape = [SELF_N, SELF_DIM];
  const mask = await engine.call('causalMask', SELF_N);
  const out = await engine.call(
    'scaledDotProductAttention',
    { shape, data: normals(1, 3, SELF_N * SELF_DIM) },
    { shape, data: normals(1, 4, SELF_N * SELF_DIM) },
    { shape, data: normals(1, 5, SELF_N * SELF_DIM) },
    { mask },
  );
  const map = createHeatmap('Causal self-attention weights', 'home-self-attention', { exportable: false });
  const tokens = Array.from({ length: SELF_N }, (_, i) => `x${i + 1}`);
  map.update({
    values: out.weights.data,
    rows: SELF_N,
    cols: SELF_N,
    rowLabels: tokens,
    colLabels: tokens,
    range: [0, 1],
  });
  body.replaceChildren(map.element);
}

export const homeView: ViewDefinition = {
  id: 'home',
  title: VIEW_TITLES.home,
  mount: ({ engine }) => {
    const element = el('section', { className: 'home-view', dataset: { testid: 'view-home' } });
    const heading = el('h2', { tabIndex: -1 }, 'Learn attention by computing it');
    const lede = el(
      'p',
      { className: 'lede' },
      'Attention Playground is a hands-on course and a set of live tools for the attention mechanism behind ' +
        'translation models and Transformers. Every number you see is computed in your browser by a C++ engine ' +
        'compiled to WebAssembly: no server, no GPU, nothing to install.',
    );
    const course = miniature(
      'mini-course',
      'Softmax of the scores 927, 397, 148, 929: lesson 4’s example, computed by the engine.',
    );
    const studio = miniature(
      'mini-studio',
      'Attention over a review, shaded by weight (scores set by hand here; in the Studio they come from the model you train).',
    );
    const lab = miniature(
      'mini-lab',
      'Scaled dot-product self-attention with a causal mask over random queries and keys.',
    );
    const ways = el(
      'div',
      { className: 'ways' },
      wayCard(
        'way-course',
        'Take the course',
        'Twelve short lessons from “why attention?” to Transformers and translation, with live figures and coding exercises checked by the engine.',
        course.figure,
        './course.html',
        'Start the course',
      ),
      wayCard(
        'way-studio',
        'Train on real reviews',
        'Train a sentiment classifier in the Sentiment Studio — on built-in reviews or the IMDB archive — and watch what it attends to as it learns.',
        studio.figure,
        routeHash('studio'),
        'Open the Studio',
      ),
      wayCard(
        'way-lab',
        'Play in the Attention Lab',
        'Edit queries and keys, switch scoring functions, temperature and masks, and see every score and weight explained with its numbers.',
        lab.figure,
        routeHash('lab'),
        'Open the Lab',
      ),
    );
    const more = el(
      'p',
      { className: 'more-views' },
      'Also: ',
      el('a', { href: routeHash('seq2seq', new URLSearchParams({ tab: 'translation' })) }, 'Translation'),
      ' — train an English→French translator (an RNN with Bahdanau or Luong attention, or a Transformer ' +
        'encoder–decoder) on real sentence pairs, scored by BLEU on sentences it never saw; ',
      el('a', { href: routeHash('seq2seq') }, VIEW_TITLES.seq2seq),
      ' — train an encoder–decoder and watch the alignment form as it decodes; ',
      el('a', { href: routeHash('transformer') }, VIEW_TITLES.transformer),
      ' — look inside every head of a small Transformer you train.',
    );
    const restart = el('button', { type: 'button', className: 'tour-restart' }, 'Take the tour');
    element.append(heading, lede, el('p', { className: 'tour-offer' }, 'First time here? ', restart), ways, more);
    const tour = createTour(element, TOUR);
    restart.addEventListener('click', () => tour.start());

    const draw = (figure: HTMLElement, body: HTMLElement, make: (e: EngineBridge, b: HTMLElement) => Promise<void>) =>
      make(engine, body).then(
        () => (figure.dataset.state = 'ready'),
        (error: Error) => {
          body.replaceChildren(el('p', { className: 'error' }, `The engine could not draw this: ${error.message}`));
          figure.dataset.state = 'failed';
        },
      );
    let drawn = false;
    return {
      element,
      show() {
        if (!tourSeen()) tour.start();
        if (drawn) return;
        drawn = true;
        void engine.ready.then(() => {
          draw(course.figure, course.body, courseFigure);
          draw(studio.figure, studio.body, studioFigure);
          draw(lab.figure, lab.body, labFigure);
        });
      },
    };
  },
};
