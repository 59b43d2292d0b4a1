import crypto from 'node:crypto';
import type { Db } from './db';
import { holderIsGone, PROCESS_OWNER } from './leases';

/**
 * The Idempotency-Key guard's store: which keys a credential has used on which route, whether the first request
 * with a key is still running, and the response to replay once it finished. The HTTP side (header parsing,
 * hashing the request, replaying, statuses) is server/plugins/idempotency.ts; the policy is written down in
 * docs/decisions/0011-idempotency-key-guard.md.
 *
 * Life of a key:
 * 1. `beginIdempotentRequest` runs one short IMMEDIATE transaction that either takes the key (a 'running' row with
 *    a lease and a random owner token, committed before the handler runs, so a concurrent duplicate — in this
 *    process or another one — sees it) or reports what is already there: running, done, or used for another request.
 * 2. While the handler runs, `renewLease` pushes the lease forward. A process that dies stops renewing, so its key
 *    becomes available again when the lease lapses instead of staying 'running' forever — at once when the holder
 *    was a process of this machine that is gone (owners start with PROCESS_OWNER, store/leases.ts holderIsGone).
 *    Each of the handler's writes calls `markIdempotentWriteCommitted` inside its own transaction: a key whose
 *    holder died after its change was committed but before its answer was stored is never run again
 *    ('carried-out'), since running it again would make the change twice (docs/decisions/0189-crash-harness.md).
 * 3. `completeIdempotentRequest` stores the response ('done'), or `releaseIdempotentRequest` deletes the row so a
 *    retry can run. Both only touch the row while the caller still owns it (a lapsed lease may have been taken over).
 *
 * Rows expire `retentionMs` after the first request and are then treated as absent; `purgeExpiredIdempotencyKeys`
 * deletes them. Every function throws the driver's error when SQLite fails; the caller decides what that means.
 */

/** What identifies one key: the team and credential of the caller, the route (method, pattern, path params), the key. */
export interface IdempotencyScope {
  credentialId: string;
  /** e.g. `PATCH /v1/customers/:id {"id":"0193…"}`. */
  route: string;
  key: string;
}

export interface StoredResponse {
  statusCode: number;
  contentType: string | null;
  body: Buffer;
}

export type BeginOutcome =
  /** The key is ours: run the handler, then complete or release with this owner token. */
  | { kind: 'acquired'; owner: string; takenOver: boolean }
  /** A request with this key and the same content is still running. */
  | { kind: 'running'; leaseExpiresAt: Date }
  /** The key was used for a request with different content (body, query or path). */
  | { kind: 'mismatch' }
  /** The request already finished: answer with its stored response. */
  | { kind: 'replay'; response: StoredResponse; createdAt: string }
  /** The request that held the key died after its change was committed and before its answer was stored. */
  | { kind: 'carried-out' };

export interface BeginOptions {
  now: Date;
  /** How long the running marker holds without renewal. */
  leaseMs: number;
  /** How long a key is remembered after its first request. */
  retentionMs: number;
}

export const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;

/** `status_code` of a running key whose handler has committed a change (no answer is stored yet). */
const WRITE_COMMITTED = 0;

interface Row {
  request_hash: string;
  state: 'running' | 'done';
  owner: string;
  lease_expires_at: string | null;
  status_code: number | null;
  content_type: string | null;
  response_body: Buffer | null;
  created_at: string;
  expires_at: string;
}

const PK = 'team_id = ? AND credential_id = ? AND route = ? AND idempotency_key = ?';

function pk(teamId: string, scope: IdempotencyScope): [string, string, string, string] {
  return [teamId, scope.credentialId, scope.route, scope.key];
}

