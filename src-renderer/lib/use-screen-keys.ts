/**
 * A screen's single-key shortcuts (`/` to search, `n` for a new record, `?` for help) that work wherever the focus
 * is, except while typing in a field or inside a dialog, and without Ctrl, Cmd or Alt (those are the browser's).
 */
import { useEffect, useRef } from 'react';

const TYPING_OR_DIALOG = 'input, textarea, select, [role="dialog"], [role="alertdialog"]';

export function useScreenKeys(
  keys: Readonly<Record<string, () => void>>,
  options: {
    enabled: boolean;
    /** Where else the keys mean something else (a grid with its own keys). */
    alsoIgnoreIn?: string;
  },
): void {
  const latest = useRef(keys);
  latest.current = keys;
  const ignore = options.alsoIgnoreIn ? `${TYPING_OR_DIALOG}, ${options.alsoIgnoreIn}` : TYPING_OR_DIALOG;
  useEffect(() => {
    if (!options.enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if ((e.target as Element | null)?.closest?.(ignore)) return;
      const run = Object.hasOwn(latest.current, e.key) ? latest.current[e.key] : undefined;
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [options.enabled, ignore]);
}
