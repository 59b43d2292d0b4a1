/**
 * Writing CSV (RFC 4180) for people who open it in a spreadsheet: fields with a comma, quote or line break are
 * quoted; text that a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return) is
 * prefixed with an apostrophe, as OWASP advises against CSV injection. Numbers are written as they are, with the
 * dialect's decimal mark.
 *
 * The dialect follows the reader's spreadsheet: where a comma is the decimal mark (German, French…), spreadsheets
 * split fields at semicolons, so a file for them is `;`-separated with decimal commas; elsewhere `,` and `.`.
 */

import { formatMinor } from './import/amounts';

const FORMULA = /^[=+\-@\t\r]/;

export interface CsvDialect {
  separator: ',' | ';';
  decimal: '.' | ',';
}

export const CSV_POINT: CsvDialect = { separator: ',', decimal: '.' };
export const CSV_COMMA: CsvDialect = { separator: ';', decimal: ',' };

/** A number already written out ("-12.60"): kept digit for digit, its point turned into the dialect's mark. */
export interface CsvNumber {
  digits: string;
}

export type CsvValue = string | number | CsvNumber | null | undefined;

export function csvCell(value: CsvValue, dialect: CsvDialect = CSV_POINT): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value).replace('.', dialect.decimal);
  if (typeof value === 'object') return value.digits.replace('.', dialect.decimal);
  const text = FORMULA.test(value) ? `'${value}` : value;
  const special = dialect.separator === ';' ? /[";\r\n]/ : /[",\r\n]/;
  return special.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[], dialect: CsvDialect = CSV_POINT): string {
  return `${values.map((v) => csvCell(v, dialect)).join(dialect.separator)}\r\n`;
}

/** An amount in minor units written out with every digit of its currency: -1260 EUR → "-12.60". */
export function csvAmount(minor: number, currency: string): CsvNumber {
  return { digits: formatMinor(minor, currency) };
}
