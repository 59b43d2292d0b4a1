import type { LedgerWrite } from '../ledger/derived-data';
import { resolveTagRefs } from '../tags/tags';

/**
 * Sets a transaction's tag links: `replace` makes them exactly `tagIds`, otherwise `tagIds` are added. Returns
 * whether the links changed.
 */
export function writeTags(lw: LedgerWrite, transactionId: string, tagIds: readonly string[], replace: boolean): boolean {
  const { db, teamId } = lw;
  const wanted = resolveTagRefs(db, teamId, tagIds).map((t) => t.id);
  const current = db
    .prepare('SELECT tag_id FROM transaction_tags WHERE team_id = ? AND transaction_id = ? ORDER BY tag_id')
    .pluck()
    .all(teamId, transactionId) as string[];
  const next = replace ? [...new Set(wanted)].sort() : [...new Set([...current, ...wanted])].sort();
  if (next.join(',') === current.join(',')) return false;
  db.prepare('DELETE FROM transaction_tags WHERE team_id = ? AND transaction_id = ?').run(teamId, transactionId);
  const insert = db.prepare('INSERT INTO transaction_tags (team_id, transaction_id, tag_id) VALUES (?, ?, ?)');
  for (const t of next) insert.run(teamId, transactionId, t);
  return true;
}
