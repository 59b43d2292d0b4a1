import { toMajor } from '../money';
import { isIssued, isOpen } from './invoice-status';

/**
 * A customer's finance summary and engagement (stage, payment status, recency, list tabs), computed from the
 * customer's invoices grouped by currency and status. Rules (docs/decisions/0022-customers-tabs.md):
 *
 * - finance per currency: invoiced = Σ issued; paid = Σ paid; outstanding = what is still due on the open (unpaid +
 *   overdue) invoices, their partial payments deducted (decision 0147); overdue = the same of the overdue ones. The customer's invoice currency is that of its latest issued invoice (by issue date, then
 *   id); the flat figures are in that currency, `byCurrency` has them all.
 * - stage: by issued invoice count — 0 new, 1 first-time, 2+ repeat.
 * - payment status: unpaid when any invoice is open; none without issued invoices; paid when every issued invoice
 *   is paid; other otherwise (e.g. a refunded one).
 * - recent: created within the last RECENT_DAYS, or last issued invoice dated within them (by UTC day).
 * - tabs: all, plus the stage (unless new), recent, and the payment status when it is unpaid or paid.
 *
 * The store evaluates the same rules in SQL for list filters (src-main/store/customers/engagement-sql.ts); a table test
 * holds the two forms equal. Amounts here are minor units; the result is in major units for the API.
 */
export const RECENT_DAYS = 30;
const DAY_MS = 86_400_000;

export const CUSTOMER_TABS = ['all', 'first-time', 'repeat', 'recent', 'unpaid', 'paid'] as const;
export type CustomerTab = (typeof CUSTOMER_TABS)[number];
export type CustomerStage = 'new' | 'first-time' | 'repeat';
export type CustomerPaymentStatus = 'none' | 'paid' | 'unpaid' | 'other';

/** Invoices of one customer aggregated by currency and status. */
export interface InvoiceGroup {
  currency: string;
  status: string;
  count: number;
  totalMinor: number;
  /** Latest issue date of the group (YYYY-MM-DD). */
  lastDate: string | null;
  /** max(issue_date || ' ' || id): orders "latest invoice" by date, then id. */
  latestKey: string | null;
  /** Latest paid_at of the group. */
  lastPaidAt: string | null;
  /** What the group's open invoices have received so far (partial payments); 0 for other statuses. */
  receivedMinor: number;
}

export interface CurrencyTotals {
  currency: string;
  invoiced: number;
  paid: number;
  outstanding: number;
  overdue: number;
  invoiceCount: number;
}

export interface CustomerFinance {
  currency: string | null;
  invoiced: number;
  paid: number;
  outstanding: number;
  overdue: number;
  invoiceCount: number;
  paidCount: number;
  unpaidCount: number;
  overdueCount: number;
  draftCount: number;
  lastInvoiceDate: string | null;
  byCurrency: CurrencyTotals[];
}

export interface CustomerEngagement {
  tabs: CustomerTab[];
  stage: CustomerStage;
  paymentStatus: CustomerPaymentStatus;
  recent: boolean;
}

export interface FinanceSummary {
  finance: CustomerFinance;
  lastPaymentAt: string | null;
}

function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

