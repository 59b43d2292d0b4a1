/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { planDemo } from '../../../src-main/demo/seed';
import { writeDemo } from '../../../src-main/demo/write';
import { applyRules, dryRunRules, runRules } from '../../../src-main/rules/apply';
import {
  categorySuggestions,
  detectAndSaveRecurring,
  lintRules,
  ruleSuggestions,
  similarTo,
} from '../../../src-main/rules/insights';
import { ensureDefaultCategories } from '../../../src-main/store/categories/categories';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { InvalidReference } from '../../../src-main/store/errors';
import { createRule, getRule, ruleDefs } from '../../../src-main/store/rules/rules';
import { listRuleFailures } from '../../../src-main/store/rules/run-results';
import { createTeam } from '../../../src-main/store/teams/teams';
import { createTransactions, type NewTransaction } from '../../../src-main/store/transactions/create';
import { getTransaction } from '../../../src-main/store/transactions/read';
import { updateTransaction } from '../../../src-main/store/transactions/update';
import { write } from '../../../src-main/store/write';
import { AUTO_APPLY_AT, CategoryModel } from '../../../src-shared/domain/category-suggest';
import { tmpDir } from '../../helpers/tmp';

let db: Db;
afterEach(() => db?.close());

function fixture() {
  db = openDatabase(tmpDir());
  const team = createTeam(db, { name: 'Rules Co' }).id;
  ensureDefaultCategories(db, team, { countryCode: 'DE' });
  const account = write(db, team, (w) => w.insert('bank_account', { name: 'Checking', type: 'depository', currency: 'EUR' }));
  const tx = (over: Partial<NewTransaction>): NewTransaction => ({
    bankAccountId: account,
    name: 'x',
    amountMinor: -1000,
    currency: 'EUR',
    date: '2026-03-01',
    manual: false,
    ...over,
  });
  return { team, account, tx };
}

