import { addDays, addMonthsToDay, daysBetween, monthOf } from './series';

/**
 * The explicit parts of a forecast, pure: recurring series projected by their cadence, and open invoices as expected
 * collections. Amounts are minor units of the forecast's currency (converted by the caller at each occurrence's own
 * day), signed: money in > 0, money out < 0.
 *
 * Recurring series (docs/decisions/0092-forecast-method.md):
 * - A series is a set of occurrences sharing a key (the detected series' id, or until the recurring-series store
 *   lands: the transaction's name, currency and frequency) and a frequency.
 * - Cadence: weekly +7 days, biweekly +14 days, semi_monthly +15 days, monthly +1 calendar month (day clamped to the
 *   month's end), annually +12 months. `irregular`, `unknown` and none are not projected: the statistical model
 *   carries them.
 * - Active: its last occurrence L is no more than two cadence steps before the end of the history (`asOf`);
 *   otherwise the series has stopped and is not projected (its history stays with the statistical model).
 * - Amount of each projected occurrence = the median of the last three period totals (the amount that repeats, robust
 *   to one odd month). A monthly or annual series' period total is the sum of its occurrences in one calendar month
 *   (payroll: one line per person, one series); a weekly, biweekly or semi-monthly series' period is one occurrence.
 * - Occurrences L + k·step for k ≥ 1 that fall after `asOf` and inside the forecast months are summed by month.
 *
 * Open invoices (status unpaid or overdue):
 * - delay of a paid invoice = paid day − due day (negative when paid early).
 * - expected delay of an open invoice = the median delay of its customer's last twelve paid invoices; without any,
 *   the median over the team's paid invoices; without any at all, 0.
 * - expected day = max(due day + expected delay, the first forecast day): what is already late is expected at once.
 * - the amount (in full: no write-off is assumed) is expected in the month of the expected day; later than the
 *   horizon, it is left out.
 */

export const PROJECTED_FREQUENCIES = ['weekly', 'biweekly', 'semi_monthly', 'monthly', 'annually'] as const;

export interface Occurrence {
  key: string;
  frequency: string | null;
  day: string;
  amountMinor: number;
}

function nextDay(day: string, frequency: string, k: number, first: string): string {
  switch (frequency) {
    case 'weekly':
      return addDays(day, 7 * k);
    case 'biweekly':
      return addDays(day, 14 * k);
    case 'semi_monthly':
      return addDays(day, 15 * k);
    case 'monthly':
      return addMonthsToDay(first, monthsBetweenDays(first, day) + k);
    default:
      return addMonthsToDay(first, monthsBetweenDays(first, day) + 12 * k);
  }
}

function monthsBetweenDays(a: string, b: string): number {
  return (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));
}

function stepDays(frequency: string): number {
  return { weekly: 7, biweekly: 14, semi_monthly: 15, monthly: 31, annually: 366 }[frequency] ?? 0;
}

/** Totals per period, oldest first (see the header). */
function periodTotals(list: readonly Occurrence[], frequency: string): number[] {
  if (frequency !== 'monthly' && frequency !== 'annually') return list.map((o) => o.amountMinor);
  const totals = new Map<string, number>();
  for (const o of list) totals.set(monthOf(o.day), (totals.get(monthOf(o.day)) ?? 0) + o.amountMinor);
  return [...totals.values()];
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
}

export interface RecurringSplit {
  /** Keys of the series projected explicitly. */
  active: Set<string>;
  /** Per history month: the active series' money in and money out (positive numbers), to take out of the model's series. */
  historyIn: number[];
  historyOut: number[];
  /** Per forecast month: the projected money in and out (positive numbers). */
  futureIn: number[];
  futureOut: number[];
  series: { key: string; frequency: string; amountMinor: number; lastDay: string; projected: number }[];
}

/**
 * Splits the recurring occurrences of the history into the series to project, their share of each history month, and
 * their projection into the forecast months. `asOf` is the last day of the history.
 */
