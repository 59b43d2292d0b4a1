import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';

/** The bank account a file is imported into, read within its team. */

interface Account {
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
