import { nameCarriesRef, normalizeAccountRef } from '../../src-shared/domain/import/account-ref';
import type { ParsedFile } from '../../src-shared/domain/import/types';
import { ImportRefused } from '../../src-shared/domain/import/types';
import type { Db } from '../store/db';
import { InvalidReference } from '../store/errors';
import { accountOfIban, accountOfRef, checkImportAccount, teamAccounts } from '../store/import/account';

/**
 * Which account each statement of a file goes to (docs/decisions/0069). A file may hold several accounts'
 * statements (an MT940 export of all accounts, an OFX file of several statements, a GnuCash QIF): each goes to the
 * account it names, found in this order — the person's choice (by the account the statement names, or by its
 * 1-based position), the account the team's last import of a statement naming it went to, the one account whose
 * name carries it. A statement no account is found for is asked for; nothing is guessed.
 */
export type MatchedBy = 'request' | 'choice' | 'iban' | 'earlier import' | 'account name';

export interface StatementTarget {
  /** 0-based position of the statement in the file. */
  index: number;
  accountRef: string | null;
  accountId: string | null;
  matchedBy: MatchedBy | null;
  /** What the person must supply when no account was found. */
  needs: string | null;
}

/** The key a person chooses a statement's account by: the account it names, else its 1-based position. */
export const statementKey = (s: { accountRef: string | null; index: number }) => s.accountRef ?? String(s.index + 1);

export function targetStatements(
  db: Db,
  teamId: string,
  statements: readonly ParsedFile[],
  chosen: Readonly<Record<string, string>> = {},
): StatementTarget[] {
  const keys = statements.map((s, index) => statementKey({ accountRef: s.accountRef, index }));
  for (const key of Object.keys(chosen)) {
    if (!keys.includes(key) && !keys.some((k) => normalizeAccountRef(k) === normalizeAccountRef(key))) {
      throw new InvalidReference(
        `accounts.${key}`,
        `No statement of the file names "${key}"; it holds ${keys.map((k) => `"${k}"`).join(', ')}`,
      );
    }
  }
  const accounts = teamAccounts(db, teamId);
  const targets = statements.map((s, index): StatementTarget => {
    const key = keys[index]!;
    const choice = chosen[key] ?? Object.entries(chosen).find(([k]) => normalizeAccountRef(k) === normalizeAccountRef(key))?.[1];
    const found = (accountId: string | null, matchedBy: MatchedBy | null): StatementTarget => ({
      index,
      accountRef: s.accountRef,
      accountId,
      matchedBy: accountId ? matchedBy : null,
      needs: accountId
        ? null
        : s.accountRef
          ? `No account of the team is known for the statement of ${s.accountRef}: choose one (accounts["${key}"])`
          : `Statement ${index + 1} names no account: choose one (accounts["${key}"])`,
    });
    if (choice) return found(checkImportAccount(db, teamId, choice, `accounts.${key}`).id, 'choice');
    if (!s.accountRef) return found(null, null);
    const ref = normalizeAccountRef(s.accountRef);
    const byIban = accountOfIban(db, teamId, ref);
    if (byIban) return found(byIban, 'iban');
    const earlier = accountOfRef(db, teamId, ref);
    if (earlier) return found(earlier, 'earlier import');
    const named = accounts.filter((a) => nameCarriesRef(a.name, s.accountRef!));
    return found(named.length === 1 ? named[0]!.id : null, 'account name');
  });
  const twice = targets.find((t, i) => t.accountId && targets.findIndex((u) => u.accountId === t.accountId) !== i);
  if (twice) {
    const both = targets.filter((t) => t.accountId === twice.accountId).map((t) => statementKey(t));
    throw new ImportRefused('Two statements of the file would go to one account: nothing was written', [
      {
        line: null,
        row: null,
        field: 'accounts',
        message: `the statements ${both.map((k) => `"${k}"`).join(' and ')} would both go to account ${twice.accountId}: choose another for one`,
      },
    ]);
  }
  return targets;
}

/** The refusal of a commit while a statement has no account: one problem per statement, saying what to pass. */
export function accountsNeeded(targets: readonly StatementTarget[]): ImportRefused | null {
  const open = targets.filter((t) => !t.accountId);
  if (open.length === 0) return null;
  return new ImportRefused(
    `${open.length} statement${open.length === 1 ? '' : 's'} of the file ${open.length === 1 ? 'has' : 'have'} no account: nothing was written`,
    open.map((t) => ({ line: null, row: null, field: `accounts.${statementKey(t)}`, message: t.needs! })),
  );
}
