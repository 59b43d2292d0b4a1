/**
 * An invoice draft from a tracker project's unbilled time: the entries become billed (locked against edits),
 * canceling the draft or deleting it frees them, and entries on an invoice are never billed twice.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { describe, expect, it } from 'vitest';
import { makeTestApi, type TestApi } from '../../../helpers/api';

async function project(api: TestApi, token: string) {
  const customerId = (
    await api.call('POST', '/v1/customers', { token, body: { name: 'Client AG', email: 'ap@client.example' } })
  ).json().id;
  const res = await api.call('POST', '/v1/tracker-projects', {
    token,
    body: { name: 'Website', rate: 80, currency: 'EUR', billable: true, customerId },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { projectId: res.json().id as string, customerId };
}

async function entry(api: TestApi, token: string, projectId: string, start: string, duration: number) {
  const res = await api.call('POST', '/v1/tracker-entries', { token, body: { projectId, start, duration } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

describe('POST /v1/invoices/from-tracker', () => {
  it('bills the unbilled entries on a draft; canceling or deleting the draft frees them', async () => {
    const api = await makeTestApi();
    const token = api.key('Tracker Billing');
    const { projectId, customerId } = await project(api, token);
    const e1 = await entry(api, token, projectId, '2025-02-03T09:00:00Z', 2 * 3600); // 2 h
    const e2 = await entry(api, token, projectId, '2025-02-04T09:00:00Z', 5400); // 1.5 h
    const e3 = await entry(api, token, projectId, '2025-02-05T09:00:00Z', 1234); // 0.3428 h

    const res = await api.call('POST', '/v1/invoices/from-tracker', { token, body: { projectId } });
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json();
    expect(inv.status).toBe('draft');
    expect(inv.customerId).toBe(customerId);
    expect(inv.trackerProjectId).toBe(projectId);
    // 13,834 s = 3.8428 h → 3.84 h × 80.00 = 307.20
    expect(inv.lineItems).toEqual([
      {
        // The days as the invoice writes dates (the team's default, dd/MM/yyyy), not ISO.
        name: 'Website (03/02/2025 – 05/02/2025)',
        quantity: 3.84,
        unit: 'hours',
        price: 80,
        vat: null,
        taxRate: null,
        tax: null,
        category: null,
        amount: 307.2,
        nameContent: null,
      },
    ]);
    expect(inv.subtotal).toBe(307.2);
    for (const id of [e1, e2, e3]) {
      const e = (await api.call('GET', `/v1/tracker-entries/${id}`, { token })).json();
      expect(e.billed).toBe(true);
      expect(e.invoiceId).toBe(inv.id);
    }
    expect((await api.call('GET', `/v1/tracker-projects/${projectId}`, { token })).json().unbilledDuration).toBe(0);
    // Billed time is not billed twice.
    const again = await api.call('POST', '/v1/invoices/from-tracker', { token, body: { projectId } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('no unbilled time');
    const named = await api.call('POST', '/v1/invoices/from-tracker', { token, body: { projectId, entryIds: [e1] } });
    expect(named.statusCode).toBe(409);

    // Canceling the draft frees the entries.
    expect((await api.call('PATCH', `/v1/invoices/${inv.id}`, { token, body: { status: 'canceled' } })).json().status).toBe(
      'canceled',
    );
    expect((await api.call('GET', `/v1/tracker-entries/${e1}`, { token })).json().billed).toBe(false);
    // Only some entries, within a range.
    const partial = await api.call('POST', '/v1/invoices/from-tracker', {
      token,
      body: { projectId, from: '2025-02-04', to: '2025-02-04' },
    });
    expect(partial.statusCode, partial.body).toBe(201);
    expect(partial.json().lineItems[0]).toMatchObject({ quantity: 1.5, amount: 120 });
    expect((await api.call('GET', `/v1/tracker-entries/${e2}`, { token })).json().invoiceId).toBe(partial.json().id);
    expect((await api.call('GET', `/v1/tracker-entries/${e1}`, { token })).json().billed).toBe(false);
    // Deleting the draft frees them too.
    expect((await api.call('DELETE', `/v1/invoices/${partial.json().id}`, { token })).statusCode).toBe(200);
    expect((await api.call('GET', `/v1/tracker-entries/${e2}`, { token })).json().billed).toBe(false);
    expect((await api.call('GET', `/v1/tracker-projects/${projectId}`, { token })).json().unbilledDuration).toBe(13_834);
  });

  it('refuses projects it cannot bill, and other teams’ projects', async () => {
    const api = await makeTestApi();
    const token = api.key('Tracker Billing');
    const noRate = (await api.call('POST', '/v1/tracker-projects', { token, body: { name: 'Internal' } })).json().id;
    await entry(api, token, noRate, '2025-02-03T09:00:00Z', 3600);
    const res = await api.call('POST', '/v1/invoices/from-tracker', { token, body: { projectId: noRate } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('no hourly rate');
    const { projectId } = await project(api, token);
    const empty = await api.call('POST', '/v1/invoices/from-tracker', { token, body: { projectId } });
    expect(empty.statusCode).toBe(409);
    const other = api.key('Other Team');
    const foreign = await api.call('POST', '/v1/invoices/from-tracker', { token: other, body: { projectId } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().message).toContain('no tracker project');
  });
});
