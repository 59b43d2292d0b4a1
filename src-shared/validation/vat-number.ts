/**
 * VAT identification numbers by the format of their country (docs/decisions/0115): the EU member states' formats as
 * the European Commission's VIES checks them, plus the United Kingdom, Switzerland and Norway. A number is read
 * without spaces, dots and hyphens and in capitals; its two-letter prefix names the country whose format applies
 * (Greece writes EL, Northern Ireland XI). Only the format is checked: whether the number is registered is for VIES.
 *
 * A number without a known prefix is checked against the country of the customer or team it belongs to, when that
 * country has a format here; a country without one (the United States) accepts anything the contract accepts.
 */

interface VatFormat {
  /** The prefix the number starts with. */
  prefix: string;
  /** What follows the prefix, without separators. */
  rest: RegExp;
  /** A number of the right shape, for the message. */
  example: string;
}

const FORMATS: Readonly<Record<string, VatFormat>> = {
  AT: { prefix: 'ATU', rest: /^\d{8}$/, example: 'ATU12345678' },
  BE: { prefix: 'BE', rest: /^[01]\d{9}$/, example: 'BE0123456789' },
  BG: { prefix: 'BG', rest: /^\d{9,10}$/, example: 'BG123456789' },
  CY: { prefix: 'CY', rest: /^\d{8}[A-Z]$/, example: 'CY12345678X' },
  CZ: { prefix: 'CZ', rest: /^\d{8,10}$/, example: 'CZ12345678' },
  DE: { prefix: 'DE', rest: /^\d{9}$/, example: 'DE123456789' },
  DK: { prefix: 'DK', rest: /^\d{8}$/, example: 'DK12345678' },
  EE: { prefix: 'EE', rest: /^\d{9}$/, example: 'EE123456789' },
  GR: { prefix: 'EL', rest: /^\d{9}$/, example: 'EL123456789' },
  ES: { prefix: 'ES', rest: /^[A-Z0-9]\d{7}[A-Z0-9]$/, example: 'ESX1234567X' },
  FI: { prefix: 'FI', rest: /^\d{8}$/, example: 'FI12345678' },
  FR: { prefix: 'FR', rest: /^[A-HJ-NP-Z0-9]{2}\d{9}$/, example: 'FR12345678901' },
  HR: { prefix: 'HR', rest: /^\d{11}$/, example: 'HR12345678901' },
  HU: { prefix: 'HU', rest: /^\d{8}$/, example: 'HU12345678' },
  IE: { prefix: 'IE', rest: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/, example: 'IE1234567WA' },
  IT: { prefix: 'IT', rest: /^\d{11}$/, example: 'IT12345678901' },
  LT: { prefix: 'LT', rest: /^(\d{9}|\d{12})$/, example: 'LT123456789' },
  LU: { prefix: 'LU', rest: /^\d{8}$/, example: 'LU12345678' },
  LV: { prefix: 'LV', rest: /^\d{11}$/, example: 'LV12345678901' },
  MT: { prefix: 'MT', rest: /^\d{8}$/, example: 'MT12345678' },
  NL: { prefix: 'NL', rest: /^\d{9}B\d{2}$/, example: 'NL123456789B01' },
  PL: { prefix: 'PL', rest: /^\d{10}$/, example: 'PL1234567890' },
  PT: { prefix: 'PT', rest: /^\d{9}$/, example: 'PT123456789' },
  RO: { prefix: 'RO', rest: /^\d{2,10}$/, example: 'RO1234567890' },
  SE: { prefix: 'SE', rest: /^\d{10}01$/, example: 'SE123456789001' },
  SI: { prefix: 'SI', rest: /^\d{8}$/, example: 'SI12345678' },
  SK: { prefix: 'SK', rest: /^\d{10}$/, example: 'SK1234567890' },
  GB: { prefix: 'GB', rest: /^(\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/, example: 'GB123456789' },
  XI: { prefix: 'XI', rest: /^(\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/, example: 'XI123456789' },
  CH: { prefix: 'CHE', rest: /^\d{9}(MWST|TVA|IVA)?$/, example: 'CHE-123.456.789 MWST' },
  NO: { prefix: 'NO', rest: /^\d{9}(MVA)?$/, example: 'NO123456789MVA' },
};

/** Formats by prefix, longest prefix first (ATU before AT…, CHE before CH…). */
const BY_PREFIX = Object.entries(FORMATS)
  .map(([country, f]) => ({ country, ...f }))
  .sort((a, b) => b.prefix.length - a.prefix.length);

export type VatCheck =
  | { ok: true }
  /** `country`: whose format was expected; `example`: a number in that format. */
  | { ok: false; country: string; example: string };

/** The number as VIES reads it: capitals, no spaces, dots or hyphens. */
export function compactVatNumber(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, '');
}

/** Whether a VAT number has its country's format; `countryCode` is that of its customer or team, if known. */
export function checkVatNumber(value: string, countryCode?: string | null): VatCheck {
  const v = compactVatNumber(value);
  if (v === '') return { ok: true };
  const byPrefix = BY_PREFIX.find((f) => v.startsWith(f.prefix));
  const format = byPrefix ?? (countryCode ? BY_PREFIX.find((f) => f.country === countryCode.toUpperCase()) : undefined);
  if (!format) return { ok: true };
  if (v.startsWith(format.prefix) && format.rest.test(v.slice(format.prefix.length))) return { ok: true };
  return { ok: false, country: format.country, example: format.example };
}
