import { daysBetween } from './invoice-dates';

/**
 * How well an incoming transaction fits as the payment of an open invoice (docs/decisions/0076-invoice-payments.md).
 * Pure. A candidate must be money in, in the invoice's currency, for exactly the invoice's amount, booked between
 * 3 days before the issue date and 60 days after the due date. Its confidence (0–1) adds up:
 *
 * - 0.5  the exact amount and currency (every candidate has it);
 * - 0.2  booked between the issue date and a week after the due date, falling linearly to 0 at 45 days late
 *        (0.1 when booked up to 3 days before the issue date: prepayment, or a clock skew between the two systems);
 * - 0.25 the invoice number appears in the transaction's text (name, description, counterparty), ignoring case,
 *        spaces and punctuation;
 * - 0.2  × the share of the customer name's significant words found in that text (legal forms like GmbH or Ltd and
 *        words under 3 letters do not count).
 * capped at 1. A pair is suggested from SUGGEST_AT; it is applied without asking from AUTO_APPLY_AT, and only when
 * unambiguous: the transaction fits no other open invoice and the invoice no other transaction (above SUGGEST_AT).
 * So an exact amount paid on time by the named customer (0.9), or with the invoice number in the reference (≥ 0.95),
 * is applied; an exact amount on time from an unknown payer (0.7) is only suggested.
 */

export const SUGGEST_AT = 0.5;
export const AUTO_APPLY_AT = 0.9;
export const EARLIEST_DAYS_BEFORE_ISSUE = 3;
export const LATEST_DAYS_AFTER_DUE = 60;

export interface InvoiceSide {
  invoiceNumber: string;
  customerName: string | null;
  amountMinor: number;
  currency: string;
  issueDate: string;
  dueDate: string;
}

export interface TransactionSide {
  amountMinor: number;
  currency: string;
  /** Booking day, YYYY-MM-DD. */
  date: string;
  /** Name, description and counterparty, joined. */
  text: string;
}

export interface MatchScore {
  confidence: number;
  parts: { amount: number; date: number; reference: number; name: number };
}

const LEGAL_FORMS = new Set([
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'ohg',
  'gbr',
  'ug',
  'ltd',
  'limited',
  'llc',
  'llp',
  'inc',
  'corp',
  'corporation',
  'co',
  'company',
  'plc',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'ab',
  'as',
  'oy',
  'pty',
  'the',
  'and',
  'und',
]);

/** Lower-case letters and digits only (diacritics dropped): "INV-0042" → "inv0042". */
export function compact(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Words for comparing names: diacritics dropped and the German transliterations folded the same way on both sides
 * (Müller, Mueller and Muller all become "muller"; Straße and Strasse "strase").
 */
function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/ß/g, 'ss')
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/ae/g, 'a')
      .replace(/oe/g, 'o')
      .replace(/ue/g, 'u')
      .replace(/ss/g, 's')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Share of the customer name's significant words present in the text (0 when the name has none). */
export function nameShare(customerName: string | null, text: string): number {
  if (!customerName) return 0;
  const wanted = [...new Set(words(customerName).filter((w) => w.length >= 3 && !LEGAL_FORMS.has(w)))];
  if (wanted.length === 0) return 0;
  const have = new Set(words(text));
  return wanted.filter((w) => have.has(w)).length / wanted.length;
}

/** Whether the transaction is a candidate at all (direction, currency, exact amount, date window). */
export function isCandidate(inv: InvoiceSide, tx: TransactionSide): boolean {
  if (tx.amountMinor <= 0 || tx.amountMinor !== inv.amountMinor || tx.currency !== inv.currency) return false;
  return (
    daysBetween(inv.issueDate, tx.date) >= -EARLIEST_DAYS_BEFORE_ISSUE &&
    daysBetween(inv.dueDate, tx.date) <= LATEST_DAYS_AFTER_DUE
  );
}

