import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, listQuery, nextSort, PAGE_SIZE } from '../../../src-renderer/stores/customers';

describe('nextSort (clicking a column header)', () => {
  it.each([
    [DEFAULT_SORT, 'created_at', { column: 'created_at', direction: 'asc' }],
    [DEFAULT_SORT, 'name', { column: 'name', direction: 'asc' }],
    [{ column: 'name', direction: 'asc' }, 'name', { column: 'name', direction: 'desc' }],
    [{ column: 'name', direction: 'asc' }, 'outstanding', { column: 'outstanding', direction: 'desc' }],
    [{ column: 'name', direction: 'asc' }, 'country', { column: 'country', direction: 'asc' }],
  ] as const)('%o + %s → %o', (current, column, expected) => {
    expect(nextSort(current, column)).toEqual(expected);
  });
});

describe('listQuery (the view as the list request)', () => {
  it('trims the search, leaves out an empty one and sends the sort as the API tuple', () => {
    expect(listQuery({ q: '  acme ', tab: 'unpaid', sort: { column: 'name', direction: 'asc' } })).toEqual({
      q: 'acme',
      tab: 'unpaid',
      sort: ['name', 'asc'],
      pageSize: PAGE_SIZE,
    });
    expect(listQuery({ q: '   ', tab: 'all', sort: DEFAULT_SORT }).q).toBeUndefined();
  });
});
