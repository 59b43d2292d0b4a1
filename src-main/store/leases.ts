import crypto from 'node:crypto';
import os from 'node:os';
import type { Db } from './db';

/**
 * Named, expiring claims on background work: a scheduler tick, a send queue, a workflow run, a sync round. Two
 * processes on one data dir (the server and the CLI today, several servers later) call `acquireLease` for the same
 * name; the database decides, inside one IMMEDIATE transaction, that exactly one holds it until it expires. A holder
 * that dies simply stops renewing, and the next process takes over after the expiry. A job whose effect must not run
 * twice still needs its own idempotency (the lease proves only who runs it now, not what a dead holder did).
 *
 * Queues of many items (each outgoing email, each workflow run) claim rows the same way with `lease_owner` and
 * `lease_expires_at` columns on their own table; `claimCondition` gives the condition that makes a row claimable.
 */

/** This process's identity as a lease holder: host, pid and a random part (a pid can be reused after a restart). */
export const PROCESS_OWNER = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;

export interface LeaseOptions {
  teamId?: string | null;
  owner?: string;
  now?: Date;
}

/**
 * Whether a holder is a process of this machine that no longer runs (a killed CLI round, a crashed server): its
 * claim can be taken at once instead of after its expiry. Owners are `host:pid:…`; a pid another process reuses
 * reads as alive, which only means waiting for the expiry as before.
 */
