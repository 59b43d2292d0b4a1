import crypto from 'node:crypto';
import { canonicalJson, type Projection } from '../../../src-shared/domain/sync/merge';
import type { Db } from '../db';
import { newId, nowIso } from '../ids';

/**
 * Pushes, frozen when a push starts (docs/decisions/0140-sync-engine.md): the operation, the exact request body and
 * its hash, and an Idempotency-Key fixed when the entry is made. The sender sends an entry's bytes with its key
 * until the remote answers; a retry after a lost answer resends the same bytes with the same key, so the remote
 * replays its first answer instead of writing twice. Entries are sent in the order they were made: the table's
 * rowid, which only grows, never a wall clock (a clock stepped back would reorder a record's updates).
 */
export type OutboxOp = 'create' | 'update' | 'delete';
export type OutboxState = 'pending' | 'done' | 'conflict';

export interface OutboxEntry {
  id: string;
  entity: string;
  localId: string;
  op: OutboxOp;
  payload: string;
  payloadHash: string;
  /** The projection this push makes the remote hold (the base once it is answered). */
  projection: Projection | null;
  idempotencyKey: string;
  attempts: number;
  state: OutboxState;
  lastError: string | null;
  createdAt: string;
}

interface Row {
  id: string;
  entity: string;
  local_id: string;
  op: OutboxOp;
  payload: string;
  payload_hash: string;
  projection: string | null;
  idempotency_key: string;
  attempts: number;
  state: OutboxState;
  last_error: string | null;
  created_at: string;
}

function toEntry(r: Row): OutboxEntry {
  return {
    id: r.id,
    entity: r.entity,
    localId: r.local_id,
    op: r.op,
    payload: r.payload,
    payloadHash: r.payload_hash,
    projection: r.projection ? (JSON.parse(r.projection) as Projection) : null,
    idempotencyKey: r.idempotency_key,
    attempts: r.attempts,
    state: r.state,
    lastError: r.last_error,
    createdAt: r.created_at,
  };
}

export interface NewOutboxEntry {
  entity: string;
  localId: string;
  op: OutboxOp;
  /** The request body (JSON), frozen as bytes. */
  payload: unknown;
  projection: Projection | null;
}

/** Freezes a push. Called inside the transaction that advances the pushed sequence past the change it covers. */
export function enqueuePush(db: Db, teamId: string, remoteId: string, entry: NewOutboxEntry): OutboxEntry {
  const payload = entry.payload === undefined ? '' : canonicalJson(entry.payload as never);
  const now = nowIso();
  const row: Row = {
    id: newId(),
    entity: entry.entity,
    local_id: entry.localId,
    op: entry.op,
    payload,
    payload_hash: crypto.createHash('sha256').update(payload).digest('hex'),
    projection: entry.projection ? canonicalJson(entry.projection) : null,
    idempotency_key: `finops-sync-${crypto.randomUUID()}`,
    attempts: 0,
    state: 'pending',
    last_error: null,
    created_at: now,
  };
  db.prepare(
    `INSERT INTO sync_outbox (id, team_id, remote_id, entity, local_id, op, payload, payload_hash, projection,
       idempotency_key, created_at, updated_at)
     VALUES (@id, @team, @remote, @entity, @local_id, @op, @payload, @payload_hash, @projection, @idempotency_key, @created_at, @created_at)`,
  ).run({ ...row, team: teamId, remote: remoteId });
  return toEntry(row);
}

/** Entries still to send, oldest first (`ops`: only these operations, e.g. the creates sent before a pull). */
export function pendingPushes(db: Db, remoteId: string, limit = 500, ops?: readonly OutboxOp[]): OutboxEntry[] {
  return (
    db
      .prepare(
        `SELECT * FROM sync_outbox WHERE remote_id = ? AND state = 'pending'
         AND (? IS NULL OR op IN (SELECT value FROM json_each(?))) ORDER BY rowid LIMIT ?`,
      )
      .all(remoteId, ops ? 1 : null, JSON.stringify(ops ?? []), limit) as Row[]
  ).map(toEntry);
}

/** A record's entries still to send, oldest first. */
export function pendingPushesOf(db: Db, remoteId: string, entity: string, localId: string): OutboxEntry[] {
  return (
    db
      .prepare(
        `SELECT * FROM sync_outbox WHERE remote_id = ? AND entity = ? AND local_id = ? AND state = 'pending' ORDER BY rowid`,
      )
      .all(remoteId, entity, localId) as Row[]
  ).map(toEntry);
}

/** Whether the entry still waits to be sent (an entry can be finished out of turn: a reference sent first). */
export function isPending(db: Db, id: string): boolean {
  return db.prepare(`SELECT 1 FROM sync_outbox WHERE id = ? AND state = 'pending'`).get(id) !== undefined;
}

