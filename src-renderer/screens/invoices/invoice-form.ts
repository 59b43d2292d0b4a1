/**
 * The invoice form's values and what they become on the wire (a new invoice, or a draft edited). Pure, so the rules
 * are tested in Node:
 * - numbers are read in the user's format (lib/parse-number.ts): "1.234,50" in German;
 * - every line has its own VAT rate (docs/decisions/0120): 19 % and 7 % on one invoice. A new line starts at its
 *   category's rate, else the team's default (its own, else its country's standard rate); under reverse charge (an
 *   EU business in another member state with a VAT number) every line starts at 0 % and the invoice carries the
 *   reverse-charge note in the invoice's language;
 * - the totals shown while typing are computed by the server's own rule (src-shared/domain/invoice-amounts.ts,
 *   docs/decisions/0071), per rate, so the preview is the figure the invoice will have, to the cent;
 * - blank optional fields are left out and the server's defaults apply (next number, today, payment terms).
 * Messages are catalogue keys of the invoices namespace (`form.errors.*`), translated where they are shown.
 */
import type { z } from 'zod';
import type { Invoice, InvoiceCreate, InvoicePatch } from '../../../src-shared/contract/invoices';
import { computeAmounts } from '../../../src-shared/domain/invoice-amounts';
import { reverseChargeTemplate } from '../../../src-shared/domain/invoice-vat';
import { isCurrencyCode, toMajor, toMinor } from '../../../src-shared/money';
import { type NumberMarks, parseDecimal } from '../../lib/parse-number';

export interface LineDraft {
  /** The row's React key: stable while rows are added and removed. */
  key: number;
  name: string;
  quantity: string;
  unit: string;
  price: string;
  /** This line's VAT rate in percent, as typed. */
  vat: string;
  /** The slug of the revenue category the line belongs to; '' for none. */
  category: string;
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
  discount: string;
  note: string;
  lines: LineDraft[];
  /** The customer accounts for the VAT (Art. 196 VAT directive, § 13b UStG): every line 0 %, the note printed. */
  reverseCharge: boolean;
}

/** What the form's VAT defaults come from: the team's rate and whether it charges VAT, the invoice's language. */
export interface VatContext {
  /** The rate a line starts with when its category names none (src-shared/domain/invoice-vat.ts teamDefaultRate). */
  teamRate: number;
  /** The team's invoices charge VAT by default (Team settings › Invoices). */
  includeVat: boolean;
  /** The language the invoice is written in: the customer's, else the team's. */
  locale: string;
}

let nextKey = 1;
export function emptyLine(vat = ''): LineDraft {
  return { key: nextKey++, name: '', quantity: '1', unit: '', price: '', vat, category: '' };
}

export function emptyDraft(defaults: { currency: string; vat?: string }): InvoiceDraft {
  return {
    customerId: '',
    currency: defaults.currency,
    invoiceNumber: '',
    issueDate: '',
    dueDate: '',
    discount: '',
    note: '',
    lines: [emptyLine(defaults.vat ?? '')],
    reverseCharge: false,
  };
}

/**
 * The rate (as typed) a line starts with: 0 under reverse charge, else its category's rate, else the team's. The
 * rate is formatted by the caller's `format` (the user's decimal mark).
 */
export function startRate(
  d: Pick<InvoiceDraft, 'reverseCharge'>,
  categoryRate: number | null | undefined,
  ctx: Pick<VatContext, 'teamRate'>,
  format: (n: number) => string,
): string {
  if (d.reverseCharge) return format(0);
  return format(categoryRate ?? ctx.teamRate);
}

/**
 * The draft with every line still at the rate it started with (or none) moved to the rate it starts with now: after
 * the customer (and so reverse charge), the team's defaults or the reverse-charge choice changed. A rate the person
 * typed stays.
 */
export function restartRates(
  d: InvoiceDraft,
  was: ((line: LineDraft) => string) | null,
  now: (line: LineDraft) => string,
): InvoiceDraft {
  return {
    ...d,
    lines: d.lines.map((line) =>
      line.vat.trim() === '' || (was !== null && line.vat === was(line)) ? { ...line, vat: now(line) } : line,
    ),
  };
}

