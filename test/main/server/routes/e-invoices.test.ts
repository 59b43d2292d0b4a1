import { describe, expect, it } from 'vitest';
import { embeddedInvoiceXml } from '../../../../src-main/documents/embedded-invoice';
import { readEInvoiceXml } from '../../../../src-main/einvoice/read';
import { ensureRemote } from '../../../../src-main/store/sync/remotes';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { E_INVOICE_BANK_ACCOUNT, E_INVOICE_BUYER, E_INVOICE_INVOICE, E_INVOICE_SELLER } from '../../../helpers/einvoice-seller';

/**
 * The e-invoice routes over real HTTP handling and a real SQLite file: the team and customer data flow into the
 * document, a failing invoice is 422 with each rule and field, and send refuses it too.
 */

async function seed(api: TestApi, customer: Record<string, unknown> = {}) {
  const token = api.key('E-Invoice Team');
  const ok = async (method: string, url: string, body?: unknown) => {
    const res = await api.call(method, url, { token, body });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  const team = api.team('E-Invoice Team');
  await ok('PATCH', `/v1/teams/${team.id}`, E_INVOICE_SELLER);
  await ok('POST', '/v1/bank-accounts', E_INVOICE_BANK_ACCOUNT);
  const c = await ok('POST', '/v1/customers', {
    ...E_INVOICE_BUYER,
    ...customer,
  });
  const inv = await ok('POST', '/v1/invoices', {
    ...E_INVOICE_INVOICE,
    customerId: c.id,
  });
  return {
    token,
    customerId: c.id as string,
    invoice: inv as { id: string; amount: number; vat: number; invoiceNumber: string },
  };
}

describe('GET /v1/invoices/{id}/e-invoice', () => {
  it("answers the customer's format, with the team as seller and the customer as buyer", async () => {
    const api = await makeTestApi();
    const { token, invoice } = await seed(api);
    const res = await api.call('GET', `/v1/invoices/${invoice.id}/e-invoice`, { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/xml/);
    expect(res.headers['content-disposition']).toContain(`${invoice.invoiceNumber}-xrechnung-ubl.xml`);
    const { syntax, invoice: read } = readEInvoiceXml(res.body);
    expect(syntax).toBe('UBL');
    expect(read.totals.payableMinor).toBe(Math.round(invoice.amount * 100));
    expect(read.totals.vatMinor).toBe(Math.round(invoice.vat * 100));
    expect(read.seller).toMatchObject({
      name: 'E-Invoice Team',
      vatId: 'DE123456789',
      electronicAddress: { scheme: '9930', value: 'DE123456789' },
    });
    expect(read.buyer).toMatchObject({ name: 'Stadtwerke Musterstadt', vatId: 'DE987654321' });
    expect(read.buyerReference).toBe('04011000-12345-03');
    expect(read.payment?.iban).toBe('DE89370400440532013000');
    expect(read.vatBreakdown.map((b) => [b.rate, b.taxableMinor, b.taxMinor])).toEqual([
      [19, 45000, 8550],
      [7, 4980, 349],
    ]);
  });

  it('gives a hybrid ZUGFeRD PDF carrying the CII XML when asked', async () => {
    const api = await makeTestApi();
    const { token, invoice } = await seed(api);
    const res = await api.call('GET', `/v1/invoices/${invoice.id}/e-invoice?format=factur-x-xrechnung`, { token });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const embedded = await embeddedInvoiceXml(res.rawPayload);
    expect(embedded?.fileName).toBe('xrechnung.xml');
    expect(readEInvoiceXml(embedded?.xml ?? '').invoice.number).toBe(invoice.invoiceNumber);
  });

  it('is 422 listing each failing rule and its field; check says the same; send refuses', async () => {
    const api = await makeTestApi();
    const { token, invoice, customerId } = await seed(api, { buyerReference: null, city: null });
    const res = await api.call('GET', `/v1/invoices/${invoice.id}/e-invoice`, { token });
    expect(res.statusCode).toBe(422);
    const rules = (res.json().rules as { rule: string; field: string }[]).map((r) => [r.rule, r.field]);
    expect(rules).toEqual([
      ['BR-DE-8', 'BT-52 customer.city'],
      ['BR-DE-15', 'BT-10 customer.buyerReference'],
    ]);
    const check = await api.call('GET', `/v1/invoices/${invoice.id}/e-invoice/check`, { token });
    expect(check.json()).toMatchObject({ format: 'xrechnung-ubl', ok: false });
    expect(check.json().failures).toHaveLength(2);
    const send = await api.call('POST', `/v1/invoices/${invoice.id}/send`, { token, body: {} });
    expect(send.statusCode).toBe(422);
    expect((await api.call('GET', `/v1/invoices/${invoice.id}`, { token })).json().status).toBe('draft');
    // Fixed on the customer, it goes.
    await api.call('PATCH', `/v1/customers/${customerId}`, {
      token,
      body: { city: 'Musterstadt', buyerReference: '04011000-1' },
    });
    expect((await api.call('GET', `/v1/invoices/${invoice.id}/e-invoice/check`, { token })).json()).toMatchObject({
      ok: true,
      failures: [],
    });
    expect((await api.call('POST', `/v1/invoices/${invoice.id}/send`, { token, body: {} })).statusCode).toBe(200);
  });

  it('refuses a credit note of an invoice that is not refunded (409), and an unknown format (422)', async () => {
    const api = await makeTestApi();
    const { token, invoice } = await seed(api);
    const cn = await api.call('GET', `/v1/invoices/${invoice.id}/e-invoice?document=credit-note`, { token });
    expect(cn.statusCode).toBe(409);
    const bad = await api.call('GET', `/v1/invoices/${invoice.id}/e-invoice?format=edifact`, { token });
    expect(bad.statusCode).toBe(422);
  });

  it("leaves a replica's unnumbered invoice to its remote: no e-invoice yet (409), and its send waits for sync", async () => {
    const api = await makeTestApi();
    const { token, customerId } = await seed(api);
    ensureRemote(api.db, api.team('E-Invoice Team').id, { baseUrl: 'http://127.0.0.1:9/v1' });
    const created = await api.call('POST', '/v1/invoices', {
      token,
      body: {
        customerId,
        currency: 'EUR',
        issueDate: '2025-03-20',
        template: { vatRate: 19 },
        lineItems: [{ name: 'Consulting', quantity: 1, price: 90 }],
      },
    });
    expect(created.json().invoiceNumber).toBeNull();
    const res = await api.call('GET', `/v1/invoices/${created.json().id}/e-invoice`, { token });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/no number yet/);
    const send = await api.call('POST', `/v1/invoices/${created.json().id}/send`, { token, body: {} });
    expect(send.statusCode, send.body).toBe(200);
    expect(send.json().delivery).toMatchObject({ state: 'awaiting_sync' });
  });

  it("is another team's invoice: 404", async () => {
    const api = await makeTestApi();
    const { invoice } = await seed(api);
    const other = api.key('Other Team');
    expect((await api.call('GET', `/v1/invoices/${invoice.id}/e-invoice`, { token: other })).statusCode).toBe(404);
  });
});
