import { unitPriceMajor } from '../unit-price';
import { type Json, sameJson } from './merge';

/**
 * Invoices in sync (docs/decisions/0143-invoice-sync.md): rules both the engine and the store's side of it use.
 */

type Fields = Readonly<Record<string, unknown>>;

/**
 * Whether two invoice projections are the same invoice (one made here and pushed, one there): the same customer,
 * currency, issue day, line items and discount. A number alone says nothing: two replicas offline may both have
 * used it for different invoices (a collision), so a twin with the same number is linked only when these agree too.
 */
export function sameInvoice(a: Fields, b: Fields): boolean {
  return ['customerId', 'currency', 'issueDate', 'lineItems', 'discountMinor'].every((f) =>
    sameJson(a[f] as Json | undefined, b[f] as Json | undefined),
  );
}

/** An invoice's projected line items as the API takes them: unit prices in major units of the invoice currency. */
export function apiLineItems(v: Json | undefined, currency: Json | undefined): Record<string, unknown>[] {
  return (Array.isArray(v) ? (v as Record<string, Json>[]) : []).map((l) => ({
    name: l.name,
    quantity: l.quantity,
    unit: l.unit ?? null,
    price:
      typeof l.priceMinor === 'number' && typeof currency === 'string'
        ? unitPriceMajor({ priceMinor: l.priceMinor, priceScale: typeof l.priceScale === 'number' ? l.priceScale : 0 }, currency)
        : null,
    vat: l.vatRate ?? null,
    taxRate: l.taxRate ?? null,
  }));
}
