/**
 * The inbox list's tabs and what each asks the API for (docs/decisions/0084-inbox-matching.md): receipts still
 * waiting for their transaction (being read, matched, or with no match yet), those with a suggestion to confirm,
 * those matched, those no transaction fitted within 90 days, and those put aside.
 */
import type { InboxItem, InboxStatus } from '../../../src-shared/contract/inbox';

export const INBOX_TABS = ['waiting', 'suggested', 'matched', 'noMatch', 'archived', 'all'] as const;
export type InboxTab = (typeof INBOX_TABS)[number];

const STATUSES: Readonly<Record<InboxTab, readonly InboxStatus[] | undefined>> = {
  waiting: ['new', 'processing', 'analyzing', 'pending', 'suggested_match'],
  suggested: ['suggested_match'],
  matched: ['done'],
  noMatch: ['no_match'],
  archived: ['archived', 'other'],
  // The API's default: every status but deleted.
  all: undefined,
};

export function tabStatuses(tab: InboxTab): InboxStatus[] | undefined {
  const s = STATUSES[tab];
  return s ? [...s] : undefined;
}

/** The file is still being read or matched: its fields and suggestions are not there yet. */
export function isBusy(status: InboxStatus): boolean {
  return status === 'new' || status === 'processing' || status === 'analyzing';
}

/** What a receipt is called: the merchant found or set, else its file's name. */
export function receiptName(item: Pick<InboxItem, 'displayName' | 'fileName'>): string {
  return item.displayName?.trim() || item.fileName;
}

/** Statuses a person may set back from: an archived or put-aside receipt returns to waiting. */
export function canRestore(status: InboxStatus): boolean {
  return status === 'archived' || status === 'other' || status === 'no_match';
}

export type InboxSortColumn = 'created_at' | 'date' | 'amount' | 'display_name';
export interface InboxSort {
  column: InboxSortColumn;
  direction: 'asc' | 'desc';
}
export const DEFAULT_SORT: InboxSort = { column: 'created_at', direction: 'desc' };

/** A header clicked: the same column turns around; another starts with names A→Z and the rest newest or largest first. */
export function nextSort(current: InboxSort, column: InboxSortColumn): InboxSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: column === 'display_name' ? 'asc' : 'desc' };
}

export const PAGE_SIZE = 50;

export function listQuery(tab: InboxTab, q: string, sort: InboxSort) {
  const statuses = tabStatuses(tab);
  return {
    ...(q.trim() ? { q: q.trim() } : {}),
    ...(statuses ? { status: statuses } : {}),
    sort: [sort.column, sort.direction],
    pageSize: PAGE_SIZE,
  };
}
