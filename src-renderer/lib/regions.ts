/** Countries in the screens' language: a name for a code, and the choices of a country field. */
import { COUNTRY_CODES, countryName } from '../../src-shared/validation/countries';

function regionNames(language: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    return null;
  }
}

/** A country by its name in `language` (Greece for GR), else its English name, else the code. */
export function regionName(code: string, language: string): string {
  return regionNames(language)?.of(code) ?? countryName(code) ?? code;
}

/** The countries by their names in `language`, in that language's order. */
export function countryOptions(language: string): { code: string; name: string }[] {
  const names = regionNames(language);
  return [...COUNTRY_CODES]
    .map((code) => ({ code, name: names?.of(code) ?? countryName(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}
