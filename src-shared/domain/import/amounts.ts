import { currencyExponent, MAX_MINOR } from '../../money';

/**
 * Decimal amounts as bank files write them, to exact minor units — never through a float. Handles a decimal comma
 * or point, thousands separators (point, comma, space, apostrophe, narrow no-break space), a leading or trailing
 * minus, a leading plus, parentheses for negatives, and a currency symbol or code around the number.
 */
export type DecimalSeparator = '.' | ',';

export interface AmountFormat {
  decimal: DecimalSeparator;
}

const MAX_AMOUNT_CHARS = 64;
const SYMBOLS = /[€$£¥₹₽₺₩]|\b[A-Z]{3}\b/g;
const SPACES = /[\s\u00a0\u202f']/g;

/** Minor units of `text` in `currency`; null when it is not an amount (or has more decimals than the currency). */
export function parseAmount(text: string, format: AmountFormat, currency: string): number | null {
  // No amount is longer (the largest, with separators and a code, is about 30): the patterns below never see more.
  if (text.length > MAX_AMOUNT_CHARS) return null;
  let s = text.trim().replace(SYMBOLS, '').trim();
  if (s === '') return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (s.startsWith('-') || s.startsWith('\u2212')) {
    negative = !negative;
    s = s.slice(1).trim();
  } else if (s.startsWith('+')) {
    s = s.slice(1).trim();
  } else if (s.endsWith('-')) {
    negative = !negative;
    s = s.slice(0, -1).trim();
  }
  s = s.replace(SPACES, '');
  const thousands = format.decimal === ',' ? '.' : ',';
  // Thousands separators must group by three; anything else is not the number it seems.
  const pattern = format.decimal === ',' ? /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?$/ : /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;
  const m = pattern.exec(s);
  if (!m) return null;
  const int = m[1]!.split(thousands).join('');
  const frac = m[2] ?? '';
  const exponent = currencyExponent(currency);
  const trimmed = frac.replace(/0+$/, '');
  if (trimmed.length > exponent) return null;
  const minor = Number((int + trimmed.padEnd(exponent, '0')).replace(/^0+(?=\d)/, ''));
  if (!Number.isSafeInteger(minor) || minor > MAX_MINOR) return null;
  return negative && minor !== 0 ? -minor : minor;
}

/**
 * The decimal separator of a column of amounts, decided from every value: a separator followed by exactly one or two
 * digits at the end is a decimal one; "1.234" alone is ambiguous and does not vote. Ties go to the point.
 */
export function inferDecimal(values: readonly string[]): { decimal: DecimalSeparator; ambiguous: boolean } {
  let comma = 0;
  let point = 0;
  const vote = (sep: string) => {
    if (sep === ',') comma++;
    else point++;
  };
  for (const raw of values) {
    const v = raw.replace(SYMBOLS, '').replace(/[\s\u00a0\u202f')(+\-\u2212]/g, '');
    const commas = v.split(',').length - 1;
    const points = v.split('.').length - 1;
    if (commas > 0 && points > 0) {
      // "1.234,56" / "1,234.56": the last one is the decimal separator.
      vote(v.lastIndexOf(',') > v.lastIndexOf('.') ? ',' : '.');
    } else if (commas + points > 1) {
      // "1.234.567": a repeated separator groups thousands.
      vote(commas > 0 ? '.' : ',');
    } else if (commas + points === 1) {
      const sep = commas ? ',' : '.';
      // "12,5" or "0.99" say it; "1.234" alone could be either and does not vote.
      if (v.length - v.indexOf(sep) - 1 !== 3) vote(sep);
    }
  }
  return { decimal: comma > point ? ',' : '.', ambiguous: comma === 0 && point === 0 };
}

/** Minor units as a plain decimal string for messages: -1234 EUR → "-12.34". */
export function formatMinor(minor: number, currency: string): string {
  const e = currencyExponent(currency);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(e + 1, '0');
  return e === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -e)}.${digits.slice(-e)}`;
}
