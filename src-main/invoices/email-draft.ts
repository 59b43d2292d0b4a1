import type { EmailDraft } from '../../src-shared/contract/invoices';
import { toMajor } from '../../src-shared/money';
import type { Db } from '../store/db';
import { customerEmail, getInvoice, requireInvoiceRow } from '../store/invoices/read';
import { reminderTerms } from '../store/invoices/send';
import { findTeamById } from '../store/teams/teams';
import { invoiceEmail } from './email';

/**
 * What the send dialog starts from (GET /v1/invoices/{id}/email): the subject and text the e-mail goes with unless
 * the person writes others, in the invoice's language; for a reminder, the dunning level and fee it would state.
 */
export function emailDraft(db: Db, teamId: string, invoiceId: string, kind: 'invoice' | 'reminder'): EmailDraft {
  const row = requireInvoiceRow(db, teamId, invoiceId);
  const invoice = getInvoice(db, teamId, invoiceId);
  const terms = kind === 'reminder' ? reminderTerms(db, teamId, row) : { level: null, feeMinor: 0 };
  const content = invoiceEmail(invoice, kind, findTeamById(db, teamId)?.name ?? 'Finops Desk', new Date(), {
    reminder: terms,
  });
  return {
    kind,
    to: customerEmail(db, teamId, row.customer_id),
    subject: content.subject,
    message: content.text,
    locale: invoice.template.locale,
    reminderLevel: terms.level,
    fee: toMajor(terms.feeMinor, invoice.currency),
  };
}