/** The confidence of a candidate pair; 0 for a pair that is not a candidate. */
export function scorePayment(inv: InvoiceSide, tx: TransactionSide): MatchScore {
  const none = { confidence: 0, parts: { amount: 0, date: 0, reference: 0, name: 0 } };
  if (!isCandidate(inv, tx)) return none;
  const amount = 0.5;
  const late = daysBetween(inv.dueDate, tx.date);
  let date: number;
  if (daysBetween(inv.issueDate, tx.date) < 0) date = 0.1;
  else if (late <= 7) date = 0.2;
  else if (late >= 45) date = 0;
  else date = 0.2 * (1 - (late - 7) / (45 - 7));
  const number = compact(inv.invoiceNumber);
  const reference = number.length >= 3 && compact(tx.text).includes(number) ? 0.25 : 0;
  const name = 0.2 * nameShare(inv.customerName, tx.text);
  const confidence = Math.min(1, Math.round((amount + date + reference + name) * 1000) / 1000);
  return { confidence, parts: { amount, date: Math.round(date * 1000) / 1000, reference, name: Math.round(name * 1000) / 1000 } };
}

export interface Pair<I, T> {
  invoice: I;
  transaction: T;
  score: MatchScore;
}

/**
 * From every scored pair at or above SUGGEST_AT: those to apply (≥ AUTO_APPLY_AT and unambiguous) and those to
 * suggest (the rest).
 */
export function decide<I extends { id: string }, T extends { id: string }>(
  pairs: readonly Pair<I, T>[],
): { apply: Pair<I, T>[]; suggest: Pair<I, T>[] } {
  const kept = pairs.filter((p) => p.score.confidence >= SUGGEST_AT);
  const perInvoice = new Map<string, number>();
  const perTransaction = new Map<string, number>();
  for (const p of kept) {
    perInvoice.set(p.invoice.id, (perInvoice.get(p.invoice.id) ?? 0) + 1);
    perTransaction.set(p.transaction.id, (perTransaction.get(p.transaction.id) ?? 0) + 1);
  }
  const apply: Pair<I, T>[] = [];
  const suggest: Pair<I, T>[] = [];
  for (const p of kept) {
    const unambiguous = perInvoice.get(p.invoice.id) === 1 && perTransaction.get(p.transaction.id) === 1;
    (p.score.confidence >= AUTO_APPLY_AT && unambiguous ? apply : suggest).push(p);
  }
  return { apply, suggest };
}

/** The most a part payment scores: never enough to be applied without a person (AUTO_APPLY_AT). */
export const PART_PAYMENT_CAP = 0.85;

/**
 * A part payment (docs/decisions/0123-payments-on-screen.md): money in, in the invoice's currency and date window,
 * for less than what is still due. It scores 0.25, plus the date and name parts as a full payment does, plus 0.25
 * when the text names the invoice number ("INV-0578 Teilzahlung"), capped at PART_PAYMENT_CAP: a person applies it.
 * The matcher suggests only those that name the invoice; the payment dialog ranks all of them.
 */
export function scorePartPayment(inv: InvoiceSide, tx: TransactionSide): MatchScore {
  const none = { confidence: 0, parts: { amount: 0, date: 0, reference: 0, name: 0 } };
  if (tx.amountMinor <= 0 || tx.amountMinor >= inv.amountMinor || tx.currency !== inv.currency) return none;
  if (daysBetween(inv.issueDate, tx.date) < -EARLIEST_DAYS_BEFORE_ISSUE) return none;
  if (daysBetween(inv.dueDate, tx.date) > LATEST_DAYS_AFTER_DUE) return none;
  const full = scorePayment({ ...inv, amountMinor: tx.amountMinor }, tx);
  const amount = 0.25;
  const { date, reference, name } = full.parts;
  const confidence = Math.min(PART_PAYMENT_CAP, Math.round((amount + date + reference + name) * 1000) / 1000);
  return { confidence, parts: { amount, date, reference, name } };
}

/** Exactly what is due scores as a payment; less than that as a part payment; more is no candidate. */
export function scoreCandidate(inv: InvoiceSide, tx: TransactionSide): MatchScore & { part: boolean } {
  if (tx.amountMinor === inv.amountMinor) return { ...scorePayment(inv, tx), part: false };
  return { ...scorePartPayment(inv, tx), part: true };
}
