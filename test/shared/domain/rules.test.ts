import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Action,
  type Condition,
  evaluate,
  matches,
  orderRules,
  type RuleDef,
  type RuleFacts,
  ruleProblems,
  splitParts,
} from '../../../src-shared/domain/rules';

const facts = (over: Partial<RuleFacts> = {}): RuleFacts => ({
  id: 't1',
  name: 'Card 4821 NETFLIX.COM',
  description: 'Streaming subscription',
  counterparty: 'Netflix',
  note: null,
  amountMinor: -1299,
  currency: 'EUR',
  exponent: 2,
  accountId: 'acc-1',
  categorySlug: null,
  date: '2026-03-15',
  tagIds: [],
  internal: false,
  recurring: false,
  frequency: null,
  status: 'posted',
  split: false,
  ...over,
});

const rule = (id: string, conditions: Condition, actions: Action[], over: Partial<RuleDef> = {}): RuleDef => ({
  id,
  name: id,
  stage: 'default',
  enabled: true,
  conditions,
  actions,
  ...over,
});

describe('conditions', () => {
  it.each<[string, Condition, boolean]>([
    ['is, case-insensitive', { field: 'counterparty', op: 'is', value: 'NETFLIX' }, true],
    ['is, case-sensitive', { field: 'counterparty', op: 'is', value: 'NETFLIX', caseSensitive: true }, false],
    ['contains', { field: 'name', op: 'contains', value: 'netflix.com' }, true],
    ['starts_with', { field: 'name', op: 'starts_with', value: 'card 4821' }, true],
    ['starts_with, no', { field: 'name', op: 'starts_with', value: 'netflix' }, false],
    ['one_of', { field: 'counterparty', op: 'one_of', value: ['Spotify', 'Netflix'] }, true],
    ['matches', { field: 'name', op: 'matches', value: '^card \\d{4} netflix' }, true],
    ['bad regex never matches', { field: 'name', op: 'matches', value: '(' }, false],
    ['empty contains never matches', { field: 'name', op: 'contains', value: '' }, false],
    ['amount eq', { field: 'amount', op: 'eq', value: -12.99 }, true],
    ['amount approx 5 %', { field: 'amount', op: 'approx', value: -13.5 }, true],
    ['amount approx 1 %', { field: 'amount', op: 'approx', value: -13.5, tolerancePct: 1 }, false],
    ['amount between (either order)', { field: 'amount', op: 'between', value: [-10, -20] }, true],
    ['amount sign expense', { field: 'amount', op: 'sign', value: 'expense' }, true],
    ['amount gt', { field: 'amount', op: 'gt', value: -13 }, true],
    ['account is', { field: 'account', op: 'is', value: 'acc-1' }, true],
    ['currency one_of', { field: 'currency', op: 'one_of', value: ['USD'] }, false],
    ['category empty', { field: 'category', op: 'empty' }, true],
    ['date between', { field: 'date', op: 'between', value: ['2026-03-01', '2026-03-31'] }, true],
    ['date before', { field: 'date', op: 'before', value: '2026-03-15' }, false],
    ['day of month', { field: 'date', op: 'day_of_month', value: [10, 20] }, true],
    ['negated leaf', { field: 'counterparty', op: 'is', value: 'Netflix', negate: true }, false],
    ['not group', { not: { field: 'amount', op: 'sign', value: 'income' } }, true],
    ['nested', { all: [{ any: [{ field: 'name', op: 'contains', value: 'zzz' }, { not: { all: [] } }] }] }, false],
  ])('%s', (_label, c, expected) => {
    expect(matches(c, facts())).toBe(expected);
  });

  it('(A or B) and not C selects exactly the expected rows', () => {
    const a: Condition = { field: 'counterparty', op: 'is', value: 'Deutsche Bahn' };
    const b: Condition = { field: 'name', op: 'contains', value: 'lufthansa' };
    const c: Condition = { field: 'amount', op: 'sign', value: 'income' };
    const tree: Condition = { all: [{ any: [a, b] }, { not: c }] };
    const rows: [Partial<RuleFacts>, boolean][] = [
      [{ counterparty: 'Deutsche Bahn', amountMinor: -8990 }, true],
      [{ counterparty: 'Deutsche Bahn', amountMinor: 2500 }, false],
      [{ counterparty: null, name: 'LUFTHANSA 220-123', amountMinor: -45000 }, true],
      [{ counterparty: null, name: 'Lufthansa refund', amountMinor: 45000 }, false],
      [{ counterparty: 'Eurostar', name: 'Eurostar', amountMinor: -9900 }, false],
    ];
    for (const [over, expected] of rows) expect(matches(tree, facts(over)), JSON.stringify(over)).toBe(expected);
  });
});

