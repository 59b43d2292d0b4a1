/**
 * The store's search on a real database with two teams (issue 33, docs/decisions/0194-search-per-team.md): a team's
 * results, their order and their relevance depend only on its own rows and the query, whatever another team adds;
 * whole words rank above prefixes; the ranked window is the team's newest matches; a user word never matches the
 * team token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../../../src-main/store/customers/write';
import { type Db, openDatabase } from '../../../../src-main/store/db';
import { ftsQuery } from '../../../../src-main/store/list/fts';
import { search, WINDOW } from '../../../../src-main/store/search/search';
import { createTeam } from '../../../../src-main/store/teams/teams';
import { createTransactions, type NewTransaction } from '../../../../src-main/store/transactions/create';
import { write } from '../../../../src-main/store/write';
import { SEARCH_TYPES, type SearchResult } from '../../../../src-shared/contract/search';
import { tmpDir } from '../../../helpers/tmp';

const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function setup() {
  const db = openDatabase(tmpDir('finops-search-'));
  dbs.push(db);
  const teamA = createTeam(db, { name: 'A' }).id;
  const teamB = createTeam(db, { name: 'B' }).id;
  const account = (team: string) =>
    write(db, team, (w) => w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 1 }));
  return { db, teamA, teamB, accountA: account(teamA), accountB: account(teamB) };
}

const tx = (bankAccountId: string, over: Partial<NewTransaction> & { name: string }): NewTransaction => ({
  bankAccountId,
  amountMinor: -1250,
  currency: 'EUR',
  date: '2026-03-02',
  manual: true,
  ...over,
});

const find = (db: Db, team: string, searchTerm: string, over: { itemsPerTableLimit?: number; limit?: number } = {}) =>
  search(db, team, { searchTerm, limit: 30, itemsPerTableLimit: 10, ...over }, SEARCH_TYPES);
const shape = (rs: SearchResult[]) => rs.map((r) => [r.type, r.id, r.relevance]);

describe('search per team', () => {
  it("a team's results, order and relevance do not move when another team adds rows", () => {
    const { db, teamA, teamB, accountA, accountB } = setup();
    upsertCustomer(db, teamA, { name: 'Coffee Beans Trading', note: 'beans beans' });
    upsertCustomer(db, teamA, { name: 'Roastery Coffee', email: 'coffee@roastery.example' });
    createTransactions(db, teamA, [
      tx(accountA, { name: 'Coffee coffee shop', note: 'beans', date: '2026-03-01' }),
      tx(accountA, { name: 'Beans beans market', description: 'coffee', date: '2026-03-02' }),
      tx(accountA, { name: 'Coffee Beans', date: '2026-03-03', amountMinor: -2340 }),
      tx(accountA, { name: 'Office rent', counterpartyName: 'Hofgarten Immobilien', amountMinor: -120000 }),
      tx(accountA, { name: 'Coffeehouse Wien', merchantName: 'Coffeehouse', date: '2026-03-04' }),
    ]);
    const queries = ['coffee', 'beans', 'coffee beans', 'coff', 'hofgarten', '23.40', 'roastery coffee'];
    const before = queries.map((q) => shape(find(db, teamA, q)));
    expect(before[0]!.length).toBeGreaterThan(3);

    // Team B: many newer rows with the same words in every proportion (bm25's IDF and average length were the
    // whole index's), more than the first scan of every team's newest matches, and a long document text.
    const rows: NewTransaction[] = [];
    for (let i = 0; i < 2 * WINDOW + 2 * 4 * WINDOW; i++) {
      rows.push(
        tx(accountB, {
          name: i % 3 ? `Coffee ${i}` : `Beans beans beans ${i}`,
          description: i % 2 ? 'coffee roastery hofgarten' : null,
          amountMinor: -2340,
          date: '2026-04-01',
        }),
      );
    }
    createTransactions(db, teamB, rows);
    for (let i = 0; i < 50; i++) upsertCustomer(db, teamB, { name: `Coffee Beans ${i}`, note: 'coffee '.repeat(i) });

    const after = queries.map((q) => shape(find(db, teamA, q)));
    expect(after).toEqual(before);
    // And B's rows are found for B (the same index), never for A.
    expect(find(db, teamB, 'coffee', { itemsPerTableLimit: 5 }).filter((r) => r.type === 'transaction')).toHaveLength(5);
    const aIds = new Set(after.flat().map((r) => r[1]));
    for (const r of find(db, teamB, 'coffee beans')) expect(aIds.has(r.id)).toBe(false);
  });

  it('whole words rank above words they only begin; the name column above a note', () => {
    const { db, teamA, accountA } = setup();
    createTransactions(db, teamA, [
      tx(accountA, { name: 'Luncheon Club', date: '2026-03-05' }),
      tx(accountA, { name: 'Team lunch', date: '2026-03-01' }),
      tx(accountA, { name: 'Card payment', note: 'lunch with client', date: '2026-03-02' }),
    ]);
    const names = find(db, teamA, 'lunch').map((r) => r.data.name);
    expect(names).toEqual(['Team lunch', 'Card payment', 'Luncheon Club']);
    const relevance = find(db, teamA, 'lunch').map((r) => r.relevance);
    expect(relevance[1]!).toBeGreaterThanOrEqual(100);
    expect(relevance[2]!).toBeLessThan(100);
    // Typed halfway, every match is a prefix match: the name beats the note, the shorter name the longer.
    expect(find(db, teamA, 'lun').map((r) => r.data.name)).toEqual(['Team lunch', 'Luncheon Club', 'Card payment']);
  });

  it("ranks the team's newest WINDOW matches of a type, found whether or not other teams' matches are newer", () => {
    const { db, teamA, teamB, accountA, accountB } = setup();
    // The best-scoring row is the oldest, beyond the window: it is not read.
    createTransactions(db, teamA, [tx(accountA, { name: 'Tea', date: '2025-01-01' })]);
    const filler: NewTransaction[] = [];
    for (let i = 0; i < WINDOW; i++) filler.push(tx(accountA, { name: `Tea and biscuits ${i}`, date: '2026-01-02' }));
    createTransactions(db, teamA, filler);
    const tea = find(db, teamA, 'tea', { itemsPerTableLimit: 100, limit: 100 });
    expect(tea).toHaveLength(100);
    expect(tea.map((r) => r.data.name)).not.toContain('Tea');

    // Another team's newer matches (more than the first scan) leave A's answer as it was.
    const others: NewTransaction[] = [];
    for (let i = 0; i < 5 * WINDOW; i++) others.push(tx(accountB, { name: `Tea ${i}`, date: '2026-02-01' }));
    createTransactions(db, teamB, others);
    expect(find(db, teamA, 'tea', { itemsPerTableLimit: 100, limit: 100 })).toEqual(tea);
  });

  it('a word never matches the team token, in search or in the list filters', () => {
    const { db, teamA, accountA } = setup();
    createTransactions(db, teamA, [tx(accountA, { name: 'Stationery' })]);
    const hex = Buffer.from(teamA, 'utf8').toString('hex');
    for (const word of [hex.slice(0, 2), hex.slice(0, 3), hex.slice(0, 8), hex, teamA.slice(0, 8)]) {
      expect(find(db, teamA, word, { itemsPerTableLimit: 10 })).toEqual([]);
      const listed = db
        .prepare('SELECT count(*) FROM transactions_fts WHERE transactions_fts MATCH ?')
        .pluck()
        .get(ftsQuery(word));
      expect(listed).toBe(0);
    }
    expect(find(db, teamA, 'station').map((r) => r.data.name)).toEqual(['Stationery']);
  });
});
