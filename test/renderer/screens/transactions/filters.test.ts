import { describe, expect, it } from 'vitest';
import {
  apiFilters,
  EMPTY_FILTERS,
  listQuery,
  parseFilters,
  serializeFilters,
  tabCount,
} from '../../../../src-renderer/screens/transactions/filters';

describe('transaction filters in the address', () => {
  it('round-trips every filter and leaves defaults out of the address', () => {
    const f = {
      ...EMPTY_FILTERS,
      tab: 'all' as const,
      q: 'rent',
      from: '2026-01-01',
      to: '2026-03-31',
      account: 'a1',
      category: 'software',
      tag: 't1',
      status: 'posted' as const,
      min: '-500',
      max: '10.5',
      type: 'expense' as const,
    };
    const qs = serializeFilters(f);
    expect(parseFilters(`?${qs}`)).toEqual(f);
    expect(serializeFilters(EMPTY_FILTERS)).toBe('');
  });

  it('drops malformed values instead of sending them', () => {
    expect(parseFilters('?state=nope&from=yesterday&min=abc&status=lost&type=both')).toEqual(EMPTY_FILTERS);
  });

  it('turns into the API queries: the tab is the review state, All hides excluded by the API default', () => {
    const f = { ...EMPTY_FILTERS, tab: 'ready' as const, min: '10', category: 'travel' };
    expect(listQuery(f, 500)).toMatchObject({
      reviewStates: ['ready'],
      amountRange: ['10', ''],
      categories: ['travel'],
      pageSize: 500,
    });
    expect(listQuery({ ...f, tab: 'all' }, 500).reviewStates).toBeUndefined();
    expect(apiFilters(f)).not.toHaveProperty('reviewStates');
  });

  it('counts a tab from the review counts', () => {
    const counts = { to_review: 5, needs_receipt: 2, ready: 7, exported: 1, excluded: 3 };
    expect(tabCount('all', counts)).toBe(15);
    expect(tabCount('excluded', counts)).toBe(3);
  });
});
