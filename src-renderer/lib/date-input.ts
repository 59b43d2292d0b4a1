/**
 * Reading a day as people type it, in their own date format (Settings): for dd.MM.yyyy "15.3.2026", "15.03.26",
 * "15032026" and "15.3." (this year) all mean 2026-03-15; for MM/dd/yyyy the same in US order. ISO "2026-03-15" is
 * always understood, whatever the format, because it is what gets pasted from exports and the API. The result is an
 * ISO day or a reason it is not one; nothing half-typed comes out as a day.
 */
import type { User } from '../../src-shared/contract/users';

export type DateFormat = User['dateFormat'];

export type DayInput = { kind: 'day'; iso: string } | { kind: 'empty' } | { kind: 'invalid' };

/** The order of day, month and year in each format. */
const ORDER: Record<DateFormat, 'dmy' | 'mdy' | 'ymd'> = {
  'dd/MM/yyyy': 'dmy',
  'dd.MM.yyyy': 'dmy',
  'MM/dd/yyyy': 'mdy',
  'yyyy-MM-dd': 'ymd',
};

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const SEPARATORS = /[./\-\s]+/;

const pad = (n: number) => String(n).padStart(2, '0');

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A two-digit year in the century that puts it at most 20 years ahead of `referenceYear` and less than 80 behind:
 * in 2026, "26" is 2026, "46" is 2046 and "47" is 1947 (a due date may lie ahead, a founding date far back).
 */
export function fullYear(twoDigits: number, referenceYear: number): number {
  const century = Math.floor(referenceYear / 100) * 100;
  const year = century + twoDigits;
  if (year > referenceYear + 20) return year - 100;
  if (year <= referenceYear - 80) return year + 100;
  return year;
}

function day(year: number, month: number, dayOfMonth: number): DayInput {
  if (year < 1000 || year > 9999 || month < 1 || month > 12) return { kind: 'invalid' };
  if (dayOfMonth < 1 || dayOfMonth > daysInMonth(year, month)) return { kind: 'invalid' };
  return { kind: 'day', iso: `${year}-${pad(month)}-${pad(dayOfMonth)}` };
}

/** Year text of 2 or 4 digits, or none (this year); any other length is not a year. */
function year(text: string | undefined, referenceYear: number): number | null {
  if (text === undefined || text === '') return referenceYear;
  if (text.length === 4) return Number(text);
  if (text.length === 2) return fullYear(Number(text), referenceYear);
  return null;
}

/** Digits typed without separators: ddMMyyyy/ddMMyy, MMddyyyy/MMddyy or yyyyMMdd/yyMMdd by the format. */
function splitDigits(digits: string, order: 'dmy' | 'mdy' | 'ymd'): string[] | null {
  if (digits.length !== 8 && digits.length !== 6) return null;
  const y = digits.length - 4;
  if (order === 'ymd') return [digits.slice(0, y), digits.slice(y, y + 2), digits.slice(y + 2)];
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)];
}

/** Reads a typed day by the user's format (`referenceYear`: the year of today, for "15.3." and two-digit years). */
export function parseDayInput(text: string, format: DateFormat, referenceYear: number): DayInput {
  const typed = text.trim();
  if (typed === '') return { kind: 'empty' };
  const iso = ISO.exec(typed);
  if (iso) return day(Number(iso[1]), Number(iso[2]), Number(iso[3]));

  const order = ORDER[format];
  // "15.3." ends on its separator: day and month, this year
  const parts = /^\d+$/.test(typed) ? splitDigits(typed, order) : typed.replace(/[./\-\s]+$/, '').split(SEPARATORS);
  if (!parts || parts.some((p) => !/^\d+$/.test(p))) return { kind: 'invalid' };

  let y: string | undefined;
  let m: string | undefined;
  let d: string | undefined;
  if (parts.length === 3) {
    if (order === 'dmy') [d, m, y] = parts;
    else if (order === 'mdy') [m, d, y] = parts;
    else [y, m, d] = parts;
  } else if (parts.length === 2) {
    if (order === 'dmy') [d, m] = parts;
    else [m, d] = parts;
  } else return { kind: 'invalid' };

  const fullYearNumber = year(y, referenceYear);
  if (fullYearNumber === null || !m || !d || m.length > 2 || d.length > 2) return { kind: 'invalid' };
  return day(fullYearNumber, Number(m), Number(d));
}

/** The pattern of a format in the reader's letters: "TT.MM.JJJJ" for German, "dd/mm/yyyy" for English. */
export function datePattern(format: DateFormat, letters: { day: string; month: string; year: string }): string {
  return format.replace('dd', letters.day).replace('MM', letters.month).replace('yyyy', letters.year);
}
