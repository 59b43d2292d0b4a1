import type { Invoice } from '../../src-shared/contract/invoices';
import { computeAmounts } from '../../src-shared/domain/invoice-amounts';
import { reverseChargeNote } from '../../src-shared/domain/invoice-vat';
import { toUnitPrice } from '../../src-shared/domain/unit-price';
import { toMinor } from '../../src-shared/money';
import type { PdfParty } from '../store/invoices/files';
import {
  addressLines,
  createPdf,
  drawTable,
  FONT,
  formatDay,
  labelsFor,
  moneyFormatter,
  numberFormatter,
  numberPages,
  renderPdf,
  type TableColumn,
  unitPriceFormatter,
} from './document';

/**
 * The invoice as a PDF: the team's details, the customer's, the line items, the totals with VAT and tax, the payment
 * details and the note, in the invoice's locale, date format, currency and paper size (docs/decisions/0078).
 * What an invoice must state under the EU VAT directive (Art. 226) and national rules such as §14 (4) UStG: both
 * parties' VAT numbers, the date of supply or the service period, the net amount and the VAT per rate, and the
 * reason where no VAT is charged — labelled in the invoice's language.
 */

export interface InvoicePdfInput {
  invoice: Invoice;
  from: PdfParty;
  to: PdfParty;
  /** The IBAN the invoice is paid to (the seller's, frozen at issue); null: none known. */
  iban?: string | null;
  /** When it was issued (its parties frozen); null: not issued — a draft carries its stamp. */
  issuedAt?: string | null;
}

interface InvoiceLabels {
  invoice: string;
  number: string;
  issueDate: string;
  dueDate: string;
  supplyDate: string;
  servicePeriod: string;
  from: string;
  to: string;
  vatId: string;
  description: string;
  quantity: string;
  unit: string;
  price: string;
  vatRate: string;
  amount: string;
  net: string;
  vat: string;
  /** "VAT 19 % on €1,000.00". */
  on: string;
  tax: string;
  discount: string;
  total: string;
  exemption: string;
  reverseCharge: string;
  payment: string;
  iban: string;
  /** "Please pay €1,190.00 by 16/07/2026 without deduction." */
  payBy: (amount: string, due: string) => string;
  /** "Payment terms: 30 days net." */
  terms: (days: number) => string;
  note: string;
  page: (p: number, n: number) => string;
  status: Record<string, string>;
}

