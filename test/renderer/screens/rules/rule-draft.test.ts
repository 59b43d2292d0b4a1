/**
 * The rule editor's draft: a saved rule read into groups and leaves and written back the same; values as typed
 * (amounts in the user's number format, one-of lists a line each) checked per part; the "always categorise this
 * counterparty" rule; and the result accepted by the API's own schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setFormatPreferences } from '../../../../src-renderer/lib/format';
import { parseDecimal } from '../../../../src-renderer/lib/parse-number';
import { editorNumber } from '../../../../src-renderer/screens/rules/RulesScreen';
import {
  counterpartyRule,
  draftOf,
  emptyDraft,
  inputOf,
  type LeafDraft,
  newAction,
  newGroup,
  newLeaf,
  type RuleDraft,
} from '../../../../src-renderer/screens/rules/rule-draft';
import { RuleInput } from '../../../../src-shared/contract/rules';

afterEach(() => setFormatPreferences({ locale: 'en', numberFormat: 'locale' }));

const SAVED: RuleInput = {
  name: 'Travel',
  stage: 'post',
  enabled: true,
  applyOn: ['import'],
  conditions: {
    all: [
      { field: 'counterparty', op: 'one_of', value: ['Uber', 'Lyft, Inc.'] },
      {
        any: [
          { field: 'amount', op: 'between', value: [-100, -12.5] },
          { field: 'amount', op: 'approx', value: -20, tolerancePct: 10 },
        ],
      },
      { not: { field: 'category', op: 'empty' } },
      { field: 'name', op: 'matches', value: '^ride', caseSensitive: true, negate: true },
      { field: 'date', op: 'day_of_month', value: [1, 5] },
    ],
  },
  actions: [
    { type: 'set_category', categorySlug: 'travel' },
    { type: 'add_tags', tagIds: ['t1'] },
    {
      type: 'split',
      parts: [
        { percent: 40, categorySlug: 'meals' },
        { amount: 2.5, categorySlug: null },
      ],
      remainderCategorySlug: 'travel',
    },
  ],
};

describe('the rule editor’s draft', () => {
  it('reads a saved rule and writes back the same rule', () => {
    const draft = draftOf(SAVED, editorNumber);
    expect(draft.root.mode).toBe('all');
    expect(draft.root.children).toHaveLength(5);
    const oneOf = draft.root.children[0] as LeafDraft;
    expect(oneOf.value).toBe('Uber\nLyft, Inc.');
    const notEmpty = draft.root.children[2] as LeafDraft;
    expect(notEmpty).toMatchObject({ field: 'category', op: 'empty', negate: true });
    const out = inputOf(draft);
    expect(out.errors).toBeUndefined();
    // `{not: leaf}` comes back as the leaf with `negate`: the same rule.
    const expected = structuredClone(SAVED);
    (expected.conditions as { all: unknown[] }).all[2] = { field: 'category', op: 'empty', negate: true };
    expect(out.input).toEqual(expected);
    expect(RuleInput.safeParse(out.input).success).toBe(true);
  });

  it('reads amounts in the user’s number format, both ways', () => {
    setFormatPreferences({ locale: 'de-DE' });
    const draft = draftOf(SAVED, editorNumber);
    const between = draft.root.children[1] as { children: LeafDraft[] };
    expect(between.children[0]).toMatchObject({ value: '-100', value2: '-12,50' });
    const leaf: LeafDraft = { ...newLeaf('amount'), op: 'eq', value: '1.234,5' };
    const out = inputOf({ ...emptyDraft(), name: 'x', root: newGroup([leaf]), actions: [{ ...newAction('exclude') }] }, (s) =>
      parseDecimal(s),
    );
    expect(out.input?.conditions).toEqual({ field: 'amount', op: 'eq', value: 1234.5 });
  });

  it('says per part what is missing or wrong, and sends nothing then', () => {
    const bad = (patch: Partial<LeafDraft>) => ({ ...newLeaf(), ...patch });
    const leaves = [
      bad({ field: 'counterparty', op: 'is', value: ' ' }),
      bad({ field: 'name', op: 'matches', value: '(unclosed' }),
      bad({ field: 'amount', op: 'eq', value: 'twelve' }),
      bad({ field: 'date', op: 'before', value: '12/01/2025' }),
      bad({ field: 'date', op: 'day_of_month', value: '0', value2: '40' }),
      bad({ field: 'currency', op: 'is', value: 'euro' }),
    ];
    const group = newGroup([]);
    const draft: RuleDraft = {
      ...emptyDraft(),
      name: '',
      root: newGroup([...leaves, group]),
      actions: [newAction('set_category'), newAction('add_tags')],
    };
    const out = inputOf(draft);
    expect(out.input).toBeUndefined();
    expect(out.errors).toMatchObject({
      name: 'required',
      [leaves[0]!.key]: 'required',
      [leaves[1]!.key]: 'regex',
      [leaves[2]!.key]: 'number',
      [leaves[3]!.key]: 'day',
      [leaves[4]!.key]: 'dayOfMonth',
      [leaves[5]!.key]: 'currency',
      [group.key]: 'emptyGroup',
      [draft.actions[0]!.key]: 'required',
      [draft.actions[1]!.key]: 'tags',
    });
    expect(inputOf({ ...emptyDraft(), name: 'x', actions: [] }).errors).toMatchObject({ actions: 'noAction' });
  });

  it('saves a group of one as its leaf, and a group turned around as not', () => {
    const leaf = { ...newLeaf('currency'), value: 'usd' };
    const one = inputOf({ ...emptyDraft(), name: 'x', root: newGroup([leaf]), actions: [newAction('mark_internal')] });
    expect(one.input?.conditions).toEqual({ field: 'currency', op: 'is', value: 'USD' });
    const none = inputOf({
      ...emptyDraft(),
      name: 'x',
      root: { ...newGroup([leaf, { ...newLeaf('note'), op: 'contains', value: 'fx' }]), mode: 'any', negate: true },
      actions: [newAction('mark_internal')],
    });
    expect(none.input?.conditions).toEqual({
      not: {
        any: [
          { field: 'currency', op: 'is', value: 'USD' },
          { field: 'note', op: 'contains', value: 'fx' },
        ],
      },
    });
  });

  it('makes “always categorise this counterparty” from the counterparty, else the name', () => {
    const byCounterparty = counterpartyRule({ counterpartyName: 'Deutsche Bahn', name: 'DB BAHN 123' }, 'travel', 'DB → Travel');
    expect(byCounterparty).toMatchObject({
      conditions: { field: 'counterparty', op: 'is', value: 'Deutsche Bahn' },
      actions: [{ type: 'set_category', categorySlug: 'travel' }],
    });
    expect(counterpartyRule({ counterpartyName: null, name: 'AWS EMEA' }, 'software', 'x').conditions).toEqual({
      field: 'name',
      op: 'is',
      value: 'AWS EMEA',
    });
    expect(RuleInput.safeParse(byCounterparty).success).toBe(true);
  });
});
