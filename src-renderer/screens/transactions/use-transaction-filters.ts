/**
 * The filters of the transactions screen, kept in the address (filters.ts says how), and the search text as typed,
 * which becomes the `q` filter a moment after the last key (lib/use-search-text.ts).
 */
import { useCallback, useEffect, useState } from 'react';
import { useSearchCommit } from '../../lib/use-search-text';
import { EMPTY_FILTERS, type Filters, parseFilters, serializeFilters } from './filters';

export interface TransactionFilters {
  filters: Filters;
  setFilter(patch: Partial<Filters>): void;
  /** The search field's text (ahead of `filters.q` while typing). */
  search: string;
  setSearch(text: string): void;
  /** Every filter back to its default, on the same review-state tab. */
  clear(): void;
}

export function useTransactionFilters(): TransactionFilters {
  const [filters, setFilters] = useState(() => parseFilters(globalThis.location?.search ?? ''));
  const [search, setSearch] = useState(filters.q);

  const update = useCallback((next: Filters) => {
    setFilters(next);
    const qs = serializeFilters(next);
    globalThis.history.replaceState(null, '', `${globalThis.location.pathname}${qs ? `?${qs}` : ''}`);
  }, []);

  // Back and forward in the browser show the filters of that address.
  useEffect(() => {
    const onPop = () => {
      const next = parseFilters(globalThis.location.search);
      setFilters(next);
      setSearch(next.q);
    };
    globalThis.addEventListener('popstate', onPop);
    return () => globalThis.removeEventListener('popstate', onPop);
  }, []);

  useSearchCommit(search, filters.q, (q) => update({ ...filters, q }));

  return {
    filters,
    setFilter: (patch) => update({ ...filters, ...patch }),
    search,
    setSearch,
    clear: () => {
      setSearch('');
      update({ ...EMPTY_FILTERS, tab: filters.tab });
    },
  };
}
