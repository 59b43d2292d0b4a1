/**
 * The invoice list's view, kept in the address (`/invoices?status=open&q=nord&sort=due_date.asc`) so it can be
 * bookmarked and survives a reload: the status tab, the search text and the sort. Pure functions: parse,
 * serialize, and the list and summary queries of the API.
 */
import type { InvoiceSortColumn } from '../../../src-shared/contract/invoices';
import type { InvoiceStatus } from '../../../src-shared/domain/invoice-status';

/** The status tabs (`tabs.<id>` in the invoices namespace) and the statuses each lists; `all` lists every one. */
export const TABS = {
  all: undefined,
  draft: ['draft', 'scheduled'],
  open: ['unpaid', 'overdue'],
  overdue: ['overdue'],
  paid: ['paid'],
  closed: ['canceled', 'refunded'],
} as const satisfies Record<string, readonly InvoiceStatus[] | undefined>;
export type Tab = keyof typeof TABS;
export const TAB_IDS = Object.keys(TABS) as Tab[];

/** The columns the list sorts by (the API's names). */
export const SORTS = ['created_at', 'invoice_number', 'customer', 'issue_date', 'due_date', 'amount', 'status'] as const;
export type ListSort = { column: (typeof SORTS)[number] & InvoiceSortColumn; direction: 'asc' | 'desc' };
export const DEFAULT_SORT: ListSort = { column: 'created_at', direction: 'desc' };

export interface ListView {
  tab: Tab;
  q: string;
  sort: ListSort;
}

export const DEFAULT_VIEW: ListView = { tab: 'all', q: '', sort: DEFAULT_SORT };

export function parseView(search: string): ListView {
  const p = new URLSearchParams(search);
  const tab = p.get('status') ?? '';
  const [column, direction] = (p.get('sort') ?? '').split('.');
  return {
    tab: (TAB_IDS as string[]).includes(tab) ? (tab as Tab) : 'all',
    q: (p.get('q') ?? '').slice(0, 200),
    sort:
      (SORTS as readonly string[]).includes(column ?? '') && (direction === 'asc' || direction === 'desc')
        ? { column: column as ListSort['column'], direction }
        : DEFAULT_SORT,
  };
}

/** The query string of a view; defaults are left out. */
export function serializeView(view: ListView): string {
  const p = new URLSearchParams();
  if (view.tab !== 'all') p.set('status', view.tab);
  if (view.q.trim()) p.set('q', view.q.trim());
  if (view.sort.column !== DEFAULT_SORT.column || view.sort.direction !== DEFAULT_SORT.direction)
    p.set('sort', `${view.sort.column}.${view.sort.direction}`);
  return p.toString();
}

/** A click on a sortable header: the same column turns around, another starts the way it reads best. */
export function nextSort(current: ListSort, column: ListSort['column']): ListSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  const ascending = column === 'customer' || column === 'invoice_number' || column === 'status';
  return { column, direction: ascending ? 'asc' : 'desc' };
}

export const PAGE_SIZE = 50;

export function listQuery(view: ListView, customerId?: string) {
  const statuses = TABS[view.tab];
  return {
    pageSize: PAGE_SIZE,
    sort: [view.sort.column, view.sort.direction] as [ListSort['column'], ListSort['direction']],
    ...(view.q.trim() ? { q: view.q.trim() } : {}),
    ...(statuses ? { statuses: [...statuses] } : {}),
    ...(customerId ? { customers: [customerId] } : {}),
  };
}

/** The totals by currency above the list: of the tab's statuses, or every issued invoice on "all". */
export function summaryQuery(tab: Tab): { statuses?: InvoiceStatus[] } {
  const statuses = TABS[tab];
  return statuses ? { statuses: [...statuses] } : {};
}
