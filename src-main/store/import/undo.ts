import type { Db } from '../db';
import { Conflict } from '../errors';
import { write } from '../write';
import { getImportBatch, type ImportBatch, type OutcomeRow } from './batches';
import { type LinkSnapshot, reconciledAmong, removeBankRows, restoreLinked } from './rows';
import { batchPairs, removeTransferPair } from './transfers';

/**
 * Undoes a batch in one transaction: the transfers it paired are unpaired, the rows it linked get back what they
 * were, the rows it created (and the rows created from its review items) are removed, its open review items go.
 * Refused, naming the rows, when any row it created or linked has been reconciled since.
 */
export function undoImportBatch(db: Db, teamId: string, batchId: string): ImportBatch {
  return write(
    db,
    teamId,
    (w) => {
      const batch = getImportBatch(db, teamId, batchId);
      if (batch.status === 'undone') throw new Conflict('The batch is already undone');
      const rows = db
        .prepare(
          `SELECT position, line, outcome, transaction_id, before FROM import_batch_rows
           WHERE team_id = ? AND batch_id = ? AND outcome IN ('created', 'linked') AND transaction_id IS NOT NULL`,
        )
        .all(teamId, batchId) as OutcomeRow[];
      const created = rows.filter((r) => r.outcome === 'created').map((r) => r.transaction_id!);
      const linked = rows.filter((r) => r.outcome === 'linked');
      const touched = [...created, ...linked.map((r) => r.transaction_id!)];
      const reconciled = reconciledAmong(db, teamId, touched);
      if (reconciled.length > 0) {
        const lineOf = new Map(rows.map((r) => [r.transaction_id, r.line]));
        throw new Conflict(
          `The batch cannot be undone: ${reconciled.length} of its rows ${reconciled.length === 1 ? 'was' : 'were'} reconciled since`,
          `Unreconcile first: ${reconciled
            .slice(0, 20)
            .map((r) => `line ${lineOf.get(r.id) ?? '?'} (${r.date} ${r.name}, transaction ${r.id})`)
            .join('; ')}`,
        );
      }
      for (const pairId of batchPairs(db, teamId, batchId, touched)) removeTransferPair(db, teamId, pairId);
      for (const r of linked) {
        const { snapshot } = JSON.parse(r.before!) as { snapshot: LinkSnapshot };
        restoreLinked(db, teamId, r.transaction_id!, snapshot, batchId);
      }
      removeBankRows(db, teamId, created);
      for (const id of db
        .prepare('SELECT id FROM import_review_items WHERE team_id = ? AND batch_id = ?')
        .pluck()
        .all(teamId, batchId) as string[]) {
        w.remove('import_review_item', id);
      }
      w.update('import_batch', batchId, { status: 'undone', undone_at: w.now });
      return getImportBatch(db, teamId, batchId);
    },
    { origin: 'import' },
  );
}
