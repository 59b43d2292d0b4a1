import type { Invoice, InvoiceTemplate } from '../../src-shared/contract/invoices';
import { type InvoiceSource, mapInvoice } from '../../src-shared/domain/einvoice/from-invoice';
import {
  type EInvoiceFormat,
  FORMAT_INFO,
  ISSUED_VAT_CATEGORIES,
  type IssuedVatCategory,
} from '../../src-shared/domain/einvoice/model';
import { checkEInvoice, type RuleFailure } from '../../src-shared/domain/einvoice/rules';
import { toUnitPrice } from '../../src-shared/domain/unit-price';
import { toMinor } from '../../src-shared/money';
import { validateCii } from '../einvoice/schema';
import { writeEInvoice } from '../einvoice/write';
import type { Db } from '../store/db';
import { eInvoiceSources, vatInBaseCurrency } from '../store/invoices/einvoice-sources';
import { getInvoiceRow } from '../store/invoices/read';
import { keptDocument } from './issued-files';
import { invoicePdf, pdfFileName } from './pdf-files';

/**
 * An invoice's e-invoice, checked before anyone gets it (docs/decisions/0160-e-invoices.md): mapped to EN 16931,
 * checked against the rules of its format, written, and (CII) checked against the schema. Any failure is an
 * EInvoiceRejected listing every rule and field; nothing is produced then.
 */

export class EInvoiceRejected extends Error {
  override name = 'EInvoiceRejected';
  constructor(readonly failures: readonly RuleFailure[]) {
    super(`The e-invoice fails ${failures.length} rule${failures.length === 1 ? '' : 's'} of its format`);
  }
}

/**
 * A request that cannot be met as asked: no format chosen, a credit note of an invoice not refunded, an invoice
 * still waiting for its number from the sync remote.
 */
export class EInvoiceUnavailable extends Error {
  override name = 'EInvoiceUnavailable';
}

export interface IssuedEInvoice {
  format: EInvoiceFormat;
  bytes: Buffer;
  mimeType: 'application/xml' | 'application/pdf';
  fileName: string;
}

const templateText = (t: InvoiceTemplate, key: string): string | null => {
  const v = (t as Record<string, unknown>)[key];
  return typeof v === 'string' && v.trim() ? v.trim() : null;
};

function sourceOf(invoice: Invoice, invoiceNumber: string): InvoiceSource {
  const cur = invoice.currency;
  const t = invoice.template;
  const category = templateText(t, 'vatCategory');
  return {
    invoiceNumber,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    supplyDate: invoice.supplyDate,
    supplyEndDate: invoice.supplyEndDate,
    currency: cur,
    note: invoice.note,
    lines: invoice.lineItems.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      unit: l.unit,
      ...toUnitPrice(l.price, cur),
      vatRate: l.vat,
    })),
    vatRate: t.vatRate,
    taxRate: t.taxRate,
    includeVat: t.includeVat,
    includeTax: t.includeTax,
    discountMinor: toMinor(invoice.discount, cur),
    subtotalMinor: toMinor(invoice.subtotal, cur),
    vatMinor: toMinor(invoice.vat, cur),
    taxMinor: toMinor(invoice.tax, cur),
    amountMinor: toMinor(invoice.amount, cur),
    vatCategory: (ISSUED_VAT_CATEGORIES as readonly string[]).includes(category ?? '') ? (category as IssuedVatCategory) : null,
    vatExemptionReason: t.vatExemptionReason,
    vatExemptionReasonCode: templateText(t, 'vatExemptionReasonCode'),
    buyerReference: templateText(t, 'buyerReference'),
  };
}

export interface IssueOptions {
  /** Default: the customer's format, else the team's. */
  format?: EInvoiceFormat;
  /** The credit note of a refunded invoice instead of the invoice. */
  creditNote?: boolean;
}

