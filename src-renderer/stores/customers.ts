/**
 * The customers list: its query (search, tab, sort), the pages loaded so far and the writes. Types come from the
 * contract (src-shared/contract/customers.ts); nothing is redefined here.
 *
 * Paging is by the server's opaque cursor: "Load more" appends the next page; any change of the query starts
 * again from the first page. A response that arrives after the query changed is dropped (`seq`).
 */
import { create } from 'zustand';
import type { ApiClientError } from '../../src-shared/api-client';
import {
  type Customer,
  type CustomerCreate,
  type CustomerPatch,
  type CustomerSortColumn,
  type CustomerTab,
  customerRoutes,
} from '../../src-shared/contract/customers';
import { api } from '../lib/api';

export const PAGE_SIZE = 50;

export interface CustomerSort {
  column: CustomerSortColumn;
  direction: 'asc' | 'desc';
}

export const DEFAULT_SORT: CustomerSort = { column: 'created_at', direction: 'desc' };

interface CustomersState {
  q: string;
  tab: CustomerTab;
  sort: CustomerSort;
  items: Customer[];
  cursor: string | null;
  hasNextPage: boolean;
  status: 'idle' | 'loading' | 'loading-more' | 'ready' | 'error';
  error: ApiClientError | Error | null;
  seq: number;
  setQuery(q: string): void;
  setTab(tab: CustomerTab): void;
  toggleSort(column: CustomerSortColumn): void;
  reload(): Promise<void>;
  loadMore(): Promise<void>;
  create(input: CustomerCreate): Promise<Customer>;
  update(id: string, patch: CustomerPatch): Promise<Customer>;
  remove(id: string): Promise<Customer>;
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

const newKey = () => globalThis.crypto.randomUUID();

export const useCustomers = create<CustomersState>((set, get) => {
  async function fetchPage(append: boolean): Promise<void> {
    const seq = get().seq + 1;
    const { q, tab, sort, cursor } = get();
    set({ seq, status: append ? 'loading-more' : 'loading', error: null });
    try {
      const page = await api.call(customerRoutes.list, {
        query: {
          q: q.trim() || undefined,
          tab,
          sort: [sort.column, sort.direction],
          pageSize: PAGE_SIZE,
          cursor: append ? (cursor ?? undefined) : undefined,
        },
      });
      if (get().seq !== seq) return;
      set((s) => ({
        items: append ? [...s.items, ...page.data.filter((c) => !s.items.some((x) => x.id === c.id))] : page.data,
        cursor: page.meta.cursor,
        hasNextPage: page.meta.hasNextPage,
        status: 'ready',
      }));
    } catch (err) {
      if (get().seq !== seq) return;
      set({ status: 'error', error: err as Error });
    }
  }

  return {
    q: '',
    tab: 'all',
    sort: DEFAULT_SORT,
    items: [],
    cursor: null,
    hasNextPage: false,
    status: 'idle',
    error: null,
    seq: 0,
    setQuery(q) {
      set({ q });
      void fetchPage(false);
    },
    setTab(tab) {
      set({ tab });
      void fetchPage(false);
    },
    toggleSort(column) {
      set({ sort: nextSort(get().sort, column) });
      void fetchPage(false);
    },
    reload: () => fetchPage(false),
    loadMore: () => (get().hasNextPage && get().status !== 'loading-more' ? fetchPage(true) : Promise.resolve()),
    async create(input) {
      const created = await api.call(customerRoutes.create, { body: input, idempotencyKey: newKey() });
      // Upsert: the server may have updated an existing customer (same email); replace it in place if listed.
      set((s) => ({ items: [created, ...s.items.filter((c) => c.id !== created.id)] }));
      return created;
    },
    async update(id, patch) {
      const updated = await api.call(customerRoutes.update, { params: { id }, body: patch, idempotencyKey: newKey() });
      set((s) => ({ items: s.items.map((c) => (c.id === id ? updated : c)) }));
      return updated;
    },
    async remove(id) {
      const deleted = await api.call(customerRoutes.delete, { params: { id } });
      set((s) => ({ items: s.items.filter((c) => c.id !== id) }));
      return deleted;
    },
  };
});
