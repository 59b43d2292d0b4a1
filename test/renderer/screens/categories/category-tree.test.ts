/** The category tree: groups with their categories, where one may move, what may be deleted, the form's bodies. */
import { describe, expect, it } from 'vitest';
import {
  createBody,
  deleteBlocker,
  draftOf,
  parentChoices,
  patchBody,
  treeRows,
} from '../../../../src-renderer/screens/categories/category-tree';
import type { TransactionCategory } from '../../../../src-shared/contract/categories';

const cat = (id: string, name: string, parentId: string | null = null, more: Partial<TransactionCategory> = {}) =>
  ({
    id,
    name,
    slug: id,
    color: '#123456',
    description: null,
    taxRate: null,
    taxType: null,
    taxReportingCode: null,
    excluded: false,
    system: false,
    parentId,
    createdAt: '',
    updatedAt: '',
    ...more,
  }) satisfies TransactionCategory;

const travelGroup = cat('travel-group', 'Travel & entertainment');
const travel = cat('travel', 'Travel', 'travel-group', { taxRate: 19, taxType: 'vat' });
const meals = cat('meals', 'Meals', 'travel-group');
const office = cat('office', 'Office');
const system = cat('system', 'System', null, { system: true });
const uncategorized = cat('uncategorized', 'Uncategorized', 'system', { system: true });
const ALL = [meals, uncategorized, office, travel, system, travelGroup];

describe('the category tree', () => {
  it('lists each group by name with its categories by name under it', () => {
    expect(treeRows(ALL).map((r) => `${'  '.repeat(r.depth)}${r.category.name}${r.children ? ` (${r.children})` : ''}`)).toEqual([
      'Office',
      'System (1)',
      '  Uncategorized',
      'Travel & entertainment (2)',
      '  Meals',
      '  Travel',
    ]);
  });

  it('moves a category under another group, never a group that holds categories nor a built-in one', () => {
    expect(parentChoices(ALL, travel).map((c) => c.id)).toEqual(['office', 'system', 'travel-group']);
    expect(parentChoices(ALL, office).map((c) => c.id)).toEqual(['system', 'travel-group']);
    expect(parentChoices(ALL, travelGroup)).toEqual([]);
    expect(parentChoices(ALL, uncategorized)).toEqual([]);
    expect(parentChoices(ALL).map((c) => c.id)).toEqual(['office', 'system', 'travel-group']);
  });

  it('deletes neither a built-in category nor a group with categories', () => {
    expect(deleteBlocker(travel, ALL)).toBeNull();
    expect(deleteBlocker(uncategorized, ALL)).toBe('system');
    expect(deleteBlocker(travelGroup, ALL)).toBe('hasChildren');
  });

  it('creates from the form, reading the rate as typed, and patches only what changed', () => {
    const draft = { ...draftOf(undefined, 'travel-group'), name: ' Taxis ', taxRate: '7,5', taxType: 'vat' as const };
    expect(createBody(draft, (s) => Number(s.replace(',', '.'))).body).toEqual({
      name: 'Taxis',
      parentId: 'travel-group',
      taxRate: 7.5,
      taxType: 'vat',
      taxReportingCode: null,
      description: null,
      excluded: false,
    });
    expect(patchBody({ ...draftOf(travel), name: 'Trips', color: '#ff0000' }, travel).body).toEqual({
      name: 'Trips',
      color: '#ff0000',
    });
    // A built-in category renamed: its parent and `excluded` are not sent.
    expect(patchBody({ ...draftOf(uncategorized), name: 'Not yet sorted' }, uncategorized).body).toEqual({
      name: 'Not yet sorted',
    });
    expect(createBody({ ...draftOf(), name: '', taxRate: '120' }).errors).toEqual({ name: 'required', taxRate: 'taxRate' });
  });
});
