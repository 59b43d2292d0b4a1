import type { Transaction } from '../../../src-shared/contract/transactions';
import { addDays } from '../../../src-shared/domain/invoice-dates';
import { transition } from '../../../src-shared/domain/invoice-lifecycle';
import {
  decide,
  type InvoiceSide,
  type Pair,
  scorePayment,
  type TransactionSide,
} from '../../../src-shared/domain/invoice-payment-match';
import { toMajor, toMinor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { listTransactionDetails } from '../transactions/list';
import { getTransaction } from '../transactions/read';
import { type Writer, write } from '../write';
import { applyMove, lifecycleContext } from './lifecycle';
import type { PaymentRow } from './payment-links';
import { getInvoicePayment } from './payments';
import { getInvoiceRow, type InvoiceRow } from './read';
import { markTransactionPaid, restoreMatchedTransaction } from './transaction-link';

/**
 * Payment matching (docs/decisions/0076-invoice-payments.md): incoming transactions of the ledger scored against the
 * team's open invoices (src-shared/domain/invoice-payment-match.ts); pairs above the suggestion threshold are kept
 * as suggestions, unambiguous ones above the auto-apply threshold are applied. Applying pays the invoice and marks
 * the transaction fulfilled (the invoice documents it); unmatching puts both back as they were and keeps the pair
 * as dismissed, so it is never proposed again. Transactions are read and written only through the ledger's store
 * functions (src-main/store/transactions/).
 */

interface OpenInvoice extends InvoiceRow {
  customer_display: string | null;
}

function openInvoices(db: Db, teamId: string, invoiceId?: string): OpenInvoice[] {
  return db
    .prepare(
      `SELECT i.*, coalesce(i.customer_name, c.name) AS customer_display FROM invoices i
       LEFT JOIN customers c ON c.team_id = i.team_id AND c.id = i.customer_id
       WHERE i.team_id = @team AND i.status IN ('unpaid', 'overdue') AND i.amount_minor > 0 ${invoiceId ? 'AND i.id = @invoice' : ''}
         AND NOT EXISTS (SELECT 1 FROM invoice_payments p WHERE p.team_id = i.team_id AND p.invoice_id = i.id AND p.state = 'applied')`,
    )
    .all({ team: teamId, invoice: invoiceId ?? null }) as OpenInvoice[];
}

function invoiceSide(inv: InvoiceRow, customerName: string | null): InvoiceSide {
  return {
    invoiceNumber: inv.invoice_number,
    customerName,
    amountMinor: inv.amount_minor,
    currency: inv.currency,
    issueDate: inv.issue_date,
    dueDate: inv.due_date,
  };
}

function txSide(t: Transaction): TransactionSide {
  return {
    amountMinor: toMinor(t.amount, t.currency),
    currency: t.currency,
    date: t.date.slice(0, 10),
    text: [t.name, t.description, t.counterpartyName, t.merchantName].filter(Boolean).join(' '),
  };
}

/** The ledger's incoming transactions of exactly this amount and currency in the invoice's date window. */
function candidatesFor(db: Db, teamId: string, inv: OpenInvoice): Transaction[] {
  const amount = toMajor(inv.amount_minor, inv.currency);
  const out: Transaction[] = [];
  let cursor: string | undefined;
  do {
    const page = listTransactionDetails(db, teamId, {
      start: addDays(inv.issue_date, -3),
      end: addDays(inv.due_date, 60),
      type: 'income',
      amountRange: { min: amount, max: amount },
      pageSize: 200,
      cursor,
    });
    out.push(...page.data.filter((t) => t.currency === inv.currency && !t.internal));
    cursor = page.cursor ?? undefined;
  } while (cursor && out.length < 1000);
  return out;
}

function pairRow(db: Db, teamId: string, invoiceId: string, transactionId: string): PaymentRow | undefined {
  return db
    .prepare('SELECT * FROM invoice_payments WHERE team_id = ? AND invoice_id = ? AND transaction_id = ?')
    .get(teamId, invoiceId, transactionId) as PaymentRow | undefined;
}

function appliedTransaction(db: Db, teamId: string, transactionId: string): PaymentRow | undefined {
  return db
    .prepare(`SELECT * FROM invoice_payments WHERE team_id = ? AND transaction_id = ? AND state = 'applied'`)
    .get(teamId, transactionId) as PaymentRow | undefined;
}

export interface MatchResult {
  suggested: number;
  applied: { invoiceId: string; transactionId: string; confidence: number }[];
}

/**
 * Scores the team's open invoices against its incoming transactions: new suggestions are stored (an existing
 * suggestion's confidence is updated), unambiguous strong pairs applied. Dismissed pairs and transactions already
 * paying an invoice are left alone. `invoiceId` limits it to one invoice.
 *
 * The scoring reads without the write lock (it scans the ledger); only when something is to be stored does a write
 * begin, which checks each pair again (a person may have paid or dismissed it meanwhile).
 */
export function matchInvoicePayments(db: Db, teamId: string, options: { now?: Date; invoiceId?: string } = {}): MatchResult {
  const now = options.now ?? new Date();
  const pairs: Pair<OpenInvoice, Transaction>[] = [];
  for (const inv of openInvoices(db, teamId, options.invoiceId)) {
    for (const t of candidatesFor(db, teamId, inv)) {
      if (pairRow(db, teamId, inv.id, t.id)?.state === 'dismissed' || appliedTransaction(db, teamId, t.id)) continue;
      const score = scorePayment(invoiceSide(inv, inv.customer_display), txSide(t));
      if (score.confidence > 0) pairs.push({ invoice: inv, transaction: t, score });
    }
  }
  const { apply, suggest } = decide(pairs);
  const pending = suggest.filter((p) => pairRow(db, teamId, p.invoice.id, p.transaction.id)?.confidence !== p.score.confidence);
  if (pending.length === 0 && apply.length === 0) return { suggested: 0, applied: [] };
  return write(
    db,
    teamId,
    (w) => {
      const stillOpen = (id: string) => openInvoices(db, teamId, id).length === 1;
      const stillFree = (p: Pair<OpenInvoice, Transaction>) =>
        stillOpen(p.invoice.id) &&
        pairRow(db, teamId, p.invoice.id, p.transaction.id)?.state !== 'dismissed' &&
        !appliedTransaction(db, teamId, p.transaction.id);
      let suggested = 0;
      for (const p of pending) {
        if (!stillFree(p)) continue;
        const existing = pairRow(db, teamId, p.invoice.id, p.transaction.id);
        if (existing) {
          w.update('invoice_payment', existing.id, { confidence: p.score.confidence });
          continue;
        }
        w.insert('invoice_payment', {
          invoice_id: p.invoice.id,
          transaction_id: p.transaction.id,
          state: 'suggested',
          amount_minor: toMinor(p.transaction.amount, p.transaction.currency),
          currency: p.transaction.currency,
          paid_on: p.transaction.date.slice(0, 10),
          confidence: p.score.confidence,
          matched_by: 'auto',
        });
        suggested++;
      }
      const applied: MatchResult['applied'] = [];
      for (const p of apply) {
        if (!stillFree(p)) continue;
        const inv = getInvoiceRow(db, teamId, p.invoice.id)!;
        applyPair(w, inv, p.transaction, { matchedBy: 'auto', confidence: p.score.confidence, now });
        applied.push({ invoiceId: p.invoice.id, transactionId: p.transaction.id, confidence: p.score.confidence });
      }
      return { suggested, applied };
    },
    { origin: 'system' },
  );
}

/** Pays the invoice with the transaction, inside the caller's write; returns the payment row's id. */
function applyPair(
  w: Writer,
  inv: InvoiceRow,
  t: Transaction,
  options: { matchedBy: 'auto' | 'user'; confidence: number | null; now: Date },
): string {
  const db = w.db;
  const day = t.date.slice(0, 10);
  const restoreInvoice = JSON.stringify({ status: inv.status, paidAt: inv.paid_at });
  // Midday UTC of the booking day: the same calendar day in every time zone from UTC−11 to UTC+11.
  applyMove(w, inv, 'pay', { now: options.now, paidAt: `${day}T12:00:00.000Z` });
  const restoreTransaction = markTransactionPaid(db, w.teamId, t);
  const values = {
    state: 'applied',
    amount_minor: toMinor(t.amount, t.currency),
    currency: t.currency,
    paid_on: day,
    confidence: options.confidence,
    matched_by: options.matchedBy,
    restore_invoice: restoreInvoice,
    restore_transaction: restoreTransaction,
  };
  const existing = pairRow(db, w.teamId, inv.id, t.id);
  let id: string;
  if (existing) {
    w.update('invoice_payment', existing.id, values);
    id = existing.id;
  } else id = w.insert('invoice_payment', { invoice_id: inv.id, transaction_id: t.id, ...values });
  // Other suggestions of this invoice, and of this transaction for other invoices, are moot now.
  const moot = db
    .prepare(
      `SELECT id FROM invoice_payments WHERE team_id = ? AND state = 'suggested' AND id != ? AND (invoice_id = ? OR transaction_id = ?)`,
    )
    .pluck()
    .all(w.teamId, id, inv.id, t.id) as string[];
  for (const m of moot) w.remove('invoice_payment', m);
  return id;
}

/** POST /v1/invoice-payments: a person confirms a suggestion or links a transaction to an open invoice. */
export function applyInvoicePayment(
  db: Db,
  teamId: string,
  input: { invoiceId: string; transactionId: string },
  now = new Date(),
) {
  const id = write(db, teamId, (w) => {
    const inv = getInvoiceRow(db, teamId, input.invoiceId);
    if (!inv) throw new InvalidReference('invoiceId', `invoiceId: the team has no invoice ${input.invoiceId}`);
    let t: Transaction;
    try {
      t = getTransaction(db, teamId, input.transactionId);
    } catch (e) {
      if (e instanceof NotFound)
        throw new InvalidReference('transactionId', `transactionId: the team has no transaction ${input.transactionId}`);
      throw e;
    }
    const move = transition(inv.status, 'pay', lifecycleContext(inv, now));
    if (!move.ok) {
      throw new Conflict(
        `The invoice is ${inv.status}: only an unpaid or overdue invoice can be paid. Allowed next states: ${move.allowed.join(', ') || 'none (the invoice is settled)'}`,
      );
    }
    if (t.amount <= 0)
      throw new InvalidReference('transactionId', 'transactionId: only money in (a positive amount) can pay an invoice');
    if (t.currency !== inv.currency) {
      throw new InvalidReference(
        'transactionId',
        `transactionId: the transaction is in ${t.currency}, the invoice in ${inv.currency}`,
      );
    }
    const other = appliedTransaction(db, teamId, t.id);
    if (other) throw new Conflict(`The transaction already pays invoice ${other.invoice_id}`, 'unmatch it there first');
    const score = scorePayment(invoiceSide(inv, inv.customer_name), txSide(t));
    return applyPair(w, inv, t, { matchedBy: 'user', confidence: score.confidence || null, now });
  });
  return getInvoicePayment(db, teamId, id);
}

/**
 * DELETE /v1/invoice-payments/{id}: an applied link is unmatched — the invoice goes back to unpaid (or overdue) and
 * the transaction to how it was — and a suggestion is dismissed. Either way the link stays, dismissed.
 */
export function unmatchInvoicePayment(db: Db, teamId: string, id: string, now = new Date()) {
  write(db, teamId, (w) => {
    const row = db.prepare('SELECT * FROM invoice_payments WHERE team_id = ? AND id = ?').get(teamId, id) as
      | PaymentRow
      | undefined;
    if (!row) throw new NotFound('invoice payment', id);
    if (row.state === 'dismissed') return;
    if (row.state === 'suggested') {
      w.update('invoice_payment', id, { state: 'dismissed' });
      return;
    }
    const inv = getInvoiceRow(db, teamId, row.invoice_id);
    if (inv && inv.status !== 'paid') {
      throw new Conflict(
        `The invoice is ${inv.status}: only the payment of a paid invoice can be unmatched`,
        'a refunded invoice keeps its payment',
      );
    }
    if (inv) applyMove(w, inv, 'reopen', { now });
    restoreMatchedTransaction(db, teamId)(row);
    w.update('invoice_payment', id, { state: 'dismissed', restore_invoice: null, restore_transaction: null });
  });
  return getInvoicePayment(db, teamId, id);
}

/** Each team's change sequence, for the scheduler to match only the teams whose inputs changed. */
export function teamSequences(db: Db): { id: string; seq: number }[] {
  return db.prepare('SELECT id, change_seq AS seq FROM teams ORDER BY id').all() as { id: string; seq: number }[];
}

/** Whether any record of these entities changed in the team after change sequence `sinceSeq`. */
export function entitiesChangedSince(db: Db, teamId: string, sinceSeq: number, entities: readonly string[]): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM changes WHERE team_id = ? AND seq > ? AND entity IN (${entities.map(() => '?').join(', ')}) LIMIT 1`,
      )
      .get(teamId, sinceSeq, ...entities) !== undefined
  );
}
