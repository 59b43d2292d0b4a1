/**
 * ISO 3166-1 alpha-2 country codes from a real list (the i18n-iso-countries package, which tracks the ISO
 * standard), not a two-letter regex. Only officially assigned codes are accepted: the package also lists XK
 * (Kosovo), a user-assigned code outside ISO 3166-1, which is left out here.
 */
// The package's Node entry registers all of its ~80 languages (~2.5 MB of heap); its core takes only the one needed.
import countries from 'i18n-iso-countries/index';
import en from 'i18n-iso-countries/langs/en.json';

countries.registerLocale(en);

const NOT_ISO = new Set(['XK']);

export const COUNTRY_CODES: ReadonlySet<string> = new Set(Object.keys(countries.getAlpha2Codes()).filter((c) => !NOT_ISO.has(c)));

export function isCountryCode(value: string): boolean {
  return COUNTRY_CODES.has(value);
}

/** English short name for a valid code ("DE" → "Germany"), or null. */
export function countryName(code: string): string | null {
  if (!isCountryCode(code)) return null;
  return countries.getName(code, 'en', { select: 'official' }) ?? null;
}
