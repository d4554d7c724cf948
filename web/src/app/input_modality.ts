// Which kind of input the learner used last, as <html data-input="pointer|keyboard">. A view's
// heading takes focus on every route change (so a screen reader announces it); after a tap or a
// click its focus ring is only noise, while after a key press it shows where focus went
// (styles/nav.css). Chromium's own :focus-visible shows the ring after a tap, as nothing was
// focused before.
export function trackInputModality(root: HTMLElement = document.documentElement): void {
  const set = (kind: 'pointer' | 'keyboard') => {
    if (root.dataset.input !== kind) root.dataset.input = kind;
  };
  window.addEventListener('pointerdown', () => set('pointer'), { capture: true, passive: true });
  window.addEventListener('keydown', () => set('keyboard'), { capture: true, passive: true });
}