export function holderIsGone(owner: string): boolean {
  const [host, pidText] = owner.split(':');
  const pid = Number(pidText);
  if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Takes the lease when it is free, expired, held by a process of this machine that is gone, or already ours (then
 * it is extended). Returns whether we hold it.
 */
export function acquireLease(db: Db, name: string, ttlMs: number, options: LeaseOptions = {}): boolean {
  const owner = options.owner ?? PROCESS_OWNER;
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();
  const expires = new Date(now.getTime() + ttlMs).toISOString();
  return db
    .transaction(() => {
      const holder = db.prepare('SELECT owner FROM leases WHERE name = ? AND expires_at > ?').pluck().get(name, nowIso) as
        | string
        | undefined;
      if (holder && holder !== owner && holderIsGone(holder)) db.prepare('DELETE FROM leases WHERE name = ?').run(name);
      const row = db
        .prepare(
          `INSERT INTO leases (name, team_id, owner, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET
             owner = excluded.owner,
             acquired_at = CASE WHEN leases.owner = excluded.owner THEN leases.acquired_at ELSE excluded.acquired_at END,
             expires_at = excluded.expires_at
           WHERE leases.owner = excluded.owner OR leases.expires_at <= ?
           RETURNING owner`,
        )
        .get(name, options.teamId ?? null, owner, nowIso, expires, nowIso) as { owner: string } | undefined;
      return row?.owner === owner;
    })
    .immediate();
}

/** Extends a lease we hold; false when it was lost (expired and taken by another process). */
export function renewLease(db: Db, name: string, ttlMs: number, options: LeaseOptions = {}): boolean {
  const owner = options.owner ?? PROCESS_OWNER;
  const now = options.now ?? new Date();
  const r = db
    .prepare('UPDATE leases SET expires_at = ? WHERE name = ? AND owner = ? AND expires_at > ?')
    .run(new Date(now.getTime() + ttlMs).toISOString(), name, owner, now.toISOString());
  return r.changes === 1;
}

export function releaseLease(db: Db, name: string, options: LeaseOptions = {}): void {
  db.prepare('DELETE FROM leases WHERE name = ? AND owner = ?').run(name, options.owner ?? PROCESS_OWNER);
}

export interface LeaseHolder {
  name: string;
  owner: string;
  expiresAt: string;
}

export function leaseHolder(db: Db, name: string): LeaseHolder | undefined {
  return db.prepare('SELECT name, owner, expires_at AS expiresAt FROM leases WHERE name = ?').get(name) as
    | LeaseHolder
    | undefined;
}

/**
 * Runs `fn` only while holding the named lease; returns undefined (without running) when another process holds it.
 * The lease is released afterwards, whatever `fn` does.
 */
export function withLease<T>(db: Db, name: string, ttlMs: number, fn: () => T, options: LeaseOptions = {}): T | undefined {
  if (!acquireLease(db, name, ttlMs, options)) return undefined;
  try {
    return fn();
  } finally {
    releaseLease(db, name, options);
  }
}

/**
 * SQL condition (for a queue table with `lease_owner` and `lease_expires_at`) true for rows no live holder has;
 * bind `@now` (ISO). Claim with `UPDATE … SET lease_owner = @owner, lease_expires_at = @until WHERE id = (SELECT id
 * … WHERE <state is ready> AND ${claimCondition} LIMIT 1) RETURNING *` inside an IMMEDIATE transaction.
 */
export const claimCondition = '(lease_owner IS NULL OR lease_expires_at <= @now)';

/**
 * Claims the next row of an outgoing-send queue (invoice emails, e-invoice hand-offs: tables with `state`,
 * `attempts`, `next_attempt_at`, `updated_at` and the lease columns): the first by next attempt of those `ready`
 * (SQL over the row aliased `q`, binding `@now`) that no live holder has. It becomes `sending`, leased to `owner`
 * until now + leaseMs, one attempt more. Undefined when none is due.
 */
export function claimNextSend<Row>(
  db: Db,
  table: 'invoice_deliveries' | 'einvoice_handoffs',
  ready: string,
  options: { owner: string; leaseMs: number; now?: Date },
): Row | undefined {
  const now = options.now ?? new Date();
  const claim = db.prepare(
    `UPDATE ${table} SET state = 'sending', lease_owner = @owner, lease_expires_at = @until, attempts = attempts + 1,
       updated_at = @now
     WHERE id = (SELECT q.id FROM ${table} q WHERE (${ready}) AND ${claimCondition} ORDER BY q.next_attempt_at, q.id LIMIT 1)
     RETURNING *`,
  );
  const bind = { owner: options.owner, until: new Date(now.getTime() + options.leaseMs).toISOString(), now: now.toISOString() };
  // A row a process of this machine was sending when it died (a crashed server) is taken back at once, as workflow
  // runs are (workflows/runs/claims.ts), not after its lease: found by the crash harness (docs/decisions/0189).
  const held = db.prepare(
    `SELECT DISTINCT q.lease_owner FROM ${table} q
     WHERE q.state = 'sending' AND (${ready}) AND q.lease_owner IS NOT NULL AND q.lease_expires_at > @now`,
  );
  const release = db.prepare(
    `UPDATE ${table} SET lease_expires_at = @now
     WHERE id IN (SELECT q.id FROM ${table} q WHERE q.state = 'sending' AND (${ready}) AND q.lease_owner = @gone
       AND q.lease_expires_at > @now)`,
  );
  return db
    .transaction(() => {
      for (const gone of (held.pluck().all({ now: bind.now }) as string[]).filter(holderIsGone)) {
        release.run({ now: bind.now, gone });
      }
      return claim.get(bind) as Row | undefined;
    })
    .immediate();
}

/**
 * `withLease` for asynchronous work: the lease is renewed in the background (every third of its time-to-live) while
 * `fn` runs, and released when it settles. Undefined (without running) when another holder has it.
 */
export async function withLeaseAsync<T>(
  db: Db,
  name: string,
  ttlMs: number,
  fn: () => Promise<T>,
  options: LeaseOptions = {},
): Promise<T | undefined> {
  if (!acquireLease(db, name, ttlMs, options)) return undefined;
  const keepAlive = setInterval(() => renewLease(db, name, ttlMs, options), Math.max(1000, ttlMs / 3));
  keepAlive.unref();
  try {
    return await fn();
  } finally {
    clearInterval(keepAlive);
    releaseLease(db, name, options);
  }
}
