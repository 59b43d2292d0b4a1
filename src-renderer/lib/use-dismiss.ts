/**
 * Closing a popover as people expect: a mouse press outside it (and outside the button that opened it), or Esc
 * wherever focus is (a button disabled after use drops focus to the page), which also gives focus back to the button.
 */
import { type RefObject, useEffect, useRef } from 'react';

export function useDismiss(
  open: boolean,
  close: () => void,
  refs: { panel: RefObject<HTMLElement | null>; button: RefObject<HTMLElement | null> },
): void {
  const latest = useRef(close);
  latest.current = close;
  const { panel, button } = refs;
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) latest.current();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      latest.current();
      button.current?.focus();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, panel, button]);
}
