import { CsvError, parse } from 'csv-parse/sync';
import { isCurrencyCode } from '../money';
import { parseDecimal, pow10, roundDiv } from './exact';
import { normalizeRate } from './fx';
import { isCalendarDay } from './invoice-dates';

/**
 * Exchange-rate files for `finops rates import` (docs/decisions/0056-exchange-rates.md). Two layouts, told apart by
 * the header:
 *
 * - long, per USD (the spec's own form): `date,currency,rate` — one rate per line, units of the currency per 1 USD.
 *   Header names may also be `day`, `code`/`ccy`, `per_usd`/`usd_rate`. A USD line must say 1.
 * - wide, per a base currency (the ECB's `eurofxref-hist.csv`): `Date,USD,JPY,…` — one day per line, one column per
 *   currency, units of it per 1 unit of the base (EUR unless told otherwise). Empty and `N/A` cells are days the
 *   currency was not quoted and are skipped. Rebased to per-USD exactly: x per USD = (x per base) ÷ (USD per base)
 *   and the base itself = 1 ÷ (USD per base), computed on integers and rounded once, half away from zero, to 12
 *   decimals (the table's precision); a day without a USD rate cannot be rebased and is an error. Columns of
 *   withdrawn currencies (three letters, no longer in ISO 4217: CYP, LTL…) are skipped and reported.
 *
 * Every line is checked: a calendar date, an ISO 4217 code, a positive decimal rate with at most 12 decimals (no
 * exponents, no thousands separators), no currency twice for one day. Errors name their line; a file with any error
 * is refused whole.
 */

export interface RateRow {
  day: string;
  currency: string;
  /** Units of the currency per 1 USD, as decimal text. */
  perUsd: string;
  line: number;
}

export interface RateFileProblem {
  line: number;
  message: string;
}

export class RateFileError extends Error {
  override name = 'RateFileError';
  constructor(readonly problems: readonly RateFileProblem[]) {
    super(
      `the file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was imported:\n` +
        problems
          .slice(0, 50)
          .map((p) => `  line ${p.line}: ${p.message}`)
          .join('\n') +
        (problems.length > 50 ? `\n  … and ${problems.length - 50} more` : ''),
    );
  }
}

export type RateFileLayout = 'long' | 'wide';

export interface ParsedRateFile {
  layout: RateFileLayout;
  /** The currency the wide layout's rates are per unit of; USD for the long layout. */
  base: string;
  rows: RateRow[];
  /**
   * Columns of a wide file left out: three-letter codes that are no current ISO 4217 currency (the ECB's history
   * keeps columns for withdrawn ones, such as CYP or LTL, empty in later years).
   */
  skipped: string[];
}

const DATE_NAMES = ['date', 'day'];
const CURRENCY_NAMES = ['currency', 'code', 'ccy'];
const RATE_NAMES = ['rate', 'per_usd', 'usd_rate'];

function checkRate(text: string): string {
  try {
    return normalizeRate(text);
  } catch {
    throw new Error(`rate "${text}" is not a positive decimal number with at most 12 decimals`);
  }
}

/** `num / den` of two decimal strings as decimal text rounded half away from zero to 12 decimals, no trailing zeros. */
export function divideRates(numerator: string, denominator: string): string {
  const n = parseDecimal(numerator);
  const d = parseDecimal(denominator);
  const scaled = roundDiv(n.num * pow10(d.scale) * pow10(12), d.num * pow10(n.scale));
  if (scaled <= 0n) throw new RangeError('the quotient rounds to zero at 12 decimals');
  const digits = scaled.toString().padStart(13, '0');
  const int = digits.slice(0, -12);
  const frac = digits.slice(-12).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** Parses and validates a rate file; throws RateFileError listing every problem. `base` applies to the wide layout. */
export function parseRateFile(text: string, options: { base?: string } = {}): ParsedRateFile {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      info: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      bom: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    if (err instanceof CsvError) {
      throw new RateFileError([{ line: (err as CsvError & { lines?: number }).lines ?? 0, message: err.message }]);
    }
    throw err;
  }
  const [header, ...body] = records;
  if (!header) throw new RateFileError([{ line: 1, message: 'the file is empty' }]);
  const names = header.record.map((h) => h.toLowerCase());
  const isLong =
    names.length >= 3 &&
    DATE_NAMES.includes(names[0]!) &&
    CURRENCY_NAMES.includes(names[1]!) &&
    RATE_NAMES.includes(names[2]!) &&
    names.slice(3).every((n) => n === '');
  if (isLong) {
    if (options.base && options.base !== 'USD') {
      throw new RateFileError([
        { line: header.info.lines, message: 'a date,currency,rate file holds rates per USD; --base applies to wide files only' },
      ]);
    }
    return { layout: 'long', base: 'USD', rows: longRows(body), skipped: [] };
  }
  if (DATE_NAMES.includes(names[0]!)) {
    const base = (options.base ?? 'EUR').toUpperCase();
    if (!isCurrencyCode(base)) throw new RateFileError([{ line: 0, message: `--base ${base} is not an ISO 4217 code` }]);
    const skipped: string[] = [];
    const rows = wideRows(header, body, base, skipped);
    return { layout: 'wide', base, rows, skipped };
  }
  throw new RateFileError([
    {
      line: header.info.lines,
      message:
        'unknown layout: the header must be "date,currency,rate" (rates per USD) or "Date,CCY,CCY,…" (one column per ' +
        'currency, rates per unit of the base currency, EUR unless --base says otherwise)',
    },
  ]);
}

