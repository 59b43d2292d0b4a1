import type { InvoiceDelivery } from '../../../src-shared/contract/invoices';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { cancelWaitingHandOffs, queueHandOff } from '../einvoice/handoffs';
import { Conflict } from '../errors';
import { newId } from '../ids';
import { claimNextSend } from '../leases';
import { placeholders } from '../list/keyset';
import { write } from '../write';

/**
 * The durable send queue of invoice emails (docs/decisions/0074-invoice-delivery-queue.md).
 *
 * One row per email (the invoice itself, or a payment reminder), unique per team and idempotency key: queueing
 * the same key twice returns the first row, so a retried request or a re-run workflow step never queues a second
 * email. A row is `queued` when the team has an SMTP server configured, else `awaiting_sync` (the sync engine sends
 * those through the remote instance; setting up SMTP turns them into `queued`). A sender claims one row at a time
 * in an IMMEDIATE transaction (`claimCondition`: no live lease), marks it `sending` with its lease, sends, and marks
 * it `sent` — or puts it back with a back-off, or `failed` after MAX_ATTEMPTS. A row left `sending` by a process
 * that died is claimable again once its lease expires; its retry carries the same Message-ID (fixed at queue time).
 */

export const MAX_ATTEMPTS = 8;

export type DeliveryKind = 'invoice' | 'reminder';
export type DeliveryState = InvoiceDelivery['state'];

export interface DeliveryRow {
  id: string;
  team_id: string;
  invoice_id: string;
  kind: DeliveryKind;
  idempotency_key: string;
  state: DeliveryState;
  recipient: string | null;
  message_id: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  /** What the person wrote in the send dialog (migration 027); null: the default text. */
  subject: string | null;
  message: string | null;
  /** A reminder's level of the team's dunning levels and the fee it states (docs/decisions/0122). */
  reminder_level: number | null;
  fee_minor: number | null;
}

/** A delivery as the API shows it; `currency` is its invoice's (the fee is in it). */
export function toDelivery(r: DeliveryRow, currency: string): InvoiceDelivery {
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    recipient: r.recipient,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    reminderLevel: r.reminder_level,
    fee: r.fee_minor === null ? null : toMajor(r.fee_minor, currency),
  };
}

export function smtpConfigured(db: Db, teamId: string): boolean {
  return db.prepare('SELECT 1 FROM smtp_settings WHERE team_id = ?').get(teamId) !== undefined;
}

export interface QueueOptions {
  kind: DeliveryKind;
  idempotencyKey: string;
  recipient: string | null;
  now?: string;
  subject?: string | null;
  message?: string | null;
  reminderLevel?: number | null;
  feeMinor?: number | null;
}

/**
 * Queues one email of an invoice (idempotent by key). Joins the caller's write when there is one. Returns the
 * delivery row and whether it was created now.
 */
export function queueDelivery(
  db: Db,
  teamId: string,
  invoiceId: string,
  options: QueueOptions,
): { delivery: DeliveryRow; created: boolean } {
  return write(db, teamId, (w) => {
    const existing = deliveryByKey(db, teamId, options.idempotencyKey);
    if (existing) {
      if (existing.invoice_id !== invoiceId || existing.kind !== options.kind) {
        throw new Conflict('This idempotency key was already used for another email', `key: ${options.idempotencyKey}`);
      }
      return { delivery: existing, created: false };
    }
    const now = options.now ?? w.now;
    const id = newId();
    // An invoice still waiting for its number from the sync remote goes out through the remote, numbered (0143).
    const state: DeliveryState = smtpConfigured(db, teamId) && isNumbered(db, teamId, invoiceId) ? 'queued' : 'awaiting_sync';
    db.prepare(
      `INSERT INTO invoice_deliveries (id, team_id, invoice_id, kind, idempotency_key, state, recipient, message_id,
         next_attempt_at, created_at, updated_at, subject, message, reminder_level, fee_minor)
       VALUES (@id, @team, @invoice, @kind, @key, @state, @recipient, @messageId, @now, @now, @now, @subject, @message,
         @level, @fee)`,
    ).run({
      id,
      team: teamId,
      invoice: invoiceId,
      kind: options.kind,
      key: options.idempotencyKey,
      state,
      recipient: options.recipient,
      messageId: `<${id}.${options.kind}@finops-desk.invalid>`,
      now,
      subject: options.subject ?? null,
      message: options.message ?? null,
      level: options.reminderLevel ?? null,
      fee: options.feeMinor ?? null,
    });
    // The invoice's API shape shows its latest delivery.
    w.touch('invoice', invoiceId);
    // Beside the email, the e-invoice goes to the team's Peppol access point when the customer takes it (0162).
    if (options.kind === 'invoice') queueHandOff(db, teamId, invoiceId);
    return { delivery: getDeliveryRow(db, teamId, id)!, created: true };
  });
}

