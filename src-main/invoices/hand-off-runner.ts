import { readAccessPointKey } from '../einvoice/access-point/secrets';
import { submitDocument } from '../einvoice/access-point/storecove';
import { type DrainLoop, startDrainLoop } from '../infra/drain-loop';
import type { Db } from '../store/db';
import { getAccessPoint } from '../store/einvoice/access-point';
import { claimNextHandOff, type HandOffOutcome, type HandOffRow, recordHandOff } from '../store/einvoice/handoffs';
import { NotFound } from '../store/errors';
import { eInvoiceSources } from '../store/invoices/einvoice-sources';
import { PROCESS_OWNER } from '../store/leases';
import { EInvoiceRejected, EInvoiceUnavailable, issueEInvoice } from './einvoice-issue';

/**
 * Hands e-invoices to the teams' Peppol access points (docs/decisions/0162-peppol-access-point.md): claims one
 * hand-off at a time (store/einvoice/handoffs.ts: lease columns, so two processes on one data dir never submit the
 * same row at once, and the provider's idempotency GUID covers a runner that died after submitting), makes the UBL,
 * submits it and records the answer. Offline, or while the provider has trouble, the row waits with a back-off.
 */

export interface HandOffOptions {
  dataDir?: string;
  owner?: string;
  /** How long a claimed row stays ours; a row whose runner died is taken up after this. Default 2 min. */
  leaseMs?: number;
  /** How long one submission may take. Default 60 s. */
  timeoutMs?: number;
  clock?: () => Date;
}

export interface HandOffCounts {
  handedOver: number;
  waiting: number;
  failed: number;
}

async function handOne(db: Db, row: HandOffRow, options: HandOffOptions): Promise<HandOffOutcome> {
  const settings = getAccessPoint(db, row.team_id);
  const apiKey = readAccessPointKey(options.dataDir, row.team_id);
  if (!settings || !apiKey) return { kind: 'retry', error: 'The access point has no API key: set it in Settings › E-invoices' };
  // The route was fixed at the send; a document addressed elsewhere would reach nobody who can read it. The buyer of
  // an issued invoice is frozen at its issue (docs/decisions/0119), so route and document agree unless the queue row
  // predates the freeze.
  const now = eInvoiceSources(db, row.team_id, row.invoice_id).buyer.peppolId?.trim() ?? null;
  if (now?.toLowerCase() !== row.recipient.toLowerCase()) {
    return {
      kind: 'failed',
      error: `The customer's Peppol ID is ${now ?? 'gone'} since the invoice was sent to ${row.recipient}: send it again`,
    };
  }
  let ubl: Buffer;
  try {
    ubl = (await issueEInvoice(db, options.dataDir, row.team_id, row.invoice_id, { format: row.format })).bytes;
  } catch (err) {
    if (err instanceof EInvoiceRejected) {
      const rules = err.failures.map((f) => `${f.rule} ${f.field}`).join(', ');
      return { kind: 'failed', error: `${err.message}: ${rules}` };
    }
    if (err instanceof NotFound || err instanceof EInvoiceUnavailable) return { kind: 'failed', error: err.message };
    throw err;
  }
  const result = await submitDocument({
    baseUrl: settings.baseUrl,
    apiKey,
    legalEntityId: settings.legalEntityId,
    idempotencyGuid: row.idempotency_guid,
    recipient: row.recipient,
    ubl,
    timeoutMs: options.timeoutMs,
  });
  if (result.kind === 'accepted') return { kind: 'handed_over', submissionId: result.guid };
  if (result.kind === 'unavailable') return { kind: 'retry', error: result.message };
  // A GUID already used after an earlier attempt whose answer never came: that attempt reached the provider.
  if (result.duplicate && row.attempts > 1) {
    return { kind: 'handed_over', submissionId: null, note: 'Handed over by an earlier attempt whose answer was lost' };
  }
  return { kind: 'failed', error: result.message };
}

/** Hands over every e-invoice that is due now, one after another, and returns the counts. */
export async function drainHandOffs(db: Db, options: HandOffOptions = {}): Promise<HandOffCounts> {
  const owner = options.owner ?? PROCESS_OWNER;
  const clock = options.clock ?? (() => new Date());
  const counts: HandOffCounts = { handedOver: 0, waiting: 0, failed: 0 };
  for (;;) {
    const row = claimNextHandOff(db, { owner, leaseMs: options.leaseMs ?? 120_000, now: clock() });
    if (!row) return counts;
    let outcome: HandOffOutcome;
    try {
      outcome = await handOne(db, row, options);
    } catch (err) {
      outcome = { kind: 'retry', error: (err as Error).message ?? String(err) };
    }
    recordHandOff(db, row, owner, outcome, clock());
    if (outcome.kind === 'handed_over') counts.handedOver++;
    else if (outcome.kind === 'retry') counts.waiting++;
    else counts.failed++;
  }
}

export type HandOffRunner = DrainLoop;

export function startHandOffRunner(
  db: Db,
  options: HandOffOptions & { intervalMs?: number; onError?: (err: unknown) => void } = {},
): HandOffRunner {
  return startDrainLoop(() => drainHandOffs(db, options), { intervalMs: options.intervalMs ?? 10_000, onError: options.onError });
}
