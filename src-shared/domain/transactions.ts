/**
 * Transaction vocabularies (hosted names: shared/spec/hosted-service-facts.md) and the rules every ledger figure
 * shares.
 *
 * - Stored statuses: posted, pending, excluded, completed, archived, exported. The spec's list item has only
 *   pending | posted: every status but pending lists as posted; the detailed record carries the stored one.
 * - Counted in reports (income, expense, cash flow, metrics): not internal (a transfer between own accounts) and not
 *   excluded; split parts count by their own category; categories marked excluded are left out by the reports.
 * - Counted in an account's running balance: every transaction of the account, whatever its status (the balance is
 *   the bank's).
 */
export const TRANSACTION_STATUSES = ['posted', 'pending', 'excluded', 'completed', 'archived', 'exported'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TRANSACTION_METHODS = [
  'payment',
  'card_purchase',
  'card_atm',
  'transfer',
  'other',
  'unknown',
  'ach',
  'interest',
  'deposit',
  'wire',
  'fee',
] as const;

/** The hosted frequencies, plus quarterly (tax prepayments, quarterly fees) which recurring detection finds. */
export const FREQUENCIES = [
  'weekly',
  'biweekly',
  'monthly',
  'semi_monthly',
  'quarterly',
  'annually',
  'irregular',
  'unknown',
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export function listStatus(status: string): 'pending' | 'posted' {
  return status === 'pending' ? 'pending' : 'posted';
}

export function countsInReports(t: { status: string; internal: boolean }): boolean {
  return !t.internal && t.status !== 'excluded';
}

/** A split part or the whole line: what a report sums. */
export interface Contribution {
  day: string;
  currency: string;
  categorySlug: string;
  amountMinor: number;
}

export const UNCATEGORIZED = 'uncategorized';

/** The report contributions of one transaction: its split parts, or itself; none when it does not count. */
export function contributions(
  t: { date: string; currency: string; amountMinor: number; categorySlug: string | null; status: string; internal: boolean },
  splits: readonly { amountMinor: number; categorySlug: string | null }[],
): Contribution[] {
  if (!countsInReports(t)) return [];
  const parts = splits.length > 0 ? splits : [{ amountMinor: t.amountMinor, categorySlug: t.categorySlug }];
  return parts.map((p) => ({
    day: t.date,
    currency: t.currency,
    categorySlug: p.categorySlug ?? UNCATEGORIZED,
    amountMinor: p.amountMinor,
  }));
}
