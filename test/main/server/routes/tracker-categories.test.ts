/**
 * Tracker categories (activity types) through the real app over a real SQLite file: CRUD with its refusals, team
 * isolation, and the rate rule — the project's rate wins, else the category's in the project's currency; an entry is
 * billable when its project and its category are — with amounts, project totals and invoice drafts following it.
 */
import { describe, expect, it } from 'vitest';
import { TrackerCategory } from '../../../../src-shared/contract/tracker-categories';
import { makeTestApi, type TestApi } from '../../../helpers/api';

async function setup() {
  const api = await makeTestApi();
  const token = api.key('Acme');
  const base = api.team('Acme').baseCurrency;
  return { api, token, base };
}

async function ok(api: TestApi, token: string, method: string, url: string, body?: unknown) {
  const res = await api.call(method, url, { token, body });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

async function entry(api: TestApi, token: string, body: Record<string, unknown>) {
  return ok(api, token, 'POST', '/v1/tracker-entries', { start: '2025-03-03T09:00:00Z', duration: 5400, ...body });
}

describe('tracker categories', () => {
  it('creates with defaults, lists by name, changes and deletes; names are unique ignoring case', async () => {
    const { api, token, base } = await setup();
    const design = TrackerCategory.parse(
      await ok(api, token, 'POST', '/v1/tracker-categories', { name: 'Design', color: '#FF8800', rate: 90 }),
    );
    expect(design).toMatchObject({ name: 'Design', color: '#ff8800', rate: 90, currency: base, billable: true, entryCount: 0 });
    const meetings = await ok(api, token, 'POST', '/v1/tracker-categories', { name: 'meetings', billable: false });
    expect(meetings).toMatchObject({ color: '#9e9e9e', rate: null, billable: false });
    const dup = await api.call('POST', '/v1/tracker-categories', { token, body: { name: 'DESIGN' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toContain('already exists');
    const bad = await api.call('POST', '/v1/tracker-categories', { token, body: { name: 'X', color: 'orange' } });
    expect(bad.statusCode).toBe(422);

    expect((await ok(api, token, 'GET', '/v1/tracker-categories')).data.map((c: TrackerCategory) => c.name)).toEqual([
      'Design',
      'meetings',
    ]);
    const changed = await ok(api, token, 'PATCH', `/v1/tracker-categories/${design.id}`, { rate: 95.5, currency: 'USD' });
    expect(changed).toMatchObject({ rate: 95.5, currency: 'USD', name: 'Design' });
    // A new currency alone keeps the figure; one it does not fit in (JPY has no minor unit) is refused.
    expect(await ok(api, token, 'PATCH', `/v1/tracker-categories/${design.id}`, { currency: 'GBP' })).toMatchObject({
      rate: 95.5,
      currency: 'GBP',
    });
    const jpy = await api.call('PATCH', `/v1/tracker-categories/${design.id}`, { token, body: { currency: 'JPY' } });
    expect(jpy.statusCode).toBe(422);
    expect(
      (await api.call('PATCH', `/v1/tracker-categories/${design.id}`, { token, body: { name: 'Meetings' } })).statusCode,
    ).toBe(409);
    expect((await ok(api, token, 'DELETE', `/v1/tracker-categories/${meetings.id}`)).name).toBe('meetings');
    expect((await api.call('GET', `/v1/tracker-categories/${meetings.id}`, { token })).statusCode).toBe(404);
  });

  it('another team’s category is not found, and cannot be given to an entry', async () => {
    const { api, token } = await setup();
    const mine = await ok(api, token, 'POST', '/v1/tracker-categories', { name: 'Support', rate: 50 });
    const other = api.key('Other Team');
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await api.call(method, `/v1/tracker-categories/${mine.id}`, { token: other, body })).statusCode).toBe(404);
    }
    expect((await ok(api, other, 'GET', '/v1/tracker-categories')).data).toEqual([]);
    const project = await ok(api, other, 'POST', '/v1/tracker-projects', { name: 'Theirs' });
    const res = await api.call('POST', '/v1/tracker-entries', {
      token: other,
      body: { projectId: project.id, categoryId: mine.id, start: '2025-03-03T09:00:00Z', duration: 600 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('No tracker category');
    expect((await ok(api, token, 'GET', `/v1/tracker-categories/${mine.id}`)).name).toBe('Support');
  });

  it('an entry takes its category’s rate unless the project has one; billable only when both are', async () => {
    const { api, token } = await setup();
    const design = await ok(api, token, 'POST', '/v1/tracker-categories', { name: 'Design', rate: 90, currency: 'EUR' });
    const internal = await ok(api, token, 'POST', '/v1/tracker-categories', {
      name: 'Internal',
      rate: 40,
      currency: 'EUR',
      billable: false,
    });
    const usd = await ok(api, token, 'POST', '/v1/tracker-categories', { name: 'US work', rate: 70, currency: 'USD' });
    const noRate = await ok(api, token, 'POST', '/v1/tracker-projects', { name: 'Retainer', currency: 'EUR' });
    const rated = await ok(api, token, 'POST', '/v1/tracker-projects', { name: 'Fixed', currency: 'EUR', rate: 100 });

    // 1.5 h each.
    const byCategory = await entry(api, token, { projectId: noRate.id, categoryId: design.id });
    expect(byCategory).toMatchObject({ rate: 90, rateSource: 'category', billable: true, amount: 135 });
    expect(byCategory.category).toEqual({ id: design.id, name: 'Design', color: '#9e9e9e' });
    const overridden = await entry(api, token, { projectId: rated.id, categoryId: design.id });
    expect(overridden).toMatchObject({ rate: 100, rateSource: 'project', amount: 150 });
    const notBillable = await entry(api, token, { projectId: rated.id, categoryId: internal.id });
    expect(notBillable).toMatchObject({ rate: 100, billable: false, amount: 0 });
    const otherCurrency = await entry(api, token, { projectId: noRate.id, categoryId: usd.id });
    expect(otherCurrency).toMatchObject({ rate: null, rateSource: null, amount: 0 });
    const plain = await entry(api, token, { projectId: noRate.id });
    expect(plain).toMatchObject({ categoryId: null, category: null, rate: null, amount: 0 });

    expect(await ok(api, token, 'GET', `/v1/tracker-projects/${noRate.id}`)).toMatchObject({ totalAmount: 135 });
    expect(await ok(api, token, 'GET', `/v1/tracker-projects/${rated.id}`)).toMatchObject({ totalAmount: 150 });

    // The category's new rate reaches its entries and the project's totals; the project's rate still wins.
    await ok(api, token, 'PATCH', `/v1/tracker-categories/${design.id}`, { rate: 80 });
    expect(await ok(api, token, 'GET', `/v1/tracker-entries/${byCategory.id}`)).toMatchObject({ rate: 80, amount: 120 });
    expect(await ok(api, token, 'GET', `/v1/tracker-entries/${overridden.id}`)).toMatchObject({ amount: 150 });
    expect(await ok(api, token, 'GET', `/v1/tracker-projects/${noRate.id}`)).toMatchObject({ totalAmount: 120 });
    // Moving an entry to another category, or taking it away, changes its amount.
    expect(await ok(api, token, 'PATCH', `/v1/tracker-entries/${plain.id}`, { categoryId: design.id })).toMatchObject({
      amount: 120,
    });
    expect(await ok(api, token, 'PATCH', `/v1/tracker-entries/${plain.id}`, { categoryId: null })).toMatchObject({
      amount: 0,
      category: null,
    });

    const inUse = await api.call('DELETE', `/v1/tracker-categories/${design.id}`, { token });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toContain('2 tracker entries');
  });

  it('invoice drafts bill category time one line per category, never a non-billable one; billed entries keep theirs', async () => {
    const { api, token } = await setup();
    const design = await ok(api, token, 'POST', '/v1/tracker-categories', { name: 'Design', rate: 90, currency: 'EUR' });
    const dev = await ok(api, token, 'POST', '/v1/tracker-categories', { name: 'Development', rate: 120, currency: 'EUR' });
    const internal = await ok(api, token, 'POST', '/v1/tracker-categories', { name: 'Internal', rate: 10, billable: false });
    const project = await ok(api, token, 'POST', '/v1/tracker-projects', { name: 'Shop', currency: 'EUR' });
    const d = await entry(api, token, { projectId: project.id, categoryId: design.id });
    await entry(api, token, { projectId: project.id, categoryId: dev.id, duration: 7200 });
    const i = await entry(api, token, { projectId: project.id, categoryId: internal.id });
    await entry(api, token, { projectId: project.id });

    const res = await api.call('POST', '/v1/invoices/from-tracker', { token, body: { projectId: project.id } });
    expect(res.statusCode, res.body).toBe(201);
    const lines = res
      .json()
      .lineItems.map((l: { name: string; quantity: number; price: number }) => [l.name, l.quantity, l.price]);
    expect(lines).toEqual([
      ['Shop – Design (03/03/2025)', 1.5, 90],
      ['Shop – Development (03/03/2025)', 2, 120],
    ]);
    expect(res.json().amount).toBeGreaterThanOrEqual(375);
    expect((await ok(api, token, 'GET', `/v1/tracker-entries/${i.id}`)).billed).toBe(false);
    const locked = await api.call('PATCH', `/v1/tracker-entries/${d.id}`, { token, body: { categoryId: dev.id } });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toContain('category');
    const named = await api.call('POST', '/v1/invoices/from-tracker', {
      token,
      body: { projectId: project.id, entryIds: [i.id] },
    });
    expect(named.statusCode).toBe(422);
  });
});
