/**
 * Calendar rules of invoices (docs/decisions/0072-invoice-overdue-and-scheduler.md). Pure.
 *
 * An invoice's dates are calendar days in its own time zone (IANA name, default UTC). It is due through the whole
 * of its due date there, and overdue from the first instant of the next day there: past due ⇔ today in the
 * invoice's time zone is later than the due date.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function dayFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    dayFormatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The calendar day (YYYY-MM-DD) of `instant` in `timeZone`. */
export function dayIn(instant: Date, timeZone: string): string {
  const parts = dayFormatter(timeZone).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Whether an invoice due on `dueDate` is past due at `now` in `timeZone`. */
export function isPastDue(dueDate: string, timeZone: string, now: Date): boolean {
  return dayIn(now, timeZone) > dueDate;
}

/** YYYY-MM-DD plus n days (calendar arithmetic in UTC, where every day has 24 hours). */
export function addDays(day: string, n: number): string {
  const t = Date.parse(`${day}T00:00:00.000Z`) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / 86_400_000);
}

export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00.000Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value;
}

/**
 * The UTC instant at which an invoice due on `dueDate` becomes overdue: local midnight at the start of the next day
 * in `timeZone` (found by correcting the UTC guess with the zone's offset at that instant, twice for DST edges).
 */
export function overdueInstant(dueDate: string, timeZone: string): Date {
  const next = addDays(dueDate, 1);
  const guess = Date.parse(`${next}T00:00:00.000Z`);
  let t = guess;
  for (let i = 0; i < 3; i++) {
    const offset = zoneOffsetMs(new Date(t), timeZone);
    const candidate = guess - offset;
    if (candidate === t) break;
    t = candidate;
  }
  // A day may start later than midnight (a DST gap at 00:00): step forward to the first instant of that day.
  while (dayIn(new Date(t), timeZone) < next) t += 15 * 60_000;
  while (dayIn(new Date(t - 60_000), timeZone) >= next) t -= 60_000;
  return new Date(t);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `instant`, in ms (local wall clock − UTC). */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - (instant.getTime() - instant.getMilliseconds());
}

/** A day (YYYY-MM-DD) written in one of the invoices' date formats; another format leaves it as it is (ISO). */
export function formatDayAs(day: string, dateFormat: string): string {
  const [y = '', m = '', d = ''] = day.split('-');
  switch (dateFormat) {
    case 'MM/dd/yyyy':
      return `${m}/${d}/${y}`;
    case 'dd/MM/yyyy':
      return `${d}/${m}/${y}`;
    case 'dd.MM.yyyy':
      return `${d}.${m}.${y}`;
    case 'dd-MM-yyyy':
      return `${d}-${m}-${y}`;
    default:
      return day;
  }
}
