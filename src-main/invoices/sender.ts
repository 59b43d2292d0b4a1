import type Nodemailer from 'nodemailer';
import { type DrainLoop, startDrainLoop } from '../infra/drain-loop';
import { socketTarget } from '../outbound/policy';
import type { Db } from '../store/db';
import { NotFound } from '../store/errors';
import { claimNextDelivery, type DeliveryRow, markDeliveryFailed, markDeliverySent } from '../store/invoices/deliveries';
import { getInvoice } from '../store/invoices/read';
import { getSmtpSettings, type SmtpSettings } from '../store/invoices/smtp';
import { PROCESS_OWNER } from '../store/leases';
import { findTeamById, isSingleTeam } from '../store/teams/teams';
import { invoiceMailAttachments } from './einvoice-issue';
import { invoiceEmail } from './email';
import { invoicePdf } from './pdf-files';
import { readSmtpPassword } from './smtp-secrets';

/**
 * The SMTP sender of the invoice email queue (docs/decisions/0074). It claims one row at a time (store/invoices/
 * deliveries.ts: lease columns, so two processes never send the same row), renders the invoice PDF, sends
 * with nodemailer using the row's fixed Message-ID, and records the outcome. Rows of teams without SMTP go back to
 * awaiting_sync. A 5xx answer (the server refused for good) fails the row; anything else is retried with back-off.
 */

export interface SenderOptions {
  dataDir?: string;
  owner?: string;
  /** How long a claimed row stays ours; a row whose sender died is sent again after this. Default 2 min. */
  leaseMs?: number;
  clock?: () => Date;
}

export interface DrainResult {
  sent: number;
  retried: number;
  failed: number;
  awaitingSync: number;
}

/** nodemailer (~2 MB of heap) loads with the first email sent, not with every server that never sends one. */
let nodemailer: typeof Nodemailer | undefined;

/** The waits of a transport, in ms; a person waiting on a test message gets shorter ones (smtp-test.ts). */
export interface TransportWaits {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

const QUEUE_WAITS: TransportWaits = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/**
 * The team's mail server as a transport, connected to an address the outbound policy checked (outbound/policy.ts),
 * with the host name kept for TLS (SNI and the certificate's name).
 */
export async function transportFor(settings: SmtpSettings, password: string | undefined, waits: TransportWaits = QUEUE_WAITS) {
  nodemailer ??= require('nodemailer') as typeof Nodemailer;
  const target = await socketTarget(settings.host, settings.port);
  return nodemailer.createTransport({
    host: target.host,
    ...(target.servername ? { servername: target.servername, tls: { servername: target.servername } } : {}),
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    auth: settings.username ? { user: settings.username, pass: password ?? '' } : undefined,
    ...waits,
  });
}

type Outcome = 'sent' | 'retried' | 'failed' | 'awaiting_sync';

async function sendOne(db: Db, row: DeliveryRow, options: SenderOptions, owner: string): Promise<Outcome> {
  const clock = options.clock ?? (() => new Date());
  const settings = getSmtpSettings(db, row.team_id);
  if (!settings) {
    markDeliveryFailed(db, row, owner, 'No SMTP server is configured for the team', { awaitSync: true, now: clock() });
    return 'awaiting_sync';
  }
  if (!row.recipient) {
    markDeliveryFailed(db, row, owner, 'No recipient: the customer has no email address', { permanent: true, now: clock() });
    return 'failed';
  }
  let transport: Awaited<ReturnType<typeof transportFor>> | undefined;
  try {
    const invoice = getInvoice(db, row.team_id, row.invoice_id);
    const name = findTeamById(db, row.team_id)?.name ?? 'Finops Desk';
    const pdf = await invoicePdf(db, options.dataDir, row.team_id, row.invoice_id);
    const content = invoiceEmail(invoice, row.kind, name, clock(), {
      overrides: { subject: row.subject, message: row.message },
      reminder: { level: row.reminder_level, feeMinor: row.fee_minor ?? 0 },
    });
    transport = await transportFor(
      settings,
      readSmtpPassword(options.dataDir, row.team_id, process.env, { ...settings, singleTeam: isSingleTeam(db) }),
    );
    await transport.sendMail({
      from: { name: settings.fromName ?? name, address: settings.fromAddress },
      to: row.recipient,
      subject: content.subject,
      text: content.text,
      messageId: row.message_id,
      headers: { 'X-Finops-Delivery': row.id },
      attachments: await invoiceMailAttachments(db, options.dataDir, row.team_id, row.invoice_id, pdf),
    });
    markDeliverySent(db, row, owner, clock());
    return 'sent';
  } catch (err) {
    if (err instanceof NotFound) {
      markDeliveryFailed(db, row, owner, 'The invoice no longer exists', { permanent: true, now: clock() });
      return 'failed';
    }
    const e = err as { responseCode?: number; message?: string };
    const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
    const state = markDeliveryFailed(db, row, owner, e.message ?? String(err), { permanent, now: clock() });
    return state === 'failed' ? 'failed' : 'retried';
  } finally {
    transport?.close();
  }
}

/** Sends every email that is due now, one after another, and returns the counts. */
export async function drainDeliveries(db: Db, options: SenderOptions = {}): Promise<DrainResult> {
  const owner = options.owner ?? PROCESS_OWNER;
  const leaseMs = options.leaseMs ?? 120_000;
  const clock = options.clock ?? (() => new Date());
  const result: DrainResult = { sent: 0, retried: 0, failed: 0, awaitingSync: 0 };
  for (;;) {
    const row = claimNextDelivery(db, { owner, leaseMs, now: clock() });
    if (!row) return result;
    const outcome = await sendOne(db, row, options, owner);
    if (outcome === 'sent') result.sent++;
    else if (outcome === 'retried') result.retried++;
    else if (outcome === 'failed') result.failed++;
    else result.awaitingSync++;
  }
}

export type SenderHandle = DrainLoop;

export function startDeliverySender(
  db: Db,
  options: SenderOptions & { intervalMs?: number; onError?: (err: unknown) => void } = {},
): SenderHandle {
  return startDrainLoop(() => drainDeliveries(db, options), {
    intervalMs: options.intervalMs ?? 5_000,
    onError: options.onError,
  });
}
