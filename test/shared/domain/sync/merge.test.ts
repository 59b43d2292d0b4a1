import { describe, expect, it } from 'vitest';
import { mergedFields, SYNC_ORDER, SYNC_SPECS } from '../../../../src-shared/domain/sync/fields';
import { canonicalJson, changedFields, mergeRecord, type Projection } from '../../../../src-shared/domain/sync/merge';

const tx = SYNC_SPECS.transaction;
const base: Projection = {
  bankAccountId: 'acc',
  currency: 'EUR',
  manual: true,
  method: 'card_purchase',
  name: 'Coffee',
  date: '2026-03-01',
  description: null,
  counterpartyName: 'Bean Bar',
  amountMinor: -450,
  splits: [],
  categorySlug: 'meals',
  taxRate: null,
  taxType: null,
  status: 'posted',
  note: null,
  internal: false,
  recurring: false,
  frequency: null,
  reviewed: false,
  tags: ['t1'],
};

describe('sync merge', () => {
  it('takes a field changed on one side only, from that side, with no conflict', () => {
    const local = { ...base, note: 'team lunch' };
    const remote = { ...base, name: 'Coffee & cake' };
    const m = mergeRecord(tx, base, local, remote);
    expect(m.conflicts).toEqual([]);
    expect(m.merged.note).toBe('team lunch');
    expect(m.merged.name).toBe('Coffee & cake');
    expect(m.toLocal).toEqual({ name: 'Coffee & cake' });
    expect(m.toRemote).toEqual({ note: 'team lunch' });
  });

  it('agrees silently when both sides made the same change', () => {
    const both = { ...base, categorySlug: 'travel' };
    const m = mergeRecord(tx, base, both, both);
    expect(m).toMatchObject({ conflicts: [], toLocal: {}, toRemote: {} });
  });

  it('records a same-group conflict with both values, and its stated default decides', () => {
    const local = { ...base, note: 'mine' };
    const remote = { ...base, note: 'theirs', name: 'Renamed' };
    const m = mergeRecord(tx, base, local, remote);
    expect(m.conflicts).toHaveLength(1);
    expect(m.conflicts[0]).toMatchObject({ group: 'note', local: { note: 'mine' }, remote: { note: 'theirs' }, winner: 'local' });
    expect(m.merged.note).toBe('mine');
    expect(m.toRemote).toEqual({ note: 'mine' });
    expect(m.toLocal).toEqual({ name: 'Renamed' });
  });

  it('resolves coupled fields as one unit: never the amount from one side and the split parts from the other', () => {
    const local = { ...base, splits: [{ amountMinor: -200 }, { amountMinor: -250 }] };
    const remote = { ...base, amountMinor: -500 };
    const m = mergeRecord(tx, base, local, remote);
    expect(m.conflicts.map((c) => c.group)).toEqual(['amount']);
    // Remote wins the amount group: its amount with its (empty) splits, never -500 with parts summing to -450.
    expect(m.merged.amountMinor).toBe(-500);
    expect(m.merged.splits).toEqual([]);
  });

  it('without a base, two values people chose that differ are a conflict decided by its default', () => {
    const local = { ...base, categorySlug: 'travel' };
    const m = mergeRecord(tx, undefined, local, base);
    expect(m.conflicts.map((c) => c.group)).toEqual(['category']);
    expect(m.merged.categorySlug).toBe('travel');
  });

  it.each([
    ['an empty note here gives way to the remote’s', { note: null }, { note: 'paid by card' }, 'paid by card'],
    ['an empty note there gives way to this one', { note: 'paid by card' }, { note: null }, 'paid by card'],
    ['an empty tag set gives way', { tags: [] }, { tags: ['t1'] }, ['t1']],
  ])('without a base, a value nobody chose never beats one a person set: %s', (_, here, there, kept) => {
    const field = Object.keys(here)[0]!;
    const m = mergeRecord(tx, undefined, { ...base, ...here }, { ...base, ...there });
    expect(m.conflicts).toEqual([]);
    expect(m.merged[field]).toEqual(kept);
  });

  it('without a base, a default a side was made with gives way; of two defaults the one with data stays', () => {
    const cat = SYNC_SPECS.transaction_category;
    const row = { slug: 'income', name: 'Income', color: '#fff', description: null, taxReportingCode: null, excluded: false };
    const de = { ...row, taxRate: 19, taxType: 'vat', parentSlug: 'revenue' };
    const none = { ...row, taxRate: null, taxType: 'vat', parentSlug: 'revenue' };
    const isDefault = (value: Record<string, unknown>, d: Record<string, unknown>) =>
      Object.entries(value).every(([k, v]) => v === d[k]);
    const unchosen = (defaults: { local: Record<string, unknown>; remote: Record<string, unknown> }) => ({
      unchosen: (side: 'local' | 'remote', _g: unknown, value: Record<string, unknown>) => isDefault(value, defaults[side]),
    });
    // Both untouched defaults (19 % here, no rate there): the rate stays, nothing to decide.
    let m = mergeRecord(cat, undefined, de, none, unchosen({ local: de, remote: none }));
    expect([m.conflicts, m.merged.taxRate, m.toRemote.taxRate]).toEqual([[], 19, 19]);
    // A person set 7 % there: it beats this side's default.
    m = mergeRecord(cat, undefined, de, { ...none, taxRate: 7 }, unchosen({ local: de, remote: none }));
    expect([m.conflicts, m.merged.taxRate]).toEqual([[], 7]);
    // Both set by people: a conflict, decided by the group's default and shown.
    m = mergeRecord(cat, undefined, { ...de, taxRate: 10 }, { ...none, taxRate: 7 }, unchosen({ local: de, remote: none }));
    expect(m.conflicts.map((c) => c.group)).toEqual(['tax']);
  });

  it('never merges createOnly fields (a bank line stays one where it came from)', () => {
    const remote = { ...base, manual: false, bankAccountId: 'other' };
    const m = mergeRecord(tx, base, base, remote);
    expect(m).toMatchObject({ conflicts: [], toLocal: {}, toRemote: {} });
  });

  it('changedFields lists whole groups', () => {
    expect(changedFields(tx, base, { ...base, taxRate: 7 })).toEqual({ categorySlug: 'meals', taxRate: 7, taxType: null });
  });

  it('canonical JSON sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('every spec puts each merged field in exactly one group, and the order lists every entity once', () => {
    for (const spec of Object.values(SYNC_SPECS)) {
      const grouped = spec.groups.flatMap((g) => g.fields).sort();
      expect(grouped, spec.entity).toEqual(mergedFields(spec).sort());
    }
    expect([...SYNC_ORDER].sort()).toEqual(Object.keys(SYNC_SPECS).sort());
  });
});
