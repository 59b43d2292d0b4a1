import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VIEW,
  listQuery,
  nextSort,
  parseView,
  serializeView,
  summaryQuery,
} from '../../../../src-renderer/screens/invoices/list-view';

describe('the invoice list’s view in the address', () => {
  it('round-trips a view and leaves defaults out', () => {
    const view = { tab: 'overdue', q: 'nordlicht', sort: { column: 'due_date', direction: 'asc' } } as const;
    expect(serializeView(view)).toBe('status=overdue&q=nordlicht&sort=due_date.asc');
    expect(parseView(`?${serializeView(view)}`)).toEqual(view);
    expect(serializeView(DEFAULT_VIEW)).toBe('');
  });

  it('drops what it does not know rather than sending it', () => {
    expect(parseView('?status=lost&sort=colour.up&q=x')).toEqual({ ...DEFAULT_VIEW, q: 'x' });
    expect(parseView('?sort=amount.sideways')).toEqual(DEFAULT_VIEW);
  });

  it('asks the API for the tab’s statuses, the search, the sort and a customer', () => {
    expect(listQuery({ tab: 'open', q: ' INV-0042 ', sort: { column: 'amount', direction: 'desc' } }, 'c1')).toEqual({
      pageSize: 50,
      sort: ['amount', 'desc'],
      q: 'INV-0042',
      statuses: ['unpaid', 'overdue'],
      customers: ['c1'],
    });
    expect(listQuery(DEFAULT_VIEW)).toEqual({ pageSize: 50, sort: ['created_at', 'desc'] });
    expect(summaryQuery('all')).toEqual({});
    expect(summaryQuery('closed')).toEqual({ statuses: ['canceled', 'refunded'] });
  });

  it('sorts names ascending and figures descending first; the same column turns around', () => {
    expect(nextSort(DEFAULT_VIEW.sort, 'customer')).toEqual({ column: 'customer', direction: 'asc' });
    expect(nextSort(DEFAULT_VIEW.sort, 'amount')).toEqual({ column: 'amount', direction: 'desc' });
    expect(nextSort({ column: 'amount', direction: 'desc' }, 'amount')).toEqual({ column: 'amount', direction: 'asc' });
  });
});
