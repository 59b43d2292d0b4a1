/** The inbox list's tabs, sort and query, and how a receipt is named. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SORT,
  isBusy,
  listQuery,
  nextSort,
  receiptName,
  tabStatuses,
} from '../../../../src-renderer/screens/inbox/inbox-view';

describe('the inbox list', () => {
  it('asks for the tab’s statuses, the search and the sort', () => {
    expect(listQuery('waiting', '  café ', DEFAULT_SORT)).toEqual({
      q: 'café',
      status: ['new', 'processing', 'analyzing', 'pending', 'suggested_match'],
      sort: ['created_at', 'desc'],
      pageSize: 50,
    });
    // "All" leaves the status out: the API then hides only deleted receipts.
    expect(listQuery('all', '', { column: 'amount', direction: 'asc' })).toEqual({ sort: ['amount', 'asc'], pageSize: 50 });
    expect(tabStatuses('archived')).toEqual(['archived', 'other']);
  });

  it('sorts names A→Z first, the rest newest or largest first, and turns a column around', () => {
    expect(nextSort(DEFAULT_SORT, 'display_name')).toEqual({ column: 'display_name', direction: 'asc' });
    expect(nextSort(DEFAULT_SORT, 'amount')).toEqual({ column: 'amount', direction: 'desc' });
    expect(nextSort(DEFAULT_SORT, 'created_at')).toEqual({ column: 'created_at', direction: 'asc' });
  });

  it('names a receipt by its merchant, else its file; knows when it is still being read', () => {
    expect(receiptName({ displayName: 'Café Central', fileName: 'scan.pdf' })).toBe('Café Central');
    expect(receiptName({ displayName: '  ', fileName: 'scan.pdf' })).toBe('scan.pdf');
    expect(['new', 'processing', 'analyzing', 'pending', 'done'].map((s) => isBusy(s as never))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
