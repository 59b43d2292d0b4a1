/**
 * Search as you type: the text in the field becomes the list's query a moment after the last key, so a word typed is
 * one request, not one per letter.
 */
import { useEffect, useRef } from 'react';

export const SEARCH_DELAY_MS = 250;

/** Calls `commit(text)` once `text` has stayed as it is for the delay and differs from the query in use. */
export function useSearchCommit(text: string, query: string, commit: (text: string) => void): void {
  const latest = useRef(commit);
  latest.current = commit;
  useEffect(() => {
    if (text === query) return;
    const t = setTimeout(() => latest.current(text), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text, query]);
}
