// Accessible tabs (the WAI-ARIA tabs pattern): a role="tablist" of role="tab" buttons, each
// controlling one role="tabpanel". Only the selected tab is in the Tab order; the arrow keys
// move between tabs (and select them), Home and End go to the first and last.
import { el } from './dom';

export interface TabSpec {
  /** Short, unique within the set: the ids are `${name}-tab-${id}` and `${name}-panel-${id}`. */
  id: string;
  label: string;
  content: HTMLElement;
}

export interface Tabs {
  /** The tab list followed by the panels. */
  element: HTMLElement;
  select(id: string): void;
}

export function createTabs(name: string, label: string, specs: TabSpec[]): Tabs {
  const list = el('div', { className: 'tabs-list' });
  list.setAttribute('role', 'tablist');
  list.setAttribute('aria-label', label);
  const tabs: HTMLButtonElement[] = [];
  const panels: HTMLDivElement[] = [];
  for (const spec of specs) {
    const tab = el('button', { type: 'button', id: `${name}-tab-${spec.id}`, textContent: spec.label });
    const panel = el('div', { className: 'tabs-panel', id: `${name}-panel-${spec.id}` }, spec.content);
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', panel.id);
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    // The panel takes focus (its content may start with text, not a control).
    panel.tabIndex = 0;
    tab.addEventListener('click', () => select(tabs.indexOf(tab)));
    tabs.push(tab);
    panels.push(panel);
  }
  const select = (index: number, focus = false) => {
    tabs.forEach((tab, i) => {
      const selected = i === index;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      panels[i].hidden = !selected;
    });
    if (focus) tabs[index].focus();
  };
  list.addEventListener('keydown', (event) => {
    const current = tabs.indexOf(event.target as HTMLButtonElement);
    if (current < 0) return;
    const n = tabs.length;
    const next: Record<string, number> = {
      ArrowRight: (current + 1) % n,
      ArrowLeft: (current - 1 + n) % n,
      Home: 0,
      End: n - 1,
    };
    if (!(event.key in next)) return;
    event.preventDefault();
    select(next[event.key], true);
  });
  list.append(...tabs);
  select(0);
  return {
    element: el('div', { className: 'tabs', dataset: { testid: `${name}-tabs` } }, list, ...panels),
    select: (id) =>
      select(
        Math.max(
          0,
          specs.findIndex((s) => s.id === id),
        ),
      ),
  };
}
