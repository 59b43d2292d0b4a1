import { describe, expect, it } from 'vitest';
import { categoryOptions, matchOptions } from '../../../../src-renderer/screens/transactions/pickers';
import type { TransactionCategory } from '../../../../src-shared/contract/categories';
import { defaultCategories } from '../../../../src-shared/domain/categories';

/** The default taxonomy as the API lists it: each category with its id and its parent's. */
const categories = defaultCategories('DE').map(
  (c) => ({ id: c.slug, slug: c.slug, name: c.name, color: c.color, parentId: c.parentSlug }) as unknown as TransactionCategory,
);
const options = categoryOptions(categories);

describe('the category picker’s matches', () => {
  it('puts the category before its group: "trav" and Enter picks Travel, not Travel & entertainment', () => {
    const shown = matchOptions(options, 'trav').map((o) => o.label);
    expect(shown[0]).toBe('Travel');
    expect(shown[1]).toBe('Travel & entertainment');
    // The group's other categories still match by the group's name, after them.
    expect(shown.indexOf('Meals')).toBeGreaterThan(1);
  });

  it('ranks a name that starts with the text before one that holds it, and keeps the list order within a rank', () => {
    const shown = matchOptions(
      [
        { id: 'a', label: 'Office rent' },
        { id: 'b', label: 'Rent' },
        { id: 'c', label: 'Rental cars' },
      ],
      'rent',
    );
    expect(shown.map((o) => o.id)).toEqual(['b', 'c', 'a']);
    expect(matchOptions(options, '').length).toBe(options.length);
    expect(matchOptions(options, 'zzz')).toEqual([]);
  });
});
