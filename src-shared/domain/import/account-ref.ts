import { isCurrencyCode } from '../../money';

/**
 * The account a statement names (an IBAN, a bank-code/number pair, an account number, a QIF account name), made
 * comparable (docs/decisions/0069): upper case, without spaces and dashes, without the currency code some banks
 * append to it (ING writes "NL69INGB0123456789EUR" in :25:).
 */
export function normalizeAccountRef(ref: string): string {
  const s = ref.toUpperCase().replace(/[\s-]+/g, '');
  const tail = s.slice(-3);
  return s.length > 6 && /\d/.test(s[s.length - 4]!) && isCurrencyCode(tail) ? s.slice(0, -3) : s;
}

/** Whether an account's name carries the reference ("Giro DE89 3704 0044 0532 0130 00" for DE89370400440532013000). */
export function nameCarriesRef(accountName: string, ref: string): boolean {
  const r = normalizeAccountRef(ref);
  return (
    r.length >= 6 &&
    accountName
      .toUpperCase()
      .replace(/[\s-]+/g, '')
      .includes(r)
  );
}
