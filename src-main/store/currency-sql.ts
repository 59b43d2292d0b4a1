import { CURRENCY_EXPONENTS } from '../../src-shared/money';

/**
 * The currency exponent rule of src-shared/money.ts in SQL, for queries that filter or sort amounts of several
 * currencies in major units: a CASE over the ISO 4217 codes whose exponent is not 2, built once from the same table.
 * A code the table does not know counts as 2 here (toMajor refuses one; no stored amount has one).
 */
const NOT_TWO = [...CURRENCY_EXPONENTS].filter(([code, e]) => e !== 2 && /^[A-Z]{3}$/.test(code));
const EXPONENT_CASES = NOT_TWO.map(([code, e]) => `WHEN '${code}' THEN ${e}`).join(' ');
const DIVISOR_CASES = NOT_TWO.map(([code, e]) => `WHEN '${code}' THEN ${10 ** e}.0`).join(' ');

/** The minor-unit exponent of the currency code in `column`. */
export function exponentSql(column: string): string {
  return `(CASE ${column} ${EXPONENT_CASES} ELSE 2 END)`;
}

/** 10^exponent of the currency code in `column`, as a REAL (so a division by it is a floating-point one). */
export function divisorSql(column: string): string {
  return `(CASE ${column} ${DIVISOR_CASES} ELSE 100.0 END)`;
}

/** An amount in minor units as major units: the same double toMajor gives (one correctly rounded division). */
export function majorSql(minorColumn: string, currencyColumn: string): string {
  return `(${minorColumn} * 1.0 / ${divisorSql(currencyColumn)})`;
}