/** The creates of an entity that were sent and never answered (a hosted-style remote may hold them already). */
export function unansweredCreates(db: Db, remoteId: string, entity: string): OutboxEntry[] {
  return (
    db
      .prepare(
        `SELECT * FROM sync_outbox WHERE remote_id = ? AND entity = ? AND op = 'create' AND state = 'pending' AND attempts > 0
         ORDER BY rowid`,
      )
      .all(remoteId, entity) as Row[]
  ).map(toEntry);
}

export function pendingPushCount(db: Db, remoteId: string): number {
  return db.prepare(`SELECT count(*) FROM sync_outbox WHERE remote_id = ? AND state = 'pending'`).pluck().get(remoteId) as number;
}

/** Whether a record has a push still waiting (a newer push of it waits behind it; a pull must not overwrite it). */
export function hasPendingPush(db: Db, remoteId: string, entity: string, localId: string): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM sync_outbox WHERE remote_id = ? AND entity = ? AND local_id = ? AND state = 'pending' LIMIT 1`)
      .get(remoteId, entity, localId) !== undefined
  );
}

/**
 * What the remote will hold of a record once its waiting pushes are answered: the projection of the newest pending
 * entry, or undefined when none waits (then the base is what it holds).
 */
export function latestPendingProjection(db: Db, remoteId: string, entity: string, localId: string): Projection | undefined {
  const json = db
    .prepare(
      `SELECT projection FROM sync_outbox WHERE remote_id = ? AND entity = ? AND local_id = ? AND state = 'pending'
       AND projection IS NOT NULL ORDER BY rowid DESC LIMIT 1`,
    )
    .pluck()
    .get(remoteId, entity, localId) as string | undefined;
  return json ? (JSON.parse(json) as Projection) : undefined;
}

/**
 * Notes an attempt, before the request goes out (a crash mid-request still counts it). The first attempt also
 * stores the bytes it sends (the body is made at the first send, when the references it names exist there); every
 * later attempt sends exactly those bytes again, with the same Idempotency-Key.
 */
export function markSent(db: Db, id: string, payload: string): void {
  db.prepare(
    `UPDATE sync_outbox SET
       payload = CASE WHEN attempts = 0 THEN @payload ELSE payload END,
       payload_hash = CASE WHEN attempts = 0 THEN @hash ELSE payload_hash END,
       attempts = attempts + 1, updated_at = @now
     WHERE id = @id`,
  ).run({ id, payload, hash: crypto.createHash('sha256').update(payload).digest('hex'), now: nowIso() });
}

/** The waiting create of a record, if one waits. */
export function pendingCreateOf(db: Db, remoteId: string, entity: string, localId: string): OutboxEntry | undefined {
  const row = db
    .prepare(
      `SELECT * FROM sync_outbox WHERE remote_id = ? AND entity = ? AND local_id = ? AND op = 'create' AND state = 'pending'
       ORDER BY rowid LIMIT 1`,
    )
    .get(remoteId, entity, localId) as Row | undefined;
  return row ? toEntry(row) : undefined;
}

/**
 * Notes that the remote failed on an entry (it answered 5xx after the client's own retries); the entry stays
 * pending. Returns how many rounds it has failed in so far, kept in front of the error as `[n]` (network failures
 * are not counted: a remote that cannot be reached says nothing about the entry).
 */
export function noteFailure(db: Db, id: string, error: string): number {
  const last = db.prepare('SELECT last_error FROM sync_outbox WHERE id = ?').pluck().get(id) as string | null | undefined;
  const failures = failuresOf(last ?? null) + 1;
  db.prepare('UPDATE sync_outbox SET last_error = ?, updated_at = ? WHERE id = ?').run(`[${failures}] ${error}`, nowIso(), id);
  return failures;
}

/** The rounds an entry has failed in (see noteFailure). */
export function failuresOf(lastError: string | null): number {
  const m = lastError ? /^\[(\d+)\] /.exec(lastError) : null;
  return m ? Number(m[1]) : 0;
}

/** The state of a record's latest create entry, if one was ever made (`conflict`: given up, the record stays here). */
export function lastCreateState(db: Db, remoteId: string, entity: string, localId: string): OutboxState | undefined {
  return db
    .prepare(
      `SELECT state FROM sync_outbox WHERE remote_id = ? AND entity = ? AND local_id = ? AND op = 'create'
       ORDER BY rowid DESC LIMIT 1`,
    )
    .pluck()
    .get(remoteId, entity, localId) as OutboxState | undefined;
}

export function finishPush(db: Db, id: string, state: 'done' | 'conflict', error: string | null = null): void {
  const now = nowIso();
  db.prepare('UPDATE sync_outbox SET state = ?, last_error = ?, sent_at = ?, updated_at = ? WHERE id = ?').run(
    state,
    error,
    now,
    now,
    id,
  );
}

/** Drops answered entries older than a week (the outbox is a queue, not a log). */
export function pruneOutbox(db: Db, remoteId: string, before: string): number {
  return db.prepare(`DELETE FROM sync_outbox WHERE remote_id = ? AND state != 'pending' AND updated_at < ?`).run(remoteId, before)
    .changes;
}