describe('running rules', () => {
  it('a run changes exactly what its dry run listed, with per-field provenance naming the rule', () => {
    const f = fixture();
    const ids = createTransactions(
      db,
      f.team,
      [
        f.tx({ name: 'DB Fernverkehr', counterpartyName: 'Deutsche Bahn', amountMinor: -8990 }),
        f.tx({ name: 'DB Regio', counterpartyName: 'Deutsche Bahn', amountMinor: 2500 }),
        f.tx({ name: 'LUFTHANSA 220', amountMinor: -45000 }),
        f.tx({ name: 'Eurostar', counterpartyName: 'Eurostar', amountMinor: -9900 }),
      ],
      { source: 'import' },
    );
    const travel = createRule(db, f.team, {
      name: 'Trains and flights, not refunds',
      stage: 'default',
      enabled: true,
      applyOn: ['import'],
      conditions: {
        all: [
          {
            any: [
              { field: 'counterparty', op: 'is', value: 'Deutsche Bahn' },
              { field: 'name', op: 'contains', value: 'lufthansa' },
            ],
          },
          { not: { field: 'amount', op: 'sign', value: 'income' } },
        ],
      },
      actions: [
        { type: 'set_category', categorySlug: 'travel' },
        { type: 'append_note', note: 'trip' },
      ],
    });
    const preview = dryRunRules(db, f.team, { ids });
    expect(preview.transactions.map((t) => t.id).sort()).toEqual([ids[0], ids[2]].sort());
    expect(getTransaction(db, f.team, ids[0]!).category).toBeNull();

    const result = runRules(db, f.team, { ids });
    expect(result.transactions).toEqual(preview.transactions.map((t) => ({ ...t })));
    for (const t of preview.transactions) {
      const after = getTransaction(db, f.team, t.id);
      for (const c of t.changes) {
        expect(after.fieldSources[c.field], `${c.field} provenance`).toMatchObject({ source: 'rule', sourceId: travel.id });
      }
      expect(after.category?.slug).toBe('travel');
      expect(after.note).toBe('trip');
    }
    expect(dryRunRules(db, f.team, { ids }).changed).toBe(0);
    expect(getRule(db, f.team, travel.id)).toMatchObject({ matchCount: 2 });
  });

  it('never overrides a field a person set, and reports failed actions over the store', () => {
    const f = fixture();
    const [id, big] = createTransactions(db, f.team, [
      f.tx({ name: 'Figma', counterpartyName: 'Figma', amountMinor: -1500 }),
      f.tx({ name: 'Figma', counterpartyName: 'Figma', amountMinor: -500 }),
    ]);
    updateTransaction(db, f.team, id!, { categorySlug: 'hardware' });
    const rule = createRule(db, f.team, {
      name: 'Figma is software, split off 10 EUR',
      stage: 'default',
      enabled: true,
      applyOn: ['import'],
      conditions: { field: 'counterparty', op: 'is', value: 'figma' },
      actions: [
        { type: 'set_category', categorySlug: 'software' },
        { type: 'split', parts: [{ amount: 10, categorySlug: 'training' }] },
      ],
    });
    const run = runRules(db, f.team, { ids: [id!, big!] });
    expect(getTransaction(db, f.team, id!).category?.slug).toBe('hardware');
    expect(getTransaction(db, f.team, id!).splits.map((s) => s.amount)).toEqual([-10, -5]);
    expect(getTransaction(db, f.team, big!).category?.slug).toBe('software');
    expect(run.failures).toEqual([
      { ruleId: rule.id, transactionId: big, message: 'the fixed split parts are larger than the transaction' },
    ]);
    expect(listRuleFailures(db, f.team, rule.id)).toMatchObject([{ transactionId: big }]);
  });

  it('refuses rules naming unknown categories or tags, invalid expressions and deep nesting', () => {
    const f = fixture();
    const base = { name: 'r', stage: 'default' as const, enabled: true, applyOn: ['import' as const] };
    const leaf = { field: 'name' as const, op: 'contains' as const, value: 'x' };
    expect(() =>
      createRule(db, f.team, { ...base, conditions: leaf, actions: [{ type: 'set_category', categorySlug: 'nope' }] }),
    ).toThrow(InvalidReference);
    expect(() =>
      createRule(db, f.team, { ...base, conditions: leaf, actions: [{ type: 'add_tags', tagIds: ['nope'] }] }),
    ).toThrow(/Unknown tag/);
    expect(() =>
      createRule(db, f.team, {
        ...base,
        conditions: { field: 'name', op: 'matches', value: '(' },
        actions: [{ type: 'exclude' }],
      }),
    ).toThrow(/regular expression/);
    let deep: Parameters<typeof createRule>[2]['conditions'] = leaf;
    for (let i = 0; i < 9; i++) deep = { all: [deep] };
    expect(() => createRule(db, f.team, { ...base, conditions: deep, actions: [{ type: 'exclude' }] })).toThrow(/8 levels/);
  });

  it('rules that apply on creation run on manual creation; import-only ones do not', () => {
    const f = fixture();
    createRule(db, f.team, {
      name: 'Coffee on import',
      stage: 'default',
      enabled: true,
      applyOn: ['import'],
      conditions: { field: 'name', op: 'contains', value: 'coffee' },
      actions: [{ type: 'set_category', categorySlug: 'meals' }],
    });
    createRule(db, f.team, {
      name: 'Tag coffee always',
      stage: 'default',
      enabled: true,
      applyOn: ['import', 'create'],
      conditions: { field: 'name', op: 'contains', value: 'coffee' },
      actions: [{ type: 'set_note', note: 'caffeine' }],
    });
    const [id] = createTransactions(db, f.team, [f.tx({ name: 'Coffee', manual: true })]);
    applyRules(db, f.team, [id!], { trigger: 'create' });
    expect(getTransaction(db, f.team, id!)).toMatchObject({ category: null, note: 'caffeine' });
    expect(ruleDefs(db, f.team, 'create')).toHaveLength(1);
  });
});

describe('the linter', () => {
  it('lists never-matching, shadowed and conflicting rules', () => {
    const f = fixture();
    const today = new Date().toISOString().slice(0, 10);
    createTransactions(db, f.team, [
      f.tx({ name: 'Figma', counterpartyName: 'Figma', date: today }),
      f.tx({ name: 'Figma', counterpartyName: 'Figma', date: today }),
    ]);
    const base = { stage: 'default' as const, enabled: true, applyOn: ['import' as const] };
    const broad = createRule(db, f.team, {
      ...base,
      name: 'broad',
      conditions: { field: 'name', op: 'contains', value: 'fig' },
      actions: [{ type: 'set_category', categorySlug: 'software' }],
    });
    const exact = createRule(db, f.team, {
      ...base,
      name: 'exact',
      conditions: { field: 'counterparty', op: 'is', value: 'Figma' },
      actions: [{ type: 'set_category', categorySlug: 'hosting' }],
    });
    const never = createRule(db, f.team, {
      ...base,
      name: 'never',
      conditions: { field: 'name', op: 'is', value: 'nothing like it' },
      actions: [{ type: 'exclude' }],
    });
    const lint = lintRules(db, f.team);
    expect(lint.neverMatched.map((r) => r.ruleId)).toEqual([never.id]);
    expect(lint.shadowed).toEqual([{ ruleId: broad.id, name: 'broad', by: [exact.id], transactions: 2 }]);
    expect(lint.conflicts).toMatchObject([{ ruleIds: [broad.id, exact.id], field: 'category', transactions: 2 }]);
  });
});

