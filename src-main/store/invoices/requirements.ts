import { issueRequirements, type RequirementFailure } from '../../../src-shared/domain/invoice-requirements';
import { vatSituation } from '../../../src-shared/domain/invoice-vat';
import type { Db } from '../db';
import { invoicePartiesOf } from './parties';
import { type InvoiceRow, invoiceTemplate, storedLines } from './read';

/**
 * The checks before an invoice is issued (src-shared/domain/invoice-requirements.ts, docs/decisions/0121) over an
 * invoice as stored: its lines with the rate each charges, its template's VAT treatment and text blocks, and the
 * parties as they would be frozen now.
 */
export function invoiceRequirementFailures(db: Db, teamId: string, r: InvoiceRow): RequirementFailure[] {
  const template = invoiceTemplate(r);
  const { seller, buyer } = invoicePartiesOf(db, teamId, r);
  const extra = template as Record<string, unknown>;
  const text = (key: string) => (typeof extra[key] === 'string' ? (extra[key] as string) : null);
  return issueRequirements({
    invoiceNumber: r.invoice_number || null,
    lines: storedLines(r).map((l) => ({ name: l.name, vatRate: template.includeVat ? (l.vatRate ?? template.vatRate) : 0 })),
    includeVat: template.includeVat,
    vatCategory: text('vatCategory'),
    vatExemptionReason: template.vatExemptionReason,
    paymentDetails: template.paymentDetails,
    fromDetails: template.fromDetails,
    customerDetails: template.customerDetails,
    // A tax number, once the team's record carries one (a field another area adds), counts for the VAT number.
    seller: { ...seller, taxNumber: (seller as { taxNumber?: string | null }).taxNumber ?? null },
    buyer,
    situation: vatSituation(seller, buyer),
  });
}
