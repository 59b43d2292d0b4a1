/** The currencies a person may choose (ISO 4217, as the server knows them), by code and name in the screens' language. */
import { CURRENCY_EXPONENTS } from '../../../src-shared/money';

export function currencyOptions(language: string): { code: string; label: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language], { type: 'currency' });
  } catch {}
  return [...CURRENCY_EXPONENTS.keys()].sort().map((code) => {
    const name = names?.of(code);
    return { code, label: name && name !== code ? `${code} · ${name}` : code };
  });
}
