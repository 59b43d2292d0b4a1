import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../../../src-main/store/ledger/maintenance';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { getTransaction } from '../../../../src-main/store/transactions/read';
import { updateTransaction } from '../../../../src-main/store/transactions/update';
import { TransactionCategory } from '../../../../src-shared/contract/categories';
import { DEFAULT_TAXONOMY } from '../../../../src-shared/domain/categories';
import { makeTestApi, type TestApi } from '../../../helpers/api';

async function setup() {
  const api = await makeTestApi();
  const token = api.key('Category Team');
  const teamId = api.team('Category Team').id;
  return { api, token, teamId };
}

type Category = ReturnType<typeof TransactionCategory.parse>;

async function categories(api: TestApi, token: string): Promise<Category[]> {
  const res = await api.call('GET', '/v1/transaction-categories', { token });
  expect(res.statusCode).toBe(200);
  return res.json().data.map((c: unknown) => TransactionCategory.parse(c));
}

async function bySlug(api: TestApi, token: string, slug: string): Promise<Category> {
  return (await categories(api, token)).find((c) => c.slug === slug)!;
}

async function account(api: TestApi, token: string): Promise<string> {
  return (await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Checking', currency: 'EUR' } })).json().id;
}

function rollupSlugs(api: TestApi, teamId: string): Record<string, number> {
  const rows = api.db
    .prepare('SELECT category_slug, sum(count) AS n FROM ledger_daily WHERE team_id = ? GROUP BY category_slug')
    .all(teamId) as { category_slug: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.category_slug, r.n]));
}

