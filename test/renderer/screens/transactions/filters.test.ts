import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  apiFilters,
  EMPTY_FILTERS,
  listQuery,
  moreFilterCount,
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
      min: '30',
      max: '10.5',
      type: 'expense' as const,
      batch: 'b1',
    };
    const qs = serializeFilters(f);
    expect(parseFilters(`?${qs}`)).toEqual(f);
    expect(serializeFilters(EMPTY_FILTERS)).toBe('');
  });

  it('drops malformed values instead of sending them', () => {
    expect(parseFilters('?state=nope&from=yesterday&min=abc&status=lost&type=both')).toEqual(EMPTY_FILTERS);
    // Amounts are unsigned now: the direction is the type.
    expect(parseFilters('?min=-500').min).toBe('');
  });

  it('turns into the API queries: the tab is the review state, All hides excluded by the API default', () => {
    const f = { ...EMPTY_FILTERS, tab: 'ready' as const, min: '10', category: 'travel', type: 'expense' as const, batch: 'b1' };
    expect(listQuery(f, 500)).toMatchObject({
      reviewStates: ['ready'],
      // "At least 10" of money out: the unsigned amount and the direction.
      absAmountRange: ['10', ''],
      type: 'expense',
      importBatch: 'b1',
      categories: ['travel'],
      pageSize: 500,
    });
    expect(listQuery(f, 500)).not.toHaveProperty('amountRange');
    expect(listQuery({ ...f, tab: 'all' }, 500).reviewStates).toBeUndefined();
    expect(apiFilters(f)).not.toHaveProperty('reviewStates');
  });

  it('counts what is filtered, and what hides behind "More filters"', () => {
    const f = { ...EMPTY_FILTERS, q: 'x', account: 'a', tag: 't', min: '5', type: 'income' as const };
    expect(activeFilterCount(f)).toBe(5);
    expect(moreFilterCount(f)).toBe(3);
  });

  it('counts a tab from the review counts', () => {
    const counts = { to_review: 5, needs_receipt: 2, ready: 7, exported: 1, excluded: 3 };
    expect(tabCount('all', counts)).toBe(15);
    expect(tabCount('excluded', counts)).toBe(3);
  });
});