/** Labels in the invoice's language: English, German and French; other languages print English labels. */
const LABELS: { en: InvoiceLabels; de: InvoiceLabels; fr: InvoiceLabels } = {
  en: {
    invoice: 'Invoice',
    number: 'Invoice number',
    issueDate: 'Issue date',
    dueDate: 'Due date',
    supplyDate: 'Date of supply',
    servicePeriod: 'Service period',
    from: 'From',
    to: 'Bill to',
    vatId: 'VAT number',
    description: 'Description',
    quantity: 'Qty',
    unit: 'Unit',
    price: 'Price',
    vatRate: 'VAT',
    amount: 'Amount',
    net: 'Net amount',
    vat: 'VAT',
    on: 'on',
    tax: 'Tax',
    discount: 'Discount',
    total: 'Total due',
    exemption: 'No VAT charged',
    reverseCharge: 'Reverse charge',
    payment: 'Payment details',
    iban: 'IBAN',
    payBy: (amount, due) => `Please pay ${amount} by ${due} without deduction.`,
    terms: (days) => (days === 0 ? 'Payment terms: due on receipt.' : `Payment terms: ${days} days net.`),
    note: 'Note',
    page: (p, n) => `Page ${p} of ${n}`,
    status: { draft: 'DRAFT', canceled: 'CANCELED', paid: 'PAID', refunded: 'REFUNDED' },
  },
  de: {
    invoice: 'Rechnung',
    number: 'Rechnungsnummer',
    issueDate: 'Rechnungsdatum',
    dueDate: 'Fällig am',
    supplyDate: 'Leistungsdatum',
    servicePeriod: 'Leistungszeitraum',
    from: 'Von',
    to: 'Rechnung an',
    vatId: 'USt-IdNr.',
    description: 'Beschreibung',
    quantity: 'Menge',
    unit: 'Einheit',
    price: 'Preis',
    vatRate: 'USt.',
    amount: 'Betrag',
    net: 'Nettobetrag',
    vat: 'USt.',
    on: 'auf',
    tax: 'Steuer',
    discount: 'Rabatt',
    total: 'Gesamtbetrag',
    exemption: 'Ohne Umsatzsteuer',
    reverseCharge: 'Steuerschuldnerschaft des Leistungsempfängers',
    payment: 'Zahlungsinformationen',
    iban: 'IBAN',
    payBy: (amount, due) => `Bitte überweisen Sie ${amount} ohne Abzug bis zum ${due}.`,
    terms: (days) => (days === 0 ? 'Zahlungsbedingungen: sofort fällig.' : `Zahlungsbedingungen: ${days} Tage netto.`),
    note: 'Hinweis',
    page: (p, n) => `Seite ${p} von ${n}`,
    status: { draft: 'ENTWURF', canceled: 'STORNIERT', paid: 'BEZAHLT', refunded: 'ERSTATTET' },
  },
  fr: {
    invoice: 'Facture',
    number: 'Numéro de facture',
    issueDate: 'Date de facture',
    dueDate: 'Échéance',
    supplyDate: 'Date de livraison ou de prestation',
    servicePeriod: 'Période de prestation',
    from: 'De',
    to: 'Facturé à',
    vatId: 'N° de TVA',
    description: 'Désignation',
    quantity: 'Qté',
    unit: 'Unité',
    price: 'Prix unitaire HT',
    vatRate: 'TVA',
    amount: 'Montant HT',
    net: 'Total HT',
    vat: 'TVA',
    on: 'sur',
    tax: 'Taxe',
    discount: 'Remise',
    total: 'Total à payer',
    exemption: 'TVA non appliquée',
    reverseCharge: 'Autoliquidation',
    payment: 'Modalités de paiement',
    iban: 'IBAN',
    payBy: (amount, due) => `Merci de régler ${amount} au plus tard le ${due}, sans escompte.`,
    terms: (days) => (days === 0 ? 'Conditions de paiement : à réception.' : `Conditions de paiement : ${days} jours net.`),
    note: 'Remarque',
    page: (p, n) => `Page ${p} sur ${n}`,
    status: { draft: 'BROUILLON', canceled: 'ANNULÉE', paid: 'PAYÉE', refunded: 'REMBOURSÉE' },
  },
};

/** The VAT per rate, computed from the lines as the invoice's totals were (src-shared/domain/invoice-amounts.ts). */
function vatGroups(invoice: Invoice) {
  const t = invoice.template;
  return computeAmounts(
    invoice.lineItems.map((l) => ({ quantity: l.quantity, ...toUnitPrice(l.price, invoice.currency), vatRate: l.vat })),
    { vatRate: t.vatRate, taxRate: t.taxRate, includeVat: t.includeVat, includeTax: false, discountMinor: 0 },
  ).vatGroups;
}

/**
 * How to pay: the amount and the day it is due by, the terms in days, the IBAN (unless the payment details written
 * for the invoice already give it), then those details. Nothing to pay (a credit): only the details.
 */
function paymentBlock(invoice: Invoice, L: InvoiceLabels, amount: string, due: string, iban: string | null): string | null {
  const t = invoice.template;
  const lines: string[] = [];
  if (invoice.amount > 0) lines.push(L.payBy(amount, due), L.terms(t.paymentTermsDays));
  const compact = (v: string) => v.replace(/\s+/g, '').toUpperCase();
  if (iban && !(t.paymentDetails && compact(t.paymentDetails).includes(compact(iban))))
    lines.push(`${L.iban}: ${formatIban(iban)}`);
  if (t.paymentDetails) lines.push(t.paymentDetails);
  return lines.length ? lines.join('\n') : null;
}

