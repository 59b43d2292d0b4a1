import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, nextSort } from '../../../src-renderer/stores/customers';

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
