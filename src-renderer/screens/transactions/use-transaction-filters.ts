/**
 * The filters of the transactions screen, kept in the address (filters.ts says how), and the search text as typed:
 * it becomes the `q` filter 250 ms after the last key, so a word typed is one request, not one per letter.
 */
import { useCallback, useEffect, useState } from 'react';
import { EMPTY_FILTERS, type Filters, parseFilters, serializeFilters } from './filters';

const SEARCH_DELAY_MS = 250;

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

  useEffect(() => {
    if (search === filters.q) return;
    const t = setTimeout(() => update({ ...filters, q: search }), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [search, filters, update]);

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