function longRows(body: readonly { record: string[]; info: { lines: number } }[]): RateRow[] {
  const problems: RateFileProblem[] = [];
  const rows: RateRow[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of body) {
    const line = info.lines;
    const cells = record.filter((c, i) => i < 3 || c !== '');
    if (cells.length !== 3) {
      problems.push({ line, message: `expected 3 values (date, currency, rate), found ${cells.length}` });
      continue;
    }
    const [day = '', rawCurrency = '', rate = ''] = cells;
    const currency = rawCurrency.toUpperCase();
    const lineProblems: string[] = [];
    if (!isCalendarDay(day)) lineProblems.push(`date "${day}" is not a calendar date YYYY-MM-DD`);
    if (!isCurrencyCode(currency)) lineProblems.push(`currency "${rawCurrency}" is not an ISO 4217 code`);
    let perUsd = '';
    try {
      perUsd = checkRate(rate);
    } catch (err) {
      lineProblems.push((err as Error).message);
    }
    if (currency === 'USD' && perUsd && parseDecimal(perUsd).num !== pow10(parseDecimal(perUsd).scale)) {
      lineProblems.push('USD per USD must be 1');
    }
    const key = `${day} ${currency}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) lineProblems.push(`${currency} on ${day} is already given on line ${earlier}`);
    else seen.set(key, line);
    if (lineProblems.length) {
      for (const message of lineProblems) problems.push({ line, message });
      continue;
    }
    // USD is 1 by definition and never stored.
    if (currency !== 'USD') rows.push({ day, currency, perUsd, line });
  }
  if (problems.length) throw new RateFileError(problems);
  return rows;
}

function wideRows(
  header: { record: string[]; info: { lines: number } },
  body: readonly { record: string[]; info: { lines: number } }[],
  base: string,
  skipped: string[],
): RateRow[] {
  const problems: RateFileProblem[] = [];
  const columns = header.record.slice(1).map((c) => c.toUpperCase());
  // A trailing comma (the ECB's files end every line with one) makes an empty last column.
  while (columns.length && columns[columns.length - 1] === '') columns.pop();
  const seenColumns = new Set<string>();
  columns.forEach((c) => {
    if (!/^[A-Z]{3}$/.test(c)) problems.push({ line: header.info.lines, message: `column "${c}" is not a currency code` });
    else if (seenColumns.has(c)) problems.push({ line: header.info.lines, message: `column ${c} appears twice` });
    else if (c === base) problems.push({ line: header.info.lines, message: `column ${c} is the base currency itself` });
    else if (!isCurrencyCode(c)) skipped.push(c);
    seenColumns.add(c);
  });
  if (problems.length) throw new RateFileError(problems);
  const usdAt = base === 'USD' ? -1 : columns.indexOf('USD');
  if (usdAt < 0 && base !== 'USD') {
    throw new RateFileError([
      { line: header.info.lines, message: `a USD column is needed to rebase rates per ${base} to rates per USD` },
    ]);
  }
  const rows: RateRow[] = [];
  const days = new Map<string, number>();
  for (const { record, info } of body) {
    const line = info.lines;
    const [day = '', ...cells] = record;
    while (cells.length > columns.length && cells[cells.length - 1] === '') cells.pop();
    if (!isCalendarDay(day)) {
      problems.push({ line, message: `date "${day}" is not a calendar date YYYY-MM-DD` });
      continue;
    }
    if (cells.length > columns.length) {
      problems.push({ line, message: `${cells.length} rates for ${columns.length} currency columns` });
      continue;
    }
    const earlier = days.get(day);
    if (earlier !== undefined) {
      problems.push({ line, message: `${day} is already given on line ${earlier}` });
      continue;
    }
    days.set(day, line);
    const perBase = new Map<string, string>();
    let bad = false;
    cells.forEach((cell, i) => {
      if (cell === '' || cell.toUpperCase() === 'N/A' || skipped.includes(columns[i]!)) return;
      try {
        perBase.set(columns[i]!, checkRate(cell));
      } catch (err) {
        problems.push({ line, message: `${columns[i]}: ${(err as Error).message}` });
        bad = true;
      }
    });
    if (bad || perBase.size === 0) continue;
    const usdPerBase = base === 'USD' ? '1' : perBase.get('USD');
    if (!usdPerBase) {
      problems.push({ line, message: `no USD rate on ${day}: the other rates of the day cannot be rebased to USD` });
      continue;
    }
    try {
      if (base !== 'USD') rows.push({ day, currency: base, perUsd: divideRates('1', usdPerBase), line });
      for (const [currency, rate] of perBase) {
        if (currency === 'USD') continue;
        rows.push({ day, currency, perUsd: divideRates(rate, usdPerBase), line });
      }
    } catch (err) {
      problems.push({ line, message: (err as Error).message });
    }
  }
  if (problems.length) throw new RateFileError(problems);
  return rows;
}
