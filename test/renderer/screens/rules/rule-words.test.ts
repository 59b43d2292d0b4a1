/** A rule in words, in English and German: fields, comparisons, groups, negation, names for ids, actions. */
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../../src-renderer/i18n';
import { setFormatPreferences } from '../../../../src-renderer/lib/format';
import { actionsWords, conditionWords, type RuleNames } from '../../../../src-renderer/screens/rules/rule-words';

const names: RuleNames = {
  category: (slug) => ({ travel: 'Travel', meals: 'Meals' })[slug] ?? slug,
  account: (id) => (id === 'a1' ? 'Giro' : id),
  tag: (id) => (id === 't1' ? 'Trips' : id),
};

afterEach(async () => {
  setFormatPreferences({ locale: 'en', numberFormat: 'locale', dateFormat: 'yyyy-MM-dd' });
  await setLanguage('en');
});

describe('a rule in words', () => {
  it('says conditions with their names, groups in parentheses, negation', async () => {
    await setLanguage('en');
    setFormatPreferences({ locale: 'en', dateFormat: 'yyyy-MM-dd' });
    expect(
      conditionWords(
        {
          all: [
            { field: 'counterparty', op: 'is', value: 'Uber' },
            {
              any: [
                { field: 'amount', op: 'sign', value: 'expense' },
                { field: 'account', op: 'is', value: 'a1' },
              ],
            },
            { field: 'category', op: 'one_of', value: ['travel', 'meals'], negate: true },
            { field: 'date', op: 'after', value: '2026-01-31' },
          ],
        },
        names,
      ),
    ).toBe('counterparty is “Uber”, (money out or account is Giro), not (category is Travel or Meals), and after 2026-01-31');
    expect(conditionWords({ field: 'amount', op: 'between', value: [-100, -12.5] }, names)).toBe(
      'amount between -100.00 and -12.50',
    );
    expect(conditionWords({ not: { field: 'name', op: 'matches', value: '^ride', caseSensitive: true } }, names)).toBe(
      'not (name matches /^ride/ (exact case))',
    );
  });

  it('says actions, a split counting its rest', async () => {
    await setLanguage('en');
    expect(
      actionsWords(
        [
          { type: 'set_category', categorySlug: 'travel' },
          { type: 'add_tags', tagIds: ['t1'] },
          { type: 'mark_recurring', frequency: 'monthly' },
          { type: 'split', parts: [{ percent: 50 }] },
          { type: 'set_note', note: '' },
        ],
        names,
      ),
    ).toBe('categorise as Travel, tag Trips, mark as recurring, monthly, split into 2 parts, and clear the note');
  });

  it('speaks German, with German numbers and dates', async () => {
    await setLanguage('de-DE');
    setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy' });
    expect(
      conditionWords(
        {
          all: [
            { field: 'counterparty', op: 'contains', value: 'Bahn' },
            { field: 'amount', op: 'lt', value: -1234.5 },
          ],
        },
        names,
      ),
    ).toBe('Gegenpartei enthält „Bahn“ und Betrag unter -1.234,50');
    expect(conditionWords({ field: 'date', op: 'before', value: '2026-03-01' }, names)).toBe('vor dem 01.03.2026');
    expect(actionsWords([{ type: 'set_category', categorySlug: 'travel' }, { type: 'exclude' }], names)).toBe(
      'als Travel kategorisieren und aus Auswertungen ausschließen',
    );
  });
});