/** Field → message key. Line fields are `lines.<i>.<field>`. */
export type DraftErrors = Record<string, string>;

function numberOr(text: string, fallback: number, marks?: NumberMarks): number | null {
  return text.trim() === '' ? fallback : parseDecimal(text, marks);
}

const validRate = (r: number | null): r is number => r !== null && r >= 0 && r <= 100;

/** What is wrong with one field, for a message when the field is left (the whole draft's on submit). */
export function fieldError(d: InvoiceDraft, field: string, marks?: NumberMarks): string | undefined {
  return draftErrors(d, marks)[field];
}

/** What is wrong before anything is sent; empty when the draft can go to the server. */
export function draftErrors(d: InvoiceDraft, marks?: NumberMarks): DraftErrors {
  const errors: DraftErrors = {};
  if (!d.customerId) errors.customerId = 'form.errors.customer';
  if (!isCurrencyCode(d.currency.trim().toUpperCase())) errors.currency = 'form.errors.currency';
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
    if (!validRate(parseDecimal(line.vat, marks))) errors[`lines.${i}.vat`] = 'form.errors.rate';
  });
  return errors;
}

/** A row nothing was typed in (its rate and category are the defaults it started with). */
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
  /** The VAT of each rate, highest rate first (Art. 226 (8)–(10): the net and the VAT per rate). */
  vatGroups: { rate: number; net: number; vat: number }[];
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
      const vatRate = parseDecimal(line.vat, marks);
      return quantity === null || price === null || !validRate(vatRate)
        ? null
        : { quantity, priceMinor: toMinor(price, currency), vatRate };
    });
    const valid = rows.filter((r): r is NonNullable<typeof r> => r !== null);
    const amounts = computeAmounts(valid, {
      vatRate: 0,
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
      vatGroups: amounts.vatGroups.map((g) => ({
        rate: g.rate,
        net: toMajor(g.netMinor, currency),
        vat: toMajor(g.vatMinor, currency),
      })),
    };
  } catch {
    // Too many decimals for the currency, a discount above the total: the server names it when sent.
    return null;
  }
}

/** An issued or draft invoice's VAT per rate, from its lines (each line's own rate, else the invoice's). */
export function invoiceVatGroups(inv: Pick<Invoice, 'lineItems' | 'template' | 'currency'>): DraftTotals['vatGroups'] {
  if (!inv.template.includeVat) return [];
  try {
    const amounts = computeAmounts(
      inv.lineItems.map((l) => ({ quantity: l.quantity, priceMinor: toMinor(l.price, inv.currency), vatRate: l.vat })),
      { vatRate: inv.template.vatRate, taxRate: 0, includeVat: true, includeTax: false, discountMinor: 0 },
    );
    return amounts.vatGroups.map((g) => ({
      rate: g.rate,
      net: toMajor(g.netMinor, inv.currency),
      vat: toMajor(g.vatMinor, inv.currency),
    }));
  } catch {
    return [];
  }
}

function lineItemsOf(d: InvoiceDraft, marks?: NumberMarks) {
  const num = (text: string) => parseDecimal(text, marks) ?? 0;
  return d.lines
    .filter((l) => !isBlank(l))
    .map((l) => ({
      name: l.name.trim(),
      quantity: num(l.quantity),
      price: num(l.price),
      ...(l.unit.trim() ? { unit: l.unit.trim() } : {}),
      vat: num(l.vat),
      ...(l.category ? { category: l.category } : {}),
    }));
}

/**
 * The template a draft asks for: the team's default rate for lines that name none, VAT charged when a line charges
 * it (or the team does), and reverse charge with its category, code and note — or, when it was and no longer is,
 * none of those.
 */
