import crypto from 'node:crypto';
import type { Db } from '../db';
import { newId } from '../ids';
import { claimNextSend } from '../leases';
import { write } from '../write';

/**
 * The durable hand-off queue of e-invoices to a team's Peppol access point (docs/decisions/0162-peppol-access-point.md).
 *
 * A row is written in the send's write when the invoice's email is queued, the customer takes a UBL format
 * (Peppol BIS 3.0 or XRechnung UBL) and has a Peppol ID, and the team has an access point. Its provider idempotency
 * GUID and the recipient are fixed then, so a retry after an answer that never came is the same submission to the
 * provider. A runner claims one row at a time in an IMMEDIATE transaction (lease columns, `claimCondition`), only of
 * a team that has an access point and of an invoice that has its number; it is `waiting` (with the last error and a
 * back-off after a network error or a 5xx), `handed_over` with the provider's submission id, or `failed` for good
 * with the provider's message (a 4xx); one still waiting when its invoice is canceled is `canceled` with it (one already
 * being sent finishes: the provider may have it).
 */

/** The formats an access point takes: UBL, the syntax of Peppol BIS Billing 3.0. */
export const PEPPOL_FORMATS = ['peppol-bis-3', 'xrechnung-ubl'] as const;

export type HandOffState = 'waiting' | 'sending' | 'handed_over' | 'failed' | 'canceled';

export interface HandOffRow {
  id: string;
  team_id: string;
  invoice_id: string;
  format: (typeof PEPPOL_FORMATS)[number];
  /** The customer's Peppol participant id, `icd:identifier`. */
  recipient: string;
  idempotency_guid: string;
  state: HandOffState;
  attempts: number;
  last_error: string | null;
  submission_id: string | null;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
  handed_over_at: string | null;
}

/** At most an hour between two attempts: an access point back after a long outage is found within the hour. */
const MAX_BACKOFF_MS = 3600_000;

/**
 * Writes the invoice's hand-off when it goes to an access point (see the header); joins the caller's write. Returns
 * the row, or undefined when the invoice goes by email only.
 */
export function queueHandOff(db: Db, teamId: string, invoiceId: string): HandOffRow | undefined {
  return write(db, teamId, (w) => {
    const route = db
      .prepare(
        `SELECT c.peppol_id AS peppolId, COALESCE(c.e_invoice_format, t.e_invoice_format) AS format
         FROM invoices i
         JOIN teams t ON t.id = i.team_id
         JOIN einvoice_access_points a ON a.team_id = i.team_id
         JOIN customers c ON c.team_id = i.team_id AND c.id = i.customer_id
         WHERE i.team_id = ? AND i.id = ?`,
      )
      .get(teamId, invoiceId) as { peppolId: string | null; format: string | null } | undefined;
    if (!route?.peppolId?.trim() || !(PEPPOL_FORMATS as readonly string[]).includes(route.format ?? '')) return undefined;
    const id = newId();
    db.prepare(
      `INSERT INTO einvoice_handoffs (id, team_id, invoice_id, format, recipient, idempotency_guid, state,
         next_attempt_at, created_at, updated_at)
       VALUES (@id, @team, @invoice, @format, @recipient, @guid, 'waiting', @now, @now, @now)`,
    ).run({
      id,
      team: teamId,
      invoice: invoiceId,
      format: route.format,
      recipient: route.peppolId.trim(),
      guid: crypto.randomUUID(),
      now: w.now,
    });
    return db.prepare('SELECT * FROM einvoice_handoffs WHERE id = ?').get(id) as HandOffRow;
  });
}

/** The invoice's hand-offs still waiting, canceled with the invoice (inside its write). */
export function cancelWaitingHandOffs(db: Db, teamId: string, invoiceId: string, now: string): number {
  return db
    .prepare(
      `UPDATE einvoice_handoffs SET state = 'canceled', last_error = 'The invoice was canceled before it was handed over',
         updated_at = ?
       WHERE team_id = ? AND invoice_id = ? AND state = 'waiting'`,
    )
    .run(now, teamId, invoiceId).changes;
}

export function listHandOffs(db: Db, teamId: string, invoiceId: string): HandOffRow[] {
  return db
    .prepare('SELECT * FROM einvoice_handoffs WHERE team_id = ? AND invoice_id = ? ORDER BY created_at, id')
    .all(teamId, invoiceId) as HandOffRow[];
}

/**
 * Claims the next hand-off due, of any team with an access point: a `waiting` row whose time has come, or a
 * `sending` row whose runner died (lease expired). It becomes `sending`, leased to `owner` until now + leaseMs.
 */
export function claimNextHandOff(db: Db, options: { owner: string; leaseMs: number; now?: Date }): HandOffRow | undefined {
  return claimNextSend<HandOffRow>(
    db,
    'einvoice_handoffs',
    `((q.state = 'waiting' AND q.next_attempt_at <= @now) OR q.state = 'sending')
     AND EXISTS (SELECT 1 FROM einvoice_access_points a WHERE a.team_id = q.team_id)
     AND EXISTS (SELECT 1 FROM invoices i WHERE i.team_id = q.team_id AND i.id = q.invoice_id AND i.invoice_number <> '')`,
    options,
  );
}

export type HandOffOutcome =
  | { kind: 'handed_over'; submissionId: string | null; note?: string }
  | { kind: 'retry'; error: string }
  | { kind: 'failed'; error: string };

/**
 * Records what the access point answered, if the row is still ours. A hand-off is when the invoice reached its
 * customer's channel: the invoice's sentAt follows, as it does for an accepted email.
 */
export function recordHandOff(db: Db, row: HandOffRow, owner: string, outcome: HandOffOutcome, now = new Date()): boolean {
  const at = now.toISOString();
  return write(
    db,
    row.team_id,
    (w) => {
      const delay = Math.min(30_000 * 2 ** Math.max(0, row.attempts - 1), MAX_BACKOFF_MS);
      const values =
        outcome.kind === 'handed_over'
          ? { state: 'handed_over', error: outcome.note ?? null, submission: outcome.submissionId, handedOver: at, next: at }
          : {
              state: outcome.kind === 'retry' ? 'waiting' : 'failed',
              error: outcome.error.slice(0, 1000),
              submission: null,
              handedOver: null,
              next: new Date(now.getTime() + (outcome.kind === 'retry' ? delay : 0)).toISOString(),
            };
      const done = db
        .prepare(
          `UPDATE einvoice_handoffs SET state = @state, last_error = @error, submission_id = @submission,
             handed_over_at = @handedOver, next_attempt_at = @next, updated_at = @at, lease_owner = NULL,
             lease_expires_at = NULL
           WHERE id = @id AND team_id = @team AND lease_owner = @owner AND state = 'sending'`,
        )
        .run({ ...values, at, id: row.id, team: row.team_id, owner }).changes;
      if (!done || outcome.kind !== 'handed_over') return done > 0;
      const sent = db
        .prepare('SELECT sent_at FROM invoices WHERE team_id = ? AND id = ?')
        .pluck()
        .get(row.team_id, row.invoice_id);
      if (sent === null) w.update('invoice', row.invoice_id, { sent_at: at });
      return true;
    },
    { origin: 'system' },
  );
}
