import type { InvoiceTemplate, LineItemInput } from '../../../src-shared/contract/invoices';
import { editorText } from '../../../src-shared/domain/editor-text';
import { AmountError, computeAmounts } from '../../../src-shared/domain/invoice-amounts';
import { toUnitPrice, type UnitPrice, unitPriceMajor } from '../../../src-shared/domain/unit-price';
import { InvalidReference } from '../errors';
import { moneyField } from '../money-input';
import type { StoredLine } from './read';

/**
 * An invoice's content as a write stores it: money from the API's major units to exact minor units of the invoice
 * currency, line items, the totals computed from them (src-shared/domain/invoice-amounts.ts) and the template JSON.
 * What does not fit is the client's mistake, named by its field.
 */

/** A unit price as stored (up to two decimals beyond the currency's, unit-price.ts), or the field's 422. */
export function unitPriceOf(amount: number, currency: string, field: string): UnitPrice {
  return moneyField(field, () => toUnitPrice(amount, currency), 'named');
}

/** A category's tax rate by its slug: undefined when the team has no such category, null when it names no rate. */
export type CategoryRate = (slug: string) => number | null | undefined;

export function toStoredLines(items: readonly LineItemInput[], currency: string, categoryRate?: CategoryRate): StoredLine[] {
  return items.map((li, i) => {
    if (li.tax !== undefined && li.taxRate !== undefined && li.tax !== li.taxRate) {
      throw new InvalidReference(`lineItems.${i}.tax`, `lineItems.${i}: tax and taxRate name the same rate; send one`);
    }
    const taxRate = li.taxRate !== undefined ? li.taxRate : li.tax;
    const line: StoredLine = {
      name: typeof li.name === 'string' ? li.name : editorText(li.name),
      quantity: li.quantity,
      unit: li.unit ?? null,
      ...unitPriceOf(li.price, currency, `lineItems.${i}.price`),
    };
    if (typeof li.name !== 'string') line.nameContent = li.name;
    if (li.category) {
      const rate = categoryRate?.(li.category);
      if (rate === undefined) {
        throw new InvalidReference(`lineItems.${i}.category`, `lineItems.${i}.category: the team has no category ${li.category}`);
      }
      line.category = li.category;
      // The line's rate is its category's unless the line names one (docs/decisions/0120).
      if ((li.vat === undefined || li.vat === null) && rate !== null) line.vatRate = rate;
    }
    if (li.vat !== undefined && li.vat !== null) line.vatRate = li.vat;
    if (taxRate !== undefined && taxRate !== null) line.taxRate = taxRate;
    return line;
  });
}

/** Existing lines in a new currency: the same major amounts, refused when they do not fit its minor unit. */
export function convertLines(lines: readonly StoredLine[], from: string, to: string): StoredLine[] {
  if (from === to) return [...lines];
  return lines.map((l, i) => {
    const { priceMinor: _p, priceScale: _s, ...rest } = l;
    return { ...rest, ...unitPriceOf(unitPriceMajor(l, from), to, `lineItems.${i}.price`) };
  });
}

export interface Totals {
  subtotal_minor: number;
  vat_minor: number;
  tax_minor: number;
  discount_minor: number;
  amount_minor: number;
}

export function totalsOf(lines: readonly StoredLine[], template: InvoiceTemplate, discountMinor: number): Totals {
  try {
    const a = computeAmounts(lines, {
      vatRate: template.vatRate,
      taxRate: template.taxRate,
      includeVat: template.includeVat,
      includeTax: template.includeTax,
      discountMinor,
    });
    return {
      subtotal_minor: a.subtotalMinor,
      vat_minor: a.vatMinor,
      tax_minor: a.taxMinor,
      discount_minor: a.discountMinor,
      amount_minor: a.amountMinor,
    };
  } catch (e) {
    if (e instanceof AmountError) throw new InvalidReference(e.field, e.message);
    throw e;
  }
}

/** The template as stored: everything but currency and time zone (columns of their own). */
export function storedTemplate(t: InvoiceTemplate, deliveryType?: string): string {
  const { currency: _c, timezone: _z, ...rest } = t;
  return JSON.stringify(deliveryType ? { ...rest, deliveryType } : rest);
}
