/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCategories } from '../../../../src-main/store/categories/categories';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { write } from '../../../../src-main/store/write';
import { makeTestApi, type TestApi } from '../../../helpers/api';

let api: TestApi;
let token: string;
let account: string;
let ids: string[];

const coffeeRule = {
  name: 'Coffee is meals',
  conditions: {
    all: [
      { field: 'name', op: 'contains', value: 'coffee' },
      { field: 'amount', op: 'sign', value: 'expense' },
    ],
  },
  actions: [{ type: 'set_category', categorySlug: 'meals' }],
};

beforeAll(async () => {
  api = await makeTestApi({ rateLimitPerMinute: 1_000_000 }, 'file');
  token = api.key('Rules Team');
  const teamId = api.team('Rules Team').id;
  ensureDefaultCategories(api.db, teamId);
  account = write(api.db, teamId, (w) => w.insert('bank_account', { name: 'A', type: 'depository', currency: 'EUR' }));
  ids = createTransactions(api.db, teamId, [
    { bankAccountId: account, name: 'Coffee Bar', amountMinor: -450, currency: 'EUR', date: '2026-03-02', manual: false },
    { bankAccountId: account, name: 'Coffee refund', amountMinor: 450, currency: 'EUR', date: '2026-03-03', manual: false },
    { bankAccountId: account, name: 'Train', amountMinor: -8990, currency: 'EUR', date: '2026-03-04', manual: false },
  ]);
});

describe('/v1/rules', () => {
  it('previews, saves, runs exactly what the preview showed, and lists the rule', async () => {
    const preview = await api.call('POST', '/v1/rules/dry-run', { token, body: { rule: coffeeRule, ids } });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ dryRun: true, scanned: 3, changed: 1 });
    expect(preview.json().transactions[0]).toMatchObject({
      id: ids[0],
      changes: [{ field: 'category', before: null, after: 'meals' }],
    });

    const created = await api.call('POST', '/v1/rules', { token, body: coffeeRule });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Coffee is meals',
      stage: 'default',
      enabled: true,
      applyOn: ['import', 'create'],
    });
    const ruleId = created.json().id;

    const ran = await api.call('POST', `/v1/rules/${ruleId}/run`, { token, body: { ids } });
    expect(ran.statusCode).toBe(200);
    expect(ran.json().transactions.map((t: { id: string; changes: unknown }) => [t.id, t.changes])).toEqual(
      preview
        .json()
        .transactions.map((t: { id: string; changes: { ruleId: string }[] }) => [t.id, t.changes.map((c) => ({ ...c, ruleId }))]),
    );
    const tx = (await api.call('GET', `/v1/transactions/${ids[0]}`, { token })).json();
    expect(tx).toMatchObject({ category: { slug: 'meals' }, fieldSources: { category: { source: 'rule', sourceId: ruleId } } });
    expect((await api.call('GET', '/v1/rules', { token })).json().data.map((r: { id: string }) => r.id)).toEqual([ruleId]);
  });

  it('runs rules that apply on creation when a transaction is created by hand', async () => {
    const res = await api.call('POST', '/v1/transactions', {
      token,
      body: { name: 'Coffee Roastery', amount: -12, currency: 'EUR', date: '2026-03-05', bankAccountId: account },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().category?.slug).toBe('meals');
  });

  it.each([
    [{ ...coffeeRule, conditions: { field: 'name', op: 'matches', value: '(' } }, 'conditions'],
    [{ ...coffeeRule, actions: [{ type: 'set_category', categorySlug: 'nope' }] }, 'categorySlug'],
    [{ ...coffeeRule, actions: [] }, 'actions'],
    [{ ...coffeeRule, conditions: { field: 'amount', op: 'contains', value: 1 } }, 'conditions'],
    [{ ...coffeeRule, actions: [{ type: 'split', parts: [{ amount: 1, percent: 2 }] }] }, 'actions'],
    [{ ...coffeeRule, stage: 'later' }, 'stage'],
  ])('refuses %j with 422', async (body, field) => {
    const res = await api.call('POST', '/v1/rules', { token, body });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().description).toContain(field);
  });

  it('another team cannot see, change or run the rule', async () => {
    const ruleId = (await api.call('GET', '/v1/rules', { token })).json().data[0].id;
    const other = api.key('Rule Stranger');
    for (const [method, url, body] of [
      ['GET', `/v1/rules/${ruleId}`, undefined],
      ['PATCH', `/v1/rules/${ruleId}`, { name: 'x' }],
      ['POST', `/v1/rules/${ruleId}/run`, {}],
      ['DELETE', `/v1/rules/${ruleId}`, undefined],
    ] as const) {
      expect((await api.call(method, url, { token: other, body })).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await api.call('GET', '/v1/rules', { token: other })).json().data).toEqual([]);
    const noteRule = { ...coffeeRule, actions: [{ type: 'set_note', note: 'x' }] };
    const foreignDryRun = await api.call('POST', '/v1/rules/dry-run', { token: other, body: { rule: noteRule, ids } });
    expect(foreignDryRun.json().scanned).toBe(0);
  });

  it('serves lint, suggestions, category suggestions, similar and recurring series', async () => {
    expect((await api.call('GET', '/v1/rules/lint', { token })).json()).toHaveProperty('shadowed');
    expect((await api.call('GET', '/v1/rules/suggestions', { token })).statusCode).toBe(200);
    const cats = await api.call('GET', `/v1/rules/category-suggestions?ids=${ids[2]}`, { token });
    expect(cats.json().data).toEqual([
      { transactionId: ids[2], categorySlug: null, confidence: 0, evidence: null, autoApply: false },
    ]);
    const similar = await api.call('GET', `/v1/rules/similar?transactionId=${ids[0]}`, { token });
    expect(similar.json()).toMatchObject({ rule: { actions: [{ type: 'set_category', categorySlug: 'meals' }] } });
    const detect = await api.call('POST', '/v1/recurring-series/detect', { token });
    expect(detect.statusCode).toBe(200);
    expect((await api.call('GET', '/v1/recurring-series', { token })).json().data).toEqual(detect.json().data);
  });
});
