/**
 * What the customers screen is looking at: search, tab and sort. It outlives a visit to another screen, so coming
 * back shows the same view. The rows themselves, their paging and the writes go through the data layer
 * (src-renderer/data: useCursorList, useWrite), which caches, pages and refreshes them. Types come from the
 * contract (src-shared/contract/customers.ts); nothing is redefined here.
 */
import { create } from 'zustand';
import type { CustomerSortColumn, CustomerTab } from '../../src-shared/contract/customers';

export const PAGE_SIZE = 50;

export interface CustomerSort {
  column: CustomerSortColumn;
  direction: 'asc' | 'desc';
}

export const DEFAULT_SORT: CustomerSort = { column: 'created_at', direction: 'desc' };

interface CustomersView {
  q: string;
  tab: CustomerTab;
  sort: CustomerSort;
  setQuery(q: string): void;
  setTab(tab: CustomerTab): void;
  toggleSort(column: CustomerSortColumn): void;
}

/** Columns whose natural first direction is descending (money, counts, dates). */
const DESC_FIRST: ReadonlySet<CustomerSortColumn> = new Set([
  'created_at',
  'invoices',
  'projects',
  'total_revenue',
  'outstanding',
  'last_invoice',
]);

export function nextSort(current: CustomerSort, column: CustomerSortColumn): CustomerSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: DESC_FIRST.has(column) ? 'desc' : 'asc' };
}

/** The list request for a view: the search trimmed (empty means none), the sort as the API's tuple. */
export function listQuery(view: Pick<CustomersView, 'q' | 'tab' | 'sort'>) {
  return {
    q: view.q.trim() || undefined,
    tab: view.tab,
    sort: [view.sort.column, view.sort.direction] as [CustomerSortColumn, 'asc' | 'desc'],
    pageSize: PAGE_SIZE,
  };
}

export const useCustomersView = create<CustomersView>((set, get) => ({
  q: '',
  tab: 'all',
  sort: DEFAULT_SORT,
  setQuery: (q) => set({ q }),
  setTab: (tab) => set({ tab }),
  toggleSort: (column) => set({ sort: nextSort(get().sort, column) }),
}));
