/**
 * /v1/invoices over a real app and SQLite file: create (draft, numbering, totals), read, list filters and cursor,
 * the checked lifecycle over HTTP (409 naming the allowed states), delete rules, parallel creates over real HTTP.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Invoice, InvoicePage } from '../../../../src-shared/contract/invoices';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { LAWFUL_BUYER_ADDRESS, makeTeamLawful } from '../../../helpers/lawful-team';
import { pdfText } from '../../pdf/pdf-text';

async function customer(api: TestApi, token: string, body: Record<string, unknown> = {}) {
  const res = await api.call('POST', '/v1/customers', {
    token,
    body: { name: 'Acme GmbH', email: 'billing@acme.example', ...LAWFUL_BUYER_ADDRESS, ...body },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const lines = [
  { name: 'Design', quantity: 10, unit: 'hours', price: 120 },
  { name: 'Hosting', quantity: 1, unit: 'month', price: 49.99, vat: 7 },
];

describe('/v1/invoices', () => {
  it('creates a draft with numbering and exact totals, and reads it back', async () => {
    const api = await makeTestApi();
    const token = api.key('Inv');
    makeTeamLawful(api.db, 'Inv');
    const customerId = await customer(api, token);
    const res = await api.call('POST', '/v1/invoices', {
      token,
      body: {
        customerId,
        issueDate: '2025-03-01',
        lineItems: lines,
        template: { vatRate: 19, locale: 'de-DE', timezone: 'Europe/Berlin' },
        discount: 10,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const inv = Invoice.parse(res.json());
    expect(inv.status).toBe('draft');
    expect(inv.invoiceNumber).toBe('INV-0001');
    expect(inv.customerName).toBe('Acme GmbH');
    expect(inv.currency).toBe('EUR');
    expect(inv.dueDate).toBe('2025-03-31');
    expect(inv.timezone).toBe('Europe/Berlin');
    expect(inv.subtotal).toBe(1249.99);
    expect(inv.vat).toBe(228 + 3.5); // 19 % of 1200 + 7 % of 49.99 (3.4993 → 3.50)
    expect(inv.discount).toBe(10);
    expect(inv.amount).toBe(1249.99 + 231.5 - 10);
    expect(inv.lineItems.map((l) => l.amount)).toEqual([1200, 49.99]);
    // Due 2025-03-31, long past: issuing it now lands it in overdue.
    expect(inv.nextStatuses).toEqual(['scheduled', 'overdue', 'canceled']);
    const got = await api.call('GET', `/v1/invoices/${inv.id}`, { token });
    expect(got.json()).toEqual(res.json());

    const second = await api.call('POST', '/v1/invoices', { token, body: { customerId, lineItems: lines } });
    expect(second.json().invoiceNumber).toBe('INV-0002');
    // A taken explicit number is 409.
    const taken = await api.call('POST', '/v1/invoices', { token, body: { customerId, invoiceNumber: 'INV-0002' } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('INV-0002');
    // An explicit number ahead of the sequence is skipped by it later.
    expect((await api.call('POST', '/v1/invoices', { token, body: { invoiceNumber: 'INV-0003' } })).statusCode).toBe(201);
    expect((await api.call('POST', '/v1/invoices', { token, body: {} })).json().invoiceNumber).toBe('INV-0004');
  });

  it('refuses what it cannot represent exactly, naming the field', async () => {
    const api = await makeTestApi();
    const token = api.key('Inv');
    makeTeamLawful(api.db, 'Inv');
    const bad = async (body: unknown, field: string) => {
      const res = await api.call('POST', '/v1/invoices', { token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(`${res.json().message} ${res.json().description}`).toContain(field);
    };
    // A unit price has at most two decimals more than its currency (BT-146); amounts none.
    await bad({ lineItems: [{ name: 'x', price: 1.00005 }] }, 'lineItems.0.price');
    await bad({ lineItems: [{ name: 'x', price: 1, quantity: 0.00001 }] }, 'lineItems.0.quantity');
    await bad({ currency: 'JPY', lineItems: [{ name: 'x', price: 1.005 }] }, 'lineItems.0.price');
    await bad({ lineItems: [{ name: 'x', price: 10 }], discount: 1.005 }, 'discount');
    await bad({ lineItems: [{ name: 'x', price: 10 }], discount: 11 }, 'discount');
    await bad({ customerId: 'nope' }, 'customerId');
    await bad({ issueDate: '2025-02-30' }, 'issueDate');
    await bad({ timezone: 'Mars/Base' }, 'timezone');
    await bad({ issueDate: '2025-03-10', dueDate: '2025-03-01' }, 'dueDate');
    await bad({ deliveryType: 'scheduled' }, 'scheduledAt');
    await bad({ unknownField: 1 }, 'unknownField');
  });

  it('takes unit prices with 3 and 4 decimals (BT-146) while line and document totals stay in cents', async () => {
    const api = await makeTestApi();
    const token = api.key('Inv');
    const res = await api.call('POST', '/v1/invoices', {
      token,
      body: {
        currency: 'EUR',
        template: { vatRate: 19, includeVat: true },
        lineItems: [
          { name: 'Diesel', quantity: 120.5, unit: 'l', price: 1.6349 }, // 197.00545 → 197.01
          { name: 'Fasteners', quantity: 1000, unit: 'pcs', price: 0.0825 }, // 82.50
          { name: 'Cable', quantity: 12.5, unit: 'm', price: 1.635, vat: 7 }, // 20.4375 → 20.44
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json();
    expect(inv.lineItems.map((l: { price: number; amount: number }) => [l.price, l.amount])).toEqual([
      [1.6349, 197.01],
      [0.0825, 82.5],
      [1.635, 20.44],
    ]);
    // 19 % of 279.51 = 53.1069 → 53.11; 7 % of 20.44 = 1.4308 → 1.43.
    expect([inv.subtotal, inv.vat, inv.amount]).toEqual([299.95, 54.54, 354.49]);
    expect((await api.call('GET', `/v1/invoices/${inv.id}`, { token })).json().lineItems[0].price).toBe(1.6349);
    // The PDF prints the price as given, and the amounts in cents.
    const pdf = await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token });
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).join('\n');
    expect(text).toContain('€1.6349');
    expect(text).toContain('€197.01');
    // A currency whose minor unit cannot hold the price with two more decimals refuses it.
    const jpy = await api.call('PATCH', `/v1/invoices/${inv.id}`, { token, body: { currency: 'JPY' } });
    expect(jpy.statusCode).toBe(422);
    expect(jpy.json().description).toContain('lineItems.0.price');
  });

  it('moves through the checked lifecycle; an illegal move is 409 naming the current and allowed states', async () => {
    const api = await makeTestApi();
    const token = api.key('Inv');
    makeTeamLawful(api.db, 'Inv');
    const customerId = await customer(api, token);
    const id = (
      await api.call('POST', '/v1/invoices', {
        token,
        body: { customerId, lineItems: lines, issueDate: '2099-01-01' },
      })
    ).json().id;
    const patch = (body: unknown) => api.call('PATCH', `/v1/invoices/${id}`, { token, body });

    const refused = await patch({ status: 'paid' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'The invoice is draft: it cannot become paid. Allowed next states: scheduled, unpaid, canceled',
    );
    const issued = await patch({ status: 'unpaid' });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().status).toBe('unpaid');
    expect(issued.json().sentAt).not.toBeNull();
    // Content is locked once issued; terms are not.
    const edit = await patch({ lineItems: [{ name: 'x', price: 1 }] });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toContain('Allowed next states: paid, canceled');
    expect((await patch({ note: 'Thanks!' })).json().note).toBe('Thanks!');
    // Not yet due: overdue cannot be set by hand.
    expect((await patch({ status: 'overdue' })).statusCode).toBe(409);
    const paid = await api.call('PUT', `/v1/invoices/${id}`, { token, body: { status: 'paid', paidAt: '2099-01-05T10:00:00Z' } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().paidAt).toBe('2099-01-05T10:00:00.000Z');
    expect(paid.json().payment).toMatchObject({ matchedBy: 'manual', transactionId: null, date: '2099-01-05' });
    // The hosted defect (any status settable) is not copied: paid → draft is refused.
    const back = await api.call('PUT', `/v1/invoices/${id}`, { token, body: { status: 'draft' } });
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toBe('The invoice is paid: it cannot become draft. Allowed next states: unpaid, refunded');
    expect((await patch({ status: 'refunded' })).json().status).toBe('refunded');
    // A refunded invoice still reads fine (the hosted service breaks there).
    const read = await api.call('GET', `/v1/invoices/${id}`, { token });
    expect(read.statusCode).toBe(200);
    expect(read.json().nextStatuses).toEqual([]);
    expect((await api.call('DELETE', `/v1/invoices/${id}`, { token })).statusCode).toBe(409);
  });

  it('deletes only drafts and canceled invoices', async () => {
    const api = await makeTestApi();
    const token = api.key('Inv');
    makeTeamLawful(api.db, 'Inv');
    const customerId = await customer(api, token);
    const make = async () =>
      (await api.call('POST', '/v1/invoices', { token, body: { customerId, lineItems: lines } })).json().id;
    const draft = await make();
    const del = await api.call('DELETE', `/v1/invoices/${draft}`, { token });
    expect(del.statusCode).toBe(200);
    expect(del.json().id).toBe(draft);
    expect((await api.call('GET', `/v1/invoices/${draft}`, { token })).statusCode).toBe(404);
    const issued = await make();
    await api.call('PATCH', `/v1/invoices/${issued}`, { token, body: { status: 'unpaid' } });
    const refused = await api.call('DELETE', `/v1/invoices/${issued}`, { token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('The invoice is unpaid');
    await api.call('PATCH', `/v1/invoices/${issued}`, { token, body: { status: 'canceled' } });
    expect((await api.call('DELETE', `/v1/invoices/${issued}`, { token })).statusCode).toBe(200);
  });

  it('lists with filters, amount search, sort and a keyset cursor', async () => {
    const api = await makeTestApi();
    const token = api.key('Inv');
    makeTeamLawful(api.db, 'Inv');
    const a = await customer(api, token, { name: 'Alpha', email: 'a@example.com' });
    const b = await customer(api, token, { name: 'Beta', email: 'b@example.com' });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await api.call('POST', '/v1/invoices', {
        token,
        body: {
          customerId: i % 2 ? a : b,
          issueDate: `2099-01-0${i + 1}`,
          lineItems: [{ name: 'Work', quantity: 1, price: 100 + i + 0.5 }],
        },
      });
      ids.push(res.json().id);
    }
    await api.call('PATCH', `/v1/invoices/${ids[0]}`, { token, body: { status: 'unpaid' } });
    const list = async (qs: string) => {
      const res = await api.call('GET', `/v1/invoices?${qs}`, { token });
      expect(res.statusCode, res.body).toBe(200);
      return InvoicePage.parse(res.json());
    };
    expect((await list('statuses=unpaid')).data.map((i) => i.id)).toEqual([ids[0]]);
    expect((await list('statuses=draft&statuses=unpaid')).data).toHaveLength(7);
    expect((await list(`customers=${a}`)).data).toHaveLength(3);
    expect((await list('start=2099-01-03&end=2099-01-05')).data).toHaveLength(3);
    expect((await list('q=103.5')).data.map((i) => i.amount)).toEqual([103.5]);
    expect((await list('q=103,50')).data.map((i) => i.amount)).toEqual([103.5]);
    expect((await list('q=Alpha')).data).toHaveLength(3);
    expect((await list('q=INV-0002')).data.map((i) => i.invoiceNumber)).toEqual(['INV-0002']);
    expect((await list('sort=amount&sort=desc')).data.map((i) => i.amount)).toEqual([
      106.5, 105.5, 104.5, 103.5, 102.5, 101.5, 100.5,
    ]);
    // Walk by pages of 3 on the customer sort: every invoice once, in order.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: z.infer<typeof InvoicePage> = await list(
        `sort=customer&sort=asc&pageSize=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.data.map((i) => i.customerName ?? ''));
      cursor = page.meta.cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['Alpha', 'Alpha', 'Alpha', 'Beta', 'Beta', 'Beta', 'Beta']);
    // A cursor from another list is refused, not silently applied.
    const first = await list('sort=amount&pageSize=2');
    const wrong = await api.call('GET', `/v1/invoices?sort=status&pageSize=2&cursor=${first.meta.cursor}`, { token });
    expect(wrong.statusCode).toBe(422);
  });

  it('hands out distinct numbers to parallel creates over HTTP', async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const token = api.key('Race');
    makeTeamLawful(api.db, 'Race');
    const base = await api.listen();
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${base}/v1/invoices`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ lineItems: [{ name: 'x', price: 1 }] }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { invoiceNumber: string } })),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const numbers = results.map((r) => r.body.invoiceNumber).sort();
    expect(new Set(numbers).size).toBe(40);
    expect(numbers[0]).toBe('INV-0001');
    expect(numbers[39]).toBe('INV-0040');
  });

  it('keeps another team out: 404 and never in its lists', async () => {
    const api = await makeTestApi();
    const mine = api.key('Mine');
    makeTeamLawful(api.db, 'Mine');
    const theirs = api.key('Theirs');
    makeTeamLawful(api.db, 'Theirs');
    const id = (await api.call('POST', '/v1/invoices', { token: mine, body: { customerName: 'Secret Co' } })).json().id;
    for (const [method, url] of [
      ['GET', `/v1/invoices/${id}`],
      ['PATCH', `/v1/invoices/${id}`],
      ['DELETE', `/v1/invoices/${id}`],
      ['GET', `/v1/invoices/${id}/pdf`],
      ['POST', `/v1/invoices/${id}/send`],
    ] as const) {
      const res = await api.call(method, url, { token: theirs, body: method === 'PATCH' || method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain('Secret Co');
    }
    expect((await api.call('GET', '/v1/invoices', { token: theirs })).json().data).toEqual([]);
  });

  it('summarizes by currency and scores on-time payment', async () => {
    const api = await makeTestApi();
    const token = api.key('Sum');
    makeTeamLawful(api.db, 'Sum');
    const customerId = await customer(api, token);
    const make = async (currency: string, price: number) =>
      (
        await api.call('POST', '/v1/invoices', {
          token,
          body: { customerId, currency, issueDate: '2020-01-01', dueDate: '2020-01-31', lineItems: [{ name: 'x', price }] },
        })
      ).json().id;
    const e1 = await make('EUR', 100);
    const e2 = await make('EUR', 50.5);
    const u1 = await make('USD', 10);
    await make('EUR', 999); // stays a draft: not counted
    for (const id of [e1, e2, u1]) await api.call('PATCH', `/v1/invoices/${id}`, { token, body: { status: 'unpaid' } });
    // Issued after the due date: straight to overdue.
    expect((await api.call('GET', `/v1/invoices/${e1}`, { token })).json().status).toBe('overdue');
    await api.call('PATCH', `/v1/invoices/${e2}`, { token, body: { status: 'paid', paidAt: '2020-01-20T12:00:00Z' } });
    const summary = await api.call('GET', '/v1/invoices/summary', { token });
    expect(summary.json().data).toEqual([
      { currency: 'EUR', totalAmount: 150.5, invoiceCount: 2, paid: 50.5, outstanding: 100, overdue: 100 },
      { currency: 'USD', totalAmount: 10, invoiceCount: 1, paid: 0, outstanding: 10, overdue: 10 },
    ]);
    const drafts = await api.call('GET', '/v1/invoices/summary?statuses=draft', { token });
    expect(drafts.json().data).toEqual([
      { currency: 'EUR', totalAmount: 999, invoiceCount: 1, paid: 50.5, outstanding: 100, overdue: 100 },
    ]);
    const score = await api.call('GET', '/v1/invoices/payment-status', { token });
    // The paid one was paid in 2020, outside the 365-day window; two overdue, none on time.
    expect(score.json()).toMatchObject({ score: 0, paymentStatus: 'bad', overdue: 2, paidOnTime: 0 });
  });
});
