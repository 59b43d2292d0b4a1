/**
 * GET /app/transactions: the review rows carry what the review table shows (review state, category name and colour,
 * tags, attachments, note, splits, account name), under the v1 list's filters and cursor; other teams see nothing.
 */
import { describe, expect, it } from 'vitest';
import { ensureDefaultCategories } from '../../../../src-main/store/categories/categories';
import { write } from '../../../../src-main/store/write';
import { makeTestApi, type TestApi } from '../../../helpers/api';

function account(api: TestApi, team: string, name = 'Main Account'): string {
  ensureDefaultCategories(api.db, api.team(team).id);
  return write(api.db, api.team(team).id, (w) =>
    w.insert('bank_account', { name, type: 'depository', currency: 'EUR', manual: 1 }),
  );
}

describe('GET /app/transactions', () => {
  it('answers review rows with the fields the table needs', async () => {
    const api = await makeTestApi();
    const key = api.key('Review Co');
    const bankAccountId = account(api, 'Review Co');
    const tag = (await api.call('POST', '/v1/tags', { token: key, body: { name: 'travel' } })).json();
    const created = await api.call('POST', '/v1/transactions/bulk', {
      token: key,
      body: [
        {
          name: 'Train ticket',
          amount: -42.5,
          currency: 'EUR',
          date: '2026-03-02',
          bankAccountId,
          categorySlug: 'travel',
          note: 'client visit',
          tags: [{ id: tag.id }],
        },
        {
          name: 'Office supplies',
          amount: -100,
          currency: 'EUR',
          date: '2026-03-01',
          bankAccountId,
          splits: [
            { amount: -60, categorySlug: 'office-supplies' },
            { amount: -40, categorySlug: 'software' },
          ],
        },
        { name: 'Client payment', amount: 1200, currency: 'EUR', date: '2026-02-27', bankAccountId },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const res = await api.call('GET', '/app/transactions?pageSize=2', { token: key });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.data.map((r: { name: string }) => r.name)).toEqual(['Train ticket', 'Office supplies']);
    expect(page.data[0]).toMatchObject({
      date: '2026-03-02',
      amount: -42.5,
      currency: 'EUR',
      reviewState: 'to_review',
      reviewed: false,
      tags: [{ id: tag.id, name: 'travel' }],
      accountId: bankAccountId,
      accountName: 'Main Account',
      attachments: 0,
      note: 'client visit',
      splits: 0,
      manual: true,
      reconciled: false,
    });
    expect(page.data[0].category).toMatchObject({ slug: 'travel' });
    expect(page.data[0].category.color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(page.data[1].splits).toBe(2);
    expect(page.meta.hasNextPage).toBe(true);
    const next = await api.call('GET', `/app/transactions?pageSize=2&cursor=${encodeURIComponent(page.meta.cursor)}`, {
      token: key,
    });
    expect(next.json().data.map((r: { name: string }) => r.name)).toEqual(['Client payment']);

    // The v1 filters apply: reviewed ones leave the to_review state.
    await api.call('PATCH', '/v1/transactions/bulk', { token: key, body: { ids: [page.data[0].id], reviewed: true } });
    const toReview = await api.call('GET', '/app/transactions?reviewStates=to_review', { token: key });
    expect(toReview.json().data.map((r: { name: string }) => r.name)).toEqual(['Office supplies', 'Client payment']);
    const searched = await api.call('GET', '/app/transactions?q=train', { token: key });
    expect(searched.json().data).toHaveLength(1);
    expect(searched.json().data[0].reviewed).toBe(true);

    // Another team's credential sees none of them; a bad page size is 422.
    const other = await api.call('GET', '/app/transactions', { token: api.key('Other Co') });
    expect(other.json().data).toEqual([]);
    expect((await api.call('GET', '/app/transactions?pageSize=1001', { token: key })).statusCode).toBe(422);
  });

  it('sums the filtered set per currency and exports it as CSV, with formulas disarmed; other teams see nothing', async () => {
    const api = await makeTestApi();
    const key = api.key('Review Co');
    const bankAccountId = account(api, 'Review Co');
    const body = [
      { name: 'Train, return', amount: -42.5, date: '2026-03-02', note: 'said "yes"' },
      { name: '=HYPERLINK("x")', amount: -100, date: '2026-03-01' },
      { name: 'Client payment', amount: 1200, date: '2026-02-27' },
    ].map((t) => ({ ...t, currency: 'EUR', bankAccountId }));
    expect((await api.call('POST', '/v1/transactions/bulk', { token: key, body })).statusCode).toBe(200);

    const totals = await api.call('GET', '/app/transactions/totals', { token: key });
    expect(totals.json()).toEqual({
      data: [{ currency: 'EUR', count: 3, moneyIn: 1200, moneyOut: -142.5, net: 1057.5 }],
    });
    const out = await api.call('GET', '/app/transactions/totals?type=expense&absAmountRange=50&absAmountRange=', { token: key });
    expect(out.json().data).toEqual([{ currency: 'EUR', count: 1, moneyIn: 0, moneyOut: -100, net: -100 }]);

    const csv = await api.call('GET', '/app/transactions/export?start=2026-03-01', { token: key });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'date,name,counterparty,description,amount,currency,tax_rate,tax_amount,account,category,tags,status,review_state,note,id',
    );
    // Every digit of the currency: -42.50, not -42.5.
    expect(lines[1]).toMatch(/^2026-03-02,"Train, return",,,-42\.50,EUR,,,Main Account,,,posted,to_review,"said ""yes""",/);
    expect(lines[2]).toMatch(/^2026-03-01,"'=HYPERLINK\(""x""\)",,,-100\.00,EUR,/);
    expect(lines).toHaveLength(4); // the last line ends too

    // For a German spreadsheet: its column names, `;` between fields, decimal commas; the VAT of a taxed line.
    const taxed = (await api.call('GET', '/v1/transactions?q=Train', { token: key })).json().data[0];
    const patched = await api.call('PATCH', `/v1/transactions/${taxed.id}`, {
      token: key,
      body: { taxRate: 19, taxType: 'vat' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const de = await api.call('GET', '/app/transactions/export?start=2026-03-01&decimal=comma&lang=de', { token: key });
    const deLines = de.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(deLines[0]).toBe(
      'Datum;Name;Gegenpartei;Beschreibung;Betrag;Währung;USt-Satz %;USt-Betrag;Konto;Kategorie;Tags;Status;Prüfstatus;Notiz;ID',
    );
    const train = (await api.call('GET', `/v1/transactions/${taxed.id}`, { token: key })).json();
    expect(train.taxAmount).not.toBeNull();
    const vat = train.taxAmount.toFixed(2).replace('.', ',');
    expect(deLines[1]).toBe(
      `2026-03-02;Train, return;;;-42,50;EUR;19;${vat};Main Account;;;posted;to_review;"said ""yes""";${taxed.id}`,
    );
    expect((await api.call('GET', '/app/transactions/export?decimal=semicolon', { token: key })).statusCode).toBe(422);

    const other = api.key('Other Co');
    expect((await api.call('GET', '/app/transactions/totals', { token: other })).json()).toEqual({ data: [] });
    expect((await api.call('GET', '/app/transactions/export', { token: other })).body.split('\r\n')).toHaveLength(2);
  });
});
