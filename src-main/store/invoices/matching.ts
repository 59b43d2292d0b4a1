import type { PaymentCandidate as ApiPaymentCandidate } from '../../../src-shared/contract/invoice-payments';
import type { Transaction } from '../../../src-shared/contract/transactions';
import { addDays } from '../../../src-shared/domain/invoice-dates';
import {
  decide,
  type InvoiceSide,
  type Pair,
  scoreCandidate,
  scorePartPayment,
  scorePayment,
  type TransactionSide,
} from '../../../src-shared/domain/invoice-payment-match';
import { type PaymentKind, recordProblem } from '../../../src-shared/domain/invoice-settlement';
import { toMajor, toMinor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { receivedSql } from '../invoice-status-sql';
import { listTransactionDetails } from '../transactions/list';
import { getTransaction } from '../transactions/read';
import { type Writer, write } from '../write';
import { dismissApplied, type PaymentRow, settlementOf } from './payment-links';
import { getInvoicePayment } from './payments';
import { getInvoiceRow, type InvoiceRow } from './read';
import { settleInvoice } from './settlement';
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
  /** What is still due: the amount less the applied payments (a partly paid invoice is matched for the rest). */
  due_minor: number;
}

function openInvoices(db: Db, teamId: string, invoiceId?: string): OpenInvoice[] {
  return db
    .prepare(
      `SELECT * FROM (
         SELECT i.*, coalesce(i.customer_name, c.name) AS customer_display, i.amount_minor - ${receivedSql('i')} AS due_minor
         FROM invoices i LEFT JOIN customers c ON c.team_id = i.team_id AND c.id = i.customer_id
         WHERE i.team_id = @team AND i.status IN ('unpaid', 'overdue') ${invoiceId ? 'AND i.id = @invoice' : ''})
       WHERE due_minor > 0`,
    )
    .all({ team: teamId, invoice: invoiceId ?? null }) as OpenInvoice[];
}

function invoiceSide(inv: InvoiceRow, customerName: string | null, dueMinor = inv.amount_minor): InvoiceSide {
  return {
    invoiceNumber: inv.invoice_number,
    customerName,
    amountMinor: dueMinor,
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

/** The ledger's incoming transactions of exactly what is due, in its currency, in the invoice's date window. */
function candidatesFor(db: Db, teamId: string, inv: OpenInvoice): Transaction[] {
  const amount = toMajor(inv.due_minor, inv.currency);
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

/**
 * Money in for less than what is due that names the invoice ("INV-0578 Teilzahlung", a bank line or one entered by
 * hand), in its currency and date window: the part payments the matcher suggests.
 */
function partCandidatesFor(db: Db, teamId: string, inv: OpenInvoice): Transaction[] {
  if (!inv.invoice_number || inv.due_minor <= 1) return [];
  const page = listTransactionDetails(db, teamId, {
    q: inv.invoice_number,
    start: addDays(inv.issue_date, -3),
    end: addDays(inv.due_date, 60),
    type: 'income',
    amountRange: { min: undefined, max: toMajor(inv.due_minor - 1, inv.currency) },
    pageSize: 100,
  });
  return page.data.filter((t) => t.currency === inv.currency && !t.internal);
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
      const score = scorePayment(invoiceSide(inv, inv.customer_display, inv.due_minor), txSide(t));
      if (score.confidence > 0) pairs.push({ invoice: inv, transaction: t, score });
    }
    // Part payments that name the invoice: suggested, never applied without a person (capped below AUTO_APPLY_AT).
    for (const t of partCandidatesFor(db, teamId, inv)) {
      if (pairRow(db, teamId, inv.id, t.id)?.state === 'dismissed' || appliedTransaction(db, teamId, t.id)) continue;
      const score = scorePartPayment(invoiceSide(inv, inv.customer_display, inv.due_minor), txSide(t));
      if (score.parts.reference > 0 && score.confidence > 0) pairs.push({ invoice: inv, transaction: t, score });
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
        applyPair(w, inv, p.transaction, { kind: 'payment', matchedBy: 'auto', confidence: p.score.confidence, now });
        applied.push({ invoiceId: p.invoice.id, transactionId: p.transaction.id, confidence: p.score.confidence });
      }
      return { suggested, applied };
    },
    { origin: 'system' },
  );
}

/**
 * Applies the transaction to the invoice as a payment (money in) or a refund (money out), inside the caller's write,
 * and settles the invoice; returns the payment row's id.
 */