export function projectRecurring(
  occurrences: readonly Occurrence[],
  historyMonths: readonly string[],
  forecastMonths: readonly string[],
  asOf: string,
): RecurringSplit {
  const byKey = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    if (o.day > asOf || !o.frequency || !(PROJECTED_FREQUENCIES as readonly string[]).includes(o.frequency)) continue;
    const list = byKey.get(o.key) ?? [];
    list.push(o);
    byKey.set(o.key, list);
  }
  const hIndex = new Map(historyMonths.map((m, i) => [m, i]));
  const fIndex = new Map(forecastMonths.map((m, i) => [m, i]));
  const out: RecurringSplit = {
    active: new Set(),
    historyIn: new Array(historyMonths.length).fill(0),
    historyOut: new Array(historyMonths.length).fill(0),
    futureIn: new Array(forecastMonths.length).fill(0),
    futureOut: new Array(forecastMonths.length).fill(0),
    series: [],
  };
  const lastForecastMonth = forecastMonths[forecastMonths.length - 1];
  for (const [key, list] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    list.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.amountMinor - b.amountMinor));
    const last = list[list.length - 1]!;
    const frequency = last.frequency!;
    if (daysBetween(last.day, asOf) > 2 * stepDays(frequency)) continue;
    const amount = median(periodTotals(list, frequency).slice(-3));
    if (amount === 0) continue;
    out.active.add(key);
    for (const o of list) {
      const i = hIndex.get(monthOf(o.day));
      if (i === undefined) continue;
      if (o.amountMinor >= 0) out.historyIn[i]! += o.amountMinor;
      else out.historyOut[i]! += -o.amountMinor;
    }
    let projected = 0;
    if (lastForecastMonth !== undefined) {
      for (let k = 1; ; k++) {
        const day = nextDay(last.day, frequency, k, list[0]!.day);
        const month = monthOf(day);
        if (month > lastForecastMonth) break;
        const i = fIndex.get(month);
        if (day <= asOf || i === undefined) continue;
        if (amount >= 0) out.futureIn[i]! += amount;
        else out.futureOut[i]! += -amount;
        projected++;
      }
    }
    out.series.push({ key, frequency, amountMinor: amount, lastDay: last.day, projected });
  }
  return out;
}

export interface OpenInvoice {
  id: string;
  customerId: string | null;
  dueDay: string;
  amountMinor: number;
}

export interface PaidInvoice {
  customerId: string | null;
  dueDay: string;
  paidDay: string;
}

export interface ExpectedCollections {
  perMonth: number[];
  invoices: { id: string; expectedDay: string; delayDays: number; amountMinor: number; month: string | null }[];
}

export function expectedCollections(
  open: readonly OpenInvoice[],
  paid: readonly PaidInvoice[],
  forecastMonths: readonly string[],
  firstForecastDay: string,
): ExpectedCollections {
  const delays = new Map<string, number[]>();
  const sorted = [...paid].sort((a, b) => (a.paidDay < b.paidDay ? -1 : a.paidDay > b.paidDay ? 1 : 0));
  const all: number[] = [];
  for (const p of sorted) {
    const d = daysBetween(p.dueDay, p.paidDay);
    all.push(d);
    if (p.customerId) {
      const list = delays.get(p.customerId) ?? [];
      list.push(d);
      delays.set(p.customerId, list);
    }
  }
  const teamDelay = all.length ? median(all) : 0;
  const index = new Map(forecastMonths.map((m, i) => [m, i]));
  const out: ExpectedCollections = { perMonth: new Array(forecastMonths.length).fill(0), invoices: [] };
  for (const inv of [...open].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const own = inv.customerId ? delays.get(inv.customerId) : undefined;
    const delayDays = own?.length ? median(own.slice(-12)) : teamDelay;
    let expectedDay = addDays(inv.dueDay, delayDays);
    if (expectedDay < firstForecastDay) expectedDay = firstForecastDay;
    const i = index.get(monthOf(expectedDay));
    if (i !== undefined) out.perMonth[i]! += inv.amountMinor;
    out.invoices.push({
      id: inv.id,
      expectedDay,
      delayDays,
      amountMinor: inv.amountMinor,
      month: i === undefined ? null : monthOf(expectedDay),
    });
  }
  return out;
}
