import type { Db } from '../db';
import { nowIso } from '../ids';
import { write } from '../write';
import type { DeliveryRow, DeliveryState } from './deliveries';

/**
 * Invoice emails relayed through the team's sync remote (docs/decisions/0143-invoice-sync.md). A delivery waiting
 * for sync (`awaiting_sync`: no SMTP server here, or an invoice the remote numbers) is sent by the remote, through
 * its send route, once the invoice is there. Its relay key — the Idempotency-Key of every attempt — is fixed when the
 * relay is frozen, so a retry after a lost answer never makes the remote queue a second email. Once the remote took
 * it (`relayed_at`), the local SMTP sender never claims it, and its state here shows the remote's delivery.
 */
export interface RelayRow extends DeliveryRow {
  relay_key: string;
  relayed_at: string | null;
  remote_delivery_id: string | null;
  /** The invoice's id on the remote. */
  remote_invoice_id: string;
}

const LINKED = `JOIN sync_records s ON s.remote_id = @remote AND s.entity = 'invoice' AND s.local_id = d.invoice_id
  AND s.remote_record_id IS NOT NULL`;

/** Fixes a relay key for each waiting email of an invoice the remote holds; returns how many it fixed. */
export function freezeRelays(db: Db, teamId: string, remoteId: string): number {
  return db
    .prepare(
      `UPDATE invoice_deliveries AS d SET relay_key = 'finops-relay-' || lower(hex(randomblob(16))), updated_at = @now
       WHERE d.team_id = @team AND d.state = 'awaiting_sync' AND d.relay_key IS NULL
         AND EXISTS (SELECT 1 FROM sync_records s WHERE s.remote_id = @remote AND s.entity = 'invoice'
           AND s.local_id = d.invoice_id AND s.remote_record_id IS NOT NULL)`,
    )
    .run({ team: teamId, remote: remoteId, now: nowIso() }).changes;
}

/** Frozen relays the remote has not taken yet, oldest first. */
export function relaysToSend(db: Db, teamId: string, remoteId: string): RelayRow[] {
  return db
    .prepare(
      `SELECT d.*, s.remote_record_id AS remote_invoice_id FROM invoice_deliveries d ${LINKED}
       WHERE d.team_id = @team AND d.state = 'awaiting_sync' AND d.relay_key IS NOT NULL AND d.relayed_at IS NULL
       ORDER BY d.created_at, d.id`,
    )
    .all({ team: teamId, remote: remoteId }) as RelayRow[];
}

/** Relays the remote took and has not sent (or failed) yet: their state is read there. */
export function relaysToWatch(db: Db, teamId: string, remoteId: string): RelayRow[] {
  return db
    .prepare(
      `SELECT d.*, s.remote_record_id AS remote_invoice_id FROM invoice_deliveries d ${LINKED}
       WHERE d.team_id = @team AND d.state = 'sending' AND d.relayed_at IS NOT NULL
       ORDER BY d.created_at, d.id`,
    )
    .all({ team: teamId, remote: remoteId }) as RelayRow[];
}

/** Counts an attempt before the request goes out (a crash mid-request still counts it). */
export function noteRelayAttempt(db: Db, id: string): void {
  db.prepare('UPDATE invoice_deliveries SET attempts = attempts + 1, updated_at = ? WHERE id = ?').run(nowIso(), id);
}

export interface RelayOutcome {
  /** `sending`: the remote holds it and has not sent it yet. */
  state: Extract<DeliveryState, 'sending' | 'sent' | 'failed' | 'canceled'>;
  /** Set when the remote took the email (not for a refusal). */
  taken: boolean;
  remoteDeliveryId?: string | null;
  /** Why it failed, or what the remote is waiting for. */
  note?: string | null;
  sentAt?: string | null;
}

/** Shows here what became of a relayed email; the invoice's sentAt (or reminderSentAt) follows a sent one. */
export function recordRelay(db: Db, row: DeliveryRow & { relayed_at: string | null }, outcome: RelayOutcome): void {
  write(
    db,
    row.team_id,
    (w) => {
      const sentAt = outcome.state === 'sent' ? (outcome.sentAt ?? w.now) : null;
      db.prepare(
        `UPDATE invoice_deliveries SET state = @state, last_error = @note, sent_at = coalesce(sent_at, @sentAt),
           relayed_at = CASE WHEN @taken THEN coalesce(relayed_at, @now) ELSE relayed_at END,
           remote_delivery_id = coalesce(@remoteDelivery, remote_delivery_id), updated_at = @now
         WHERE id = @id`,
      ).run({
        id: row.id,
        state: outcome.state,
        note: outcome.note ?? null,
        sentAt,
        taken: outcome.taken ? 1 : 0,
        remoteDelivery: outcome.remoteDeliveryId ?? null,
        now: w.now,
      });
      const inv = db.prepare('SELECT sent_at FROM invoices WHERE team_id = ? AND id = ?').get(row.team_id, row.invoice_id) as
        | { sent_at: string | null }
        | undefined;
      if (!inv) return;
      if (sentAt && row.kind === 'invoice' && !inv.sent_at) w.update('invoice', row.invoice_id, { sent_at: sentAt });
      else if (sentAt && row.kind === 'reminder') w.update('invoice', row.invoice_id, { reminder_sent_at: sentAt });
      // The invoice's API shape shows its latest delivery.
      else w.touch('invoice', row.invoice_id);
    },
    { origin: 'sync' },
  );
}
