/**
 * Formatting for people, in the signed-in user's preferences: the locale, date format, time zone and 12/24 h clock
 * of `/v1/users/me`, and the number format (separators) chosen in Settings. The app frame sets them once
 * (`setFormatPreferences`); every screen formats through the functions below, and sentences through i18next, whose
 * `num`, `day` and `datetime` formats call them (src-renderer/i18n). Amounts from the API are major units (12.34);
 * a currency's number of decimals comes from Intl. Before the preferences arrive, the browser's locale is used.
 *
 * `createFormatter(prefs)` formats with preferences that are not (yet) the user's, e.g. the preview of a choice.
 */
import i18next from 'i18next';
import type { User } from '../../src-shared/contract/users';

/** Digit grouping and decimal mark: the locale's own, or one chosen whatever the locale. */
export const NUMBER_FORMATS = ['locale', '1,234.56', '1.234,56', '1 234,56', '1’234.56'] as const;
export type NumberFormatChoice = (typeof NUMBER_FORMATS)[number];

export interface FormatPreferences {
  locale: string;
  dateFormat: User['dateFormat'];
  timezone: string;
  timeFormat: 12 | 24;
  numberFormat: NumberFormatChoice;
}

export const DEFAULT_PREFERENCES: FormatPreferences = {
  locale: globalThis.navigator?.language || 'en',
  dateFormat: 'yyyy-MM-dd',
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  timeFormat: 24,
  numberFormat: 'locale',
};

/** Group and decimal separators of a chosen number format (a narrow no-break space groups "1 234,56"). */
const SEPARATORS: Record<Exclude<NumberFormatChoice, 'locale'>, { group: string; decimal: string }> = {
  '1,234.56': { group: ',', decimal: '.' },
  '1.234,56': { group: '.', decimal: ',' },
  '1 234,56': { group: '\u202f', decimal: ',' },
  '1’234.56': { group: '’', decimal: '.' },
};

const pad = (n: number) => String(n).padStart(2, '0');
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

