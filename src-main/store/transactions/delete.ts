import type { Db } from '../db';
import { Conflict, NotFound } from '../errors';
import { ledgerWrite } from '../ledger/derived-data';
import { originOf, type WriteSource } from './field-sources';
import { dropPaymentSuggestions, refuseIfHeld } from './holders';
import { getRow } from './row';
import { applyChange } from './update';

export type DeleteOutcomeKind = 'deleted' | 'excluded';

/** Deletes a manual transaction; a bank line is set to status excluded instead. Refused when reconciled. */
export function deleteTransactions(
  db: Db,
  teamId: string,
  ids: readonly string[],
  source: WriteSource = { source: 'user' },
): { id: string; outcome: DeleteOutcomeKind }[] {
  return ledgerWrite(
    db,
    teamId,
    (lw) => {
      const rows = [...new Set(ids)].map((id) => {
        const row = getRow(db, teamId, id);
        if (!row) throw new NotFound('transaction', id);
        return row;
      });
      const reconciled = rows.filter((r) => r.reconciled_at);
      if (reconciled.length > 0) {
        throw new Conflict(
          'A reconciled transaction cannot be deleted',
          `Unreconcile first: ${reconciled.map((r) => r.id).join(', ')}`,
        );
      }
      const removed = rows.filter((r) => r.manual).map((r) => r.id);
      refuseIfHeld(db, teamId, removed);
      dropPaymentSuggestions(lw.w, db, teamId, removed);
      return rows.map((row) => {
        if (!row.manual) {
          applyChange(lw, row.id, { status: 'excluded' }, source);
          return { id: row.id, outcome: 'excluded' as const };
        }
        lw.contribute(row, lw.splitsOf(row.id), -1);
        lw.moved(row.bank_account_id, row.date, row.id, -row.amount_minor);
        lw.w.remove('transaction', row.id);
        return { id: row.id, outcome: 'deleted' as const };
      });
    },
    { origin: originOf(source) },
  );
}
