/**
 * Invoice PDFs, opened with pdfjs-dist: the number, the parties, every line, the totals with VAT, the payment
 * details, in the invoice's locale and currency formatting; long invoices break across pages; the route serves
 * application/pdf and stores the file in the data dir, re-rendering after a change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTestApi } from '../../helpers/api';
import { pdfText } from './pdf-text';

describe('invoice PDF', () => {
  it('prints the invoice in its locale and stores it in the data dir', async () => {
    const api = await makeTestApi();
    const token = api.key('PDF Team');
    await api.call('PATCH', '/v1/invoices/settings', {
      token,
      body: {
        template: {
          fromDetails: 'Nordlicht Studio GmbH\nTorstraße 1\n10119 Berlin',
          paymentDetails: 'IBAN DE89 3704 0044 0532 0130 00',
        },
      },
    });
    const customerId = (
      await api.call('POST', '/v1/customers', {
        token,
        body: {
          name: 'Müller & Söhne KG',
          email: 'ap@mueller.example',
          addressLine1: 'Hauptstraße 5',
          zip: '80331',
          city: 'München',
          countryCode: 'DE',
          vatNumber: 'DE123456789',
        },
      })
    ).json().id;
    const created = await api.call('POST', '/v1/invoices', {
      token,
      body: {
        customerId,
        invoiceNumber: 'RE-2025-017',
        issueDate: '2025-03-01',
        dueDate: '2025-03-15',
        template: { locale: 'de-DE', dateFormat: 'dd.MM.yyyy', vatRate: 19, timezone: 'Europe/Berlin' },
        lineItems: [
          { name: 'Konzeption', quantity: 12.5, unit: 'Std.', price: 95 },
          { name: 'Lizenz', quantity: 1, unit: 'Stk.', price: 1234.56 },
        ],
        note: 'Vielen Dank für Ihren Auftrag.',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const inv = created.json();
    // 12.5 × 95 = 1,187.50; + 1,234.56 = 2,422.06; VAT 19 % = 460.1914 → 460.19; total 2,882.25.
    expect([inv.subtotal, inv.vat, inv.amount]).toEqual([2422.06, 460.19, 2882.25]);
    const res = await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('RE-2025-017.pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const [page] = await pdfText(res.rawPayload);
    expect(page).toContain('Rechnung');
    expect(page).toContain('RE-2025-017');
    expect(page).toContain('01.03.2025');
    expect(page).toContain('15.03.2025');
    expect(page).toContain('Nordlicht Studio GmbH');
    expect(page).toContain('Müller & Söhne KG');
    expect(page).toContain('80331 München');
    expect(page).toContain('DE123456789');
    expect(page).toContain('Konzeption');
    expect(page).toContain('12,5');
    expect(page).toContain('1.187,50 €');
    expect(page).toContain('1.234,56 €');
    expect(page).toContain('2.422,06 €'); // subtotal
    expect(page).toContain('USt. 19 %');
    expect(page).toContain('460,19 €');
    expect(page).toContain('2.882,25 €'); // total due
    expect(page).toContain('IBAN DE89 3704 0044 0532 0130 00');
    expect(page).toContain('Vielen Dank für Ihren Auftrag.');
    expect(page).toContain('ENTWURF');

    // Stored in the data dir, and served from there until the invoice changes.
    const file = path.join(api.dataDir, 'invoices', api.team('PDF Team').id, `${inv.id}.pdf`);
    expect(fs.readFileSync(file).equals(res.rawPayload)).toBe(true);
    const mtime = fs.statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token });
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    await api.call('PATCH', `/v1/invoices/${inv.id}`, { token, body: { status: 'unpaid' } });
    const after = await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token });
    const [again] = await pdfText(after.rawPayload);
    expect(again).not.toContain('ENTWURF');
    expect(fs.readFileSync(file).equals(after.rawPayload)).toBe(true);
  });

  it('formats other currencies and locales, and breaks long invoices across pages', async () => {
    const api = await makeTestApi();
    const token = api.key('PDF US');
    const lineItems = Array.from({ length: 60 }, (_, i) => ({ name: `Item ${i + 1}`, quantity: 1, price: 1000 + i }));
    const inv = (
      await api.call('POST', '/v1/invoices', {
        token,
        body: {
          customerName: 'Tokyo KK',
          invoiceNumber: 'JP-1',
          currency: 'JPY',
          issueDate: '2025-04-01',
          template: { locale: 'en-US', dateFormat: 'MM/dd/yyyy', size: 'letter', includeTax: true, taxRate: 10 },
          lineItems,
        },
      })
    ).json();
    // Σ (1000 … 1059) = 61770 yen; tax 10 % = 6177.
    expect([inv.subtotal, inv.tax, inv.amount]).toEqual([61770, 6177, 67947]);
    const res = await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token });
    const pages = await pdfText(res.rawPayload);
    expect(pages.length).toBeGreaterThan(1);
    const all = pages.join('\n');
    for (let i = 1; i <= 60; i++) expect(all).toContain(`Item ${i} `);
    expect(all).toContain('¥61,770');
    expect(all).toContain('¥6,177');
    expect(all).toContain('¥67,947');
    expect(all).toContain('04/01/2025');
    expect(pages[pages.length - 1]).toContain(`Page ${pages.length} of ${pages.length}`);
  });
});
