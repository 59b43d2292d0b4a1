/**
 * The transaction screen's filters, kept in the address (`/transactions?state=to_review&account=…&from=…`) so a
 * view can be bookmarked, shared and survives a reload. Pure functions: parse, serialize, and turn into the list
 * and review-count queries of the API.
 */
import type { ReviewState } from '../../../src-shared/domain/review-state';

export const TABS = ['all', 'to_review', 'needs_receipt', 'ready', 'exported', 'excluded'] as const;
export type Tab = (typeof TABS)[number];

export interface Filters {
  tab: Tab;
  q: string;
  from: string;
  to: string;
  account: string;
  category: string;
  tag: string;
  status: '' | 'posted' | 'pending' | 'completed' | 'archived' | 'exported' | 'excluded';
  /** Bounds of the amount without its sign, canonical ("30.5"); `type` says which way the money went. */
  min: string;
  max: string;
  type: '' | 'income' | 'expense';
  /** The lines an import batch made (the import screen and a notification link here). */
  batch: string;
}

export const EMPTY_FILTERS: Filters = {
  tab: 'to_review',
  q: '',
  from: '',
  to: '',
  account: '',
  category: '',
  tag: '',
  status: '',
  min: '',
  max: '',
  type: '',
  batch: '',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d+(\.\d+)?$/;
const STATUSES = ['posted', 'pending', 'completed', 'archived', 'exported', 'excluded'];

/** Filters from a query string; anything malformed is dropped rather than sent to the server. */
export function parseFilters(search: string): Filters {
  const p = new URLSearchParams(search);
  const get = (k: string) => (p.get(k) ?? '').trim();
  const tab = get('state');
  const status = get('status');
  const type = get('type');
  return {
    tab: (TABS as readonly string[]).includes(tab) ? (tab as Tab) : EMPTY_FILTERS.tab,
    q: get('q').slice(0, 200),
    from: DAY.test(get('from')) ? get('from') : '',
    to: DAY.test(get('to')) ? get('to') : '',
    account: get('account'),
    category: get('category'),
    tag: get('tag'),
    status: STATUSES.includes(status) ? (status as Filters['status']) : '',
    min: AMOUNT.test(get('min')) ? get('min') : '',
    max: AMOUNT.test(get('max')) ? get('max') : '',
    type: type === 'income' || type === 'expense' ? type : '',
    batch: get('batch').slice(0, 200),
  };
}

/** The query string for filters (only what differs from the defaults), without the leading `?`. */
export function serializeFilters(f: Filters): string {
  const p = new URLSearchParams();
  if (f.tab !== EMPTY_FILTERS.tab) p.set('state', f.tab);
  if (f.q.trim()) p.set('q', f.q.trim());
  if (f.from) p.set('from', f.from);
  if (f.to) p.set('to', f.to);
  if (f.account) p.set('account', f.account);
  if (f.category) p.set('category', f.category);
  if (f.tag) p.set('tag', f.tag);
  if (f.status) p.set('status', f.status);
  if (f.min) p.set('min', f.min);
  if (f.max) p.set('max', f.max);
  if (f.type) p.set('type', f.type);
  if (f.batch) p.set('batch', f.batch);
  return p.toString();
}

/** The API filters shared by the list and the review counts (every filter but the review-state tab). */
export function apiFilters(f: Filters) {
  return {
    q: f.q.trim() || undefined,
    start: f.from || undefined,
    end: f.to || undefined,
    accounts: f.account ? [f.account] : undefined,
    categories: f.category ? [f.category] : undefined,
    tags: f.tag ? [f.tag] : undefined,
    statuses: f.status ? [f.status] : undefined,
    absAmountRange: f.min || f.max ? [f.min, f.max] : undefined,
    type: f.type || undefined,
    importBatch: f.batch || undefined,
  };
}

/** The list query: the filters plus the tab's review state. "All" is every state but excluded (the API's default). */
export function listQuery(f: Filters, pageSize: number) {
  const reviewStates: ReviewState[] | undefined = f.tab === 'all' ? undefined : [f.tab];
  return { ...apiFilters(f), reviewStates, pageSize };
}

export type Counts = Record<ReviewState, number>;

/** How many rows the tab holds, from the review counts (the list itself has no total). */
export function tabCount(tab: Tab, counts: Counts): number {
  if (tab === 'all') return counts.to_review + counts.needs_receipt + counts.ready + counts.exported;
  return counts[tab];
}

export function activeFilterCount(f: Filters): number {
  return (['q', 'from', 'to', 'account', 'batch', ...MORE_FILTERS] as const).filter((k) => f[k] !== '').length;
}

/** The filters behind "More filters" (the row shows search, dates and account). */
export const MORE_FILTERS = ['category', 'tag', 'status', 'type', 'min', 'max'] as const;

export function moreFilterCount(f: Filters): number {
  return MORE_FILTERS.filter((k) => f[k] !== '').length;
}
