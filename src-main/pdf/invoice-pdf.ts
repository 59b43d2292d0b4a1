import type { Invoice } from '../../src-shared/contract/invoices';
import { toMinor } from '../../src-shared/money';
import {
  createPdf,
  drawTable,
  FONT,
  formatDay,
  moneyFormatter,
  numberFormatter,
  numberPages,
  renderPdf,
  type TableColumn,
} from './document';

/**
 * The invoice as a PDF: the team's details, the customer's, the line items, the totals with VAT and tax, the payment
 * details and the note, in the invoice's locale, date format, currency and paper size (docs/decisions/0078).
 */

export interface InvoicePdfParty {
  name: string;
  lines: string[];
}

export interface InvoicePdfInput {
  invoice: Invoice;
  from: InvoicePdfParty;
  to: InvoicePdfParty;
}

/** Labels in the invoice's language: English and German here; other locales print English labels. */
const LABELS = {
  en: {
    invoice: 'Invoice',
    number: 'Invoice number',
    issueDate: 'Issue date',
    dueDate: 'Due date',
    from: 'From',
    to: 'Bill to',
    description: 'Description',
    quantity: 'Qty',
    unit: 'Unit',
    price: 'Price',
    vatRate: 'VAT',
    amount: 'Amount',
    subtotal: 'Subtotal',
    vat: 'VAT',
    tax: 'Tax',
    discount: 'Discount',
    total: 'Total due',
    payment: 'Payment details',
    note: 'Note',
    page: (p: number, n: number) => `Page ${p} of ${n}`,
    status: { draft: 'DRAFT', canceled: 'CANCELED', paid: 'PAID', refunded: 'REFUNDED' } as Record<string, string>,
  },
  de: {
    invoice: 'Rechnung',
    number: 'Rechnungsnummer',
    issueDate: 'Rechnungsdatum',
    dueDate: 'Fällig am',
    from: 'Von',
    to: 'Rechnung an',
    description: 'Beschreibung',
    quantity: 'Menge',
    unit: 'Einheit',
    price: 'Preis',
    vatRate: 'USt.',
    amount: 'Betrag',
    subtotal: 'Zwischensumme',
    vat: 'USt.',
    tax: 'Steuer',
    discount: 'Rabatt',
    total: 'Gesamtbetrag',
    payment: 'Zahlungsinformationen',
    note: 'Hinweis',
    page: (p: number, n: number) => `Seite ${p} von ${n}`,
    status: { draft: 'ENTWURF', canceled: 'STORNIERT', paid: 'BEZAHLT', refunded: 'ERSTATTET' } as Record<string, string>,
  },
};

export function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, from, to } = input;
  const t = invoice.template;
  const L = t.locale.toLowerCase().startsWith('de') ? LABELS.de : LABELS.en;
  const minor = (major: number) => toMinor(major, invoice.currency);
  const money = moneyFormatter(t.locale, invoice.currency);
  const num = numberFormatter(t.locale);
  const day = (d: string) => formatDay(d, t.dateFormat);
  const title = t.title ?? L.invoice;

  const doc = createPdf({
    size: t.size,
    title: `${title} ${invoice.invoiceNumber}`,
    subject: `${title} ${invoice.invoiceNumber} — ${to.name}`,
    author: from.name,
    createdAt: new Date(invoice.updatedAt),
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  // Heading: title, number and dates on the right; a status stamp for anything but an open invoice.
  doc.font(FONT.bold).fontSize(22).text(title, left, doc.page.margins.top);
  const stamp = L.status[invoice.status];
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
    [L.number, invoice.invoiceNumber],
    [L.issueDate, day(invoice.issueDate)],
    [L.dueDate, day(invoice.dueDate)],
  ];
  meta.forEach(([k, v], i) => {
    doc.font(FONT.regular).text(`${k}:`, left, metaY + i * 14, { width: 120 });
    doc.font(FONT.bold).text(v, left + 120, metaY + i * 14, { width: 200 });
  });

  // Parties.
  const partiesY = metaY + meta.length * 14 + 20;
  const col = width / 2 - 10;
  const party = (label: string, p: InvoicePdfParty, x: number) => {
    doc.font(FONT.bold).fontSize(9).fillColor('#555555').text(label.toUpperCase(), x, partiesY, { width: col });
    doc.fillColor('black').font(FONT.bold).fontSize(10).text(p.name, { width: col });
    doc.font(FONT.regular).fontSize(10);
    for (const line of p.lines) doc.text(line, { width: col });
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
    money(minor(l.price)),
    ...(showVat ? [`${num(l.vat ?? t.vatRate)} %`] : []),
    money(minor(l.amount)),
  ]);
  drawTable(doc, columns, rows, { fontSize: 9 });

  // Totals, right-aligned.
  const totals: [string, string, boolean][] = [[L.subtotal, money(minor(invoice.subtotal)), false]];
  const rates = new Set(invoice.lineItems.map((l) => l.vat ?? t.vatRate));
  if (t.includeVat) {
    const label = t.vatLabel ?? L.vat;
    totals.push([rates.size === 1 ? `${label} ${num([...rates][0] ?? 0)} %` : label, money(minor(invoice.vat)), false]);
  }
  if (t.includeTax) {
    const taxRates = new Set(invoice.lineItems.map((l) => l.taxRate ?? t.taxRate));
    const label = t.taxLabel ?? L.tax;
    totals.push([taxRates.size === 1 ? `${label} ${num([...taxRates][0] ?? 0)} %` : label, money(minor(invoice.tax)), false]);
  }
  if (invoice.discount > 0) totals.push([L.discount, `−${money(minor(invoice.discount))}`, false]);
  totals.push([L.total, money(minor(invoice.amount)), true]);
  const labelX = left + width * 0.5;
  if (doc.y + totals.length * 16 + 20 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  let y = doc.y + 6;
  for (const [label, value, strong] of totals) {
    doc.font(strong ? FONT.bold : FONT.regular).fontSize(strong ? 11 : 10);
    doc.text(label, labelX, y, { width: width * 0.25 });
    doc.text(value, labelX + width * 0.25, y, { width: width * 0.25, align: 'right' });
    y += strong ? 18 : 15;
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
  block(L.payment, t.paymentDetails);
  block(L.note, invoice.note);

  numberPages(doc, (p, n) => `${invoice.invoiceNumber} · ${L.page(p, n)}`);
  return renderPdf(doc);
}
