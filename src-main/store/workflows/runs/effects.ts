import type { Db } from '../../db';
import type { Writer } from '../../write';

/**
 * The effect ledger: an effect a step applied (an email sent, a record changed) is recorded under the step's effect
 * key in the same write, so a retried step finds it and does not apply it twice.
 */

export function effectResult(db: Db, teamId: string, key: string): { result: unknown } | undefined {
  const r = db.prepare('SELECT result FROM workflow_effects WHERE key = ? AND team_id = ?').get(key, teamId) as
    | { result: string | null }
    | undefined;
  return r ? { result: r.result === null ? null : JSON.parse(r.result) } : undefined;
}

/** Records an applied effect inside the write that applied it. */
export function recordEffect(w: Writer, key: string, runId: string, kind: string, result: unknown): void {
  w.db
    .prepare('INSERT INTO workflow_effects (key, team_id, run_id, kind, result, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(key, w.teamId, runId, kind, result === undefined ? null : JSON.stringify(result), w.now);
}
