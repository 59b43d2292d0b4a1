import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';

/** The bank account a file is imported into, read within its team. */

export interface Account {
  id: string;
  currency: string;
  name: string;
}

export function importAccount(db: Db, teamId: string, accountId: string): Account {
  const a = db.prepare('SELECT id, currency, name FROM bank_accounts WHERE team_id = ? AND id = ?').get(teamId, accountId) as
    | Account
    | undefined;
  if (!a) throw new NotFound('bank account', accountId);
  return a;
}

/** Checks an account id from a request: another team's is the same as none. */
export function checkImportAccount(db: Db, teamId: string, accountId: string, field = 'bankAccountId'): Account {
  try {
    return importAccount(db, teamId, accountId);
  } catch {
    throw new InvalidReference(field, `Unknown bank account ${accountId}`);
  }
}

/** The team's accounts a statement could go to. */
export function teamAccounts(db: Db, teamId: string): Account[] {
  return db.prepare('SELECT id, currency, name FROM bank_accounts WHERE team_id = ? ORDER BY name, id').all(teamId) as Account[];
}

/**
 * The team's account whose IBAN is the reference a statement names (normalised as `normalizeAccountRef` does, so
 * "NL69INGB0123456789EUR" finds NL69INGB0123456789), if exactly one has it.
 */
export function accountOfIban(db: Db, teamId: string, ref: string): string | null {
  const ids = db
    .prepare('SELECT id FROM bank_accounts WHERE team_id = ? AND iban = ? LIMIT 2')
    .pluck()
    .all(teamId, ref) as string[];
  return ids.length === 1 ? ids[0]! : null;
}

/** The account the team's last import of a statement naming `ref` went to (docs/decisions/0069), if any. */
export function accountOfRef(db: Db, teamId: string, ref: string): string | null {
  return (
    (db
      .prepare(
        `SELECT bank_account_id FROM import_batches INDEXED BY import_batches_ref WHERE team_id = ? AND account_ref = ?
         ORDER BY created_at DESC, id DESC LIMIT 1`,
      )
      .pluck()
      .get(teamId, ref) as string | undefined) ?? null
  );
}