export function summarizeFinance(groups: readonly InvoiceGroup[]): FinanceSummary {
  interface Totals {
    invoiced: number;
    paid: number;
    outstanding: number;
    overdue: number;
    count: number;
    latest: string;
  }
  const byCurrency = new Map<string, Totals>();
  let invoiceCount = 0;
  let paidCount = 0;
  let unpaidCount = 0;
  let overdueCount = 0;
  let draftCount = 0;
  let lastInvoiceDate: string | null = null;
  let lastPaymentAt: string | null = null;
  for (const g of groups) {
    if (g.status === 'draft') draftCount += g.count;
    if (!isIssued(g.status)) continue;
    const t = byCurrency.get(g.currency) ?? { invoiced: 0, paid: 0, outstanding: 0, overdue: 0, count: 0, latest: '' };
    t.invoiced += g.totalMinor;
    t.count += g.count;
    if (g.latestKey && g.latestKey > t.latest) t.latest = g.latestKey;
    invoiceCount += g.count;
    if (g.status === 'paid') {
      t.paid += g.totalMinor;
      paidCount += g.count;
      lastPaymentAt = later(lastPaymentAt, g.lastPaidAt);
    }
    if (isOpen(g.status)) {
      t.outstanding += g.totalMinor - g.receivedMinor;
      unpaidCount += g.count;
    }
    if (g.status === 'overdue') {
      t.overdue += g.totalMinor - g.receivedMinor;
      overdueCount += g.count;
    }
    byCurrency.set(g.currency, t);
    lastInvoiceDate = later(lastInvoiceDate, g.lastDate);
  }
  let currency: string | null = null;
  let latest = '';
  for (const [c, t] of byCurrency) {
    if (t.latest > latest) {
      latest = t.latest;
      currency = c;
    }
  }
  const primary = currency ? byCurrency.get(currency) : undefined;
  const major = (minor: number) => (primary && currency ? toMajor(minor, currency) : 0);
  return {
    lastPaymentAt,
    finance: {
      currency,
      invoiced: major(primary?.invoiced ?? 0),
      paid: major(primary?.paid ?? 0),
      outstanding: major(primary?.outstanding ?? 0),
      overdue: major(primary?.overdue ?? 0),
      invoiceCount,
      paidCount,
      unpaidCount,
      overdueCount,
      draftCount,
      lastInvoiceDate,
      byCurrency: [...byCurrency.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([c, t]) => ({
          currency: c,
          invoiced: toMajor(t.invoiced, c),
          paid: toMajor(t.paid, c),
          outstanding: toMajor(t.outstanding, c),
          overdue: toMajor(t.overdue, c),
          invoiceCount: t.count,
        })),
    },
  };
}

let lastWindow: { at: number; window: { sinceTs: string; sinceDate: string } } | undefined;

/** The bounds of "recent" at `now`: created at or after `sinceTs`, or last invoice dated on or after `sinceDate`. */
export function recentWindow(now: Date): { sinceTs: string; sinceDate: string } {
  // A page of customers is read at one `now`: the window is worked out once for it.
  const at = now.getTime();
  if (lastWindow?.at !== at) {
    const sinceTs = new Date(at - RECENT_DAYS * DAY_MS).toISOString();
    lastWindow = { at, window: { sinceTs, sinceDate: sinceTs.slice(0, 10) } };
  }
  return lastWindow.window;
}

export function isRecent(createdAt: string, lastInvoiceDate: string | null, now: Date): boolean {
  const { sinceTs, sinceDate } = recentWindow(now);
  return createdAt >= sinceTs || (lastInvoiceDate !== null && lastInvoiceDate >= sinceDate);
}

/**
 * The first instant (epoch ms) at which `isRecent` turns false by the clock alone; Infinity when it is false already.
 * Response caches keep a customer read until then.
 */
export function recentUntil(createdAt: string, lastInvoiceDate: string | null, recent: boolean): number {
  if (!recent) return Number.POSITIVE_INFINITY;
  // createdAt ≥ now − RECENT_DAYS holds at exactly createdAt + RECENT_DAYS, and no longer 1 ms later.
  const byCreation = Date.parse(createdAt) + RECENT_DAYS * DAY_MS + 1;
  // lastInvoiceDate ≥ the UTC day of now − RECENT_DAYS: false from the start of the day after that.
  const byInvoice = lastInvoiceDate
    ? Date.parse(`${lastInvoiceDate}T00:00:00.000Z`) + (RECENT_DAYS + 1) * DAY_MS
    : Number.NEGATIVE_INFINITY;
  return Math.max(byCreation, byInvoice);
}

export function stageOf(issuedCount: number): CustomerStage {
  return issuedCount === 0 ? 'new' : issuedCount === 1 ? 'first-time' : 'repeat';
}

export function paymentStatusOf(issuedCount: number, paidCount: number, openCount: number): CustomerPaymentStatus {
  return openCount > 0 ? 'unpaid' : issuedCount === 0 ? 'none' : paidCount === issuedCount ? 'paid' : 'other';
}

export function engagementOf(finance: CustomerFinance, createdAt: string, now: Date): CustomerEngagement {
  const recent = isRecent(createdAt, finance.lastInvoiceDate, now);
  const stage = stageOf(finance.invoiceCount);
  const paymentStatus = paymentStatusOf(finance.invoiceCount, finance.paidCount, finance.unpaidCount);
  const tabs: CustomerTab[] = ['all'];
  if (stage !== 'new') tabs.push(stage);
  if (recent) tabs.push('recent');
  if (paymentStatus === 'unpaid' || paymentStatus === 'paid') tabs.push(paymentStatus);
  return { tabs, stage, paymentStatus, recent };
}
