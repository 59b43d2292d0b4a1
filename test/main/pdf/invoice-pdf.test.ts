/**
 * Invoice PDFs, opened with pdfjs-dist: the number, the parties, every line, the totals with VAT, the payment
 * details, in the invoice's locale and currency formatting; long invoices break across pages; the route serves
 * application/pdf and stores the file in the data dir, re-rendering after a change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { issuedFiles } from '../../../src-main/store/invoices/files';
import { makeTestApi } from '../../helpers/api';
import { makeTeamLawful } from '../../helpers/lawful-team';
import { pdfText } from './pdf-text';

describe('invoice PDF', () => {
  it('prints the invoice in its locale and stores it in the data dir', async () => {
    const api = await makeTestApi();
    const token = api.key('PDF Team');
    makeTeamLawful(api.db, 'PDF Team');
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
    expect((await api.call('PATCH', `/v1/invoices/${inv.id}`, { token, body: { status: 'unpaid' } })).statusCode).toBe(200);
    const after = await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token });
    const [again] = await pdfText(after.rawPayload);
    expect(again).not.toContain('ENTWURF');
    // Issued: kept as first produced (docs/decisions/0119), in the data dir's issued documents, and served from there.
    const [kept] = issuedFiles(api.db, api.team('PDF Team').id, inv.id);
    expect(kept?.kind).toBe('pdf');
    expect(fs.readFileSync(path.join(api.dataDir, kept!.path)).equals(after.rawPayload)).toBe(true);
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

  it('states what the law asks: VAT numbers, supply date or service period, net and VAT per rate, the exemption reason', async () => {
    const api = await makeTestApi();
    const token = api.key('Law Team');
    const teamId = api.team('Law Team').id;
    await api.call('PATCH', `/v1/teams/${teamId}`, {
      token,
      body: { addressLine1: 'Torstraße 1', zip: '10119', city: 'Berlin', countryCode: 'DE', vatNumber: 'DE 811 907 980' },
    });
    await api.call('PATCH', '/v1/invoices/settings', {
      token,
      body: { template: { vatExemptionReason: 'Steuerfreie innergemeinschaftliche Lieferung, § 4 Nr. 1b UStG' } },
    });
    const customerId = (
      await api.call('POST', '/v1/customers', {
        token,
        body: {
          name: 'Bureau Dupont SARL',
          addressLine1: '5 rue de Rivoli',
          zip: '75001',
          city: 'Paris',
          countryCode: 'FR',
          vatNumber: 'FR40303265045',
        },
      })
    ).json().id;
    const body = {
      customerId,
      invoiceNumber: 'RE-2025-100',
      issueDate: '2025-04-02',
      supplyDate: '2025-03-01',
      supplyEndDate: '2025-03-31',
      template: { locale: 'de-DE', dateFormat: 'dd.MM.yyyy', vatRate: 19 },
      lineItems: [
        { name: 'Beratung', quantity: 10, price: 100 },
        { name: 'Fachbuch', quantity: 2, price: 50, vat: 7 },
        { name: 'Maschine (EU-Lieferung)', quantity: 1, price: 400, vat: 0 },
      ],
    };
    const created = await api.call('POST', '/v1/invoices', { token, body });
    expect(created.statusCode, created.body).toBe(201);
    const inv = created.json();
    // 19 % of 1,000.00 = 190.00; 7 % of 100.00 = 7.00; 0 % of 400.00 = 0.
    expect([inv.subtotal, inv.vat, inv.amount, inv.supplyDate, inv.supplyEndDate]).toEqual([
      1500,
      197,
      1697,
      '2025-03-01',
      '2025-03-31',
    ]);
    const de = (await pdfText((await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token })).rawPayload)).join('\n');
    expect(de).toMatch(/Leistungszeitraum:\s+01\.03\.2025 – 31\.03\.2025/);
    expect(de).toContain('USt-IdNr.: DE 811 907 980');
    expect(de).toContain('USt-IdNr.: FR40303265045');
    expect(de).toContain('Torstraße 1');
    expect(de).toContain('75001 Paris');
    expect(de).toContain('Frankreich');
    expect(de).toMatch(/Nettobetrag\s+1\.500,00 €/);
    expect(de).toMatch(/USt\. 19 % auf 1\.000,00 €\s+190,00 €/);
    expect(de).toMatch(/USt\. 7 % auf 100,00 €\s+7,00 €/);
    expect(de).toMatch(/USt\. 0 % auf 400,00 €\s+0,00 €/);
    expect(de).toMatch(/Gesamtbetrag\s+1\.697,00 €/);
    expect(de).toMatch(/OHNE UMSATZSTEUER\s+Steuerfreie innergemeinschaftliche Lieferung, § 4 Nr\. 1b UStG/);

    // English: one supply day (the issue date when none is given), labels in English; no reason where VAT is charged.
    const en = await api.call('POST', '/v1/invoices', {
      token,
      body: {
        customerName: 'Acme Ltd',
        invoiceNumber: 'INV-7',
        issueDate: '2025-05-06',
        template: { locale: 'en-GB', dateFormat: 'dd/MM/yyyy', vatRate: 20 },
        lineItems: [{ name: 'Support', quantity: 1, price: 250 }],
      },
    });
    expect(en.json().supplyDate).toBeNull();
    const enText = (await pdfText((await api.call('GET', `/v1/invoices/${en.json().id}/pdf`, { token })).rawPayload)).join('\n');
    expect(enText).toMatch(/Date of supply:\s+06\/05\/2025/);
    expect(enText).toContain('VAT number: DE 811 907 980');
    expect(enText).toMatch(/VAT 20 % on €250\.00\s+€50\.00/);
    expect(enText).not.toContain('NO VAT CHARGED');

    // French labels; a single supply day given.
    const fr = await api.call('POST', '/v1/invoices', {
      token,
      body: {
        ...body,
        invoiceNumber: 'F-1',
        supplyEndDate: null,
        supplyDate: '2025-03-15',
        template: { locale: 'fr-FR', dateFormat: 'dd/MM/yyyy', vatRate: 20 },
      },
    });
    const frText = (await pdfText((await api.call('GET', `/v1/invoices/${fr.json().id}/pdf`, { token })).rawPayload)).join('\n');
    expect(frText).toContain('Facture');
    expect(frText).toMatch(/Date de livraison ou de prestation:\s+15\/03\/2025/);
    expect(frText).toContain('N° de TVA: FR40303265045');
    expect(frText).toMatch(/TVA 20 % sur 1 000,00 €\s+200,00 €/);
    expect(frText).toMatch(/Total HT\s+1 500,00 €/);
    expect(frText).toContain('TVA NON APPLIQUÉE');

    // A service period needs its first day, and ends after it; the dates change with the content only.
    const noStart = await api.call('POST', '/v1/invoices', { token, body: { ...body, invoiceNumber: 'X-1', supplyDate: null } });
    expect(noStart.statusCode).toBe(422);
    expect(noStart.body).toContain('supplyEndDate');
    const backwards = await api.call('POST', '/v1/invoices', {
      token,
      body: { ...body, invoiceNumber: 'X-2', supplyEndDate: '2025-02-01' },
    });
    expect(backwards.statusCode).toBe(422);
    const patched = await api.call('PATCH', `/v1/invoices/${inv.id}`, { token, body: { supplyEndDate: null } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect([patched.json().supplyDate, patched.json().supplyEndDate]).toEqual(['2025-03-01', null]);
    const single = (await pdfText((await api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token })).rawPayload)).join('\n');
    expect(single).toMatch(/Leistungsdatum:\s+01\.03\.2025/);
  });
});
