/**
 * Formatting for people, in the signed-in user's preferences (`/v1/users/me`: locale, date format, time zone,
 * 12/24 h), set once by the app frame (`setFormatPreferences`). Amounts from the API are major units (12.34);
 * currency exponents come from Intl. Before the preferences arrive, the browser's locale and ISO dates are used.
 */
import type { User } from '../../src-shared/contract/users';

export interface FormatPreferences {
  locale: string;
  dateFormat: User['dateFormat'];
  timezone: string;
  timeFormat: 12 | 24;
}

let prefs: FormatPreferences = {
  locale: globalThis.navigator?.language || 'en',
  dateFormat: 'yyyy-MM-dd',
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  timeFormat: 24,
};
const moneyFormats = new Map<string, Intl.NumberFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

export function setFormatPreferences(next: Partial<FormatPreferences>): void {
  prefs = { ...prefs, ...next };
  moneyFormats.clear();
  numberFormats.clear();
}

export function formatPreferences(): FormatPreferences {
  return prefs;
}

function safeLocale(): string {
  try {
    return Intl.getCanonicalLocales(prefs.locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

export function formatAmount(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const key = currency ?? '';
  let f = moneyFormats.get(key);
  if (!f) {
    try {
      f = currency
        ? new Intl.NumberFormat(safeLocale(), { style: 'currency', currency, currencyDisplay: 'code' })
        : new Intl.NumberFormat(safeLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      f = new Intl.NumberFormat(safeLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(key, f);
  }
  return f.format(amount).replace(/\u00a0/g, ' ');
}

/** A plain number in the user's locale (counts, percentages without the sign). */
export function formatNumber(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const key = String(digits);
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(safeLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(key, f);
  }
  return f.format(value);
}

/** An amount without its currency code, for tight table cells whose column says the currency. */
export function formatPlainAmount(amount: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {}
  return formatNumber(amount, digits);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A day ("2026-09-12") or an instant (ISO timestamp) in the user's date format. A day is a calendar day and is shown
 * as is; an instant is shown on its day in the user's time zone.
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  let y: number;
  let m: number;
  let d: number;
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) {
    [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  } else {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    const parts = zonedParts(date);
    [y, m, d] = [parts.year, parts.month, parts.day];
  }
  switch (prefs.dateFormat) {
    case 'dd/MM/yyyy':
      return `${pad(d)}/${pad(m)}/${y}`;
    case 'MM/dd/yyyy':
      return `${pad(m)}/${pad(d)}/${y}`;
    case 'dd.MM.yyyy':
      return `${pad(d)}.${pad(m)}.${y}`;
    default:
      return `${y}-${pad(m)}-${pad(d)}`;
  }
}

/** An instant as date and time in the user's format and time zone. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const p = zonedParts(date);
  const time =
    prefs.timeFormat === 12
      ? `${((p.hour + 11) % 12) + 1}:${pad(p.minute)} ${p.hour < 12 ? 'AM' : 'PM'}`
      : `${pad(p.hour)}:${pad(p.minute)}`;
  return `${formatDate(iso)} ${time}`;
}

/** A duration in ms as "850 ms", "12 s", "3 min 4 s", "2 h 5 min". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${s % 60} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

const zoned = new Map<string, Intl.DateTimeFormat>();
function zonedParts(date: Date) {
  let f = zoned.get(prefs.timezone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: prefs.timezone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
      });
    } catch {
      f = new Intl.DateTimeFormat('en-US', {
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
      });
    }
    zoned.set(prefs.timezone, f);
  }
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0 };
  for (const part of f.formatToParts(date)) {
    if (part.type in out) out[part.type as keyof typeof out] = Number(part.value);
  }
  return out;
}
