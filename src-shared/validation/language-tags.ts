/** Whether `value` is one BCP 47 language tag that Intl knows ("de-DE", "en-gb"; not "de-DE,en" nor "xx-!!"). */
export function isLanguageTag(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}
