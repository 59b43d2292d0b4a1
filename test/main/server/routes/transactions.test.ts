import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCategories } from '../../../../src-main/store/categories/categories';
import { createTag } from '../../../../src-main/store/tags/tags';
import { attachToTransaction } from '../../../../src-main/store/transactions/attachments';
import { createTransactions, type NewTransaction } from '../../../../src-main/store/transactions/create';
import { deleteTransactions } from '../../../../src-main/store/transactions/delete';
import { write } from '../../../../src-main/store/write';
import { makeTestApi, type TestApi } from '../../../helpers/api';

let api: TestApi;
let token: string;
let teamId: string;
let eur: string;
let usd: string;
let tagId: string;
const ids: Record<string, string> = {};

const SPEC_LIST_FIELDS = [
  'accountId',
  'amount',
  'balance',
  'category',
  'counterparty_name',
  'currency',
  'date',
  'description',
  'id',
  'method',
  'name',
  'status',
];

/** A small, varied ledger: every filter below has rows on both sides. */
const ROWS: [string, Partial<NewTransaction>][] = [
  [
    'salary-in',
    {
      name: 'Client payment ACME',
      amountMinor: 500_000,
      date: '2026-01-05',
      categorySlug: 'service-revenue',
      counterpartyName: 'Acme GmbH',
    },
  ],
  ['rent', { name: 'Office rent', amountMinor: -150_000, date: '2026-01-03', categorySlug: 'rent', manual: false }],
  ['coffee-1', { name: 'Coffee Bar', amountMinor: -450, date: '2026-01-10', categorySlug: 'meals' }],
  ['coffee-2', { name: 'Coffee Bar', amountMinor: -450, date: '2026-01-10', categorySlug: 'meals' }],
  ['train', { name: 'Deutsche Bahn', amountMinor: -8_990, date: '2026-01-12', categorySlug: 'travel', note: 'Berlin workshop' }],
  [
    'saas',
    {
      name: 'Figma',
      amountMinor: -1_500,
      date: '2026-01-15',
      categorySlug: 'software',
      recurring: true,
      frequency: 'monthly',
      manual: false,
    },
  ],
  ['unsorted', { name: 'Mystery debit', amountMinor: -1_234, date: '2026-01-18' }],
  [
    'pending',
    {
      name: 'Hotel Adlon',
      amountMinor: -25_000,
      date: '2026-01-20',
      categorySlug: 'accommodation',
      status: 'pending',
      manual: false,
    },
  ],
  ['excluded', { name: 'Duplicate line', amountMinor: -999, date: '2026-01-21', status: 'excluded', manual: false }],
  ['usd', { name: 'AWS', amountMinor: -4_200, date: '2026-01-22', categorySlug: 'hosting', currency: 'USD' }],
  [
    'internal',
    { name: 'To savings', amountMinor: -10_000, date: '2026-01-25', categorySlug: 'internal-transfer', internal: true },
  ],
];

beforeAll(async () => {
  api = await makeTestApi({ rateLimitPerMinute: 1_000_000 }, 'file');
  token = api.key('Ledger Team');
  teamId = api.team('Ledger Team').id;
  ensureDefaultCategories(api.db, teamId, { countryCode: 'DE' });
  [eur, usd] = write(api.db, teamId, (w) => [
    w.insert('bank_account', { name: 'Checking', type: 'depository', currency: 'EUR', manual: 1 }),
    w.insert('bank_account', { name: 'Dollar', type: 'depository', currency: 'USD', manual: 1 }),
  ]) as [string, string];
  api.db.prepare("INSERT INTO fx_rates (currency, day, per_usd, imported_at) VALUES ('EUR', '2026-01-01', '0.9', 'test')").run();
  tagId = createTag(api.db, teamId, { name: 'travel-q1' }).id;
  for (const [key, over] of ROWS) {
    const currency = over.currency ?? 'EUR';
    [ids[key]] = createTransactions(api.db, teamId, [
      {
        bankAccountId: currency === 'USD' ? usd : eur,
        name: key,
        amountMinor: 0,
        currency,
        date: '2026-01-01',
        manual: true,
        ...over,
      },
    ]) as [string];
  }
  write(api.db, teamId, () => {
    api.db
      .prepare('INSERT INTO transaction_tags (team_id, transaction_id, tag_id) VALUES (?, ?, ?)')
      .run(teamId, ids.train, tagId);
    api.db
      .prepare('INSERT INTO transaction_tags (team_id, transaction_id, tag_id) VALUES (?, ?, ?)')
      .run(teamId, ids.pending, tagId);
  });
  attachToTransaction(api.db, teamId, ids.train!, {
    sha256: 'b'.repeat(64),
    filename: 'ticket.pdf',
    size: 1000,
    mimeType: 'application/pdf',
  });
});

