import type { ReceivedEInvoice } from '../../src-shared/contract/documents';
import type { Address } from '../../src-shared/domain/einvoice/model';
import { unitPriceText } from '../../src-shared/domain/unit-price';
import { readEInvoiceXml } from './read';
import { decimalText } from './write';

/**
 * A received e-invoice as an inbox item's extracted fields (docs/decisions/0160-e-invoices.md): the supplier, the
 * amount due, the VAT, the date — what matching uses, in the receipt fields' shape — plus the number, due date,
 * payment account, VAT per rate, lines and totals (what the screen shows as a readable invoice), and a readable
 * text of the invoice for search and the document's content.
 */

/** Every field, also those an extraction stored before them may lack. */
export type ReceivedInvoiceFields = Required<ReceivedEInvoice> & {
  vatBreakdown: Required<ReceivedEInvoice['vatBreakdown'][number]>[];
};

function addressLines(a: Address): string[] {
  const place = [a.postCode, a.city].filter(Boolean).join(' ');
  return [a.line1, a.line2, place, a.subdivision, a.countryCode].filter((v): v is string => Boolean(v));
}

export function eInvoiceExtraction(xml: string) {
  const { syntax, invoice: inv } = readEInvoiceXml(xml);
  const cur = inv.currency;
  const money = (minor: number) => decimalText(minor, cur);
  const rates = [...new Set(inv.vatBreakdown.map((b) => b.rate))];
  const t = inv.totals;
  const endpoint = inv.seller.electronicAddress;
  const eInvoice: ReceivedInvoiceFields = {
    syntax,
    typeCode: inv.typeCode,
    number: inv.number,
    issueDate: inv.issueDate,
    dueDate: inv.dueDate,
    supplier: inv.seller.name,
    supplierVatId: inv.seller.vatId,
    supplierLegalId: inv.seller.legalId,
    supplierEndpoint: endpoint ? `${endpoint.scheme}:${endpoint.value}` : null,
    supplierAddress: addressLines(inv.seller.address),
    buyer: inv.buyer.name,
    buyerReference: inv.buyerReference,
    precedingInvoice: inv.precedingInvoice?.number || null,
    lineTotal: money(t.lineNetMinor),
    allowances: money(t.allowancesMinor),
    charges: money(t.chargesMinor),
    totalWithoutVat: money(t.taxExclusiveMinor),
    vat: money(t.vatMinor),
    totalWithVat: money(t.taxInclusiveMinor),
    prepaid: money(t.prepaidMinor),
    amountDue: money(t.payableMinor),
    vatAccounting: inv.vatAccounting && {
      currency: inv.vatAccounting.currency,
      vat: inv.vatAccounting.vatMinor === null ? null : decimalText(inv.vatAccounting.vatMinor, inv.vatAccounting.currency),
    },
    vatBreakdown: inv.vatBreakdown.map((b) => ({
      category: b.category,
      rate: b.rate,
      taxable: money(b.taxableMinor),
      vat: money(b.taxMinor),
      exemptionReason: b.exemptionReason ?? b.exemptionReasonCode,
    })),
    lines: inv.lines.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      unitCode: l.unitCode,
      price: unitPriceText(l, cur),
      net: money(l.netMinor),
      category: l.category,
      rate: l.rate,
    })),
    iban: inv.payment?.iban ?? null,
    paymentReference: inv.payment?.remittance ?? null,
    paymentTerms: inv.paymentTerms,
  };
  const text = [
    `${inv.typeCode === '381' ? 'Credit note' : 'Invoice'} ${inv.number} of ${inv.issueDate}${inv.dueDate ? `, due ${inv.dueDate}` : ''}`,
    `From ${inv.seller.name}${inv.seller.vatId ? ` (VAT ${inv.seller.vatId})` : ''} to ${inv.buyer.name}`,
    ...inv.lines.map((l) => `${l.quantity} ${l.unitCode} ${l.name}: ${money(l.netMinor)} ${cur} (${l.category} ${l.rate} %)`),
    ...inv.allowancesCharges.map((a) => `${a.charge ? 'Charge' : 'Allowance'} ${a.reason}: ${money(a.amountMinor)} ${cur}`),
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
