import { describe, expect, it } from 'vitest';
import { embeddedInvoiceXml } from '../../../../src-main/documents/embedded-invoice';
import { readEInvoiceXml } from '../../../../src-main/einvoice/read';
import { E_INVOICE_FORMATS, type EInvoiceFormat, FORMAT_INFO } from '../../../../src-shared/domain/einvoice/model';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { E_INVOICE_BANK_ACCOUNT, E_INVOICE_BUYER, E_INVOICE_SELLER } from '../../../helpers/einvoice-seller';
import { checkOfficially, describeAssert, RULES_OF_FORMAT } from '../../../helpers/official-einvoice-rules';

/**
 * E-invoices as the server makes them from its records, checked by the official rules a receiver applies
 * (test/helpers/official-einvoice-rules.ts): a small business without a VAT id (§ 19 UStG) identified by its tax
 * number and register entry, an intra-community supply whose deliver-to address comes from the customer record, and
 * identifiers with wrong check digits refused where they are entered.
 */

async function ok(api: TestApi, token: string, method: string, url: string, body?: unknown) {
  const res = await api.call(method, url, { token, body });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

/** The XML of the invoice's e-invoice in `format` as the API gives it (a hybrid's taken out of its PDF). */
async function eInvoiceXml(api: TestApi, token: string, invoiceId: string, format: EInvoiceFormat): Promise<string> {
  const res = await api.call('GET', `/v1/invoices/${invoiceId}/e-invoice?format=${format}`, { token });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  if (FORMAT_INFO[format].container === 'xml') return res.body;
  return (await embeddedInvoiceXml(res.rawPayload))?.xml ?? '';
}

async function expectOfficialPass(api: TestApi, token: string, invoiceId: string, formats: readonly EInvoiceFormat[]) {
  for (const format of formats) {
    const check = await ok(api, token, 'GET', `/v1/invoices/${invoiceId}/e-invoice/check?format=${format}`);
    expect(check, format).toMatchObject({ ok: true, failures: [] });
    const official = checkOfficially(await eInvoiceXml(api, token, invoiceId, format), RULES_OF_FORMAT[format]);
    expect(official.fatal.map(describeAssert), format).toEqual([]);
  }
}

describe('e-invoices the server makes, checked by the official rules', () => {
  it('lets a small business without a VAT id (§ 19 UStG) issue them: tax number (BT-32) and register entry (BT-30)', async () => {
    const api = await makeTestApi();
    const token = api.key('Kleine Werkstatt');
    const team = api.team('Kleine Werkstatt');
    const { vatNumber: _vat, peppolId: _peppol, ...seller } = E_INVOICE_SELLER;
    const patched = await ok(api, token, 'PATCH', `/v1/teams/${team.id}`, {
      ...seller,
      taxNumber: ' 21/815/08150 ',
      legalRegistrationId: 'HRB 234567 B',
    });
    expect(patched).toMatchObject({ vatNumber: null, taxNumber: '21/815/08150', legalRegistrationId: 'HRB 234567 B' });
    expect(await ok(api, token, 'GET', `/v1/teams/${team.id}`)).toMatchObject({ taxNumber: '21/815/08150' });
    await ok(api, token, 'POST', '/v1/bank-accounts', E_INVOICE_BANK_ACCOUNT);
    const customer = await ok(api, token, 'POST', '/v1/customers', E_INVOICE_BUYER);
    const invoice = await ok(api, token, 'POST', '/v1/invoices', {
      customerId: customer.id,
      currency: 'EUR',
      issueDate: '2025-03-14',
      template: {
        includeVat: false,
        vatCategory: 'E',
        vatExemptionReason: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet',
      },
      lineItems: [{ name: 'Möbelreparatur', quantity: 6, unit: 'h', price: 45 }],
    });
    // Without the register entry nothing identifies the seller (BR-CO-26); without the tax number, nothing taxes it.
    await ok(api, token, 'PATCH', `/v1/teams/${team.id}`, { legalRegistrationId: null });
    const refused = await ok(api, token, 'GET', `/v1/invoices/${invoice.id}/e-invoice/check?format=xrechnung-cii`);
    expect(refused.failures.map((f: { rule: string }) => f.rule)).toEqual(['BR-CO-26']);
    await ok(api, token, 'PATCH', `/v1/teams/${team.id}`, { legalRegistrationId: 'HRB 234567 B' });

    // Peppol needs a participant id: the small business has none without a VAT id, so it is left out here.
    await expectOfficialPass(
      api,
      token,
      invoice.id,
      E_INVOICE_FORMATS.filter((f) => f !== 'peppol-bis-3'),
    );
    const read = readEInvoiceXml(await eInvoiceXml(api, token, invoice.id, 'xrechnung-ubl')).invoice;
    expect(read.seller).toMatchObject({ vatId: null, taxRegistrationId: '21/815/08150', legalId: 'HRB 234567 B' });
  });

  it('names the deliver-to address of an intra-community supply from the customer record (BR-DE-10, BR-DE-11)', async () => {
    const api = await makeTestApi();
    const token = api.key('Nordlicht');
    await ok(api, token, 'PATCH', `/v1/teams/${api.team('Nordlicht').id}`, E_INVOICE_SELLER);
    await ok(api, token, 'POST', '/v1/bank-accounts', E_INVOICE_BANK_ACCOUNT);
    const customer = await ok(api, token, 'POST', '/v1/customers', {
      name: 'Atelier Lumière SARL',
      email: 'compta@lumiere.example',
      countryCode: 'FR',
      addressLine1: '8 rue de la Paix',
      zip: '75002',
      city: 'Paris',
      vatNumber: 'FR40303265045',
      peppolId: '0009:30326504500017',
      buyerReference: 'PO-7781',
    });
    const invoice = await ok(api, token, 'POST', '/v1/invoices', {
      customerId: customer.id,
      currency: 'EUR',
      issueDate: '2025-03-14',
      supplyDate: '2025-03-10',
      template: { includeVat: false, vatCategory: 'K' },
      lineItems: [
        { name: 'Server hardware', quantity: 2, unit: 'pcs', price: 1899 },
        // A unit price with four decimals (BT-146) rides along: the document states it exactly.
        { name: 'Patch cable', quantity: 12.5, unit: 'm', price: 1.6349 },
      ],
    });
    await expectOfficialPass(api, token, invoice.id, E_INVOICE_FORMATS);
    const read = readEInvoiceXml(await eInvoiceXml(api, token, invoice.id, 'xrechnung-cii')).invoice;
    expect(read.delivery?.address).toMatchObject({ city: 'Paris', postCode: '75002', countryCode: 'FR' });
    expect(read.lines[1]).toMatchObject({ priceMinor: 16_349, priceScale: 2, netMinor: 2044 });
  });

  it('refuses identifiers with wrong check digits where they are entered: customers and the team (422)', async () => {
    const api = await makeTestApi();
    const token = api.key('Checks');
    for (const peppolId of ['0088:5790000435969', '0208:0123456789', '0007:5566778898', '0192:745707328']) {
      const res = await api.call('POST', '/v1/customers', { token, body: { name: 'Buyer', peppolId } });
      expect(res.statusCode, peppolId).toBe(422);
      expect(res.json().description).toContain('peppolId');
    }
    expect(
      (await api.call('POST', '/v1/customers', { token, body: { name: 'Buyer', peppolId: '0088:5790000435968' } })).statusCode,
    ).toBe(201);
    const team = api.team('Checks');
    const bad = await api.call('PATCH', `/v1/teams/${team.id}`, { token, body: { peppolId: '0088:1234567890123' } });
    expect(bad.statusCode).toBe(422);
    const badTax = await api.call('PATCH', `/v1/teams/${team.id}`, { token, body: { taxNumber: '21/815;08150' } });
    expect(badTax.statusCode).toBe(422);
    expect(badTax.json().description).toContain('taxNumber');
  });
});
