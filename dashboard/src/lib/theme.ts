import { effect, signal } from '@preact/signals';

// Light, dark, or the system's choice; remembered per browser.
export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'parley.theme';

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export const themeChoice = signal<ThemeChoice>(stored());

effect(() => {
  const choice = themeChoice.value;
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    /* storage blocked: the choice lasts for this page */
  }
});
