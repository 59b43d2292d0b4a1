import { Conflict } from '../errors';
import type { Writer } from '../write';

/**
 * The signed calls of `POST /hooks/workflows/{id}` accepted within their window (docs/decisions/0178): a captured
 * call replayed while its timestamp is still fresh starts nothing. A call is known by its signature, the HMAC of its
 * timestamp and body under the workflow's secret (the one the server computed, not the header's text, which may
 * carry other values beside it); only the holder of the secret makes a new one.
 */

export interface HookCall {
  workflowId: string;
  /** The accepted signature (hex HMAC-SHA256 of "<timestamp>.<body>"). */
  signature: string;
  /** The call's Idempotency-Key: a repeat with the same key is the sender's retry and reads the run it started. */
  idempotencyKey?: string;
  /** When the call's timestamp leaves the window: the timestamp alone refuses it from then on. */
  expiresAt: string;
  /** The server's clock as the signature was checked (ISO). */
  now: string;
}

export class ReplayedCall extends Conflict {
  override name = 'ReplayedCall';
}

/**
 * Remembers the call inside the write that starts its run, so a call whose start is refused is not remembered
 * and two processes accepting one call at once start one run (the second finds the first's row). Conflict
 * (ReplayedCall → 409) for a replay: the signature was accepted before, and the call does not repeat the
 * Idempotency-Key it was accepted with. Rows whose window has passed are deleted here.
 */
export function acceptHookCall(w: Writer, call: HookCall): void {
  w.db.prepare('DELETE FROM workflow_hook_calls WHERE expires_at < ?').run(call.now);
  const seen = w.db
    .prepare('SELECT idempotency_key AS key FROM workflow_hook_calls WHERE workflow_id = ? AND signature = ?')
    .get(call.workflowId, call.signature) as { key: string | null } | undefined;
  if (seen) {
    if (seen.key !== null && seen.key === call.idempotencyKey) return;
    throw new ReplayedCall(
      'This signed call was already accepted',
      'A webhook call is accepted once: sign each delivery anew (a new X-Finops-Timestamp), or repeat it with the ' +
        'Idempotency-Key it was sent with to read the run it started.',
    );
  }
  w.db
    .prepare(
      `INSERT INTO workflow_hook_calls (team_id, workflow_id, signature, idempotency_key, accepted_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(w.teamId, call.workflowId, call.signature, call.idempotencyKey ?? null, call.now, call.expiresAt);
}
