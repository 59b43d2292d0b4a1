import { describe, expect, it } from 'vitest';
import { bulkIdMaker } from '../../../src-main/demo/ids';
import { Prng } from '../../../src-main/demo/prng';
import { ensureDefaultCategories } from '../../../src-main/store/categories/categories';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { DEFAULT_TAXONOMY, defaultCategories } from '../../../src-shared/domain/categories';
import { tmpDir } from '../../helpers/tmp';

describe('Prng', () => {
  it('is a pure function of the seed, and forks are independent streams', () => {
    const draw = (p: Prng) => Array.from({ length: 5 }, () => p.nextUint32());
    expect(draw(new Prng('7'))).toEqual(draw(new Prng('7')));
    expect(draw(new Prng('7'))).not.toEqual(draw(new Prng('8')));
    // Drawing from one fork does not move another.
    const root = new Prng('7');
    const expected = draw(root.fork('b'));
    draw(root.fork('a'));
    expect(draw(root.fork('b'))).toEqual(expected);
    const p = new Prng('x');
    for (let i = 0; i < 1000; i++) {
      const v = p.int(3, 5);
      expect(v >= 3 && v <= 5 && Number.isInteger(v)).toBe(true);
    }
  });
});

describe('bulkIdMaker', () => {
  it('makes strictly increasing UUID v7 strings, also within one millisecond', () => {
    const make = bulkIdMaker(() => 1_700_000_000_000);
    const ids = Array.from({ length: 10_000 }, make);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(ids[0]!.replaceAll('-', '').slice(0, 12)).toBe((1_700_000_000_000).toString(16).padStart(12, '0'));
  });
});

describe('default category taxonomy', () => {
  it("has the hosted service's parent groups and revenue slugs, each child under an existing group", () => {
    const slugs = new Set(DEFAULT_TAXONOMY.map((c) => c.slug));
    const groups = DEFAULT_TAXONOMY.filter((c) => c.parent === null).map((c) => c.slug);
    expect(groups).toEqual([
      'revenue',
      'cost-of-goods-sold',
      'sales-marketing',
      'operations',
      'professional-services',
      'human-resources',
      'travel-entertainment',
      'technology',
      'banking-finance',
      'assets-capex',
      'liabilities-debt',
      'taxes',
      'owner-equity',
      'system',
    ]);
    for (const s of [
      'income',
      'product-sales',
      'service-revenue',
      'consulting-revenue',
      'subscription-revenue',
      'interest-income',
      'other-income',
      'customer-refunds',
      'chargebacks-disputes',
    ]) {
      expect(DEFAULT_TAXONOMY.find((c) => c.slug === s)?.parent, s).toBe('revenue');
    }
    for (const s of ['uncategorized', 'other', 'internal-transfer'])
      expect(DEFAULT_TAXONOMY.find((c) => c.slug === s)?.parent).toBe('system');
    expect(slugs.size).toBe(DEFAULT_TAXONOMY.length);
    for (const c of DEFAULT_TAXONOMY) if (c.parent) expect(groups).toContain(c.parent);
  });

  it('resolves tax per country and colours per group', () => {
    const de = new Map(defaultCategories('DE').map((c) => [c.slug, c]));
    expect(de.get('software')).toMatchObject({ taxType: 'vat', taxRate: 19 });
    expect(de.get('accommodation')).toMatchObject({ taxType: 'vat', taxRate: 7 });
    expect(de.get('salary')).toMatchObject({ taxType: 'none', taxRate: null });
    expect(de.get('internal-transfer')).toMatchObject({ excluded: true, system: true });
    expect(new Map(defaultCategories('US').map((c) => [c.slug, c])).get('software')).toMatchObject({
      taxType: 'sales_tax',
      taxRate: null,
    });
    for (const c of de.values()) expect(c.color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('ensureDefaultCategories inserts only the missing ones, with parents and change rows', () => {
    const db = openDatabase(tmpDir());
    try {
      const team = ensureTeam(db, 'T', { countryCode: 'NL' });
      const ids = ensureDefaultCategories(db, team.id, { countryCode: 'NL' });
      expect(ids.size).toBe(DEFAULT_TAXONOMY.length);
      expect(ensureDefaultCategories(db, team.id).size).toBe(DEFAULT_TAXONOMY.length);
      const rows = db.prepare('SELECT COUNT(*) FROM transaction_categories WHERE team_id = ?').pluck().get(team.id);
      expect(rows).toBe(DEFAULT_TAXONOMY.length);
      const serviceRevenueUnderRevenue = db
        .prepare(
          `SELECT COUNT(*) FROM transaction_categories c JOIN transaction_categories p ON p.id = c.parent_id
           WHERE c.team_id = ? AND p.slug = 'revenue' AND c.slug = 'service-revenue' AND c.tax_rate = 21`,
        )
        .pluck()
        .get(team.id);
      expect(serviceRevenueUnderRevenue).toBe(1);
      const changes = db
        .prepare("SELECT COUNT(*) FROM changes WHERE team_id = ? AND entity = 'transaction_category'")
        .pluck()
        .get(team.id);
      expect(changes).toBe(DEFAULT_TAXONOMY.length);
    } finally {
      db.close();
    }
  });
});