function templateOf(d: InvoiceDraft, ctx: VatContext, marks: NumberMarks | undefined, wasReverseCharge: boolean) {
  const anyVat = d.lines.some((l) => !isBlank(l) && (parseDecimal(l.vat, marks) ?? 0) > 0);
  const base = { vatRate: ctx.teamRate, includeVat: ctx.includeVat || anyVat };
  if (d.reverseCharge) return { ...base, ...reverseChargeTemplate(ctx.locale) };
  if (wasReverseCharge) return { ...base, vatCategory: null, vatExemptionReasonCode: null, vatExemptionReason: null };
  return base;
}

/** The create request of a draft that has no errors. */
export function toCreateBody(
  d: InvoiceDraft,
  deliveryType: 'create' | 'create_and_send',
  ctx: VatContext,
  marks?: NumberMarks,
): CreateBody {
  const num = (text: string) => parseDecimal(text, marks) ?? 0;
  const body: CreateBody = {
    customerId: d.customerId,
    currency: d.currency.trim().toUpperCase(),
    deliveryType,
    lineItems: lineItemsOf(d, marks),
    template: templateOf(d, ctx, marks, false),
  };
  if (d.invoiceNumber.trim()) body.invoiceNumber = d.invoiceNumber.trim();
  if (d.issueDate) body.issueDate = d.issueDate;
  if (d.dueDate) body.dueDate = d.dueDate;
  if (d.discount.trim() && num(d.discount) > 0) body.discount = num(d.discount);
  if (d.note.trim()) body.note = d.note.trim();
  return body;
}

/** A draft invoice as the form edits it: its lines with their own rates, its dates, and whether it is reverse charge. */
export function draftOf(inv: Invoice, format: (n: number, digits?: number) => string): InvoiceDraft {
  const num = (n: number) => format(n, Number.isInteger(n) ? 0 : Math.min(4, String(n).split('.')[1]?.length ?? 0));
  const rate = (l: Invoice['lineItems'][number]) => (inv.template.includeVat ? (l.vat ?? inv.template.vatRate) : 0);
  return {
    customerId: inv.customerId ?? '',
    currency: inv.currency,
    invoiceNumber: inv.invoiceNumber ?? '',
    issueDate: inv.issueDate,
    dueDate: inv.dueDate,
    discount: inv.discount > 0 ? num(inv.discount) : '',
    note: inv.note ?? '',
    lines: inv.lineItems.length
      ? inv.lineItems.map((l) => ({
          ...emptyLine(),
          name: l.name,
          quantity: num(l.quantity),
          unit: l.unit ?? '',
          price: num(l.price),
          vat: num(rate(l)),
          category: l.category ?? '',
        }))
      : [emptyLine(num(inv.template.vatRate))],
    reverseCharge: isReverseCharge(inv),
  };
}

export function isReverseCharge(inv: Pick<Invoice, 'template'>): boolean {
  return (inv.template as Record<string, unknown>).vatCategory === 'AE';
}

/** The PATCH of a draft edited: everything the form holds, so the draft is what the form shows. */
export function toPatchBody(d: InvoiceDraft, inv: Invoice, ctx: VatContext, marks?: NumberMarks): PatchBody {
  const num = (text: string) => parseDecimal(text, marks) ?? 0;
  const body: PatchBody = {
    customerId: d.customerId,
    currency: d.currency.trim().toUpperCase(),
    lineItems: lineItemsOf(d, marks),
    template: templateOf(d, ctx, marks, isReverseCharge(inv)),
    discount: d.discount.trim() ? num(d.discount) : 0,
    note: d.note.trim() ? d.note.trim() : null,
  };
  if (d.invoiceNumber.trim() && d.invoiceNumber.trim() !== inv.invoiceNumber) body.invoiceNumber = d.invoiceNumber.trim();
  if (d.issueDate) body.issueDate = d.issueDate;
  if (d.dueDate) body.dueDate = d.dueDate;
  return body;
}

/** The request bodies as the typed client takes them (defaults optional). */
type CreateBody = z.input<typeof InvoiceCreate>;
type PatchBody = z.input<typeof InvoicePatch>;