function isNumbered(db: Db, teamId: string, invoiceId: string): boolean {
  return (
    db.prepare(`SELECT 1 FROM invoices WHERE team_id = ? AND id = ? AND invoice_number <> ''`).get(teamId, invoiceId) !==
    undefined
  );
}

/** The email queued under this idempotency key, if any. */
export function deliveryByKey(db: Db, teamId: string, idempotencyKey: string): DeliveryRow | undefined {
  return db.prepare('SELECT * FROM invoice_deliveries WHERE team_id = ? AND idempotency_key = ?').get(teamId, idempotencyKey) as
    | DeliveryRow
    | undefined;
}

export function getDeliveryRow(db: Db, teamId: string, id: string): DeliveryRow | undefined {
  return db.prepare('SELECT * FROM invoice_deliveries WHERE team_id = ? AND id = ?').get(teamId, id) as DeliveryRow | undefined;
}

export function listDeliveries(db: Db, teamId: string, invoiceId: string): DeliveryRow[] {
  return db
    .prepare('SELECT * FROM invoice_deliveries WHERE team_id = ? AND invoice_id = ? ORDER BY created_at, id')
    .all(teamId, invoiceId) as DeliveryRow[];
}

/** The latest delivery of each of these invoices. */
export function latestDeliveries(db: Db, teamId: string, invoiceIds: readonly string[]): Map<string, DeliveryRow> {
  const out = new Map<string, DeliveryRow>();
  if (invoiceIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT * FROM invoice_deliveries WHERE team_id = ? AND invoice_id IN (${placeholders(invoiceIds.length)})
       ORDER BY created_at, id`,
    )
    .all(teamId, ...invoiceIds) as DeliveryRow[];
  for (const r of rows) out.set(r.invoice_id, r);
  return out;
}

/**
 * Emails of a canceled invoice that have not gone out are canceled with it, and so are its e-invoice hand-offs still
 * waiting for the access point. Call inside the invoice's write.
 */
export function cancelPendingDeliveries(db: Db, teamId: string, invoiceId: string, now: string): number {
  cancelWaitingHandOffs(db, teamId, invoiceId, now);
  return db
    .prepare(
      `UPDATE invoice_deliveries SET state = 'canceled', updated_at = ?, lease_owner = NULL, lease_expires_at = NULL
       WHERE team_id = ? AND invoice_id = ? AND state IN ('queued', 'awaiting_sync')`,
    )
    .run(now, teamId, invoiceId).changes;
}

/**
 * Moves every email of the team in state `from` to `to` (SMTP set up or removed); each invoice's API shape shows
 * its latest delivery, so the invoices are touched.
 */
function moveTeamDeliveries(db: Db, teamId: string, from: DeliveryState, to: DeliveryState, only = 'true'): number {
  return write(
    db,
    teamId,
    (w) => {
      const ids = db
        .prepare(`SELECT DISTINCT invoice_id FROM invoice_deliveries d WHERE team_id = ? AND state = ? AND ${only}`)
        .pluck()
        .all(teamId, from) as string[];
      const n = db
        .prepare(`UPDATE invoice_deliveries AS d SET state = ?, updated_at = ? WHERE team_id = ? AND state = ? AND ${only}`)
        .run(to, w.now, teamId, from).changes;
      for (const id of ids) w.touch('invoice', id);
      return n;
    },
    { origin: 'system' },
  );
}

/**
 * After SMTP is configured: the team's emails waiting for sync are handed to the SMTP sender instead — except those
 * the sync engine has begun to relay through the remote (their key is fixed: the remote may hold them already) and
 * those of invoices still waiting for their number from the remote.
 */
export function activateAwaitingDeliveries(db: Db, teamId: string): number {
  return moveTeamDeliveries(
    db,
    teamId,
    'awaiting_sync',
    'queued',
    `d.relay_key IS NULL AND EXISTS (SELECT 1 FROM invoices i WHERE i.id = d.invoice_id AND i.invoice_number <> '')`,
  );
}

/** After SMTP is removed: the team's queued emails wait for sync again. Joins the caller's write. */
export function suspendQueuedDeliveries(db: Db, teamId: string): number {
  return moveTeamDeliveries(db, teamId, 'queued', 'awaiting_sync');
}

/**
 * Claims the next email due for sending, of any team: a `queued` row whose time has come, or a `sending` row whose
 * sender died (lease expired). The row becomes `sending`, leased to `owner` until now + leaseMs.
 */
export function claimNextDelivery(db: Db, options: { owner: string; leaseMs: number; now?: Date }): DeliveryRow | undefined {
  return claimNextSend<DeliveryRow>(
    db,
    'invoice_deliveries',
    `(q.state = 'queued' AND q.next_attempt_at <= @now) OR (q.state = 'sending' AND q.relay_key IS NULL)`,
    options,
  );
}

/** Records that the SMTP server accepted the email. The invoice's sentAt / reminderSentAt follow. */
export function markDeliverySent(db: Db, row: DeliveryRow, owner: string, now = new Date()): boolean {
  return write(
    db,
    row.team_id,
    (w) => {
      const done = db
        .prepare(
          `UPDATE invoice_deliveries SET state = 'sent', sent_at = @now, updated_at = @now, lease_owner = NULL,
             lease_expires_at = NULL, last_error = NULL
           WHERE id = @id AND lease_owner = @owner AND state = 'sending'`,
        )
        .run({ id: row.id, owner, now: now.toISOString() }).changes;
      if (!done) return false;
      const inv = db.prepare('SELECT sent_at FROM invoices WHERE team_id = ? AND id = ?').get(row.team_id, row.invoice_id) as
        | { sent_at: string | null }
        | undefined;
      if (!inv) return true;
      if (row.kind === 'invoice' && !inv.sent_at) w.update('invoice', row.invoice_id, { sent_at: now.toISOString() });
      else if (row.kind === 'reminder') w.update('invoice', row.invoice_id, { reminder_sent_at: now.toISOString() });
      else w.touch('invoice', row.invoice_id);
      return true;
    },
    { origin: 'system' },
  );
}

/**
 * A failed attempt: retried after a back-off (1 min × 2^(attempts−1), at most 6 h), or `failed` for good after
 * MAX_ATTEMPTS or when `permanent` (the server refused the recipient). `awaitSync` puts it back as awaiting_sync
 * (the team's SMTP settings were removed meanwhile).
 */
export function markDeliveryFailed(
  db: Db,
  row: DeliveryRow,
  owner: string,
  error: string,
  options: { permanent?: boolean; awaitSync?: boolean; now?: Date } = {},
): DeliveryState {
  const now = options.now ?? new Date();
  const attempts = row.attempts;
  const state: DeliveryState = options.awaitSync
    ? 'awaiting_sync'
    : options.permanent || attempts >= MAX_ATTEMPTS
      ? 'failed'
      : 'queued';
  const delay = Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3600_000);
  write(
    db,
    row.team_id,
    (w) => {
      db.prepare(
        `UPDATE invoice_deliveries SET state = @state, last_error = @error, next_attempt_at = @next, updated_at = @now,
           lease_owner = NULL, lease_expires_at = NULL, attempts = CASE WHEN @reset THEN attempts - 1 ELSE attempts END
         WHERE id = @id AND lease_owner = @owner`,
      ).run({
        id: row.id,
        owner,
        state,
        error: error.slice(0, 1000),
        next: new Date(now.getTime() + (state === 'queued' ? delay : 0)).toISOString(),
        now: now.toISOString(),
        reset: options.awaitSync ? 1 : 0,
      });
      w.touch('invoice', row.invoice_id);
    },
    { origin: 'system' },
  );
  return state;
}

/** Counts by state (for status lines and tests). */
export function deliveryCounts(db: Db, teamId?: string): Record<string, number> {
  const rows = db
    .prepare(
      `SELECT state, count(*) AS n FROM invoice_deliveries ${teamId ? 'WHERE team_id = ?' : ''} GROUP BY state ORDER BY state`,
    )
    .all(...(teamId ? [teamId] : [])) as { state: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}