const list = async (query: string) => {
  const res = await api.call('GET', `/v1/transactions?pageSize=1000${query ? `&${query}` : ''}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { id: string }[]; cursor: string | null; meta: { cursor: string | null } };
};
const keysOf = async (query: string) => {
  const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
  return (await list(query)).data.map((t) => byId.get(t.id)).sort();
};

describe('GET /v1/transactions', () => {
  it('answers list items with exactly the spec’s fields, the top-level cursor and meta', async () => {
    const page = await list('');
    expect(page.data.length).toBeGreaterThan(5);
    for (const item of page.data) expect(Object.keys(item).sort()).toEqual(SPEC_LIST_FIELDS);
    expect(page.cursor).toBeNull();
    expect(page.meta).toEqual({ cursor: null, hasNextPage: false, hasPreviousPage: false });
    const pending = page.data.find((t) => t.id === ids.pending) as unknown as Record<string, unknown>;
    expect(pending).toMatchObject({
      status: 'pending',
      amount: -250,
      currency: 'EUR',
      date: '2026-01-20',
      category: 'accommodation',
    });
  });

  it.each([
    ['', ['coffee-1', 'coffee-2', 'internal', 'pending', 'rent', 'saas', 'salary-in', 'train', 'unsorted', 'usd']],
    ['q=coffee', ['coffee-1', 'coffee-2']],
    ['q=Berlin', ['train']],
    ['q=acme', ['salary-in']],
    ['q=4.50', ['coffee-1', 'coffee-2']],
    ['q=-89.90', ['train']],
    ['start=2026-01-15&end=2026-01-20', ['pending', 'saas', 'unsorted']],
    ['categories=travel-entertainment', ['coffee-1', 'coffee-2', 'pending', 'train']],
    ['categories=meals&categories=hosting', ['coffee-1', 'coffee-2', 'usd']],
    ['categories=uncategorized', ['unsorted']],
    [`tags=${'TAG'}`, ['pending', 'train']],
    [`accounts=${'USD_ACCOUNT'}`, ['usd']],
    ['statuses=excluded', ['excluded']],
    ['statuses=pending&statuses=excluded', ['excluded', 'pending']],
    ['reviewStates=excluded', ['excluded']],
    ['amountRange=-100&amountRange=-50', ['internal', 'train']],
    ['amountRange=1000&amountRange=', ['salary-in']],
    ['amount=gte&amount=1000', ['rent', 'salary-in']],
    ['absAmountRange=40&absAmountRange=100', ['internal', 'train', 'usd']],
    ['absAmountRange=1000&absAmountRange=', ['rent', 'salary-in']],
    ['absAmountRange=40&absAmountRange=100&type=expense&accounts=USD_ACCOUNT', ['usd']],
    ['type=income', ['salary-in']],
    ['attachments=include', ['train']],
    ['attachments=present', ['train']],
    ['manual=exclude', ['pending', 'rent', 'saas']],
    ['manual=false', ['pending', 'rent', 'saas']],
    ['recurring=true', ['saas']],
    ['internal=true', ['internal']],
    ['fulfilled=true', ['train']],
    ['q=coffee&type=expense&categories=meals', ['coffee-1', 'coffee-2']],
  ])('filters %s', async (query, expected) => {
    const q = query.replace('TAG', tagId).replace('USD_ACCOUNT', usd);
    expect(await keysOf(q)).toEqual([...expected].sort());
  });

  it('answers 422 naming the filter for bad values', async () => {
    for (const q of [
      'start=2026-13-01',
      'statuses=bogus',
      'amountRange=a&amountRange=b',
      'amount=eq&amount=5',
      'sort=nope',
      'pageSize=0',
      'pageSize=1001',
      'type=both',
    ]) {
      const res = await api.call('GET', `/v1/transactions?${q}`, { token });
      expect(res.statusCode, q).toBe(422);
      expect(res.json().description, q).toContain(q.split('=')[0]);
    }
  });

  it('review counts follow the same filters', async () => {
    const res = await api.call('GET', '/v1/transactions/review-counts', { token });
    expect(res.statusCode).toBe(200);
    const counts = res.json().data;
    expect(Object.values(counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(ROWS.length);
    expect(counts.excluded).toBe(1);
    const meals = (await api.call('GET', '/v1/transactions/review-counts?categories=meals', { token })).json().data;
    expect(meals).toEqual({ to_review: 2, needs_receipt: 0, ready: 0, exported: 0, excluded: 0 });
  });
});

describe('keyset paging', () => {
  it.each(
    ['date', 'amount', 'name', 'status', 'attachment', 'assigned', 'bank_account', 'category', 'tags', 'counterparty'].flatMap(
      (c) => [
        [c, 'asc'],
        [c, 'desc'],
      ],
    ),
  )('walks every row exactly once sorted by %s %s, under concurrent inserts and deletes', async (column, direction) => {
    const local = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const t = local.key('Walk Team');
    const team = local.team('Walk Team').id;
    ensureDefaultCategories(local.db, team);
    const account = write(local.db, team, (w) => w.insert('bank_account', { name: 'A', type: 'depository', currency: 'EUR' }));
    const make = (n: number, prefix: string) =>
      createTransactions(
        local.db,
        team,
        Array.from({ length: n }, (_, i) => ({
          bankAccountId: account,
          name: `${prefix} ${i % 7}`,
          amountMinor: -((i * 37) % 11) * 100,
          currency: 'EUR',
          date: `2026-02-${String(1 + (i % 5)).padStart(2, '0')}`,
          manual: true,
          categorySlug: ['meals', 'travel', null][i % 3],
          counterpartyName: i % 2 ? `Shop ${i % 4}` : null,
        })),
      );
    const original = make(60, 'orig');
    const seen: string[] = [];
    const deleted = new Set<string>();
    let cursor: string | null = null;
    let round = 0;
    do {
      const url = `/v1/transactions?pageSize=7&sort=${column}&sort=${direction}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await local.call('GET', url, { token: t });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      seen.push(...page.data.map((x: { id: string }) => x.id));
      cursor = page.cursor;
      // Between pages: new rows arrive and an original row not yet seen goes.
      make(2, 'new');
      const victim = original.find((id) => !seen.includes(id) && !deleted.has(id));
      if (victim && round % 2 === 0) {
        deleteTransactions(local.db, team, [victim]);
        deleted.add(victim);
      }
      round++;
    } while (cursor);
    const unique = new Set(seen);
    expect(unique.size, 'no row twice').toBe(seen.length);
    expect(deleted.size).toBeGreaterThan(0);
    for (const id of original) if (!deleted.has(id)) expect(unique.has(id), `original ${id} seen`).toBe(true);
    for (const id of deleted) expect(unique.has(id), `deleted ${id} not seen`).toBe(false);
  });

  it('refuses a cursor from another query or another team', async () => {
    const first = await api.call('GET', '/v1/transactions?pageSize=2', { token });
    const cursor = first.json().cursor as string;
    expect(cursor).toBeTruthy();
    const otherQuery = await api.call('GET', `/v1/transactions?pageSize=2&type=expense&cursor=${cursor}`, { token });
    expect(otherQuery.statusCode).toBe(422);
    const otherTeam = await api.call('GET', `/v1/transactions?pageSize=2&cursor=${cursor}`, { token: api.key('Cursor Thief') });
    expect(otherTeam.statusCode).toBe(422);
  });
});

