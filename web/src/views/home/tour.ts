// A short guided tour of the landing view: a few steps, each pointing at one way in. It opens by
// itself on the first visit (remembered in localStorage, so once only), can be skipped with Esc
// or its Skip button, and restarted from the page's "Take the tour" button. It is a modal
// <dialog>: focus moves into each step, Tab cycles inside it, and on close focus returns to
// where it was.
import { el } from '../dom';
import './tour.css';

export interface TourStep {
  /** Selector, inside the view, of the element the step points at. */
  target: string;
  title: string;
  text: string;
}

const KEY = 'attn-playground.tour';

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** A count as a word ("four"), in digits beyond ten: the tour's text says how many steps follow. */
export function countInWords(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}

export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** True once the tour has been shown and closed (or when storage is off: then it never nags). */
export function tourSeen(): boolean {
  try {
    return localStorage.getItem(KEY) === 'done';
  } catch {
    return true;
  }
}

function rememberSeen(): void {
  try {
    localStorage.setItem(KEY, 'done');
  } catch {
    // Storage is off: the tour will not open by itself anyway (tourSeen).
  }
}

export interface Tour {
  readonly dialog: HTMLDialogElement;
  start(): void;
}

export function createTour(root: HTMLElement, steps: readonly TourStep[]): Tour {
  const title = el('h2', { id: 'tour-title', tabIndex: -1 });
  const text = el('p', { id: 'tour-text' });
  const counter = el('p', { className: 'tour-counter' });
  const skip = el('button', { type: 'button', className: 'tour-skip' }, 'Skip tour');
  const back = el('button', { type: 'button' }, 'Back');
  const next = el('button', { type: 'button', className: 'primary' }, 'Next');
  const dialog = el(
    'dialog',
    { className: 'tour card', dataset: { testid: 'tour' } },
    counter,
    title,
    text,
    el('div', { className: 'tour-actions' }, skip, el('span', { className: 'tour-gap' }), back, next),
  );
  dialog.setAttribute('aria-labelledby', title.id);
  dialog.setAttribute('aria-describedby', text.id);
  root.append(dialog);

  let index = 0;
  let returnFocus: HTMLElement | null = null;
  let target: HTMLElement | null = null;

  function point(at: number): void {
    index = at;
    const step = steps[at];
    target?.classList.remove('tour-target');
    target = root.querySelector<HTMLElement>(step.target);
    target?.classList.add('tour-target');
    target?.scrollIntoView({ block: 'nearest' });
    // The step sits at the end of the screen away from what it points at.
    const rect = target?.getBoundingClientRect();
    dialog.dataset.place = rect && rect.top + rect.height / 2 > innerHeight / 2 ? 'top' : 'bottom';
    dialog.dataset.step = String(at + 1);
    counter.textContent = `Step ${at + 1} of ${steps.length}`;
    title.textContent = step.title;
    text.textContent = step.text;
    back.hidden = at === 0;
    next.textContent = at === steps.length - 1 ? 'Done' : 'Next';
    title.focus();
  }

  function close(): void {
    if (!dialog.open) return;
    target?.classList.remove('tour-target');
    target = null;
    dialog.close();
    rememberSeen();
    (returnFocus?.isConnected ? returnFocus : root.querySelector<HTMLElement>('h2'))?.focus();
    returnFocus = null;
  }

  skip.addEventListener('click', close);
  back.addEventListener('click', () => point(Math.max(0, index - 1)));
  next.addEventListener('click', () => (index === steps.length - 1 ? close() : point(index + 1)));
  // Esc: the dialog's own cancel, turned into our close (which remembers and returns focus).
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  // Tab and Shift+Tab cycle through the step's controls instead of leaving for the browser's UI.
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const focusable = [skip, back, next].filter((b) => !b.hidden);
    const at = focusable.indexOf(document.activeElement as HTMLButtonElement);
    const to = event.shiftKey
      ? at <= 0
        ? focusable.length - 1
        : at - 1
      : at < 0 || at === focusable.length - 1
        ? 0
        : at + 1;
    event.preventDefault();
    focusable[to].focus();
  });
  // Leaving the view (back button, a typed URL) ends the tour rather than leaving a modal behind.
  addEventListener('hashchange', close);

  return {
    dialog,
    start() {
      if (dialog.open) return;
      const active = document.activeElement;
      returnFocus = active instanceof HTMLElement && active !== document.body ? active : null;
      dialog.showModal();
      point(0);
    },
  };
}
