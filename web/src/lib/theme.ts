// Light or dark, following the system until the user picks one (kept per browser).
const KEY = 'mailwright.theme';
export type Theme = 'light' | 'dark';

export function storedTheme(): Theme {
  const saved = localStorage.getItem(KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme, remember = false): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  if (remember) localStorage.setItem(KEY, theme);
}
