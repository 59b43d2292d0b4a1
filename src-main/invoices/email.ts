import type { Invoice } from '../../src-shared/contract/invoices';
import { isPastDue } from '../../src-shared/domain/invoice-dates';
import { toMinor } from '../../src-shared/money';
import { formatDay, moneyFormatter } from '../pdf/document';

/** The text of an invoice email and of a payment reminder (the PDF goes along as an attachment). */
export interface EmailContent {
  subject: string;
  text: string;
}

export function invoiceEmail(invoice: Invoice, kind: 'invoice' | 'reminder', teamName: string, now = new Date()): EmailContent {
  const t = invoice.template;
  const amount = moneyFormatter(t.locale, invoice.currency)(toMinor(invoice.amount, invoice.currency));
  const due = formatDay(invoice.dueDate, t.dateFormat);
  const greeting = invoice.customerName ? `Hello ${invoice.customerName},` : 'Hello,';
  const payment = t.paymentDetails ? `\n\nPayment details:\n${t.paymentDetails}` : '';
  const signature = `\n\nKind regards\n${teamName}`;
  if (kind === 'reminder') {
    const overdue = invoice.status === 'overdue' || isPastDue(invoice.dueDate, invoice.timezone, now);
    return {
      subject: overdue
        ? `Reminder: invoice ${invoice.invoiceNumber} is overdue`
        : `Reminder: invoice ${invoice.invoiceNumber} is due on ${due}`,
      text: `${greeting}\n\nthis is a friendly reminder that invoice ${invoice.invoiceNumber} of ${amount} ${
        overdue ? `was due on ${due} and is still open` : `is due on ${due}`
      }. The invoice is attached again for your convenience. If you have already paid, please disregard this message.${payment}${signature}`,
    };
  }
  return {
    subject: `Invoice ${invoice.invoiceNumber} from ${teamName}`,
    text: `${greeting}\n\nplease find attached invoice ${invoice.invoiceNumber} of ${amount}, due on ${due}.${payment}${signature}`,
  };
}
