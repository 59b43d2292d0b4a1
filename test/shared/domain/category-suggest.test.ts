import { describe, expect, it } from 'vitest';
import { AUTO_APPLY_AT, CategoryModel, ruleCandidates, SUGGEST_AT } from '../../../src-shared/domain/category-suggest';

const h = (counterparty: string, categorySlug: string, date: string, amountMinor = -1000) => ({
  name: counterparty,
  description: null,
  counterparty,
  amountMinor,
  categorySlug,
  date,
});

describe('category suggestions', () => {
  it('grows confident with consistent evidence and abstains without it', () => {
    const one = new CategoryModel([h('Figma', 'software', '2026-01-01')]);
    expect(one.suggest({ name: 'Figma', description: null, counterparty: 'Figma', amountMinor: -1500 })).toMatchObject({
      confidence: 0.5,
    });
    const many = new CategoryModel(Array.from({ length: 9 }, (_, i) => h('Figma', 'software', `2026-01-0${i + 1}`)));
    const s = many.suggest({ name: 'Figma', description: null, counterparty: 'FIGMA', amountMinor: -1500 })!;
    expect(s.confidence).toBe(0.9);
    expect(s.confidence).toBeGreaterThanOrEqual(AUTO_APPLY_AT);
    const split = new CategoryModel([
      h('Amazon', 'office-supplies', '2026-01-01'),
      h('Amazon', 'hardware', '2026-01-02'),
      h('Amazon', 'software', '2026-01-03'),
    ]);
    expect(split.suggest({ name: 'Amazon', description: null, counterparty: 'Amazon', amountMinor: -100 })).toBeNull();
    expect(many.suggest({ name: 'Unknown shop', description: null, counterparty: 'Nobody', amountMinor: -100 })).toBeNull();
  });

  it('keeps income and expense apart', () => {
    const m = new CategoryModel([
      h('Acme', 'service-revenue', '2026-01-01', 5000),
      h('Acme', 'service-revenue', '2026-02-01', 5000),
    ]);
    expect(m.suggest({ name: 'Acme', description: null, counterparty: 'Acme', amountMinor: -100 })).toBeNull();
    expect(m.suggest({ name: 'Acme', description: null, counterparty: 'Acme', amountMinor: 100 })?.categorySlug).toBe(
      'service-revenue',
    );
    expect(SUGGEST_AT).toBeLessThan(AUTO_APPLY_AT);
  });

  it('offers a rule when 3 of the last 5 agree', () => {
    const history = [
      h('Deutsche Bahn', 'travel', '2026-01-01'),
      h('Deutsche Bahn', 'travel', '2026-01-05'),
      h('Deutsche Bahn', 'meals', '2026-01-07'),
      h('Deutsche Bahn', 'travel', '2026-01-09'),
      h('Cafe', 'meals', '2026-01-02'),
      h('Cafe', 'meals', '2026-01-03'),
    ];
    expect(ruleCandidates(history)).toEqual([
      { payee: 'deutsche bahn', counterparty: 'Deutsche Bahn', categorySlug: 'travel', agree: 3, of: 4 },
    ]);
  });
});
