/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../../../src-main/store/ledger/maintenance';
import { createTag } from '../../../../src-main/store/tags/tags';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { getTransaction } from '../../../../src-main/store/transactions/read';
import { updateTransaction } from '../../../../src-main/store/transactions/update';
import { write } from '../../../../src-main/store/write';
import { BankAccount } from '../../../../src-shared/contract/bank-accounts';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { pdfText } from '../../pdf/pdf-text';

const SPEC_FIELDS = ['balance', 'currency', 'enrollment_id', 'expires_at', 'id', 'institution', 'name', 'resource_id', 'type'];

async function setup(): Promise<{ api: TestApi; token: string; teamId: string }> {
  const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
  const token = api.key('Bank Team');
  return { api, token, teamId: api.team('Bank Team').id };
}

function rollup(api: TestApi, teamId: string) {
  return api.db
    .prepare(
      'SELECT day, currency, category_slug, inflow_minor, outflow_minor, count FROM ledger_daily WHERE team_id = ? ORDER BY 1, 2, 3',
    )
    .all(teamId);
}

/** A connected (bank-fed) account, as a sync would write it. */
function connectedAccount(api: TestApi, teamId: string, currency = 'EUR'): string {
  return write(api.db, teamId, (w) =>
    w.insert('bank_account', {
      name: 'Connected',
      type: 'depository',
      currency,
      manual: 0,
      institution_id: 'gocardless_deutsche_bank_de',
      institution_name: 'Deutsche Bank',
      enrollment_id: null,
      resource_id: 'req-123',
      expires_at: '2026-09-30',
    }),
  );
}

