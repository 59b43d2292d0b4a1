/**
 * Recurring series detected from history (docs/decisions/0131-recurring-detection.md): subscriptions, payroll,
 * rent, tax prepayments. Pure: the store hands in a team's transactions, this returns the series.
 *
 * 1. Group by account, currency, direction (in/out) and payee: the counterparty, else the name, normalised
 *    (lower case, digits and punctuation dropped, so "NETFLIX.COM 4821" and "Netflix.com 9911" are one payee).
 * 2. Interval: the median gap between consecutive dates picks a frequency band — weekly 6–8 days, biweekly 13–16,
 *    monthly 27–34, quarterly 84–97, annually 350–380. At least 75 % of the gaps must fall in the band, and a series
 *    needs 3 occurrences (2 for annual ones).
 * 3. Amount: consecutive amounts within 15 % of each other form a run; at most two runs are allowed (a price change)
 *    and the latest run must hold at least two occurrences unless it is the only one. The next amount is the median
 *    of the latest run.
 * 4. The series is active when its last occurrence is no older than 1.5 intervals at `asOf`.
 * 5. Next date: monthly series whose dates all fall in the last 4 days of their month are "last working day" series
 *    (payroll): the next is the last weekday of the following month; others repeat the interval from the last date
 *    (monthly and longer keep the day of month, clamped to the month's end).
 * Irregular spend (card purchases at varying intervals and amounts) fails step 2 or 3 and is not a series.
 */

export interface HistoryRow {
  id: string;
  date: string;
  amountMinor: number;
  currency: string;
  accountId: string;
  counterparty: string | null;
  name: string;
}

export type SeriesFrequency = 'weekly' | 'biweekly' | 'monthly' | 'quarterly' | 'annually';

export interface DetectedSeries {
  key: string;
  payee: string;
  accountId: string;
  currency: string;
  frequency: SeriesFrequency;
  transactionIds: string[];
  firstDate: string;
  lastDate: string;
  nextDate: string;
  /** Typical (latest run's median) amount, signed, minor units. */
  amountMinor: number;
  nextAmountMinor: number;
  active: boolean;
  priceChanged: boolean;
}

const BANDS: { frequency: SeriesFrequency; min: number; max: number; months: number; days: number }[] = [
  { frequency: 'weekly', min: 6, max: 8, months: 0, days: 7 },
  { frequency: 'biweekly', min: 13, max: 16, months: 0, days: 14 },
  { frequency: 'monthly', min: 27, max: 34, months: 1, days: 30.44 },
  { frequency: 'quarterly', min: 84, max: 97, months: 3, days: 91.3 },
  { frequency: 'annually', min: 350, max: 380, months: 12, days: 365.25 },
];

export function payeeKey(counterparty: string | null, name: string): string {
  return (counterparty || name)
    .normalize('NFKC')
    .toLocaleLowerCase('en')
    .replace(/[^\p{L}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const DAY_MS = 86_400_000;
const toDay = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

function lastWeekdayOf(year: number, month: number): string {
  let d = daysInMonth(year, month);
  for (;;) {
    const wd = new Date(Date.UTC(year, month, d)).getUTCDay();
    if (wd !== 0 && wd !== 6) break;
    d--;
  }
  return `${year}-${String(month + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function addMonths(iso: string, months: number): string {
  const y = Number(iso.slice(0, 4));
  const m = Number(iso.slice(5, 7)) - 1 + months;
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  const day = Math.min(Number(iso.slice(8, 10)), daysInMonth(year, month));
  return `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Runs of consecutive amounts within 15 % of each other. */
function amountRuns(amounts: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const a of amounts) {
    const run = runs[runs.length - 1];
    const ref = run ? median(run) : 0;
    if (run && Math.abs(Math.abs(a) - Math.abs(ref)) <= Math.abs(ref) * 0.15) run.push(a);
    else runs.push([a]);
  }
  return runs;
}

export function detectRecurring(rows: readonly HistoryRow[], asOf: string): DetectedSeries[] {
  const groups = new Map<string, HistoryRow[]>();
  for (const r of rows) {
    if (r.amountMinor === 0) continue;
    const payee = payeeKey(r.counterparty, r.name);
    if (!payee) continue;
    const key = `${r.accountId}|${r.currency}|${r.amountMinor < 0 ? 'out' : 'in'}|${payee}`;
    const list = groups.get(key) ?? [];
    list.push(r);
    groups.set(key, list);
  }
  const out: DetectedSeries[] = [];
  const now = toDay(asOf);
  for (const [key, list] of groups) {
    const sorted = [...list].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1));
    if (sorted.length < 2) continue;
    const days = sorted.map((r) => toDay(r.date));
    const gaps = days.slice(1).map((d, i) => d - days[i]!);
    const band = BANDS.find((b) => median(gaps) >= b.min && median(gaps) <= b.max);
    if (!band) continue;
    if (sorted.length < (band.frequency === 'annually' ? 2 : 3)) continue;
    if (gaps.filter((g) => g >= band.min && g <= band.max).length / gaps.length < 0.75) continue;
    const runs = amountRuns(sorted.map((r) => r.amountMinor));
    if (runs.length > 2) continue;
    const latest = runs[runs.length - 1]!;
    if (runs.length === 2 && latest.length < 2) continue;
    const last = sorted[sorted.length - 1]!;
    const lastDay = days[days.length - 1]!;
    let nextDate: string;
    const lastWorkingDay =
      band.frequency === 'monthly' &&
      sorted.every((r) => {
        const y = Number(r.date.slice(0, 4));
        const m = Number(r.date.slice(5, 7)) - 1;
        return Number(r.date.slice(8, 10)) > daysInMonth(y, m) - 4;
      });
    if (lastWorkingDay) {
      const next = addMonths(`${last.date.slice(0, 7)}-01`, 1);
      nextDate = lastWeekdayOf(Number(next.slice(0, 4)), Number(next.slice(5, 7)) - 1);
    } else if (band.months > 0) nextDate = addMonths(last.date, band.months);
    else nextDate = isoOf(lastDay + band.days);
    const typical = median(latest);
    out.push({
      key,
      payee: last.counterparty || last.name,
      accountId: last.accountId,
      currency: last.currency,
      frequency: band.frequency,
      transactionIds: sorted.map((r) => r.id),
      firstDate: sorted[0]!.date,
      lastDate: last.date,
      nextDate,
      amountMinor: typical,
      nextAmountMinor: typical,
      active: now - lastDay <= band.days * 1.5,
      priceChanged: runs.length === 2,
    });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : 1));
}