describe('transaction categories', () => {
  it('gives a new team the default taxonomy on first use, groups first, each followed by its categories', async () => {
    const { api, token, teamId } = await setup();
    api.db.prepare("UPDATE teams SET country_code = 'AT' WHERE id = ?").run(teamId);
    const list = await categories(api, token);
    expect(list).toHaveLength(DEFAULT_TAXONOMY.length);
    // Each group is followed by its own categories.
    let group: Category | undefined;
    for (const c of list) {
      if (c.parentId === null) group = c;
      else expect(c.parentId).toBe(group?.id);
    }
    expect(list[0]).toMatchObject({ slug: 'assets-capex', parentId: null });
    expect(list.find((c) => c.slug === 'software')).toMatchObject({
      taxType: 'vat',
      taxRate: 20,
      system: false,
      excluded: false,
    });
    expect(list.find((c) => c.slug === 'internal-transfer')).toMatchObject({ system: true, excluded: true });
    // Asked again: the same records, nothing added.
    expect((await categories(api, token)).map((c) => c.id)).toEqual(list.map((c) => c.id));
    const one = await api.call('GET', `/v1/transaction-categories/${list[3]!.id}`, { token });
    expect(one.json()).toEqual(list[3]);
  });

  it('creates categories with a slug made from the name, unique, under a group', async () => {
    const { api, token } = await setup();
    const tech = await bySlug(api, token, 'technology');
    const made = await api.call('POST', '/v1/transaction-categories', {
      token,
      body: { name: 'Office Snacks & Café', parentId: tech.id, taxRate: 7, taxType: 'vat', description: 'Coffee' },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      slug: 'office-snacks-cafe',
      parentId: tech.id,
      color: tech.color,
      taxRate: 7,
      system: false,
      excluded: false,
    });
    const again = await api.call('POST', '/v1/transaction-categories', { token, body: { name: 'Office snacks, café' } });
    expect(again.json()).toMatchObject({ slug: 'office-snacks-cafe-2', parentId: null, color: '#6b7280' });
    const taken = await api.call('POST', '/v1/transaction-categories', { token, body: { name: 'X', slug: 'software' } });
    expect(taken.statusCode).toBe(409);
    const child = await bySlug(api, token, 'software');
    const deep = await api.call('POST', '/v1/transaction-categories', { token, body: { name: 'Deep', parentId: child.id } });
    expect(deep.statusCode).toBe(422);
    expect(deep.json().message).toContain('two levels');
    for (const body of [
      { name: 'Bad colour', color: 'red' },
      { name: 'Bad slug', slug: 'Not A Slug' },
      { name: 'Bad tax', taxRate: 101 },
      { name: 'Bad type', taxType: 'tithe' },
      { name: 'System', system: true },
      { name: '' },
      { name: 'Unknown parent', parentId: 'nope' },
    ]) {
      expect((await api.call('POST', '/v1/transaction-categories', { token, body })).statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it('changes supplied fields, never the slug, and keeps system categories in place', async () => {
    const { api, token } = await setup();
    const software = await bySlug(api, token, 'software');
    const patched = await api.call('PATCH', `/v1/transaction-categories/${software.id}`, {
      token,
      body: { name: 'Software', color: '#ABCDEF', slug: 'software', excluded: true, taxRate: null },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Software', color: '#abcdef', slug: 'software', excluded: true, taxRate: null });
    const slug = await api.call('PATCH', `/v1/transaction-categories/${software.id}`, { token, body: { slug: 'apps' } });
    expect(slug.statusCode).toBe(422);
    expect(slug.json().message).toContain('never changes');
    const internal = await bySlug(api, token, 'internal-transfer');
    expect(
      (await api.call('PATCH', `/v1/transaction-categories/${internal.id}`, { token, body: { excluded: false } })).statusCode,
    ).toBe(409);
    expect(
      (await api.call('PATCH', `/v1/transaction-categories/${internal.id}`, { token, body: { parentId: software.parentId } }))
        .statusCode,
    ).toBe(409);
    const renamed = await api.call('PATCH', `/v1/transaction-categories/${internal.id}`, {
      token,
      body: { name: 'Own transfers' },
    });
    expect(renamed.json().name).toBe('Own transfers');
    const tech = await bySlug(api, token, 'technology');
    const operations = await bySlug(api, token, 'operations');
    expect(
      (await api.call('PATCH', `/v1/transaction-categories/${tech.id}`, { token, body: { parentId: operations.id } })).statusCode,
    ).toBe(409);
  });

  it('re-derives review states when a category moves into or out of a receipt-free group', async () => {
    const { api, token, teamId } = await setup();
    const acc = await account(api, token);
    const [id] = createTransactions(api.db, teamId, [
      {
        bankAccountId: acc,
        name: 'Laptop',
        amountMinor: -99_900,
        currency: 'EUR',
        date: '2026-01-05',
        manual: false,
        categorySlug: 'hardware',
      },
    ]);
    updateTransaction(api.db, teamId, id!, { reviewed: true });
    expect(getTransaction(api.db, teamId, id!).reviewState).toBe('needs_receipt');
    const hardware = await bySlug(api, token, 'hardware');
    const banking = await bySlug(api, token, 'banking-finance');
    await api.call('PATCH', `/v1/transaction-categories/${hardware.id}`, { token, body: { parentId: banking.id } });
    expect(getTransaction(api.db, teamId, id!).reviewState).toBe('ready');
    await api.call('PATCH', `/v1/transaction-categories/${hardware.id}`, { token, body: { parentId: null } });
    expect(getTransaction(api.db, teamId, id!).reviewState).toBe('needs_receipt');
    expect(checkLedger(api.db, teamId)).toEqual([]);
  });

  it('deletes a category, moving its transactions and split parts to uncategorized in the same transaction', async () => {
    const { api, token, teamId } = await setup();
    const acc = await account(api, token);
    const mine = (
      await api.call('POST', '/v1/transaction-categories', { token, body: { name: 'Team lunches', taxRate: 7, taxType: 'vat' } })
    ).json() as Category;
    const [whole, split, other] = createTransactions(api.db, teamId, [
      {
        bankAccountId: acc,
        name: 'Lunch',
        amountMinor: -4_000,
        currency: 'EUR',
        date: '2026-01-05',
        manual: true,
        categorySlug: 'team-lunches',
      },
      {
        bankAccountId: acc,
        name: 'Supermarket',
        amountMinor: -5_000,
        currency: 'EUR',
        date: '2026-01-06',
        manual: false,
        splits: [
          { amountMinor: -3_000, categorySlug: 'team-lunches', note: 'food' },
          { amountMinor: -2_000, categorySlug: 'office-supplies' },
        ],
      },
      {
        bankAccountId: acc,
        name: 'Rent',
        amountMinor: -100_000,
        currency: 'EUR',
        date: '2026-01-07',
        manual: true,
        categorySlug: 'rent',
      },
    ]) as [string, string, string];
    expect(rollupSlugs(api, teamId)).toEqual({ 'team-lunches': 2, 'office-supplies': 1, rent: 1 });

    const deleted = await api.call('DELETE', `/v1/transaction-categories/${mine.id}`, { token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ id: mine.id, slug: 'team-lunches', transactionsMoved: 2 });
    expect((await api.call('GET', `/v1/transaction-categories/${mine.id}`, { token })).statusCode).toBe(404);
    expect(getTransaction(api.db, teamId, whole)).toMatchObject({ category: null, taxRate: null });
    expect(getTransaction(api.db, teamId, whole).fieldSources.category?.source).toBe('system');
    expect(getTransaction(api.db, teamId, split).splits.map((p) => [p.amount, p.category, p.note])).toEqual([
      [-30, null, 'food'],
      [-20, 'office-supplies', null],
    ]);
    expect(getTransaction(api.db, teamId, other).category?.slug).toBe('rent');
    expect(rollupSlugs(api, teamId)).toEqual({ uncategorized: 2, 'office-supplies': 1, rent: 1 });
    expect(checkLedger(api.db, teamId)).toEqual([]);
    const list = (await api.call('GET', '/v1/transactions?categories=uncategorized', { token })).json().data;
    expect(list.map((t: { id: string }) => t.id).sort()).toEqual([whole, split].sort());
  });

  it('refuses to delete system categories, groups with categories, and parts frozen by a reconciliation', async () => {
    const { api, token, teamId } = await setup();
    const acc = await account(api, token);
    const uncategorized = await bySlug(api, token, 'uncategorized');
    const system = await api.call('DELETE', `/v1/transaction-categories/${uncategorized.id}`, { token });
    expect(system.statusCode).toBe(409);
    expect(system.json().message).toContain('system category');
    const group = await bySlug(api, token, 'travel-entertainment');
    const parent = await api.call('DELETE', `/v1/transaction-categories/${group.id}`, { token });
    expect(parent.statusCode).toBe(409);
    expect(parent.json().message).toContain('under it');

    const meals = await bySlug(api, token, 'meals');
    const [id] = createTransactions(api.db, teamId, [
      {
        bankAccountId: acc,
        name: 'Dinner',
        amountMinor: -6_000,
        currency: 'EUR',
        date: '2026-01-05',
        manual: false,
        splits: [
          { amountMinor: -4_000, categorySlug: 'meals' },
          { amountMinor: -2_000, categorySlug: 'entertainment' },
        ],
      },
    ]);
    updateTransaction(api.db, teamId, id!, { reconciledAt: '2026-02-01T00:00:00.000Z' });
    const frozen = await api.call('DELETE', `/v1/transaction-categories/${meals.id}`, { token });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().message).toContain('reconciled');
    expect((await api.call('GET', `/v1/transaction-categories/${meals.id}`, { token })).statusCode).toBe(200);
    expect(getTransaction(api.db, teamId, id!).splits[0]?.category).toBe('meals');
  });

  it('keeps categories to their team', async () => {
    const { api, token } = await setup();
    const other = api.key('Other Category Team');
    const mine = (await api.call('POST', '/v1/transaction-categories', { token, body: { name: 'Only mine' } })).json().id;
    expect((await api.call('GET', `/v1/transaction-categories/${mine}`, { token: other })).statusCode).toBe(404);
    expect(
      (await api.call('PATCH', `/v1/transaction-categories/${mine}`, { token: other, body: { name: 'x' } })).statusCode,
    ).toBe(404);
    expect((await api.call('DELETE', `/v1/transaction-categories/${mine}`, { token: other })).statusCode).toBe(404);
    expect((await api.call('GET', '/v1/transaction-categories', { token: other })).body).not.toContain(mine);
    const theirs = await bySlug(api, other, 'technology');
    const cross = await api.call('POST', '/v1/transaction-categories', { token, body: { name: 'Cross', parentId: theirs.id } });
    expect(cross.statusCode).toBe(422);
  });
});
