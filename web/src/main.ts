// Boots the app shell: theme, engine worker, the views' nav, and hash routing (#/<view>?<state>).
// Views are mounted on first visit and kept; the shell shows one at a time.
import { parseHash, routeHash } from './app/router';
import { applyStoredTheme, themeToggle } from './app/theme';
import { startEngine } from './app/engine_status';
import { registerOfflineSupport } from './app/offline';
import { mountSharedHeader } from './app/nav';
import { trackInputModality } from './app/input_modality';
import { DEFAULT_VIEW, VIEWS } from './views/registry';
import type { ViewInstance } from './views/types';

applyStoredTheme();
registerOfflineSupport();
trackInputModality();

const status = document.querySelector<HTMLElement>('[data-testid="engine-status"]')!;
const app = document.querySelector<HTMLElement>('#app')!;
const header = document.querySelector<HTMLElement>('.app-header')!;
const { links, setCurrent } = mountSharedHeader(header, 'app');
header.append(themeToggle());

const engine = startEngine(status);

// Nav links return to each view as it was last seen (its parameters), not to its defaults.
function remember(view: string, params: URLSearchParams): void {
  const link = links.get(view);
  if (link) link.href = routeHash(view, params);
}

const mounted = new Map<string, ViewInstance>();
const notFound = document.createElement('section');
notFound.dataset.testid = 'view-not-found';
app.append(notFound);
let current: string | undefined;

function show(view: string, params: URLSearchParams, moveFocus: boolean): void {
  const definition = VIEWS.find((v) => v.id === view);
  setCurrent(view);
  notFound.hidden = definition !== undefined;
  for (const instance of mounted.values()) instance.element.hidden = true;
  if (!definition) {
    const heading = document.createElement('h2');
    heading.textContent = 'No such view';
    const text = document.createElement('p');
    text.append(`There is no view called “${view}”. Pick one above, or go to the `);
    const home = document.createElement('a');
    home.href = routeHash(DEFAULT_VIEW);
    home.textContent = 'start page';
    text.append(home, '.');
    notFound.replaceChildren(heading, text);
    document.title = 'Attention Playground';
    current = undefined;
    return;
  }
  let instance = mounted.get(view);
  if (!instance) {
    instance = definition.mount({
      engine,
      replaceParams: (p) => {
        // Only the visible view may write the URL (a hidden one finishing work must not).
        if (current !== view) return;
        const hash = routeHash(view, p);
        // An unchanged URL is not written again (each write is a round trip to the browser process).
        if (location.hash === hash) return;
        history.replaceState(history.state, '', hash);
        remember(view, p);
      },
    });
    mounted.set(view, instance);
    app.append(instance.element);
  }
  instance.element.hidden = false;
  const changedView = current !== view;
  current = view;
  document.title = `Attention Playground — ${definition.title}`;
  instance.show(params);
  remember(view, params);
  if (moveFocus && changedView) instance.element.querySelector<HTMLElement>('h2')?.focus({ preventScroll: false });
}

function route(moveFocus: boolean): void {
  const parsed = parseHash(location.hash, DEFAULT_VIEW);
  if ('redirect' in parsed) {
    history.replaceState(history.state, '', parsed.redirect);
    route(moveFocus);
    return;
  }
  show(parsed.route.view, parsed.route.params, moveFocus);
}

window.addEventListener('hashchange', () => route(true));
route(false);