function applyPair(
  w: Writer,
  inv: InvoiceRow,
  t: Transaction,
  options: { kind: 'payment' | 'refund'; matchedBy: 'auto' | 'user'; confidence: number | null; now: Date },
): string {
  const db = w.db;
  const day = t.date.slice(0, 10);
  const restoreInvoice = JSON.stringify({ status: inv.status, paidAt: inv.paid_at });
  const restoreTransaction = markTransactionPaid(db, w.teamId, t);
  const values = {
    kind: options.kind,
    state: 'applied',
    amount_minor: Math.abs(toMinor(t.amount, t.currency)),
    currency: t.currency,
    paid_on: day,
    confidence: options.confidence,
    matched_by: options.matchedBy,
    restore_invoice: restoreInvoice,
    restore_transaction: restoreTransaction,
    failure_reason: null,
  };
  const existing = pairRow(db, w.teamId, inv.id, t.id);
  let id: string;
  if (existing) {
    w.update('invoice_payment', existing.id, values);
    id = existing.id;
  } else id = w.insert('invoice_payment', { invoice_id: inv.id, transaction_id: t.id, ...values });
  settleInvoice(w, inv.id, options.now, day);
  // Other suggestions of this transaction are moot now, and so are this invoice's: they were for what was due before.
  const moot = db
    .prepare(
      `SELECT id FROM invoice_payments WHERE team_id = ? AND state = 'suggested' AND id != ? AND (invoice_id = ? OR transaction_id = ?)`,
    )
    .pluck()
    .all(w.teamId, id, inv.id, t.id) as string[];
  for (const m of moot) w.remove('invoice_payment', m);
  return id;
}

/** The team's invoice to record a payment on (422 for an id the team does not have). */
export function invoiceFor(db: Db, teamId: string, invoiceId: string): InvoiceRow {
  const inv = getInvoiceRow(db, teamId, invoiceId);
  if (!inv) throw new InvalidReference('invoiceId', `invoiceId: the team has no invoice ${invoiceId}`);
  return inv;
}

/** Refuses a payment or refund of `valueMinor` that the invoice cannot take now (domain: invoice-settlement.ts). */
export function checkRecordable(db: Db, teamId: string, inv: InvoiceRow, kind: PaymentKind, valueMinor: number): void {
  const problem = recordProblem(settlementOf(db, teamId, inv), kind, valueMinor);
  if (!problem) return;
  if (problem.conflict) throw new Conflict(problem.message);
  throw new InvalidReference('amount', `amount: ${problem.message}`);
}

/**
 * POST /v1/invoice-payments with a transaction: a person confirms a suggestion or links a transaction — money in
 * pays an open invoice (in part or in full), money out refunds a paid one.
 */
export function applyTransactionPayment(
  db: Db,
  teamId: string,
  input: { invoiceId: string; transactionId: string; kind?: PaymentKind },
  now = new Date(),
) {
  const kind = input.kind ?? 'payment';
  const id = write(db, teamId, (w) => {
    const inv = invoiceFor(db, teamId, input.invoiceId);
    let t: Transaction;
    try {
      t = getTransaction(db, teamId, input.transactionId);
    } catch (e) {
      if (e instanceof NotFound)
        throw new InvalidReference('transactionId', `transactionId: the team has no transaction ${input.transactionId}`);
      throw e;
    }
    if (kind === 'payment' ? t.amount <= 0 : t.amount >= 0) {
      throw new InvalidReference(
        'transactionId',
        kind === 'payment'
          ? 'transactionId: only money in (a positive amount) can pay an invoice'
          : 'transactionId: only money out (a negative amount) can refund an invoice',
      );
    }
    if (t.currency !== inv.currency) {
      throw new InvalidReference(
        'transactionId',
        `transactionId: the transaction is in ${t.currency}, the invoice in ${inv.currency}`,
      );
    }
    const other = appliedTransaction(db, teamId, t.id);
    if (other) throw new Conflict(`The transaction is already applied to invoice ${other.invoice_id}`, 'unmatch it there first');
    checkRecordable(db, teamId, inv, kind, Math.abs(toMinor(t.amount, t.currency)));
    const score = kind === 'payment' ? scorePayment(invoiceSide(inv, inv.customer_name), txSide(t)).confidence : 0;
    return applyPair(w, inv, t, { kind, matchedBy: 'user', confidence: score || null, now });
  });
  return getInvoicePayment(db, teamId, id);
}

/**
 * DELETE /v1/invoice-payments/{id}: an applied payment is unmatched — it stops counting, its transaction goes back
 * to how it was, and a paid invoice it no longer covers reopens — an applied refund is undone on a paid invoice, and
 * a suggestion is dismissed. Either way the link stays, dismissed.
 */