/** The checks alone: the format that would be used and every failure (empty: it can be issued). */
export function checkInvoiceEInvoice(db: Db, teamId: string, invoiceId: string, options: IssueOptions = {}) {
  const s = eInvoiceSources(db, teamId, invoiceId);
  const format = options.format ?? s.format;
  if (!format) {
    throw new EInvoiceUnavailable('No e-invoice format is chosen: set one on the customer or as the team default, or name one');
  }
  const inv = s.invoice;
  // A replica's new invoice is numbered by its sync remote (docs/decisions/0143): its e-invoice is made, and checked
  // before sending, where the number is given.
  const number = inv.invoiceNumber;
  if (number === null) {
    throw new EInvoiceUnavailable('This invoice has no number yet: the sync remote gives it one at the next sync');
  }
  if (options.creditNote && inv.status !== 'refunded') {
    throw new EInvoiceUnavailable(`A credit note is issued for a refunded invoice; this one is ${inv.status}`);
  }
  const vatMinor = toMinor(inv.vat, inv.currency);
  const vatAccounting =
    inv.currency === s.baseCurrency
      ? null
      : { currency: s.baseCurrency, vatMinor: vatInBaseCurrency(db, vatMinor, inv.currency, s.baseCurrency, inv.issueDate) };
  const creditDay = (inv.refundedAt ?? inv.updatedAt).slice(0, 10);
  const { invoice, issues } = mapInvoice(sourceOf(inv, number), s.seller, s.buyer, {
    vatAccounting,
    ...(options.creditNote ? { creditNote: { issueDate: creditDay } } : {}),
  });
  const failures = [...issues, ...checkEInvoice(invoice, FORMAT_INFO[format].cius)];
  return { format, einvoice: invoice, failures, locale: inv.template.locale };
}

export async function issueEInvoice(
  db: Db,
  dataDir: string | undefined,
  teamId: string,
  invoiceId: string,
  options: IssueOptions = {},
): Promise<IssuedEInvoice> {
  const { format, einvoice, failures, locale } = checkInvoiceEInvoice(db, teamId, invoiceId, options);
  const info = FORMAT_INFO[format];
  const base = pdfFileName(einvoice.number).replace(/\.pdf$/, '');
  const fileName = info.container === 'pdf' ? `${base}.pdf` : `${base}-${format}.xml`;
  const mimeType = info.container === 'pdf' ? 'application/pdf' : 'application/xml';
  const produce = async () => {
    if (failures.length) throw new EInvoiceRejected(failures);
    // A hybrid's visible page is the invoice's PDF — for an issued invoice the one kept since its issue — and its XML
    // is written from the same frozen parties: both parts say the same (0119).
    const pdf = info.container === 'pdf' ? (await invoicePdf(db, dataDir, teamId, invoiceId)).bytes : undefined;
    const written = await writeEInvoice(einvoice, format, { lang: locale || 'en', pdf });
    if (info.syntax === 'CII') {
      const errors = await validateCii(written.xml);
      if (errors.length) {
        throw new EInvoiceRejected(errors.map((e) => ({ rule: 'XSD', field: e.path || `line ${e.line}`, message: e.message })));
      }
    }
    return written.bytes;
  };
  // An issued invoice's e-invoice is kept as first produced: the same file every time it is asked for.
  const issued = Boolean(getInvoiceRow(db, teamId, invoiceId)?.issued_parties);
  const kind = options.creditNote ? `credit-note:${format}` : format;
  const extension = info.container === 'pdf' ? 'pdf' : 'xml';
  const bytes = issued ? await keptDocument(db, dataDir, teamId, invoiceId, kind, extension, produce) : await produce();
  return { format, bytes, mimeType, fileName };
}

/** Refuses (EInvoiceRejected) to send an invoice whose chosen e-invoice fails its rules; no format chosen: nothing. */
export function assertEInvoiceIssuable(db: Db, teamId: string, invoiceId: string): void {
  let failures: RuleFailure[];
  try {
    failures = checkInvoiceEInvoice(db, teamId, invoiceId).failures;
  } catch (err) {
    if (err instanceof EInvoiceUnavailable) return;
    throw err;
  }
  if (failures.length) throw new EInvoiceRejected(failures);
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/**
 * What the invoice email carries: the PDF; with an e-invoice format chosen, the hybrid PDF in its place (it is the
 * invoice, readable and structured at once) or the XML beside it.
 */
export async function invoiceMailAttachments(
  db: Db,
  dataDir: string | undefined,
  teamId: string,
  invoiceId: string,
  pdf: { fileName: string; bytes: Buffer },
): Promise<MailAttachment[]> {
  const plain = { filename: pdf.fileName, content: pdf.bytes, contentType: 'application/pdf' };
  if (!eInvoiceSources(db, teamId, invoiceId).format) return [plain];
  const doc = await issueEInvoice(db, dataDir, teamId, invoiceId);
  const e = { filename: doc.fileName, content: doc.bytes, contentType: doc.mimeType };
  return doc.mimeType === 'application/pdf' ? [e] : [plain, e];
}
