/**
 * Light, dark or the system's theme, chosen in Settings and kept in this browser (a display preference, nothing
 * secret). Applied as `data-theme` on <html>, which the stylesheet's colour variables follow; "system" follows the
 * OS setting live.
 */
import { create } from 'zustand';

export type ThemeChoice = 'light' | 'dark' | 'system';
const STORAGE_KEY = 'finops.theme';

function stored(): ThemeChoice {
  try {
    const v = globalThis.localStorage?.getItem(STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

const media = () => globalThis.matchMedia?.('(prefers-color-scheme: dark)');

export function resolvedTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return media()?.matches ? 'dark' : 'light';
}

function apply(choice: ThemeChoice): void {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  const theme = resolvedTheme(choice);
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
}

interface ThemeState {
  choice: ThemeChoice;
  /** The theme in force ("system" resolved), for charts that draw their own colours. */
  theme: 'light' | 'dark';
  set(choice: ThemeChoice): void;
}

export const useTheme = create<ThemeState>((set) => ({
  choice: stored(),
  theme: resolvedTheme(stored()),
  set(choice) {
    try {
      if (choice === 'system') globalThis.localStorage?.removeItem(STORAGE_KEY);
      else globalThis.localStorage?.setItem(STORAGE_KEY, choice);
    } catch {}
    apply(choice);
    set({ choice, theme: resolvedTheme(choice) });
  },
}));

apply(useTheme.getState().choice);
media()?.addEventListener?.('change', () => {
  const { choice } = useTheme.getState();
  if (choice !== 'system') return;
  apply(choice);
  useTheme.setState({ theme: resolvedTheme(choice) });
});