describe('order and evaluation', () => {
  it('runs pre, default, post; within a stage the more specific rule runs later and wins; ties by id', () => {
    const broad = rule('b-broad', { field: 'name', op: 'contains', value: 'netflix' }, [
      { type: 'set_category', categorySlug: 'entertainment' },
    ]);
    const exact = rule(
      'a-exact',
      {
        all: [
          { field: 'counterparty', op: 'is', value: 'Netflix' },
          { field: 'amount', op: 'eq', value: -12.99 },
        ],
      },
      [{ type: 'set_category', categorySlug: 'software' }],
    );
    const post = rule('z-post', { field: 'amount', op: 'sign', value: 'expense' }, [{ type: 'append_note', note: '(auto)' }], {
      stage: 'post',
    });
    const pre = rule(
      'y-pre',
      { field: 'amount', op: 'sign', value: 'expense' },
      [{ type: 'set_category', categorySlug: 'other' }],
      { stage: 'pre' },
    );
    expect(orderRules([post, broad, exact, pre]).map((r) => r.id)).toEqual(['y-pre', 'b-broad', 'a-exact', 'z-post']);
    const e = evaluate([post, broad, exact, pre], facts());
    expect(e.outcome.categorySlug).toBe('software');
    expect(e.changes.find((c) => c.field === 'category')?.ruleId).toBe('a-exact');
    expect(e.outcome.note).toBe('(auto)');
    expect(e.matched).toEqual(['y-pre', 'b-broad', 'a-exact', 'z-post']);
  });

  it('leaves fields a person set and reports only real changes', () => {
    const r = rule('r', { field: 'counterparty', op: 'is', value: 'netflix' }, [
      { type: 'set_category', categorySlug: 'software' },
      { type: 'mark_recurring', frequency: 'monthly' },
    ]);
    const e = evaluate([r], facts({ categorySlug: 'meals' }), new Set(['category']));
    expect(e.changes.map((c) => c.field).sort()).toEqual(['frequency', 'recurring']);
    expect(evaluate([r], facts({ categorySlug: 'software', recurring: true, frequency: 'monthly' })).changes).toEqual([]);
  });

  it('later conditions see earlier rules’ effects (a renamed counterparty matches the next rule)', () => {
    const rename = rule('1', { field: 'name', op: 'contains', value: 'netflix' }, [
      { type: 'rename_counterparty', counterpartyName: 'Netflix International' },
    ]);
    const cat = rule(
      '2',
      {
        all: [
          { field: 'counterparty', op: 'is', value: 'Netflix International' },
          { field: 'amount', op: 'sign', value: 'expense' },
        ],
      },
      [{ type: 'set_category', categorySlug: 'software' }],
    );
    expect(evaluate([rename, cat], facts()).outcome).toMatchObject({
      counterpartyName: 'Netflix International',
      categorySlug: 'software',
    });
  });

  it('reports problems: invalid regular expressions, empty groups, no actions', () => {
    expect(ruleProblems({ conditions: { all: [{ field: 'name', op: 'matches', value: '[' }] }, actions: [] })).toEqual([
      'conditions.all[0]: "[" is not a valid regular expression',
      'actions: a rule needs at least one action',
    ]);
    expect(ruleProblems({ conditions: { any: [] }, actions: [{ type: 'exclude' }] })).toEqual(['conditions: an empty group']);
  });
});

describe('split actions', () => {
  it('fixed amounts and percentages, the remainder absorbing rounding', () => {
    const parts = splitParts(-10_001, 2, {
      type: 'split',
      parts: [
        { amount: 20, categorySlug: 'meals' },
        { percent: 33.33, categorySlug: 'travel' },
      ],
      remainderCategorySlug: 'other',
    });
    expect(parts).toEqual([
      { amountMinor: -2000, categorySlug: 'meals', note: null },
      { amountMinor: -3333, categorySlug: 'travel', note: null },
      { amountMinor: -4668, categorySlug: 'other', note: null },
    ]);
    expect(splitParts(-1000, 2, { type: 'split', parts: [{ amount: 20 }] })).toBeNull();
  });

  it('parts always sum exactly to the amount (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }).filter((n) => n !== 0),
        fc.array(fc.double({ min: 0.01, max: 40, noNaN: true }), { minLength: 1, maxLength: 3 }),
        (amount, percents) => {
          const parts = splitParts(amount, 2, {
            type: 'split',
            parts: percents.map((p) => ({ percent: Math.round(p * 100) / 100 })),
          });
          if (!parts) return true;
          return (
            parts.reduce((s, p) => s + p.amountMinor, 0) === amount &&
            parts.every((p) => Math.sign(p.amountMinor) !== -Math.sign(amount))
          );
        },
      ),
    );
  });
});
