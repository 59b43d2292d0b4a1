/**
 * Migration 030 (search per team) on a database written at version 29: the rebuilt indexes hold every existing row
 * under its team's token, the recreated triggers keep them in step with inserts, updates and deletes, and every
 * index passes FTS5's integrity check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { updateCustomer, upsertCustomer } from '../../../../src-main/store/customers/write';
import { type Db, openDatabase, schemaVersion } from '../../../../src-main/store/db';
import { search } from '../../../../src-main/store/search/search';
import { createTeam } from '../../../../src-main/store/teams/teams';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { write } from '../../../../src-main/store/write';
import { SEARCH_TYPES } from '../../../../src-shared/contract/search';
import { tmpDir } from '../../../helpers/tmp';
import { insertInvoice } from '../customers/customer-fixtures';

const FTS = ['customers', 'transactions', 'invoices', 'tracker_projects', 'documents', 'inbox_items'].map((t) => `${t}_fts`);

const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const names = (db: Db, team: string, term: string) =>
  search(db, team, { searchTerm: term, limit: 30, itemsPerTableLimit: 10 }, SEARCH_TYPES).map(
    (r) => `${r.type}:${String(r.data.name ?? r.data.customerName)}`,
  );

function integrity(db: Db): void {
  for (const fts of FTS) db.prepare(`INSERT INTO ${fts}(${fts}) VALUES ('integrity-check')`).run();
}

describe('migration 030: search per team', () => {
  it('indexes the rows written before it under their team, and keeps the index in step after', () => {
    const dir = tmpDir('finops-search-migration-');
    const old = openDatabase(dir, { targetVersion: 29 });
    const teams = ['A', 'B'].map((name) => createTeam(old, { name }).id);
    for (const [i, team] of teams.entries()) {
      const account = write(old, team, (w) =>
        w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 1 }),
      );
      createTransactions(old, team, [
        {
          bankAccountId: account,
          name: `Globex payment ${i}`,
          amountMinor: 1000,
          currency: 'EUR',
          date: '2026-01-02',
          manual: true,
        },
      ]);
      const customer = upsertCustomer(old, team, { name: `Globex ${i}` }).customer.id;
      const invoice = insertInvoice(old, team, customer, {
        status: 'unpaid',
        currency: 'EUR',
        amountMinor: 5000,
        issueDate: '2026-01-05',
      });
      old.prepare('UPDATE invoices SET customer_name = ? WHERE id = ?').run(`Globex ${i}`, invoice);
    }
    old.close();

    const db = openDatabase(dir, { backupBeforeMigrating: false });
    dbs.push(db);
    expect(schemaVersion(db)).toBe(30);
    integrity(db);
    const [a, b] = teams as [string, string];
    expect(names(db, a, 'globex').sort()).toEqual(['customer:Globex 0', 'invoice:Globex 0', 'transaction:Globex payment 0']);
    expect(names(db, b, 'globex').sort()).toEqual(['customer:Globex 1', 'invoice:Globex 1', 'transaction:Globex payment 1']);

    // Written after: an insert, an update (the old words leave the index), a delete.
    const fresh = upsertCustomer(db, a, { name: 'Initech' }).customer.id;
    expect(names(db, a, 'initech')).toEqual(['customer:Initech']);
    updateCustomer(db, a, fresh, { name: 'Umbrella' });
    expect(names(db, a, 'initech')).toEqual([]);
    expect(names(db, a, 'umbrella')).toEqual(['customer:Umbrella']);
    expect(names(db, b, 'umbrella')).toEqual([]);
    db.prepare("DELETE FROM transactions WHERE team_id = ? AND name LIKE 'Globex%'").run(b);
    expect(names(db, b, 'globex payment')).toEqual([]);
    integrity(db);
  });
});
