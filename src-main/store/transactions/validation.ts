import { Conflict, InvalidReference } from '../errors';
import type { LedgerWrite } from '../ledger/derived-data';
import type { WriteSource } from './field-sources';
import type { TransactionRow } from './row';
import type { TransactionChange } from './update';

/** What a write may name and change: the team's own account and members; a reconciled or bank line's own facts. */

/** The account must be the team's and hold the transaction's currency. */
export function checkAccount(lw: LedgerWrite, accountId: string, currency: string): void {
  const account = lw.db.prepare('SELECT currency FROM bank_accounts WHERE team_id = ? AND id = ?').get(lw.teamId, accountId) as
    | { currency: string }
    | undefined;
  if (!account) throw new InvalidReference('bankAccountId', `Unknown bank account ${accountId}`);
  if (account.currency !== currency) {
    throw new InvalidReference(
      'currency',
      `The account holds ${account.currency}; a transaction on it must be in ${account.currency}, not ${currency}`,
    );
  }
}

/** An assignee must be a member of the team. */
export function checkAssignee(lw: LedgerWrite, userId: string | null | undefined): void {
  if (!userId) return;
  const member = lw.db.prepare('SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(lw.teamId, userId);
  if (!member) throw new InvalidReference('assignedId', `User ${userId} is not a member of this team`);
}

/** Fields whose change is refused on a reconciled transaction: they make up the bank statement. */
const STATEMENT_FIELDS = ['amountMinor', 'date', 'status', 'splits', 'internal'] as const;
/** Fields only a manual transaction may change: a bank line's own facts come from the bank. */
const MANUAL_ONLY = ['name', 'amountMinor', 'date', 'description', 'counterpartyName'] as const;

/**
 * A change may not touch what a bank statement was reconciled against (unless it clears the reconciliation), nor,
 * from a person, the facts of a bank line that come from the bank.
 */
export function checkChangeAllowed(before: TransactionRow, change: TransactionChange, source: WriteSource): void {
  if (before.reconciled_at && change.reconciledAt !== null) {
    const touched = STATEMENT_FIELDS.filter((f) => change[f] !== undefined);
    const really = touched.filter((f) => {
      if (f === 'amountMinor') return change.amountMinor !== before.amount_minor;
      if (f === 'date') return change.date !== before.date;
      if (f === 'status') return change.status !== before.status;
      if (f === 'internal') return (change.internal ? 1 : 0) !== (before.internal ?? 0);
      return true;
    });
    if (really.length > 0) {
      throw new Conflict(
        'The transaction is reconciled against a bank statement',
        `Unreconcile it first to change ${really.join(', ')}`,
      );
    }
  }
  if (!before.manual) {
    const bankFacts = MANUAL_ONLY.filter((f) => change[f] !== undefined && source.source === 'user');
    const differing = bankFacts.filter((f) => {
      const current = {
        name: before.name,
        amountMinor: before.amount_minor,
        date: before.date,
        description: before.description,
        counterpartyName: before.counterparty_name,
      }[f];
      return change[f] !== current;
    });
    if (differing.length > 0) {
      throw new InvalidReference(
        differing[0]!,
        `${differing.join(', ')} of a bank transaction come from the bank and cannot be edited; set a note or split it instead`,
      );
    }
  }
}