/** Takes the key or reports its state, in one committed transaction (see the module comment). */
export function beginIdempotentRequest(
  db: Db,
  teamId: string,
  scope: IdempotencyScope,
  requestHash: string,
  options: BeginOptions,
): BeginOutcome {
  const now = options.now.toISOString();
  const leaseExpiresAt = new Date(options.now.getTime() + options.leaseMs).toISOString();
  return db
    .transaction((): BeginOutcome => {
      const row = db.prepare(`SELECT * FROM idempotency_keys WHERE ${PK}`).get(...pk(teamId, scope)) as Row | undefined;
      const owner = `${PROCESS_OWNER}:${crypto.randomUUID()}`;
      if (!row || row.expires_at <= now) {
        if (row) db.prepare(`DELETE FROM idempotency_keys WHERE ${PK}`).run(...pk(teamId, scope));
        const expiresAt = new Date(options.now.getTime() + options.retentionMs).toISOString();
        db.prepare(
          `INSERT INTO idempotency_keys (team_id, credential_id, route, idempotency_key, request_hash, state, owner,
             lease_expires_at, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)`,
        ).run(...pk(teamId, scope), requestHash, owner, leaseExpiresAt, now, expiresAt);
        return { kind: 'acquired', owner, takenOver: false };
      }
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.state === 'done') {
        return {
          kind: 'replay',
          createdAt: row.created_at,
          response: {
            statusCode: row.status_code ?? 200,
            contentType: row.content_type,
            body: row.response_body ?? Buffer.alloc(0),
          },
        };
      }
      if (row.lease_expires_at !== null && row.lease_expires_at > now && !holderIsGone(row.owner)) {
        return { kind: 'running', leaseExpiresAt: new Date(row.lease_expires_at) };
      }
      if (row.status_code === WRITE_COMMITTED) return { kind: 'carried-out' };
      // The request holding the key died before it changed anything: the key may run again.
      db.prepare(`UPDATE idempotency_keys SET owner = ?, lease_expires_at = ? WHERE ${PK}`).run(
        owner,
        leaseExpiresAt,
        ...pk(teamId, scope),
      );
      return { kind: 'acquired', owner, takenOver: true };
    })
    .immediate();
}

/** Extends the running marker's lease; false when the caller no longer owns the key. */
export function renewLease(db: Db, teamId: string, scope: IdempotencyScope, owner: string, leaseExpiresAt: Date): boolean {
  const r = db
    .prepare(`UPDATE idempotency_keys SET lease_expires_at = ? WHERE ${PK} AND owner = ? AND state = 'running'`)
    .run(leaseExpiresAt.toISOString(), ...pk(teamId, scope), owner);
  return r.changes === 1;
}

/**
 * Records, inside the transaction of a change the key's request makes, that the change is made (the write hook of
 * store/write.ts calls it): from its commit on, the request is never run again under this key.
 */
export function markIdempotentWriteCommitted(db: Db, teamId: string, scope: IdempotencyScope, owner: string): void {
  db.prepare(`UPDATE idempotency_keys SET status_code = ? WHERE ${PK} AND owner = ? AND state = 'running'`).run(
    WRITE_COMMITTED,
    ...pk(teamId, scope),
    owner,
  );
}

/** Stores the response to replay; false when the caller no longer owns the key. */
export function completeIdempotentRequest(
  db: Db,
  teamId: string,
  scope: IdempotencyScope,
  owner: string,
  response: StoredResponse,
): boolean {
  const r = db
    .prepare(
      `UPDATE idempotency_keys SET state = 'done', lease_expires_at = NULL, status_code = ?, content_type = ?, response_body = ?
       WHERE ${PK} AND owner = ? AND state = 'running'`,
    )
    .run(response.statusCode, response.contentType, response.body, ...pk(teamId, scope), owner);
  return r.changes === 1;
}

/** Forgets the key so that a retry runs the request again; false when the caller no longer owns it. */
export function releaseIdempotentRequest(db: Db, teamId: string, scope: IdempotencyScope, owner: string): boolean {
  const r = db
    .prepare(`DELETE FROM idempotency_keys WHERE ${PK} AND owner = ? AND state = 'running'`)
    .run(...pk(teamId, scope), owner);
  return r.changes === 1;
}

/** Deletes every expired key (of all teams: retention is a server-wide rule). Returns how many went. */
export function purgeExpiredIdempotencyKeys(db: Db, now: Date): number {
  return db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now.toISOString()).changes;
}
