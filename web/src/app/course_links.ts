// Links between the course and the app's views, both ways. A lesson sends the learner to the view
// where they can go further (viewLink, lesson HTML); a view names the lessons that explain it
// (explainedIn, one line under its intro). The table lives here, in the app's shell, so a view
// does not load the course's lessons to draw its link; tests/js/course_links.test.mjs checks that
// it matches the lessons (every lesson named here links to that view, and the titles agree).
import { el } from '../views/dom';
import { routeHash } from './router';
import { VIEW_TITLES, type ViewId } from './nav';

/** The lessons that explain each view: number and title, as in web/src/course/lessons/. */
export const VIEW_LESSONS: Readonly<Record<Exclude<ViewId, 'home'>, readonly { number: number; title: string }[]>> = {
  lab: [
    { number: 4, title: 'Softmax: from scores to weights' },
    { number: 5, title: 'Applying the weights: the context vector' },
    { number: 6, title: 'Families of scoring functions' },
  ],
  studio: [{ number: 10, title: 'Sentiment with attention' }],
  seq2seq: [
    { number: 1, title: 'Why attention?' },
    { number: 9, title: 'Seq2seq with attention' },
    { number: 11, title: 'Attention without RNNs: the Transformer encoder–decoder' },
    { number: 12, title: 'Translating real sentences' },
  ],
  transformer: [
    { number: 8, title: 'Self-attention, queries, keys, values and heads' },
    { number: 11, title: 'Attention without RNNs: the Transformer encoder–decoder' },
  ],
};

/** The address of a view from the course page (course.html sits next to index.html). */
export function viewHref(view: ViewId): string {
  return `./index.html${routeHash(view)}`;
}

/** A link to a view for lesson HTML; `text` defaults to the view's title. */
export function viewLink(view: ViewId, text: string = VIEW_TITLES[view]): string {
  return `<a class="view-link" href="${viewHref(view)}" data-view="${view}">${text}</a>`;
}

/** The address of a lesson from the app (index.html). */
export function lessonHref(number: number): string {
  return `./course.html#lesson-${number}`;
}

/** "Explained in the course: lesson 10 (Sentiment with attention)." under a view's intro. */
export function explainedIn(view: keyof typeof VIEW_LESSONS): HTMLElement {
  const lessons = VIEW_LESSONS[view];
  const links: (Node | string)[] = [];
  lessons.forEach((lesson, i) => {
    if (i > 0) links.push(i === lessons.length - 1 ? ' and ' : ', ');
    links.push(el('a', { href: lessonHref(lesson.number) }, `lesson ${lesson.number} (${lesson.title})`));
  });
  return el(
    'p',
    { className: 'explained-in', dataset: { testid: `explained-in-${view}` } },
    `Explained in the course: `,
    ...links,
    '.',
  );
}