function canonical(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export interface Formatter {
  readonly prefs: FormatPreferences;
  /** "-35,11 €", "-€35.11", "CHF 1’200.00": the locale's way with the currency's symbol and decimals. */
  amount(amount: number | null | undefined, currency: string | null | undefined): string;
  /** A short amount for chart axes: "150k €", "€1.2M". */
  compactAmount(amount: number, currency: string): string;
  /** A plain number (counts, percentages without the sign). */
  number(value: number | null | undefined, digits?: number): string;
  /** An amount without its currency, for tight cells whose column says the currency. */
  plainAmount(amount: number, currency: string): string;
  /** A day ("2026-09-12") as is, or an instant (ISO timestamp) on its day in the user's time zone. */
  date(iso: string | null | undefined): string;
  dateTime(iso: string | null | undefined): string;
  /** The time of an instant in the user's clock and time zone: "18:30", "6:30 PM". */
  time(iso: string | null | undefined): string;
  /** A month ("2026-09" or a day in it) in the user's language: "Sep 26", "September 2026", or its name alone. */
  month(iso: string, style?: 'axis' | 'long' | 'name'): string;
  /** A duration in ms: "850 ms", "12 s", "3 min 4 s", "2 h 5 min", the units in the user's language. */
  duration(ms: number | null | undefined): string;
  /**
   * Time worked, in seconds, as a timesheet says it: "4 h", "4 h 5 min", "25 min", "0 min"; seconds only under a
   * minute ("20 s"). Never milliseconds, never "0 min" after whole hours.
   */
  workTime(seconds: number | null | undefined): string;
  /** A file's size in the locale's short units, powers of 1000 as file managers say them: "850 byte", "12 kB", "2.4 MB". */
  bytes(size: number | null | undefined): string;
}

export function createFormatter(prefs: FormatPreferences): Formatter {
  const locale = canonical(prefs.locale);
  const separators = prefs.numberFormat === 'locale' ? null : SEPARATORS[prefs.numberFormat];
  const cache = new Map<string, Intl.NumberFormat>();

  function numberFormat(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
    let f = cache.get(key);
    if (!f) {
      try {
        f = make();
      } catch {
        f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      }
      cache.set(key, f);
    }
    return f;
  }

  /** The number with the chosen separators (no-break spaces as plain ones, as the screens always had them). */
  function render(f: Intl.NumberFormat, value: number): string {
    const text = separators
      ? f
          .formatToParts(value)
          .map((p) => (p.type === 'group' ? separators.group : p.type === 'decimal' ? separators.decimal : p.value))
          .join('')
      : f.format(value);
    return text.replace(/\u00a0/g, ' ');
  }

  const currencyFormat = (currency: string) =>
    numberFormat(`currency ${currency}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency }));

  function number(value: number | null | undefined, digits = 0): string {
    if (value === null || value === undefined || !Number.isFinite(value)) return '—';
    const f = numberFormat(
      `number ${digits}`,
      () => new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    );
    return render(f, value);
  }

  const zoned = new Map<string, Intl.DateTimeFormat>();
  function zonedParts(date: Date) {
    let f = zoned.get('parts');
    if (!f) {
      const options: Intl.DateTimeFormatOptions = {
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
      };
      try {
        f = new Intl.DateTimeFormat('en-US', { ...options, timeZone: prefs.timezone });
      } catch {
        f = new Intl.DateTimeFormat('en-US', options);
      }
      zoned.set('parts', f);
    }
    const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0 };
    for (const part of f.formatToParts(date)) {
      if (part.type in out) out[part.type as keyof typeof out] = Number(part.value);
    }
    return out;
  }

  function dayParts(iso: string): [number, number, number] | null {
    const day = DAY.exec(iso);
    if (day) return [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return null;
    const p = zonedParts(date);
    return [p.year, p.month, p.day];
  }

  function date(iso: string | null | undefined): string {
    if (!iso) return '—';
    const parts = dayParts(iso);
    if (!parts) return iso;
    const [y, m, d] = parts;
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

  let clock: Intl.DateTimeFormat | undefined;
  function time(iso: string | null | undefined): string {
    if (!iso) return '—';
    const at = new Date(iso);
    if (Number.isNaN(at.getTime())) return iso;
    if (!clock) {
      const options: Intl.DateTimeFormatOptions = {
        hour: prefs.timeFormat === 12 ? 'numeric' : '2-digit',
        minute: '2-digit',
        hourCycle: prefs.timeFormat === 12 ? 'h12' : 'h23',
      };
      try {
        clock = new Intl.DateTimeFormat(locale, { ...options, timeZone: prefs.timezone });
      } catch {
        clock = new Intl.DateTimeFormat(locale, options);
      }
    }
    return clock.format(at).replace(/[\u202f\u00a0]/g, ' ');
  }

  function dateTime(iso: string | null | undefined): string {
    if (!iso) return '—';
    return Number.isNaN(new Date(iso).getTime()) ? iso : `${date(iso)} ${time(iso)}`;
  }

  const months = new Map<string, Intl.DateTimeFormat>();
  function month(iso: string, style: 'axis' | 'long' | 'name' = 'axis'): string {
    const m = MONTH.exec(iso) ?? DAY.exec(iso);
    if (!m) return iso;
    let f = months.get(style);
    if (!f) {
      f = new Intl.DateTimeFormat(locale, {
        month: style === 'axis' ? 'short' : 'long',
        ...(style === 'name' ? {} : { year: style === 'axis' ? '2-digit' : 'numeric' }),
        timeZone: 'UTC',
      });
      months.set(style, f);
    }
    return f.format(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
  }

  function unit(value: number, name: TimeUnit | SizeUnit, digits = 0): string {
    const f = numberFormat(
      `unit ${name} ${digits}`,
      () =>
        new Intl.NumberFormat(locale, {
          style: 'unit',
          unit: name,
          unitDisplay: 'short',
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        }),
    );
    return render(f, value);
  }

  return {
    prefs,
    amount(amount, currency) {
      if (amount === null || amount === undefined) return '—';
      if (!currency) return number(amount, 2);
      return render(currencyFormat(currency), amount);
    },
    compactAmount(amount, currency) {
      const abs = Math.abs(amount);
      const [scale, suffix] =
        abs >= 1e9 ? [1e9, 'billion'] : abs >= 1e6 ? [1e6, 'million'] : abs >= 1e3 ? [1e3, 'thousand'] : [1, null];
      if (!suffix)
        return render(
          numberFormat(`whole ${currency}`, () => wholeCurrency(locale, currency)),
          amount,
        );
      const short = `${number(abs / scale, Number.isInteger(abs / scale) ? 0 : 1)}${i18next.t(`common:compact.${suffix}`)}`;
      // The sign and the currency where the locale puts them ("-150k €", "-€150k"), around the short number.
      const parts = numberFormat(`whole ${currency}`, () => wholeCurrency(locale, currency)).formatToParts(Math.sign(amount));
      let placed = false;
      return parts
        .map((p) => {
          if (p.type === 'integer') {
            if (placed) return '';
            placed = true;
            return short;
          }
          return p.value;
        })
        .join('')
        .replace(/\u00a0/g, ' ');
    },
    number,
    plainAmount: (amount, currency) => number(amount, currencyDigits(currency)),
    date,
    dateTime,
    time,
    month,
    duration(ms) {
      if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
      if (ms < 1000) return unit(Math.round(ms), 'millisecond');
      const s = Math.round(ms / 1000);
      if (s < 60) return unit(s, 'second');
      const min = Math.floor(s / 60);
      if (min < 60) return `${unit(min, 'minute')} ${unit(s % 60, 'second')}`;
      return `${unit(Math.floor(min / 60), 'hour')} ${unit(min % 60, 'minute')}`;
    },
    workTime(seconds) {
      if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
      const s = Math.round(seconds);
      if (s === 0) return unit(0, 'minute');
      if (s < 60) return unit(s, 'second');
      const min = Math.round(s / 60);
      const h = Math.floor(min / 60);
      if (h === 0) return unit(min, 'minute');
      return min % 60 ? `${unit(h, 'hour')} ${unit(min % 60, 'minute')}` : unit(h, 'hour');
    },
    bytes(size) {
      if (size === null || size === undefined || !Number.isFinite(size) || size < 0) return '—';
      let i = 0;
      let value = size;
      while (value >= 1000 && i < SIZE_UNITS.length - 1) {
        value /= 1000;
        i += 1;
      }
      // One decimal below 10 of a unit ("2.4 MB"), none above it or for bytes: the digits a person compares.
      const digits = i > 0 && value < 9.95 ? 1 : 0;
      return unit(digits ? value : Math.round(value), SIZE_UNITS[i] as SizeUnit, digits);
    },
  };
}

type TimeUnit = 'millisecond' | 'second' | 'minute' | 'hour';
const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
type SizeUnit = (typeof SIZE_UNITS)[number];

function wholeCurrency(locale: string, currency: string): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0 });
}

let current = createFormatter(DEFAULT_PREFERENCES);

export function setFormatPreferences(next: Partial<FormatPreferences>): void {
  current = createFormatter({ ...current.prefs, ...next });
}

export function formatPreferences(): FormatPreferences {
  return current.prefs;
}

export const formatAmount: Formatter['amount'] = (amount, currency) => current.amount(amount, currency);
export const formatCompactAmount: Formatter['compactAmount'] = (amount, currency) => current.compactAmount(amount, currency);
export const formatNumber: Formatter['number'] = (value, digits) => current.number(value, digits);
export const formatPlainAmount: Formatter['plainAmount'] = (amount, currency) => current.plainAmount(amount, currency);
export const formatDate: Formatter['date'] = (iso) => current.date(iso);
export const formatDateTime: Formatter['dateTime'] = (iso) => current.dateTime(iso);
export const formatMonth: Formatter['month'] = (iso, style) => current.month(iso, style);
export const formatDuration: Formatter['duration'] = (ms) => current.duration(ms);
export const formatWorkTime: Formatter['workTime'] = (seconds) => current.workTime(seconds);
export const formatTime: Formatter['time'] = (iso) => current.time(iso);
export const formatBytes: Formatter['bytes'] = (size) => current.bytes(size);
