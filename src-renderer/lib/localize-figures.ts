/**
 * Figures inside text made elsewhere, written in the user's formats: the workflow engine fills approval titles and
 * descriptions from templates with raw values ("1130.5 EUR", "Due 2026-11-30"). An amount followed by a currency
 * code the platform knows becomes the user's amount ("1.130,50 €"), an ISO day their date; nothing else changes.
 */
import { formatAmount, formatDate } from './format';

const AMOUNT = /(?<![\w.,])(-?\d+(?:\.\d+)?) ([A-Z]{3})\b/g;
const DAY = /(?<![\w-])(\d{4}-\d{2}-\d{2})(?![\w-])/g;

let currencies: Set<string> | null = null;
function isCurrency(code: string): boolean {
  if (!currencies) {
    try {
      currencies = new Set(Intl.supportedValuesOf('currency'));
    } catch {
      currencies = new Set(['EUR', 'USD', 'GBP', 'CHF', 'JPY']);
    }
  }
  return currencies.has(code);
}

export function localizeFigures(text: string): string {
  return text
    .replace(AMOUNT, (whole, amount: string, code: string) => (isCurrency(code) ? formatAmount(Number(amount), code) : whole))
    .replace(DAY, (whole, day: string) => {
      const formatted = formatDate(day);
      return formatted === day ? whole : formatted;
    });
}
