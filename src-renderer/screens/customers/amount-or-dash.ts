import { formatAmount } from '../../lib/format';

/**
 * A customer's paid or owed figure in the list. Nothing reads one way, whether the customer has no invoices yet or
 * has settled them all: a dash, not "0,00 €" on one row and "—" on the next.
 */
export function amountOrDash(amount: number, currency: string | null): string {
  return amount && currency ? formatAmount(amount, currency) : '—';
}
