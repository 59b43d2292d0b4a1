/**
 * Reading numbers people type (prices, quantities, hours) in their own format: "1.234,50" in German, "1,234.50" in
 * English, and what either habit types in the other ("12,5" in an English form is 12.5). The counterpart of
 * format.ts, whose number format decides which mark is the decimal one.
 */
import { formatNumber } from './format';

export interface NumberMarks {
  decimal: string;
  group: string;
}

/** The decimal and group marks of the user's number format ("1,5" → ","; "1.000" → "."). */
export function currentMarks(): NumberMarks {
  const decimal = formatNumber(1.5, 1).replace(/\d/g, '').trim() || '.';
  const group = formatNumber(1000).replace(/\d/g, '') || ',';
  return { decimal, group };
}

/**
 * The number in `text`, or null when it is not one. Spaces and apostrophes group digits; with both "," and "."
 * the last one is the decimal mark; a single mark is the decimal one unless it is the format's group mark followed
 * by groups of three digits ("1.500" is 1500 in German, "1,500" in English).
 */
export function parseDecimal(text: string, marks: NumberMarks = currentMarks()): number | null {
  let s = text.trim().replace(/[\s\u00a0\u202f'’]/g, '');
  if (!s) return null;
  const negative = s.startsWith('-') || s.startsWith('−');
  if (negative) s = s.slice(1);
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    s = s.replaceAll(decimal === ',' ? '.' : ',', '').replace(decimal, '.');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const mark = lastComma >= 0 ? ',' : '.';
    const parts = s.split(mark);
    const grouping = mark === marks.group && mark !== marks.decimal && parts.slice(1).every((p) => /^\d{3}$/.test(p));
    if (grouping) s = parts.join('');
    else if (parts.length === 2) s = parts.join('.');
    else return null;
  }
  if (!/^\d+(\.\d+)?$/.test(s) && !/^\.\d+$/.test(s)) return null;
  const value = Number(s);
  return Number.isFinite(value) ? (negative ? -value : value) : null;
}
