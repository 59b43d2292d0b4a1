/**
 * GET /v1/search over real FTS5 indexes: every type found by prefix, ranked, limited per type and overall, an exact
 * amount found by a numeric term, only the caller's team, and only the types the credential may read.
 */
import { describe, expect, it } from 'vitest';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { write } from '../../../../src-main/store/write';
import { SearchResult } from '../../../../src-shared/contract/search';
import { RECEIPTS, receiptPdf } from '../../../fixtures/receipts';
import { makeTestApi } from '../../../helpers/api';
import { documentsSettled } from '../../../helpers/documents';

describe('search', () => {
  it('finds every type by prefix, ranked, team-scoped and scope-filtered', async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const token = api.key('Acme');
    const teamId = api.team('Acme').id;
    const other = api.key('Other');
    await api.call('POST', '/v1/customers', { token, body: { name: 'Globex Corporation', email: 'ap@globex.test' } });
    await api.call('POST', '/v1/customers', { token: other, body: { name: 'Globex Rival' } });
    await api.call('POST', '/v1/tracker-projects', { token, body: { name: 'Globex website relaunch' } });
    const account = write(api.db, teamId, (w) =>
      w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 1 }),
    );
    createTransactions(api.db, teamId, [
      {
        bankAccountId: account,
        name: 'GLOBEX PAYMENT 0423',
        amountMinor: 120000,
        currency: 'EUR',
        date: '2025-04-23',
        manual: true,
      },
      { bankAccountId: account, name: 'Office rent', amountMinor: -2340, currency: 'EUR', date: '2025-04-01', manual: true },
    ]);
    const cafe = await receiptPdf(RECEIPTS.find((r) => r.key === 'cafe-vienna')!);
    await api.call('POST', '/v1/documents', {
      token,
      body: { fileName: 'lunch.pdf', content: cafe.toString('base64'), title: 'Globex lunch' },
    });
    await api.call('POST', '/v1/inbox', { token, body: { fileName: 'cafe.pdf', content: cafe.toString('base64') } });
    await documentsSettled(api.db);

    const res = await api.call('GET', '/v1/search?searchTerm=glob', { token });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().map((r: unknown) => SearchResult.parse(r)) as SearchResult[];
    expect(results.map((r) => r.type).sort()).toEqual(['customer', 'tracker_project', 'transaction', 'vault']);
    expect(results.find((r) => r.type === 'customer')!.data).toMatchObject({ name: 'Globex Corporation' });
    expect(JSON.stringify(results)).not.toContain('Rival');
    for (let i = 1; i < results.length; i++) expect(results[i - 1]!.relevance).toBeGreaterThanOrEqual(results[i]!.relevance);

    // Words inside the extracted text are found too (the receipt's "Sachertorte").
    const text = (await api.call('GET', '/v1/search?searchTerm=sacher', { token })).json() as SearchResult[];
    expect(text.map((r) => r.type).sort()).toEqual(['inbox', 'vault']);

    // A figure finds the transaction with that amount, first.
    const amount = (await api.call('GET', '/v1/search?searchTerm=23.40', { token })).json() as SearchResult[];
    expect(amount[0]).toMatchObject({ type: 'transaction', data: { name: 'Office rent', amount: -23.4 } });

    const limited = (await api.call('GET', '/v1/search?searchTerm=glob&limit=2', { token })).json();
    expect(limited).toHaveLength(2);
    const onlyCustomers = (await api.call('GET', '/v1/search?searchTerm=glob&types=customer', { token })).json();
    expect(onlyCustomers.map((r: SearchResult) => r.type)).toEqual(['customer']);

    // A credential that may search but not read transactions never sees them.
    const narrow = api.key('Acme', ['search.read', 'customers.read']);
    const narrowed = (await api.call('GET', '/v1/search?searchTerm=glob', { token: narrow })).json();
    expect(narrowed.map((r: SearchResult) => r.type)).toEqual(['customer']);

    // Operators and quotes are words, never FTS syntax.
    for (const q of ['"', 'AND(', 'glob*', 'NEAR/2 x', '💶']) {
      expect((await api.call('GET', `/v1/search?searchTerm=${encodeURIComponent(q)}`, { token })).statusCode).toBe(200);
    }
  });

  it("a team's results and relevance do not move when another team adds matching records", async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const token = api.key('Acme');
    const other = api.key('Other');
    await api.call('POST', '/v1/customers', { token, body: { name: 'Hooli Cloud', note: 'cloud storage' } });
    await api.call('POST', '/v1/customers', { token, body: { name: 'Cloud Nine Catering' } });
    await api.call('POST', '/v1/tracker-projects', { token, body: { name: 'Hooli cloud migration' } });
    for (let i = 0; i < 6; i++) await api.call('POST', '/v1/customers', { token, body: { name: `Client ${i}` } });
    // Two spellings of one query, so the second is computed afresh, not served from the GET response cache.
    const get = async (url: string) => (await api.call('GET', url, { token })).json() as SearchResult[];
    const before = await get('/v1/search?searchTerm=cloud');
    expect(before).toHaveLength(3);
    for (let i = 0; i < 30; i++) {
      await api.call('POST', '/v1/customers', { token: other, body: { name: `Cloud ${i}`, note: 'cloud '.repeat(i + 1) } });
    }
    expect(await get('/v1/search?searchTerm=cloud&limit=30')).toEqual(before);
  });

  it('per-type limit caps each type; no term lists the newest', async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const token = api.key('Acme');
    for (let i = 0; i < 6; i++) await api.call('POST', '/v1/customers', { token, body: { name: `Initech ${i}` } });
    for (let i = 0; i < 4; i++) await api.call('POST', '/v1/tracker-projects', { token, body: { name: `Initech project ${i}` } });
    const res = (await api.call('GET', '/v1/search?searchTerm=initech&itemsPerTableLimit=3', { token })).json() as SearchResult[];
    expect(res.filter((r) => r.type === 'customer')).toHaveLength(3);
    expect(res.filter((r) => r.type === 'tracker_project')).toHaveLength(3);
    const newest = (await api.call('GET', '/v1/search?types=customer&itemsPerTableLimit=2', { token })).json();
    expect(newest.map((r: SearchResult) => r.data.name)).toEqual(['Initech 5', 'Initech 4']);
  });
});
