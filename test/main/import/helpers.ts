import { type CommitFileOptions, commitFile, previewFile } from '../../../src-main/import/service';
import { ensureDefaultCategories } from '../../../src-main/store/categories/categories';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { createTeam } from '../../../src-main/store/teams/teams';
import { write } from '../../../src-main/store/write';
import { tmpDir } from '../../helpers/tmp';

export interface Books {
  db: Db;
  team: string;
  other: string;
  checking: string;
  savings: string;
}

/** A real data dir with a team (and another team), a checking and a savings account in EUR. */
export function books(): Books {
  const db = openDatabase(tmpDir('finops-import-'));
  const team = createTeam(db, { name: 'Import Co', baseCurrency: 'EUR', countryCode: 'DE' }).id;
  const other = createTeam(db, { name: 'Other Co', baseCurrency: 'EUR', countryCode: 'DE' }).id;
  for (const t of [team, other]) ensureDefaultCategories(db, t, { countryCode: 'DE' });
  const [checking, savings] = write(db, team, (w) => [
    w.insert('bank_account', { name: 'Checking', type: 'depository', currency: 'EUR', manual: 0 }),
    w.insert('bank_account', { name: 'Savings', type: 'depository', currency: 'EUR', manual: 0 }),
  ]) as [string, string];
  return { db, team, other, checking, savings };
}

/** A semicolon CSV in the DKB style from rows of [day DD.MM.YYYY, payee, purpose, amount "−12,50"]. */
export function csv(rows: readonly (readonly [string, string, string, string])[]): Buffer {
  const head = '"Buchungstag";"Auftraggeber / Begünstigter";"Verwendungszweck";"Betrag (EUR)"\n';
  return Buffer.from(head + rows.map((r) => r.map((c) => `"${c}"`).join(';')).join('\n') + '\n');
}

export function importFile(b: Books, account: string, bytes: Buffer, o: CommitFileOptions = {}) {
  return commitFile(b.db, b.team, account, bytes, { fileName: 'statement.csv', ...o });
}

export async function preview(b: Books, account: string, bytes: Buffer) {
  return (await previewFile(b.db, b.team, account, bytes, { fileName: 'statement.csv' })).preview;
}

export function accountRows(b: Books, account: string) {
  return b.db
    .prepare(
      `SELECT id, date, amount_minor AS amount, name, description, manual, external_id AS externalId, fingerprint, category_slug AS category,
         internal, status, import_batch_id AS batch FROM transactions WHERE team_id = ? AND bank_account_id = ? ORDER BY date, id`,
    )
    .all(b.team, account) as {
    id: string;
    date: string;
    amount: number;
    name: string;
    description: string | null;
    manual: number;
    externalId: string | null;
    fingerprint: string | null;
    category: string | null;
    internal: number | null;
    status: string;
    batch: string | null;
  }[];
}