/** An IBAN in groups of four, as banks print it. */
function formatIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/(.{4})/g, '$1 ')
    .trim();
}

export function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, from, to } = input;
  const issued = Boolean(input.issuedAt);
  const t = invoice.template;
  const L = labelsFor(LABELS, t.locale);
  const minor = (major: number) => toMinor(major, invoice.currency);
  const money = moneyFormatter(t.locale, invoice.currency);
  const unitPrice = unitPriceFormatter(t.locale, invoice.currency);
  const num = numberFormatter(t.locale);
  const day = (d: string) => formatDay(d, t.dateFormat);
  const title = t.title ?? L.invoice;
  // An invoice waiting for its number from the sync remote (a draft made offline, docs/decisions/0143) prints a dash.
  const number = invoice.invoiceNumber ?? '—';

  const doc = createPdf({
    size: t.size,
    title: `${title} ${number}`,
    subject: `${title} ${number} — ${to.name}`,
    author: from.name,
    // Reproducible: an issued invoice's PDF is dated by its issue, a draft's by its last change.
    createdAt: new Date(input.issuedAt ?? invoice.updatedAt),
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  // Heading: title, number and dates on the right; a stamp on a draft (or one canceled before it was issued). An issued
  // invoice's document carries none: it is what was issued, whatever happened to it since (paid, refunded).
  doc.font(FONT.bold).fontSize(22).text(title, left, doc.page.margins.top);
  const stamp = issued ? undefined : L.status[invoice.status];
  if (stamp) {
    doc
      .font(FONT.bold)
      .fontSize(14)
      .fillColor('#b00020')
      .text(stamp, left, doc.page.margins.top + 4, { width, align: 'right' });
    doc.fillColor('black');
  }
  doc.moveDown(0.6);
  const metaY = doc.y;
  doc.font(FONT.regular).fontSize(10);
  const meta: [string, string][] = [
    [L.number, number],
    [L.issueDate, day(invoice.issueDate)],
    [L.dueDate, day(invoice.dueDate)],
    // The date of supply is the issue date unless the invoice names another day or a service period.
    invoice.supplyEndDate && invoice.supplyDate
      ? [L.servicePeriod, `${day(invoice.supplyDate)} – ${day(invoice.supplyEndDate)}`]
      : [L.supplyDate, day(invoice.supplyDate ?? invoice.issueDate)],
  ];
  meta.forEach(([k, v], i) => {
    doc.font(FONT.regular).text(`${k}:`, left, metaY + i * 14, { width: 190 });
    doc.font(FONT.bold).text(v, left + 190, metaY + i * 14, { width: 200 });
  });

  // Parties.
  const partiesY = metaY + meta.length * 14 + 20;
  const col = width / 2 - 10;
  const party = (label: string, p: PdfParty, x: number) => {
    doc.font(FONT.bold).fontSize(9).fillColor('#555555').text(label.toUpperCase(), x, partiesY, { width: col });
    doc.fillColor('black').font(FONT.bold).fontSize(10).text(p.name, { width: col });
    doc.font(FONT.regular).fontSize(10);
    const lines = p.detailLines ?? [...addressLines(p.address, t.locale), ...(p.email ? [p.email] : [])];
    for (const line of lines) doc.text(line, { width: col });
    // Printed once: a text block that already carries the number (spaces aside) is not repeated.
    const compact = (v: string) => v.replace(/[\s.-]/g, '').toUpperCase();
    if (p.vatNumber && !lines.some((l) => compact(l).includes(compact(p.vatNumber!)))) {
      doc.text(`${L.vatId}: ${p.vatNumber}`, { width: col });
    }
    return doc.y;
  };
  const endFrom = party(L.from, from, left);
  const endTo = party(L.to, to, left + width / 2 + 10);
  doc.y = Math.max(endFrom, endTo) + 20;
  doc.x = left;

  // Line items.
  const showVat = t.includeVat && invoice.lineItems.some((l) => l.vat !== null);
  const columns: TableColumn[] = [
    { header: L.description, width: 40 },
    { header: L.quantity, width: 9, align: 'right' },
    { header: L.unit, width: 10 },
    { header: L.price, width: 15, align: 'right' },
    ...(showVat ? [{ header: L.vatRate, width: 8, align: 'right' as const }] : []),
    { header: L.amount, width: 18, align: 'right' },
  ];
  const rows = invoice.lineItems.map((l) => [
    l.name,
    num(l.quantity),
    l.unit ?? '',
    unitPrice(toUnitPrice(l.price, invoice.currency)),
    ...(showVat ? [`${num(l.vat ?? t.vatRate)} %`] : []),
    money(minor(l.amount)),
  ]);
  drawTable(doc, columns, rows, { fontSize: 9 });

  // Totals, right-aligned: the net amount, then the VAT of each rate on its net amount.
  const totals: [string, string, boolean][] = [[L.net, money(minor(invoice.subtotal)), false]];
  const groups = vatGroups(invoice);
  if (t.includeVat) {
    const label = t.vatLabel ?? L.vat;
    for (const g of groups) totals.push([`${label} ${num(g.rate)} % ${L.on} ${money(g.netMinor)}`, money(g.vatMinor), false]);
  }
  if (t.includeTax) {
    const taxRates = new Set(invoice.lineItems.map((l) => l.taxRate ?? t.taxRate));
    const label = t.taxLabel ?? L.tax;
    totals.push([taxRates.size === 1 ? `${label} ${num([...taxRates][0] ?? 0)} %` : label, money(minor(invoice.tax)), false]);
  }
  if (invoice.discount > 0) totals.push([L.discount, `−${money(minor(invoice.discount))}`, false]);
  totals.push([L.total, money(minor(invoice.amount)), true]);
  const labelX = left + width * 0.4;
  if (doc.y + totals.length * 16 + 20 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  let y = doc.y + 6;
  for (const [label, value, strong] of totals) {
    doc.font(strong ? FONT.bold : FONT.regular).fontSize(strong ? 11 : 10);
    doc.text(label, labelX, y, { width: width * 0.38 });
    doc.text(value, labelX + width * 0.38, y, { width: width * 0.22, align: 'right' });
    y += Math.max(strong ? 18 : 15, doc.heightOfString(label, { width: width * 0.38 }) + 3);
  }
  doc.x = left;
  doc.y = y + 14;

  const block = (label: string, text: string | null) => {
    if (!text) return;
    if (doc.y + 60 > doc.page.height - doc.page.margins.bottom) doc.addPage();
    doc.font(FONT.bold).fontSize(9).fillColor('#555555').text(label.toUpperCase(), left, doc.y, { width });
    doc.fillColor('black').font(FONT.regular).fontSize(10).text(text, { width });
    doc.moveDown(0.8);
  };
  // Where no VAT is charged (a 0 % rate, or none at all), the reason the law asks for (Art. 226 (11)); under reverse
  // charge the words "reverse charge" in the invoice's language when the invoice writes none (Art. 226 (11a)).
  const untaxed = !t.includeVat || groups.some((g) => g.rate === 0);
  const reverseCharge = (t as Record<string, unknown>).vatCategory === 'AE';
  if (untaxed && reverseCharge) block(L.reverseCharge, t.vatExemptionReason ?? reverseChargeNote(t.locale));
  else if (untaxed) block(L.exemption, t.vatExemptionReason);
  block(L.payment, paymentBlock(invoice, L, money(minor(invoice.amount)), day(invoice.dueDate), input.iban ?? null));
  block(L.note, invoice.note);

  numberPages(doc, (p, n) => `${number} · ${L.page(p, n)}`);
  return renderPdf(doc);
}
