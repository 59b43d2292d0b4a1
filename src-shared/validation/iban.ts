/**
 * IBANs (ISO 13616): two letters of the country, two check digits, up to 30 letters and digits, whose mod-97 check
 * (the first four characters moved to the end, letters as 10…35) leaves 1. Stored without spaces, upper case;
 * printed in groups of four, as banks print them.
 */

/** The IBAN without spaces in upper case, or null when it is not a valid one. */
export function normalizeIban(value: string): string | null {
  const s = value.replace(/[\s-]+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return null;
  const digits = (s.slice(4) + s.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1 ? s : null;
}

/** "DE89370400440532013000" → "DE89 3704 0044 0532 0130 00". */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}
