// Light and dark themes. Without a choice the page follows prefers-color-scheme (pure CSS); the
// toggle stores an explicit choice in localStorage and marks <html data-theme="...">.
export type Theme = 'light' | 'dark';
const KEY = 'attn-playground.theme';

function stored(): Theme | undefined {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined; // storage disabled: follow the system
  }
}

export function effectiveTheme(): Theme {
  return stored() ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
}

/** Applies the stored choice, if any; call before the page is shown. */
export function applyStoredTheme(): void {
  const theme = stored();
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Not remembered, but still applied for this visit.
  }
  document.documentElement.dataset.theme = theme;
}

/** A toggle button "Dark theme", pressed when the page is dark. */
export function themeToggle(): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'theme-toggle';
  button.dataset.testid = 'theme-toggle';
  const label = () => {
    const theme = effectiveTheme();
    button.textContent = 'Dark theme';
    button.setAttribute('aria-pressed', String(theme === 'dark'));
  };
  button.addEventListener('click', () => {
    setTheme(effectiveTheme() === 'dark' ? 'light' : 'dark');
    label();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', label);
  label();
  return button;
}

export function prefersReducedMotion(): boolean {
  return matchMedia('(prefers-reduced-motion: reduce)').matches;
}