describe('learning from history', () => {
  it('offers a rule for a payee whose recent lines agree, and “apply to similar” previews exactly those', () => {
    const f = fixture();
    const ids = createTransactions(db, f.team, [
      ...['2026-01-05', '2026-02-05', '2026-03-05'].map((date) => f.tx({ name: 'DB', counterpartyName: 'Deutsche Bahn', date })),
      f.tx({ name: 'DB', counterpartyName: 'Deutsche Bahn', date: '2026-03-20' }),
      f.tx({ name: 'Other', counterpartyName: 'Other', date: '2026-03-20' }),
    ]);
    for (const id of ids.slice(0, 3)) updateTransaction(db, f.team, id, { categorySlug: 'travel' });
    const [suggestion] = ruleSuggestions(db, f.team, new Date('2026-04-01'));
    expect(suggestion).toMatchObject({ counterparty: 'Deutsche Bahn', categorySlug: 'travel', agree: 3, uncategorized: 1 });
    const similar = similarTo(db, f.team, ids[0]!);
    expect(similar.preview.transactions.map((t) => t.id)).toEqual([ids[3]]);
    createRule(db, f.team, similar.rule!);
    expect(ruleSuggestions(db, f.team, new Date('2026-04-01'))).toEqual([]);
  });

  it('category suggestions on the demo data: precision and coverage on the held-out last three months', () => {
    db = openDatabase(tmpDir());
    const team = createTeam(db, { name: 'Demo' }).id;
    const plan = planDemo({ asOf: '2026-10-31', seed: 'suggest' });
    writeDemo(db, team, plan);
    const rows = db
      .prepare(
        `SELECT id, name, description, counterparty_name AS counterparty, amount_minor AS amountMinor, category_slug AS categorySlug, date
         FROM transactions WHERE team_id = ? AND category_slug IS NOT NULL AND coalesce(internal, 0) = 0 AND status <> 'excluded'`,
      )
      .all(team) as {
      id: string;
      name: string;
      description: string | null;
      counterparty: string | null;
      amountMinor: number;
      categorySlug: string;
      date: string;
    }[];
    const cut = '2026-08-01';
    const model = new CategoryModel(rows.filter((r) => r.date < cut));
    const heldOut = rows.filter((r) => r.date >= cut);
    let suggested = 0;
    let correct = 0;
    let auto = 0;
    let autoCorrect = 0;
    for (const r of heldOut) {
      const s = model.suggest(r);
      if (!s) continue;
      suggested++;
      if (s.categorySlug === r.categorySlug) correct++;
      if (s.confidence >= AUTO_APPLY_AT) {
        auto++;
        if (s.categorySlug === r.categorySlug) autoCorrect++;
      }
    }
    const figures = {
      heldOut: heldOut.length,
      coverage: suggested / heldOut.length,
      precision: correct / suggested,
      autoCoverage: auto / heldOut.length,
      autoPrecision: autoCorrect / auto,
    };
    console.log(`category suggestions on demo held-out months: ${JSON.stringify(figures)}`);
    expect(heldOut.length).toBeGreaterThan(200);
    expect(figures.autoPrecision).toBeGreaterThanOrEqual(0.95);
    expect(figures.precision).toBeGreaterThanOrEqual(0.85);
    expect(figures.coverage).toBeGreaterThanOrEqual(0.6);
    // The store-level API abstains the same way.
    const [first] = categorySuggestions(db, team, [heldOut[0]!.id]);
    expect(first!.transactionId).toBe(heldOut[0]!.id);
  });

  it('detects the demo agency’s recurring series and marks their lines', () => {
    db = openDatabase(tmpDir());
    const team = createTeam(db, { name: 'Demo' }).id;
    writeDemo(db, team, planDemo({ asOf: '2026-10-31', seed: 'recurring' }));
    const { data, marked } = detectAndSaveRecurring(db, team, new Date('2026-10-31'));
    const monthly = data.filter((s) => s.frequency === 'monthly' && s.active);
    expect(monthly.length).toBeGreaterThan(5);
    expect(marked).toBeGreaterThan(0);
    const rent = data.find((s) => s.categorySlug === 'rent');
    expect(rent, `series: ${data.map((s) => s.payee).join(', ')}`).toBeDefined();
    const again = detectAndSaveRecurring(db, team, new Date('2026-10-31'));
    expect(again.marked).toBe(0);
    expect(again.data.length).toBe(data.length);
  });
});
