import { readEInvoiceXml } from './read';
import { decimalText } from './write';

/**
 * A received e-invoice as an inbox item's extracted fields (docs/decisions/0160-e-invoices.md): the supplier, the
 * amount due, the VAT, the date — what matching uses, in the receipt fields' shape — plus the number, due date,
 * payment account and VAT per rate, and a readable text of the invoice for search and the document's content.
 */

export interface ReceivedInvoiceFields {
  syntax: 'UBL' | 'CII';
  typeCode: '380' | '381';
  number: string;
  issueDate: string;
  dueDate: string | null;
  supplier: string;
  supplierVatId: string | null;
  buyer: string;
  /** Decimal strings in major units, like the receipt fields. */
  totalWithoutVat: string;
  vat: string;
  amountDue: string;
  vatBreakdown: { category: string; rate: number; taxable: string; vat: string }[];
  iban: string | null;
  paymentReference: string | null;
}

export function eInvoiceExtraction(xml: string) {
  const { syntax, invoice: inv } = readEInvoiceXml(xml);
  const cur = inv.currency;
  const money = (minor: number) => decimalText(minor, cur);
  const rates = [...new Set(inv.vatBreakdown.map((b) => b.rate))];
  const eInvoice: ReceivedInvoiceFields = {
    syntax,
    typeCode: inv.typeCode,
    number: inv.number,
    issueDate: inv.issueDate,
    dueDate: inv.dueDate,
    supplier: inv.seller.name,
    supplierVatId: inv.seller.vatId,
    buyer: inv.buyer.name,
    totalWithoutVat: money(inv.totals.taxExclusiveMinor),
    vat: money(inv.totals.vatMinor),
    amountDue: money(inv.totals.payableMinor),
    vatBreakdown: inv.vatBreakdown.map((b) => ({
      category: b.category,
      rate: b.rate,
      taxable: money(b.taxableMinor),
      vat: money(b.taxMinor),
    })),
    iban: inv.payment?.iban ?? null,
    paymentReference: inv.payment?.remittance ?? null,
  };
  const text = [
    `${inv.typeCode === '381' ? 'Credit note' : 'Invoice'} ${inv.number} of ${inv.issueDate}${inv.dueDate ? `, due ${inv.dueDate}` : ''}`,
    `From ${inv.seller.name}${inv.seller.vatId ? ` (VAT ${inv.seller.vatId})` : ''} to ${inv.buyer.name}`,
    ...inv.lines.map((l) => `${l.quantity} ${l.unitCode} ${l.name}: ${money(l.netMinor)} ${cur} (${l.category} ${l.rate} %)`),
    ...inv.vatBreakdown.map((b) => `VAT ${b.category} ${b.rate} % on ${money(b.taxableMinor)}: ${money(b.taxMinor)} ${cur}`),
    `Amount due: ${money(inv.totals.payableMinor)} ${cur}`,
    inv.payment?.iban ? `Pay to ${inv.payment.iban}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return {
    method: 'e-invoice' as const,
    text,
    pages: null,
    fields: {
      merchant: inv.seller.name,
      date: inv.issueDate,
      amount: money(inv.totals.payableMinor),
      currency: cur,
      vatAmount: money(inv.totals.vatMinor),
      vatRate: rates.length === 1 ? (rates[0] ?? null) : null,
      website: null,
      eInvoice,
    },
  };
}
