// The one header both pages share (the app's index.html and the course's course.html): the
// title links home, and the nav links every view and the course. The view titles live here so
// the course can draw the header without loading the views' code; the views take their titles
// from VIEW_TITLES too.
import { routeHash } from './router';

export const VIEW_TITLES = {
  home: 'Home',
  lab: 'Attention Lab',
  studio: 'Sentiment Studio',
  seq2seq: 'Seq2seq Alignment',
  transformer: 'Transformer',
} as const;
export type ViewId = keyof typeof VIEW_TITLES;

/** The views the nav lists, in order (home is the title link). */
export const NAV_VIEWS: readonly ViewId[] = ['lab', 'studio', 'seq2seq', 'transformer'];

/** Each nav title as [hidden on a phone, always shown, hidden on a phone]. */
const NAV_SHORT: Record<(typeof NAV_VIEWS)[number], [string, string, string]> = {
  home: ['', 'Home', ''],
  lab: ['Attention ', 'Lab', ''],
  studio: ['Sentiment ', 'Studio', ''],
  seq2seq: ['', 'Seq2seq', ' Alignment'],
  transformer: ['', 'Transformer', ''],
};

function extra(text: string): HTMLSpanElement | string {
  if (!text) return '';
  const span = document.createElement('span');
  span.className = 'nav-extra';
  span.textContent = text;
  return span;
}

export interface SharedHeader {
  /** The nav's link per view (the app points each at the view as last seen). */
  readonly links: Map<string, HTMLAnchorElement>;
  /** Marks the current page in the header (aria-current), or none. */
  setCurrent(id: string | undefined): void;
}

/**
 * Fills `header` (an .app-header holding an h1 and a nav) with the shared links. `page` is
 * 'app' for index.html (hash links) or 'course' for course.html (links back to index.html).
 */
export function mountSharedHeader(header: HTMLElement, page: 'app' | 'course'): SharedHeader {
  const prefix = page === 'app' ? '' : './index.html';
  const title = header.querySelector('h1')!;
  const home = document.createElement('a');
  home.href = prefix + routeHash('home');
  home.className = 'brand';
  home.textContent = 'Attention Playground';
  title.replaceChildren(home);

  const nav = header.querySelector<HTMLElement>('nav')!;
  const links = new Map<string, HTMLAnchorElement>([['home', home]]);
  const items: HTMLAnchorElement[] = [];
  for (const id of NAV_VIEWS) {
    const link = document.createElement('a');
    link.href = prefix + routeHash(id);
    // On a phone the nav shows the short name ("Lab"); the rest of the title stays in the
    // link's accessible name (visually hidden there, styles/small_screens.css .nav-extra).
    const [before, short, after] = NAV_SHORT[id];
    link.append(extra(before), short, extra(after));
    links.set(id, link);
    items.push(link);
  }
  const course = document.createElement('a');
  course.href = './course.html';
  course.textContent = 'Course';
  links.set('course', course);
  items.push(course);
  nav.replaceChildren(...items);

  const setCurrent = (id: string | undefined) => {
    for (const [key, link] of links) {
      if (key === id) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  };
  setCurrent(page === 'course' ? 'course' : undefined);
  return { links, setCurrent };
}
