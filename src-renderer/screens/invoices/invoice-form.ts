/**
 * The new-invoice form's values and what they become on the wire. Pure, so the rules are tested in Node:
 * - numbers are read in the user's format (lib/parse-number.ts): "1.234,50" in German;
 * - the totals shown while typing are computed by the server's own rule (src-shared/domain/invoice-amounts.ts,
 *   docs/decisions/0071), so the preview is the figure the invoice will have, to the cent;
 * - blank optional fields are left out and the server's defaults apply (next number, today, payment terms).
 * Messages are catalogue keys of the invoices namespace (`form.errors.*`), translated where they are shown.
 */
import type { z } from 'zod';
import type { InvoiceCreate } from '../../../src-shared/contract/invoices';
import { computeAmounts } from '../../../src-shared/domain/invoice-amounts';
import { isCurrencyCode, toMajor, toMinor } from '../../../src-shared/money';
import { type NumberMarks, parseDecimal } from '../../lib/parse-number';

export interface LineDraft {
  /** The row's React key: stable while rows are added and removed. */
  key: number;
  name: string;
  quantity: string;
  unit: string;
  price: string;
}

export interface InvoiceDraft {
  customerId: string;
  currency: string;
  /** Blank: the next number of the team's sequence. */
  invoiceNumber: string;
  /** Blank: today in the invoice's time zone. */
  issueDate: string;
  /** Blank: the issue date plus the payment terms. */
  dueDate: string;
  /** Percent; the team's default rate to start with. */
  vatRate: string;
  discount: string;
  note: string;
  lines: LineDraft[];
}

let nextKey = 1;
export function emptyLine(): LineDraft {
  return { key: nextKey++, name: '', quantity: '1', unit: '', price: '' };
}

export function emptyDraft(defaults: {
  currency: string;
  vatRate: number | null;
  formatRate: (n: number) => string;
}): InvoiceDraft {
  return {
    customerId: '',
    currency: defaults.currency,
    invoiceNumber: '',
    issueDate: '',
    dueDate: '',
    vatRate: defaults.vatRate === null ? '' : defaults.formatRate(defaults.vatRate),
    discount: '',
    note: '',
    lines: [emptyLine()],
  };
}

/** Field → message key. Line fields are `lines.<i>.<field>`. */
export type DraftErrors = Record<string, string>;

function numberOr(text: string, fallback: number, marks?: NumberMarks): number | null {
  return text.trim() === '' ? fallback : parseDecimal(text, marks);
}

/** What is wrong before anything is sent; empty when the draft can go to the server. */
export function draftErrors(d: InvoiceDraft, marks?: NumberMarks): DraftErrors {
  const errors: DraftErrors = {};
  if (!d.customerId) errors.customerId = 'form.errors.customer';
  if (!isCurrencyCode(d.currency.trim().toUpperCase())) errors.currency = 'form.errors.currency';
  const rate = numberOr(d.vatRate, 0, marks);
  if (rate === null || rate < 0 || rate > 100) errors.vatRate = 'form.errors.rate';
  const discount = numberOr(d.discount, 0, marks);
  if (discount === null || discount < 0) errors.discount = 'form.errors.discount';
  if (d.issueDate && d.dueDate && d.dueDate < d.issueDate) errors.dueDate = 'form.errors.dueBeforeIssue';
  const filled = d.lines.filter((l) => !isBlank(l));
  if (filled.length === 0) errors.lines = 'form.errors.noLines';
  d.lines.forEach((line, i) => {
    if (isBlank(line)) return;
    if (!line.name.trim()) errors[`lines.${i}.name`] = 'form.errors.lineName';
    const q = parseDecimal(line.quantity, marks);
    if (q === null || q < 0) errors[`lines.${i}.quantity`] = 'form.errors.quantity';
    if (parseDecimal(line.price, marks) === null) errors[`lines.${i}.price`] = 'form.errors.price';
  });
  return errors;
}

function isBlank(line: LineDraft): boolean {
  return (
    !line.name.trim() && !line.price.trim() && !line.unit.trim() && (line.quantity.trim() === '' || line.quantity.trim() === '1')
  );
}

export interface DraftTotals {
  subtotal: number;
  vat: number;
  discount: number;
  total: number;
  /** The rows' amounts, blank rows and rows not yet valid as null. */
  lines: (number | null)[];
}

/** The totals as the server will compute them (major units), or null while something cannot be computed yet. */
export function draftTotals(d: InvoiceDraft, marks?: NumberMarks): DraftTotals | null {
  const currency = d.currency.trim().toUpperCase();
  if (!isCurrencyCode(currency)) return null;
  try {
    const rows = d.lines.map((line) => {
      if (isBlank(line)) return null;
      const quantity = parseDecimal(line.quantity, marks);
      const price = parseDecimal(line.price, marks);
      return quantity === null || price === null ? null : { quantity, priceMinor: toMinor(price, currency) };
    });
    const valid = rows.filter((r): r is NonNullable<typeof r> => r !== null);
    const amounts = computeAmounts(valid, {
      vatRate: numberOr(d.vatRate, 0, marks) ?? 0,
      taxRate: 0,
      includeVat: true,
      includeTax: false,
      discountMinor: toMinor(numberOr(d.discount, 0, marks) ?? 0, currency),
    });
    let next = 0;
    const lines = rows.map((r) => (r ? toMajor(amounts.lines[next++]?.amountMinor ?? 0, currency) : null));
    return {
      subtotal: toMajor(amounts.subtotalMinor, currency),
      vat: toMajor(amounts.vatMinor, currency),
      discount: toMajor(amounts.discountMinor, currency),
      total: toMajor(amounts.amountMinor, currency),
      lines,
    };
  } catch {
    // Too many decimals for the currency, a discount above the total: the server names it when sent.
    return null;
  }
}

/** The create request of a draft that has no errors. */
export function toCreateBody(d: InvoiceDraft, deliveryType: 'create' | 'create_and_send', marks?: NumberMarks): CreateBody {
  const num = (text: string) => parseDecimal(text, marks) ?? 0;
  const body: CreateBody = {
    customerId: d.customerId,
    currency: d.currency.trim().toUpperCase(),
    deliveryType,
    lineItems: d.lines
      .filter((l) => !isBlank(l))
      .map((l) => ({
        name: l.name.trim(),
        quantity: num(l.quantity),
        price: num(l.price),
        ...(l.unit.trim() ? { unit: l.unit.trim() } : {}),
      })),
  };
  if (d.invoiceNumber.trim()) body.invoiceNumber = d.invoiceNumber.trim();
  if (d.issueDate) body.issueDate = d.issueDate;
  if (d.dueDate) body.dueDate = d.dueDate;
  if (d.vatRate.trim()) body.template = { vatRate: num(d.vatRate) };
  if (d.discount.trim() && num(d.discount) > 0) body.discount = num(d.discount);
  if (d.note.trim()) body.note = d.note.trim();
  return body;
}

/** The request body as the typed client takes it (defaults optional). */
type CreateBody = z.input<typeof InvoiceCreate>;
