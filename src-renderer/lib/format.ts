/** Formatting for people. Amounts from the API are major units (12.34); currency exponents come from Intl. */

const moneyFormats = new Map<string, Intl.NumberFormat>();

export function formatAmount(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  if (!currency) return new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
  let f = moneyFormats.get(currency);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'code' });
    } catch {
      f = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(currency, f);
  }
  return f.format(amount).replace(/\u00a0/g, ' ');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-09-12" or an ISO timestamp → "12 Sep 2026": unambiguous in every locale, every month three letters wide. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(d.getTime())) return iso;
  const local =
    iso.length === 10
      ? { day: d.getUTCDate(), month: d.getUTCMonth(), year: d.getUTCFullYear() }
      : { day: d.getDate(), month: d.getMonth(), year: d.getFullYear() };
  return `${String(local.day).padStart(2, '0')} ${MONTHS[local.month]} ${local.year}`;
}