describe('bank accounts', () => {
  it('creates a manual account with an opening balance booked as an excluded transaction', async () => {
    const { api, token, teamId } = await setup();
    const res = await api.call('POST', '/v1/bank-accounts', {
      token,
      body: { name: 'Cash box', currency: 'eur', manual: true, openingBalance: 1234.5, openingDate: '2026-01-01' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const account = BankAccount.parse(res.json());
    for (const f of SPEC_FIELDS) expect(account).toHaveProperty(f);
    expect(account).toMatchObject({
      name: 'Cash box',
      type: 'depository',
      currency: 'EUR',
      balance: { amount: 1234.5, currency: 'EUR' },
      manual: true,
      enabled: true,
      enrollment_id: null,
      resource_id: null,
      expires_at: null,
    });
    expect(account.institution).toMatchObject({ id: 'manual', provider: 'manual', logo: null });

    const list = (await api.call('GET', `/v1/transactions?accounts=${account.id}&statuses=excluded`, { token })).json();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ name: 'Opening balance', amount: 1234.5, date: '2026-01-01', balance: 1234.5 });
    expect(getTransaction(api.db, teamId, list.data[0].id)).toMatchObject({ status: 'excluded', manual: true });
    // In the balance, out of every report.
    expect(rollup(api, teamId)).toEqual([]);
    expect(checkLedger(api.db, teamId)).toEqual([]);
    // The team got its categories with its first account.
    expect((await api.call('GET', '/v1/transaction-categories', { token })).json().data.length).toBeGreaterThan(50);
  });

  it('answers the spec’s list and balance wrappers; a connected account without data has a null balance', async () => {
    const { api, token, teamId } = await setup();
    const manual = (await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Petty cash', currency: 'EUR' } })).json();
    const connected = connectedAccount(api, teamId);
    const list = (await api.call('GET', '/v1/bank-accounts', { token })).json();
    expect(Object.keys(list)).toEqual(['data']);
    expect(list.data.map((a: { name: string }) => a.name)).toEqual(['Connected', 'Petty cash']);
    const c = list.data[0];
    expect(c.institution).toMatchObject({
      id: 'gocardless_deutsche_bank_de',
      name: 'Deutsche Bank',
      provider: 'gocardless',
      country: 'DE',
    });
    expect(c).toMatchObject({ resource_id: 'req-123', expires_at: '2026-09-30', manual: false });

    expect((await api.call('GET', `/v1/bank-accounts/${manual.id}/balance`, { token })).json()).toEqual({
      data: { amount: 0, currency: 'EUR' },
    });
    expect((await api.call('GET', `/v1/bank-accounts/${connected}/balance`, { token })).json()).toEqual({ data: null });
    createTransactions(api.db, teamId, [
      { bankAccountId: connected, name: 'Fee', amountMinor: -350, currency: 'EUR', date: '2026-02-01', manual: false },
    ]);
    expect((await api.call('GET', `/v1/bank-accounts/${connected}/balance`, { token })).json()).toEqual({
      data: { amount: -3.5, currency: 'EUR' },
    });
    expect((await api.call('GET', '/v1/bank-accounts?manual=false', { token })).json().data).toHaveLength(1);
    expect((await api.call('GET', '/v1/bank-accounts?enabled=false', { token })).json().data).toHaveLength(0);
  });

  it('refuses what a client may not create or set', async () => {
    const { api, token, teamId } = await setup();
    const bad = [
      { name: 'x', currency: 'EUR', manual: false },
      { name: '', currency: 'EUR' },
      { name: 'x', currency: 'XXY' },
      { name: 'x', currency: 'EUR', openingBalance: 1.005 },
      { name: 'x', currency: 'JPY', openingBalance: 1.5 },
      { name: 'x', currency: 'EUR', type: 'brokerage' },
      { name: 'x', currency: 'EUR', balance: 10 },
    ];
    for (const body of bad) {
      const res = await api.call('POST', '/v1/bank-accounts', { token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().error).toBe('Unprocessable Entity');
    }
    const connected = connectedAccount(api, teamId);
    expect((await api.call('PATCH', `/v1/bank-accounts/${connected}`, { token, body: { balance: 5 } })).statusCode).toBe(409);
    expect((await api.call('PATCH', `/v1/bank-accounts/${connected}`, { token, body: { currency: 'USD' } })).statusCode).toBe(
      409,
    );
    const renamed = await api.call('PATCH', `/v1/bank-accounts/${connected}`, { token, body: { name: 'Main', enabled: false } });
    expect(renamed.json()).toMatchObject({ name: 'Main', enabled: false });
  });

  it('sets a manual balance through an adjustment and changes currency only while empty', async () => {
    const { api, token, teamId } = await setup();
    const a = (await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Wallet', currency: 'EUR' } })).json();
    const usd = await api.call('PATCH', `/v1/bank-accounts/${a.id}`, { token, body: { currency: 'USD', balance: 100 } });
    expect(usd.statusCode, usd.body).toBe(200);
    expect(usd.json()).toMatchObject({ currency: 'USD', balance: { amount: 100, currency: 'USD' } });
    const down = await api.call('PATCH', `/v1/bank-accounts/${a.id}`, { token, body: { balance: 62.5 } });
    expect(down.json().balance).toEqual({ amount: 62.5, currency: 'USD' });
    const lines = (await api.call('GET', `/v1/transactions?accounts=${a.id}&statuses=excluded&sort=amount`, { token })).json()
      .data;
    expect(lines.map((t: { name: string; amount: number }) => [t.name, t.amount])).toEqual([
      ['Balance adjustment', -37.5],
      ['Balance adjustment', 100],
    ]);
    const same = await api.call('PATCH', `/v1/bank-accounts/${a.id}`, { token, body: { balance: 62.5 } });
    expect(same.json().balance.amount).toBe(62.5);
    expect(api.db.prepare('SELECT count(*) FROM transactions WHERE bank_account_id = ?').pluck().get(a.id)).toBe(2);
    const refused = await api.call('PATCH', `/v1/bank-accounts/${a.id}`, { token, body: { currency: 'EUR' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('2 transactions');
    expect(checkLedger(api.db, teamId)).toEqual([]);
  });

  it('deletes an empty account; one with transactions only with cascade, leaving the ledger consistent', async () => {
    const { api, token, teamId } = await setup();
    const keep = (
      await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Keep', currency: 'EUR', openingBalance: 50 } })
    ).json().id as string;
    const empty = (await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Empty', currency: 'EUR' } })).json().id;
    const gone = await api.call('DELETE', `/v1/bank-accounts/${empty}`, { token });
    expect(gone.json()).toMatchObject({ id: empty, name: 'Empty', transactionsDeleted: 0 });
    expect((await api.call('GET', `/v1/bank-accounts/${empty}`, { token })).statusCode).toBe(404);

    const doomed = connectedAccount(api, teamId);
    const tag = createTag(api.db, teamId, { name: 'doomed' }).id;
    const [bankLine, manualLine, splitLine] = createTransactions(api.db, teamId, [
      {
        bankAccountId: doomed,
        name: 'Rent',
        amountMinor: -100_000,
        currency: 'EUR',
        date: '2026-01-03',
        manual: false,
        categorySlug: 'rent',
        tagIds: [tag],
      },
      { bankAccountId: doomed, name: 'Cash note', amountMinor: 2_000, currency: 'EUR', date: '2026-01-04', manual: true },
      {
        bankAccountId: doomed,
        name: 'Shop',
        amountMinor: -3_000,
        currency: 'EUR',
        date: '2026-01-05',
        manual: false,
        splits: [
          { amountMinor: -1_000, categorySlug: 'office-supplies' },
          { amountMinor: -2_000, categorySlug: 'meals' },
        ],
      },
    ]) as [string, string, string];
    createTransactions(api.db, teamId, [
      {
        bankAccountId: keep,
        name: 'Other account line',
        amountMinor: -700,
        currency: 'EUR',
        date: '2026-01-04',
        manual: true,
        categorySlug: 'rent',
      },
    ]);
    const keepBefore = (await api.call('GET', `/v1/bank-accounts/${keep}`, { token })).json();
    const refused = await api.call('DELETE', `/v1/bank-accounts/${doomed}`, { token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().description).toContain('cascade=true');

    updateTransaction(api.db, teamId, splitLine, { reconciledAt: '2026-02-01T00:00:00.000Z' });
    const reconciled = await api.call('DELETE', `/v1/bank-accounts/${doomed}?cascade=true`, { token });
    expect(reconciled.statusCode).toBe(409);
    expect(reconciled.json().message).toContain('reconciled');
    expect((await api.call('GET', `/v1/bank-accounts/${doomed}`, { token })).statusCode).toBe(200);
    updateTransaction(api.db, teamId, splitLine, { reconciledAt: null });

    const seqBefore = api.db.prepare('SELECT change_seq FROM teams WHERE id = ?').pluck().get(teamId) as number;
    const cascade = await api.call('DELETE', `/v1/bank-accounts/${doomed}?cascade=true`, { token });
    expect(cascade.statusCode, cascade.body).toBe(200);
    expect(cascade.json()).toMatchObject({ id: doomed, transactionsDeleted: 3 });
    for (const id of [bankLine, manualLine, splitLine]) {
      expect((await api.call('GET', `/v1/transactions/${id}`, { token })).statusCode).toBe(404);
      expect(api.db.prepare("SELECT op FROM changes WHERE entity = 'transaction' AND entity_id = ?").pluck().get(id)).toBe(
        'delete',
      );
    }
    expect(api.db.prepare("SELECT op FROM changes WHERE entity = 'bank_account' AND entity_id = ?").pluck().get(doomed)).toBe(
      'delete',
    );
    for (const table of ['transaction_splits', 'transaction_tags', 'transaction_field_sources']) {
      expect(
        api.db
          .prepare(`SELECT count(*) FROM ${table} WHERE transaction_id IN (?, ?, ?)`)
          .pluck()
          .get(bankLine, manualLine, splitLine),
        table,
      ).toBe(0);
    }
    expect(api.db.prepare("SELECT count(*) FROM transactions_fts WHERE transactions_fts MATCH 'Shop'").pluck().get()).toBe(0);
    // Only the other account's figures remain, untouched.
    expect(rollup(api, teamId)).toEqual([
      { day: '2026-01-04', currency: 'EUR', category_slug: 'rent', inflow_minor: 0, outflow_minor: 700, count: 1 },
    ]);
    expect((await api.call('GET', `/v1/bank-accounts/${keep}`, { token })).json()).toEqual(keepBefore);
    expect(checkLedger(api.db, teamId)).toEqual([]);
    expect(api.db.prepare('SELECT change_seq FROM teams WHERE id = ?').pluck().get(teamId)).toBeGreaterThan(seqBefore);
  });

  it('keeps accounts to their team', async () => {
    const { api, token } = await setup();
    const other = api.key('Other Bank Team');
    const mine = (await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Mine', currency: 'EUR' } })).json().id;
    for (const [method, url, body] of [
      ['GET', `/v1/bank-accounts/${mine}`],
      ['GET', `/v1/bank-accounts/${mine}/balance`],
      ['GET', `/v1/bank-accounts/${mine}/statement?from=2026-01-01&to=2026-01-31`],
      ['PATCH', `/v1/bank-accounts/${mine}`, { name: 'Theirs now' }],
      ['DELETE', `/v1/bank-accounts/${mine}?cascade=true`],
    ] as [string, string, unknown?][]) {
      expect((await api.call(method, url, { token: other, body })).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await api.call('GET', '/v1/bank-accounts', { token: other })).json().data).toEqual([]);
    expect((await api.call('GET', `/v1/bank-accounts/${mine}`, { token })).json().name).toBe('Mine');
  });
});

describe('account statement PDF', () => {
  it('prints the opening balance, every transaction with its running balance, and the closing balance', async () => {
    const { api, token, teamId } = await setup();
    const account = (
      await api.call('POST', '/v1/bank-accounts', {
        token,
        body: { name: 'Business Checking', currency: 'EUR', openingBalance: 1000, openingDate: '2025-12-01' },
      })
    ).json().id as string;
    createTransactions(api.db, teamId, [
      {
        bankAccountId: account,
        name: 'Before the period',
        amountMinor: -10_000,
        currency: 'EUR',
        date: '2025-12-20',
        manual: true,
      },
      {
        bankAccountId: account,
        name: 'Client payment',
        amountMinor: 250_075,
        currency: 'EUR',
        date: '2026-01-05',
        manual: true,
        counterpartyName: 'Acme GmbH',
      },
      { bankAccountId: account, name: 'Office rent', amountMinor: -120_000, currency: 'EUR', date: '2026-01-10', manual: true },
      {
        bankAccountId: account,
        name: 'Hotel hold',
        amountMinor: -4_550,
        currency: 'EUR',
        date: '2026-01-31',
        manual: true,
        status: 'pending',
      },
      {
        bankAccountId: account,
        name: 'After the period',
        amountMinor: -99_900,
        currency: 'EUR',
        date: '2026-02-01',
        manual: true,
      },
    ]);
    const res = await api.call('GET', `/v1/bank-accounts/${account}/statement?from=2026-01-01&to=2026-01-31`, { token });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('statement-Business-Checking-2026-01-01-2026-01-31.pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await pdfText(res.rawPayload)).join('\n');
    // Opening 1,000.00 − 100.00 = 900.00; then +2,500.75 → 3,400.75; −1,200.00 → 2,200.75; −45.50 → 2,155.25.
    expect(text).toContain('Account statement');
    expect(text).toContain('Bank Team');
    expect(text).toMatch(/Opening balance \(2026-01-01\)\s+€900\.00/);
    expect(text).toMatch(/Money in\s+€2,500\.75/);
    expect(text).toMatch(/Money out\s+-€1,245\.50/);
    expect(text).toMatch(/Closing balance \(2026-01-31\)\s+€2,155\.25/);
    expect(text).toMatch(/2026-01-05\s+Client payment\s+Acme GmbH\s+€2,500\.75\s+€3,400\.75/);
    expect(text).toMatch(/2026-01-10\s+Office rent\s+-€1,200\.00\s+€2,200\.75/);
    expect(text).toMatch(/2026-01-31\s+Hotel hold \[pending\]\s+-€45\.50\s+€2,155\.25/);
    expect(text).toContain('3 transactions');
    expect(text).not.toContain('Before the period');
    expect(text).not.toContain('After the period');
    expect(text).toContain('Page 1 of 1');

    // The same data gives the same bytes.
    const again = await api.call('GET', `/v1/bank-accounts/${account}/statement?from=2026-01-01&to=2026-01-31`, { token });
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);

    const empty = await api.call('GET', `/v1/bank-accounts/${account}/statement?from=2024-01-01&to=2024-01-31`, { token });
    const emptyText = (await pdfText(empty.rawPayload)).join('\n');
    expect(emptyText).toContain('No transactions in this period.');
    expect(emptyText).toMatch(/Closing balance \(2024-01-31\)\s+€0\.00/);

    const backwards = await api.call('GET', `/v1/bank-accounts/${account}/statement?from=2026-02-01&to=2026-01-01`, { token });
    expect(backwards.statusCode).toBe(422);
    expect(
      (await api.call('GET', `/v1/bank-accounts/${account}/statement?from=2026-02-30&to=2026-03-01`, { token })).statusCode,
    ).toBe(422);
  });

  it('takes the opening balance into the opening figure, names the holder, the IBAN and the day it was made', async () => {
    const { api, token, teamId } = await setup();
    const team = await api.call('PATCH', `/v1/teams/${teamId}`, {
      token,
      body: { addressLine1: 'Torstraße 1', zip: '10119', city: 'Berlin', countryCode: 'DE', vatNumber: 'DE123456789' },
    });
    expect(team.statusCode, team.body).toBe(200);
    expect(team.json()).toMatchObject({ addressLine1: 'Torstraße 1', city: 'Berlin', vatNumber: 'DE123456789' });
    // The team chose German documents in its invoice settings; the key acts for no user.
    await api.call('PATCH', '/v1/invoices/settings', {
      token,
      body: { template: { locale: 'de-DE', dateFormat: 'dd.MM.yyyy' } },
    });
    const refused = await api.call('POST', '/v1/bank-accounts', {
      token,
      body: { name: 'x', currency: 'EUR', iban: 'DE89 3704 0044 0532 0130 01' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('iban');
    const created = await api.call('POST', '/v1/bank-accounts', {
      token,
      body: {
        name: 'Geschäftskonto Müller',
        currency: 'EUR',
        openingBalance: 500,
        openingDate: '2026-01-01',
        iban: 'de89 3704 0044 0532 0130 00',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().iban).toBe('DE89370400440532013000');
    const account = created.json().id as string;
    createTransactions(api.db, teamId, [
      { bankAccountId: account, name: 'Kundenzahlung', amountMinor: 20_000, currency: 'EUR', date: '2026-01-02', manual: true },
      { bankAccountId: account, name: 'Miete', amountMinor: -5_000, currency: 'EUR', date: '2026-01-03', manual: true },
    ]);
    const res = await api.call('GET', `/v1/bank-accounts/${account}/statement?from=2026-01-01&to=2099-12-31`, { token });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toContain('filename="statement-Geschaeftskonto-Mueller-2026-01-01-2099-12-31.pdf"');
    expect(disposition).toContain("filename*=UTF-8''statement-Gesch%C3%A4ftskonto-M%C3%BCller-2026-01-01-2099-12-31.pdf");
    const text = (await pdfText(res.rawPayload)).join('\n');
    // The opening balance is the opening figure, not money in: 500 + 200 − 50 = 650.
    expect(text).toMatch(/Anfangssaldo \(01\.01\.2026\)\s+500,00 €/);
    expect(text).toMatch(/Eingänge\s+200,00 €/);
    expect(text).toMatch(/Ausgänge\s+-50,00 €/);
    expect(text).toMatch(/Endsaldo \(31\.12\.2099\)\s+650,00 €/);
    expect(text).toMatch(/02\.01\.2026\s+Kundenzahlung\s+200,00 €\s+700,00 €/);
    expect(text).toMatch(/03\.01\.2026\s+Miete\s+-50,00 €\s+650,00 €/);
    expect(text).not.toContain('ausgeschlossen');
    expect(text).toContain('2 Umsätze');
    expect(text).toMatch(/Kontoinhaber\s+Bank Team/);
    expect(text).toContain('Torstraße 1');
    expect(text).toContain('10119 Berlin');
    expect(text).toContain('Deutschland');
    expect(text).toMatch(/IBAN\s+DE89 3704 0044 0532 0130 00/);
    const today = new Date().toISOString().slice(0, 10).split('-').reverse().join('.');
    expect(text).toContain(`Erstellt am ${today}`);
    expect(text).toMatch(/Der Zeitraum reicht über den \d\d\.\d\d\.\d{4} hinaus/);

    // A period that has ended carries no such note; a later period starts from the whole balance.
    const past = (
      await pdfText(
        (
          await api.call('GET', `/v1/bank-accounts/${account}/statement?from=2026-01-03&to=2026-01-31`, { token })
        ).rawPayload,
      )
    ).join('\n');
    expect(past).not.toContain('Der Zeitraum reicht');
    expect(past).toMatch(/Anfangssaldo \(03\.01\.2026\)\s+700,00 €/);
    expect(past).toMatch(/Eingänge\s+0,00 €/);
    expect(checkLedger(api.db, teamId)).toEqual([]);
  });

  it('breaks a long statement across pages and follows the reader’s locale and date format', async () => {
    const { api, token, teamId } = await setup();
    api.db
      .prepare(
        "INSERT INTO users (id, email, full_name, locale, date_format, created_at, updated_at) VALUES ('u1', 'de@x.test', 'Grete', 'de-DE', 'dd.MM.yyyy', 'x', 'x')",
      )
      .run();
    api.db.prepare("INSERT INTO team_members (team_id, user_id, role, created_at) VALUES (?, 'u1', 'owner', 'x')").run(teamId);
    const account = (await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Konto', currency: 'EUR' } })).json().id;
    createTransactions(
      api.db,
      teamId,
      Array.from({ length: 120 }, (_, i) => ({
        bankAccountId: account,
        name: `Buchung ${i + 1}`,
        amountMinor: 1_000 + i,
        currency: 'EUR',
        date: `2026-03-${String(1 + (i % 28)).padStart(2, '0')}`,
        manual: true,
      })),
    );
    const res = await api.call('GET', `/v1/bank-accounts/${account}/statement?from=2026-03-01&to=2026-03-31`, { token });
    const pages = await pdfText(res.rawPayload);
    expect(pages.length).toBeGreaterThan(2);
    const text = pages.join('\n');
    expect(text).toContain('Kontoauszug');
    expect(text).toContain(`Seite 1 von ${pages.length}`);
    // Σ (1000 + i) for i < 120 = 127,140 minor units.
    expect(text).toMatch(/Endsaldo \(31\.03\.2026\)\s+1\.271,40\s€/);
    for (let i = 1; i <= 120; i++) expect(text).toContain(`Buchung ${i} `);
    expect(checkLedger(api.db, teamId)).toEqual([]);
  });
});
