/**
 * The invoice list's view, kept in the address (list-view.ts says how), and the search text as typed, which becomes
 * the `q` of the view a moment after the last key (lib/use-search-text.ts).
 */
import { useCallback, useEffect, useState } from 'react';
import { useSearchCommit } from '../../lib/use-search-text';
import { type ListView, parseView, serializeView } from './list-view';

export function useListView(): {
  view: ListView;
  update(patch: Partial<ListView>): void;
  search: string;
  setSearch(text: string): void;
} {
  const [view, setView] = useState(() => parseView(globalThis.location?.search ?? ''));
  const [search, setSearch] = useState(view.q);

  const replace = useCallback((next: ListView) => {
    setView(next);
    const qs = serializeView(next);
    globalThis.history.replaceState(null, '', `${globalThis.location.pathname}${qs ? `?${qs}` : ''}`);
  }, []);

  useEffect(() => {
    const onPop = () => {
      const next = parseView(globalThis.location.search);
      setView(next);
      setSearch(next.q);
    };
    globalThis.addEventListener('popstate', onPop);
    return () => globalThis.removeEventListener('popstate', onPop);
  }, []);

  useSearchCommit(search, view.q, (q) => replace({ ...view, q }));

  return { view, update: (patch) => replace({ ...view, ...patch }), search, setSearch };
}