export function unmatchInvoicePayment(db: Db, teamId: string, id: string, now = new Date()) {
  write(db, teamId, (w) => {
    const row = paymentRow(db, teamId, id);
    if (row.state === 'dismissed' || row.state === 'bounced') return;
    if (row.state === 'suggested') {
      w.update('invoice_payment', id, { state: 'dismissed' });
      return;
    }
    const inv = getInvoiceRow(db, teamId, row.invoice_id);
    if (inv) checkTakeBack(db, teamId, inv, row);
    dismissApplied(w, row, restoreMatchedTransaction(db, teamId));
    if (inv) settleInvoice(w, inv.id, now);
  });
  return getInvoicePayment(db, teamId, id);
}

export function paymentRow(db: Db, teamId: string, id: string): PaymentRow {
  const row = db.prepare('SELECT * FROM invoice_payments WHERE team_id = ? AND id = ?').get(teamId, id) as PaymentRow | undefined;
  if (!row) throw new NotFound('invoice payment', id);
  return row;
}

/**
 * Whether an applied row may stop counting: a refunded invoice is settled (nothing leaves it), and a payment of an
 * invoice with refunds stays (money went back against it).
 */
export function checkTakeBack(db: Db, teamId: string, inv: InvoiceRow, row: PaymentRow): void {
  if (inv.status === 'refunded') {
    throw new Conflict('The invoice is refunded: its payments and refunds stay', 'a refunded invoice is settled');
  }
  if (row.kind === 'payment' && settlementOf(db, teamId, inv).refundedMinor > 0) {
    throw new Conflict('The invoice has refunds: its payments stay', 'undo the refunds first (DELETE /v1/invoice-payments/{id})');
  }
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

export interface PaymentCandidate {
  invoiceId: string;
  transactionId: string;
  confidence: number;
  /** Less than what is still due: the invoice stays open for the rest. */
  part: boolean;
}

/**
 * What could pay an open invoice, or what open invoice a transaction could pay, best first
 * (docs/decisions/0123-payments-on-screen.md): money in, in the invoice's currency, not paying another invoice, not
 * dismissed for this pair, up to what is still due, in the invoice's date window — exact amounts scored as the
 * matcher scores them, part payments as part payments. `q` narrows the transactions by text or amount. At most 20.
 */
export function paymentCandidates(
  db: Db,
  teamId: string,
  input: { invoiceId?: string; transactionId?: string; q?: string },
): PaymentCandidate[] {
  const out: PaymentCandidate[] = [];
  const consider = (inv: OpenInvoice, t: Transaction) => {
    if (t.currency !== inv.currency || t.amount <= 0 || t.internal) return;
    if (pairRow(db, teamId, inv.id, t.id)?.state === 'dismissed' || appliedTransaction(db, teamId, t.id)) return;
    const score = scoreCandidate(invoiceSide(inv, inv.customer_display, inv.due_minor), txSide(t));
    if (score.confidence > 0)
      out.push({ invoiceId: inv.id, transactionId: t.id, confidence: score.confidence, part: score.part });
  };
  if (input.invoiceId) {
    const [inv] = openInvoices(db, teamId, input.invoiceId);
    if (!inv) return [];
    const page = listTransactionDetails(db, teamId, {
      ...(input.q ? { q: input.q } : {}),
      start: addDays(inv.issue_date, -3),
      end: addDays(inv.due_date, 60),
      type: 'income',
      amountRange: { min: undefined, max: toMajor(inv.due_minor, inv.currency) },
      pageSize: 200,
    });
    for (const t of page.data) consider(inv, t);
  } else if (input.transactionId) {
    const t = getTransaction(db, teamId, input.transactionId);
    for (const inv of openInvoices(db, teamId)) consider(inv, t);
  }
  return out.sort((a, b) => b.confidence - a.confidence).slice(0, 20);
}

/** The candidates as the API shows them: each with its invoice's number, customer and rest, and its transaction. */
export function paymentCandidateViews(
  db: Db,
  teamId: string,
  input: { invoiceId?: string; transactionId?: string; q?: string },
): ApiPaymentCandidate[] {
  return paymentCandidates(db, teamId, input).map((c) => {
    const inv = openInvoices(db, teamId, c.invoiceId)[0]!;
    const t = getTransaction(db, teamId, c.transactionId);
    return {
      invoiceId: inv.id,
      invoiceNumber: inv.invoice_number || null,
      customerName: inv.customer_display,
      amountDue: toMajor(inv.due_minor, inv.currency),
      dueDate: inv.due_date,
      transactionId: t.id,
      transactionName: t.name,
      counterpartyName: t.counterpartyName,
      date: t.date.slice(0, 10),
      amount: t.amount,
      currency: t.currency,
      manual: t.manual === true,
      confidence: c.confidence,
      part: c.part,
    };
  });
}