describe('writes over HTTP', () => {
  it('creates a manual transaction (200, as hosted) and reads the detailed record with every spec field', async () => {
    const res = await api.call('POST', '/v1/transactions', {
      token,
      body: {
        name: 'Team lunch',
        amount: -48.5,
        currency: 'EUR',
        date: '2026-01-28',
        bankAccountId: eur,
        categorySlug: 'meals',
        tags: [{ id: tagId }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    for (const field of [
      'id',
      'internalId',
      'name',
      'amount',
      'balance',
      'baseAmount',
      'baseCurrency',
      'taxAmount',
      'taxRate',
      'taxType',
      'currency',
      'counterpartyName',
      'merchantName',
      'date',
      'category',
      'status',
      'internal',
      'recurring',
      'manual',
      'frequency',
      'isFulfilled',
      'note',
      'metadata',
      'metadataCompleted',
      'notified',
      'account',
      'tags',
      'attachments',
    ]) {
      expect(t, field).toHaveProperty(field);
    }
    expect(t).toMatchObject({
      amount: -48.5,
      manual: true,
      date: '2026-01-28T00:00:00.000Z',
      category: { slug: 'meals', name: 'Meals' },
      tags: [{ id: tagId, name: 'travel-q1' }],
      account: { id: eur, name: 'Checking', currency: 'EUR', connection: { name: 'Manual account' } },
      taxRate: 19,
      taxAmount: -7.74,
      reviewState: 'to_review',
    });
    expect((await api.call('GET', `/v1/transactions/${t.id}`, { token })).json()).toEqual(t);
  });

  it.each([
    [{ amount: -1.005 }, 'amount'],
    [{ currency: 'USD' }, 'currency'],
    [{ date: '2026-02-30' }, 'date'],
    [{ categorySlug: 'nope' }, 'categorySlug'],
    [{ bankAccountId: 'missing' }, 'bankAccountId'],
    [{ externalId: 'x' }, 'externalId'],
    [{ splits: [{ amount: -1 }, { amount: -2 }] }, 'splits'],
  ])('refuses %j with 422 naming %s', async (over, field) => {
    const body = { name: 'Bad', amount: -5, currency: 'EUR', date: '2026-01-28', bankAccountId: eur, ...over };
    const res = await api.call('POST', '/v1/transactions', { token, body });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().description ?? '').toContain(field);
  });

  it('bulk create is all or nothing and names the bad item', async () => {
    const good = { name: 'Bulk', amount: -1, currency: 'EUR', date: '2026-01-29', bankAccountId: eur };
    const before = (await list('q=Bulk')).data.length;
    const bad = await api.call('POST', '/v1/transactions/bulk', { token, body: [good, good, { ...good, categorySlug: 'nope' }] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().description).toContain('2.');
    expect((await list('q=Bulk')).data.length).toBe(before);
    const ok = await api.call('POST', '/v1/transactions/bulk', { token, body: [good, good] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toHaveLength(2);
    const tooMany = await api.call('POST', '/v1/transactions/bulk', { token, body: Array.from({ length: 101 }, () => good) });
    expect(tooMany.statusCode).toBe(422);
  });

  it('patches review fields of a bank line, refuses its bank facts, and splits it exactly', async () => {
    const id = ids.rent!;
    const patched = await api.call('PATCH', `/v1/transactions/${id}`, { token, body: { note: 'March', reviewed: true } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ note: 'March', reviewState: 'needs_receipt' });
    const refused = await api.call('PATCH', `/v1/transactions/${id}`, { token, body: { amount: -1 } });
    expect(refused.statusCode).toBe(422);
    const uneven = await api.call('PATCH', `/v1/transactions/${id}`, {
      token,
      body: {
        splits: [
          { amount: -1000, categorySlug: 'rent' },
          { amount: -499.99, categorySlug: 'utilities' },
        ],
      },
    });
    expect(uneven.statusCode).toBe(422);
    const split = await api.call('PATCH', `/v1/transactions/${id}`, {
      token,
      body: {
        splits: [
          { amount: -1000, categorySlug: 'rent' },
          { amount: -500, categorySlug: 'utilities', note: 'heating' },
        ],
      },
    });
    expect(split.statusCode).toBe(200);
    expect(split.json().splits.map((s: { amount: number; category: string }) => [s.amount, s.category])).toEqual([
      [-1000, 'rent'],
      [-500, 'utilities'],
    ]);
    expect(await keysOf('categories=utilities')).toEqual(['rent']);
  });

  it('bulk update by ids is all or nothing', async () => {
    const targets = [ids['coffee-1']!, ids['coffee-2']!];
    const bad = await api.call('PATCH', '/v1/transactions/bulk', { token, body: { ids: [...targets, 'missing'], note: 'x' } });
    expect(bad.statusCode).toBe(404);
    for (const id of targets) expect((await api.call('GET', `/v1/transactions/${id}`, { token })).json().note).toBeNull();
    const ok = await api.call('PATCH', '/v1/transactions/bulk', { token, body: { ids: targets, note: 'espresso', tagId } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.map((t: { note: string }) => t.note)).toEqual(['espresso', 'espresso']);
  });

  it('deletes a manual transaction and excludes a bank line, saying which', async () => {
    const manual = await api.call('DELETE', `/v1/transactions/${ids.unsorted}`, { token });
    expect(manual.statusCode).toBe(200);
    expect(manual.json()).toMatchObject({ id: ids.unsorted, outcome: 'deleted' });
    expect((await api.call('GET', `/v1/transactions/${ids.unsorted}`, { token })).statusCode).toBe(404);
    const bank = await api.call('DELETE', `/v1/transactions/${ids.saas}`, { token });
    expect(bank.json()).toMatchObject({ outcome: 'excluded', transaction: { status: 'excluded' } });
    const bulk = await api.call('DELETE', '/v1/transactions/bulk', { token, body: [ids.train, 'missing'] });
    expect(bulk.statusCode).toBe(404);
    expect((await api.call('GET', `/v1/transactions/${ids.train}`, { token })).statusCode).toBe(200);
  });

  it('another team gets 404 on every record route and an empty list', async () => {
    const other = api.key('Stranger Team');
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { note: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api.call(method, `/v1/transactions/${ids['salary-in']}`, { token: other, body });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await api.call('GET', '/v1/transactions', { token: other })).json().data).toEqual([]);
  });
});
