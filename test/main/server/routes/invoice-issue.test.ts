/**
 * Issuing an invoice over real HTTP and a real SQLite file (issue 36): what the law asks is checked first
 * (docs/decisions/0121), what is issued stays issued — the PDF and both parts of a ZUGFeRD hybrid say what they said
 * the day it was issued, whatever the team changes later (0119) — lines take their category's VAT rate, the
 * invoice speaks its customer's language with the reverse-charge note where it applies and the IBAN and terms to
 * pay by (0120), the e-mail carries what the person wrote, and reminders state the team's dunning level (0122).
 */
import { describe, expect, it } from 'vitest';
import { embeddedInvoiceXml } from '../../../../src-main/documents/embedded-invoice';
import { readEInvoiceXml } from '../../../../src-main/einvoice/read';
import { runInvoiceSchedule } from '../../../../src-main/store/invoices/scheduling';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { LAWFUL_BUYER_ADDRESS, makeTeamLawful } from '../../../helpers/lawful-team';
import { pdfText } from '../../pdf/pdf-text';

async function ok(api: TestApi, token: string, method: string, url: string, body?: unknown) {
  const res = await api.call(method, url, { token, body });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
}

describe('issuing an invoice', () => {
  it('refuses what the law asks and is missing, naming each field; issue-check lists the same', async () => {
    const api = await makeTestApi();
    const token = api.key('Bare GmbH');
    const team = api.team('Bare GmbH');
    // Established in Germany, nothing else said: no address, no VAT number, no IBAN.
    await ok(api, token, 'PATCH', `/v1/teams/${team.id}`, { countryCode: 'DE' });
    const customer = await ok(api, token, 'POST', '/v1/customers', { name: 'Kunde AG', email: 'ap@kunde.example' });
    const inv = await ok(api, token, 'POST', '/v1/invoices', {
      customerId: customer.id,
      lineItems: [{ name: 'Beratung', quantity: 1, price: 100 }],
    });
    const check = await ok(api, token, 'GET', `/v1/invoices/${inv.id}/issue-check`);
    expect(check.ok).toBe(false);
    const fields = check.failures.map((f: { field: string }) => f.field);
    expect(fields).toEqual([
      'BT-31 team.vatNumber',
      'BT-35 team.address',
      'BT-37 team.city',
      'BT-38 team.zip',
      'BT-50 customer.address',
      'BT-52 customer.city',
      'BT-53 customer.zip',
      'BT-55 customer.countryCode',
      'template.vatExemptionReason',
      'bankAccount.iban',
    ]);
    const send = await api.call('POST', `/v1/invoices/${inv.id}/send`, { token, body: {} });
    expect(send.statusCode).toBe(422);
    expect(send.json().rules.map((f: { field: string }) => f.field)).toEqual(fields);
    expect((await ok(api, token, 'GET', `/v1/invoices/${inv.id}`)).status).toBe('draft');
    // Marking it sent by hand, or creating it sent, is refused the same way.
    expect((await api.call('PATCH', `/v1/invoices/${inv.id}`, { token, body: { status: 'unpaid' } })).statusCode).toBe(422);
    const created = await api.call('POST', '/v1/invoices', {
      token,
      body: { customerId: customer.id, deliveryType: 'create_and_send', lineItems: [{ name: 'x', price: 1 }] },
    });
    expect(created.statusCode).toBe(422);

    // Filled in: it goes out.
    makeTeamLawful(api.db, 'Bare GmbH');
    await ok(api, token, 'PATCH', `/v1/customers/${customer.id}`, { ...LAWFUL_BUYER_ADDRESS });
    // The team's default reason for untaxed lines came after this draft: the draft charges VAT instead.
    expect(
      (await ok(api, token, 'GET', `/v1/invoices/${inv.id}/issue-check`)).failures.map((f: { rule: string }) => f.rule),
    ).toEqual(['ART226-11']);
    await ok(api, token, 'PATCH', `/v1/invoices/${inv.id}`, { template: { vatRate: 19 } });
    expect((await ok(api, token, 'GET', `/v1/invoices/${inv.id}/issue-check`)).failures).toEqual([]);
    expect((await ok(api, token, 'POST', `/v1/invoices/${inv.id}/send`, {})).status).toBe('unpaid');
  });

  it('issues as the hosted service does for a team that has not said it is in the EU (the check is advice)', async () => {
    const api = await makeTestApi();
    const token = api.key('Nowhere Ltd');
    const customer = await ok(api, token, 'POST', '/v1/customers', { name: 'Client', email: 'c@client.example' });
    const inv = await ok(api, token, 'POST', '/v1/invoices', { customerId: customer.id, lineItems: [{ name: 'x', price: 5 }] });
    expect((await ok(api, token, 'GET', `/v1/invoices/${inv.id}/issue-check`)).failures.length).toBeGreaterThan(0);
    expect((await ok(api, token, 'POST', `/v1/invoices/${inv.id}/send`, {})).status).toBe('unpaid');
  });

  it('keeps what was issued: the PDF and the hybrid, page and XML alike, after the team moves and changes its IBAN', async () => {
    const api = await makeTestApi();
    const token = api.key('Frozen GmbH');
    const teamId = makeTeamLawful(api.db, 'Frozen GmbH');
    await ok(api, token, 'PATCH', `/v1/teams/${teamId}`, { peppolId: '9930:DE123456789', email: 'bill@frozen.example' });
    const customer = await ok(api, token, 'POST', '/v1/customers', {
      name: 'Kunde AG',
      email: 'ap@kunde.example',
      vatNumber: 'DE987654321',
      eInvoiceFormat: 'factur-x-en16931',
      ...LAWFUL_BUYER_ADDRESS,
    });
    const inv = await ok(api, token, 'POST', '/v1/invoices', {
      customerId: customer.id,
      template: { vatRate: 19 },
      lineItems: [{ name: 'Beratung', quantity: 2, price: 100 }],
    });
    // A draft follows the team's record.
    expect((await pdfText((await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token })).rawPayload)).join()).toContain(
      'Friedrichstraße 12',
    );
    await ok(api, token, 'POST', `/v1/invoices/${inv.id}/send`, {});
    const issuedPdf = (await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token })).rawPayload;
    const hybrid = (await api.call('GET', `/v1/invoices/${inv.id}/e-invoice`, { token })).rawPayload;

    // The team moves, changes its VAT number and its account; the customer moves too; the invoice is paid.
    await ok(api, token, 'PATCH', `/v1/teams/${teamId}`, {
      addressLine1: 'Neue Straße 99',
      zip: '20095',
      city: 'Hamburg',
      vatNumber: 'DE111111111',
    });
    const accounts = (await ok(api, token, 'GET', '/v1/bank-accounts')).data;
    await ok(api, token, 'PATCH', `/v1/bank-accounts/${accounts[0].id}`, { iban: 'DE02120300000000202051' });
    await ok(api, token, 'PATCH', `/v1/customers/${customer.id}`, { addressLine1: 'Andere Allee 7' });
    await ok(api, token, 'PATCH', `/v1/invoices/${inv.id}`, { status: 'paid' });

    const pdfAfter = (await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token })).rawPayload;
    expect(pdfAfter.equals(issuedPdf)).toBe(true);
    const text = (await pdfText(pdfAfter)).join('\n');
    expect(text).toContain('Friedrichstraße 12');
    expect(text).toContain('DE123456789');
    expect(text).toContain('DE89 3704 0044 0532 0130 00');
    expect(text).toContain('Torstraße 1');
    expect(text).not.toMatch(/Hamburg|Andere Allee|PAID/);

    const hybridAfter = (await api.call('GET', `/v1/invoices/${inv.id}/e-invoice`, { token })).rawPayload;
    expect(hybridAfter.equals(hybrid)).toBe(true);
    const xml = await embeddedInvoiceXml(hybridAfter);
    const read = readEInvoiceXml(xml!.xml).invoice;
    expect(read.seller.vatId).toBe('DE123456789');
    expect(read.seller.address.line1).toBe('Friedrichstraße 12');
    expect(read.payment?.iban).toBe('DE89370400440532013000');
    expect(read.buyer.address.line1).toBe('Torstraße 1');
    // The hybrid's visible page is the issued PDF's text.
    expect((await pdfText(hybridAfter)).join('\n')).toContain('Friedrichstraße 12');

    // A new draft for the same customer takes the team as it is now.
    const next = await ok(api, token, 'POST', '/v1/invoices', {
      customerId: customer.id,
      template: { vatRate: 19 },
      lineItems: [{ name: 'Nachtrag', price: 10 }],
    });
    expect((await pdfText((await api.call('GET', `/v1/invoices/${next.id}/pdf`, { token })).rawPayload)).join()).toContain(
      'Neue Straße 99',
    );
  });

  it("takes a line's VAT rate from its category, and writes in the customer's language with the reverse-charge note", async () => {
    const api = await makeTestApi();
    const token = api.key('Verlag GmbH');
    makeTeamLawful(api.db, 'Verlag GmbH');
    const books = await ok(api, token, 'POST', '/v1/transaction-categories', { name: 'Buchverkauf', taxRate: 7 });
    const de = await ok(api, token, 'POST', '/v1/customers', {
      name: 'Buchhandlung Berlin',
      email: 'b@buch.example',
      invoiceLocale: 'de-de',
      ...LAWFUL_BUYER_ADDRESS,
    });
    expect(de.invoiceLocale).toBe('de-DE');
    const two = await ok(api, token, 'POST', '/v1/invoices', {
      customerId: de.id,
      template: { vatRate: 19 },
      lineItems: [
        { name: 'Lektorat', quantity: 1, price: 100 },
        { name: 'Handbuch', quantity: 10, price: 20, category: books.slug },
      ],
    });
    expect(two.lineItems.map((l: { vat: number | null; category: string | null }) => [l.vat, l.category])).toEqual([
      [null, null],
      [7, books.slug],
    ]);
    expect([two.subtotal, two.vat, two.amount]).toEqual([300, 19 + 14, 333]);
    expect([two.template.locale, two.template.dateFormat]).toEqual(['de-DE', 'dd.MM.yyyy']);
    const bad = await api.call('POST', '/v1/invoices', {
      token,
      body: { customerId: de.id, lineItems: [{ name: 'x', price: 1, category: 'no-such-category' }] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields[0].path).toBe('lineItems.0.category');
    await ok(api, token, 'POST', `/v1/invoices/${two.id}/send`, {});
    const text = (await pdfText((await api.call('GET', `/v1/invoices/${two.id}/pdf`, { token })).rawPayload)).join('\n');
    expect(text).toContain('Rechnung');
    expect(text).toContain('USt. 19 % auf 100,00 €');
    expect(text).toContain('USt. 7 % auf 200,00 €');
    expect(text).toMatch(/Bitte überweisen Sie 333,00 € ohne Abzug bis zum \d\d\.\d\d\.\d{4}\./);
    expect(text).toContain('Zahlungsbedingungen: 30 Tage netto.');
    expect(text).toContain('IBAN: DE89 3704 0044 0532 0130 00');

    // An Austrian business with a VAT number: reverse charge, the note in the customer's language.
    const at = await ok(api, token, 'POST', '/v1/customers', {
      name: 'Wiener Werkstatt GmbH',
      email: 'office@werkstatt.example',
      invoiceLocale: 'en-GB',
      addressLine1: 'Ringstraße 1',
      zip: '1010',
      city: 'Wien',
      countryCode: 'AT',
      vatNumber: 'ATU12345678',
    });
    const rc = await ok(api, token, 'POST', '/v1/invoices', {
      customerId: at.id,
      template: { vatRate: 0, vatCategory: 'AE', vatExemptionReasonCode: 'VATEX-EU-AE', vatExemptionReason: null },
      lineItems: [{ name: 'Consulting', quantity: 1, price: 500 }],
    });
    expect((await ok(api, token, 'GET', `/v1/invoices/${rc.id}/issue-check`)).failures).toEqual([]);
    await ok(api, token, 'POST', `/v1/invoices/${rc.id}/send`, {});
    const rcText = (await pdfText((await api.call('GET', `/v1/invoices/${rc.id}/pdf`, { token })).rawPayload)).join('\n');
    expect(rcText).toContain('REVERSE CHARGE');
    expect(rcText).toContain('Reverse charge: the recipient is liable for the VAT (Art. 196 Council Directive 2006/112/EC).');
    expect(rcText).toContain('ATU12345678');
  });

  it("starts the e-mail from the invoice's text in its language, and reminders state the team's dunning level and fee", async () => {
    const api = await makeTestApi();
    const token = api.key('Mahn GmbH');
    makeTeamLawful(api.db, 'Mahn GmbH');
    await ok(api, token, 'PATCH', '/v1/invoices/settings', {
      dunning: {
        levels: [
          { daysAfterDue: 7, fee: 0 },
          { daysAfterDue: 21, fee: 5 },
        ],
        automatic: true,
      },
    });
    const settings = await ok(api, token, 'GET', '/v1/invoices/settings');
    expect(settings.dunning.levels).toHaveLength(2);
    const refused = await api.call('PATCH', '/v1/invoices/settings', {
      token,
      body: {
        dunning: {
          levels: [
            { daysAfterDue: 10, fee: 0 },
            { daysAfterDue: 5, fee: 1 },
          ],
          automatic: false,
        },
      },
    });
    expect(refused.statusCode).toBe(422);

    const customer = await ok(api, token, 'POST', '/v1/customers', {
      name: 'Spät AG',
      email: 'ap@spaet.example',
      invoiceLocale: 'de-DE',
      ...LAWFUL_BUYER_ADDRESS,
    });
    const inv = await ok(api, token, 'POST', '/v1/invoices', {
      customerId: customer.id,
      issueDate: '2026-04-01',
      dueDate: '2026-04-15',
      template: { vatRate: 19 },
      lineItems: [{ name: 'Wartung', price: 100 }],
    });
    const draft = await ok(api, token, 'GET', `/v1/invoices/${inv.id}/email`);
    expect(draft).toMatchObject({ kind: 'invoice', to: 'ap@spaet.example', locale: 'de-DE' });
    expect(draft.subject).toBe(`Rechnung ${inv.invoiceNumber} von Mahn GmbH`);
    expect(draft.message).toContain('anbei erhalten Sie die Rechnung');
    const sent = await ok(api, token, 'POST', `/v1/invoices/${inv.id}/send`, {
      subject: 'Ihre Rechnung für April',
      message: 'Hallo, anbei die Rechnung. Grüße',
    });
    const row = api.db.prepare('SELECT subject, message FROM invoice_deliveries WHERE id = ?').get(sent.delivery.id);
    expect(row).toEqual({ subject: 'Ihre Rechnung für April', message: 'Hallo, anbei die Rechnung. Grüße' });

    // The schedule on the test day (2026-06-16): 62 days past due, both levels' days have come — one reminder, level 2.
    const reminder = await ok(api, token, 'GET', `/v1/invoices/${inv.id}/email?kind=reminder`);
    expect([reminder.reminderLevel, reminder.fee]).toEqual([1, 0]);
    runInvoiceSchedule(api.db);
    const reminded = (await ok(api, token, 'GET', `/v1/invoices/${inv.id}`)).delivery;
    expect(reminded).toMatchObject({ kind: 'reminder', reminderLevel: 2, fee: 5 });
    runInvoiceSchedule(api.db);
    expect((await ok(api, token, 'GET', `/v1/invoices/${inv.id}/deliveries`)).data).toHaveLength(2);
    const next = await ok(api, token, 'GET', `/v1/invoices/${inv.id}/email?kind=reminder`);
    expect([next.reminderLevel, next.fee]).toEqual([2, 5]);
    expect(next.subject).toBe(`2. Mahnung: Rechnung ${inv.invoiceNumber} ist überfällig`);
    expect(next.message.replace(/\u00a0/g, ' ')).toContain(
      'Wir berechnen eine Mahngebühr von 5,00 €; bitte überweisen Sie insgesamt 124,00 €.',
    );
  });
});
