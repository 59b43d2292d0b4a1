import type { Invoice } from '../../src-shared/contract/invoices';
import { isPastDue } from '../../src-shared/domain/invoice-dates';
import { toMinor } from '../../src-shared/money';
import { formatDay, labelsFor, moneyFormatter } from '../pdf/document';

/**
 * The text of an invoice email and of a payment reminder (the PDF goes along as an attachment), in the invoice's
 * language (its template's locale: the customer's, docs/decisions/0120) — English, German or French, other
 * languages English. What the person wrote in the send dialog replaces the default subject or text
 * (`overrides`). A reminder of a dunning level states the level, what is still open and the level's fee
 * (docs/decisions/0122).
 */
export interface EmailContent {
  subject: string;
  text: string;
}

export interface ReminderFacts {
  /** 1 for the first reminder of the team's levels; null: a reminder outside the levels. */
  level: number | null;
  feeMinor: number;
}

interface Words {
  hello: (name: string | null) => string;
  regards: string;
  paymentDetails: string;
  invoiceSubject: (n: string, team: string) => string;
  invoiceText: (n: string, amount: string, due: string) => string;
  reminderSubject: (n: string, due: string, overdue: boolean, level: number | null) => string;
  reminderText: (n: string, amount: string, due: string, overdue: boolean) => string;
  open: (amount: string) => string;
  fee: (fee: string, total: string) => string;
}

const WORDS: { en: Words; de: Words; fr: Words } = {
  en: {
    hello: (name) => (name ? `Hello ${name},` : 'Hello,'),
    regards: 'Kind regards',
    paymentDetails: 'Payment details:',
    invoiceSubject: (n, team) => `Invoice ${n} from ${team}`,
    invoiceText: (n, amount, due) => `please find attached invoice ${n} of ${amount}, due on ${due}.`,
    reminderSubject: (n, due, overdue, level) =>
      level && level > 1
        ? `Reminder ${level}: invoice ${n} is overdue`
        : overdue
          ? `Reminder: invoice ${n} is overdue`
          : `Reminder: invoice ${n} is due on ${due}`,
    reminderText: (n, amount, due, overdue) =>
      `this is a friendly reminder that invoice ${n} of ${amount} ${
        overdue ? `was due on ${due} and is still open` : `is due on ${due}`
      }. The invoice is attached again for your convenience. If you have already paid, please disregard this message.`,
    open: (amount) => `Still open: ${amount}.`,
    fee: (fee, total) => `We charge a reminder fee of ${fee}; please pay ${total} in total.`,
  },
  de: {
    hello: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
    regards: 'Mit freundlichen Grüßen',
    paymentDetails: 'Zahlungsinformationen:',
    invoiceSubject: (n, team) => `Rechnung ${n} von ${team}`,
    invoiceText: (n, amount, due) => `anbei erhalten Sie die Rechnung ${n} über ${amount}, fällig am ${due}.`,
    reminderSubject: (n, due, overdue, level) =>
      level && level > 1
        ? `${level}. Mahnung: Rechnung ${n} ist überfällig`
        : overdue
          ? `Zahlungserinnerung: Rechnung ${n} ist überfällig`
          : `Zahlungserinnerung: Rechnung ${n} ist am ${due} fällig`,
    reminderText: (n, amount, due, overdue) =>
      `wir möchten Sie freundlich daran erinnern, dass die Rechnung ${n} über ${amount} ${
        overdue ? `am ${due} fällig war und noch offen ist` : `am ${due} fällig ist`
      }. Die Rechnung liegt noch einmal bei. Falls Sie bereits gezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.`,
    open: (amount) => `Noch offen: ${amount}.`,
    fee: (fee, total) => `Wir berechnen eine Mahngebühr von ${fee}; bitte überweisen Sie insgesamt ${total}.`,
  },
  fr: {
    hello: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    regards: 'Cordialement',
    paymentDetails: 'Modalités de paiement :',
    invoiceSubject: (n, team) => `Facture ${n} de ${team}`,
    invoiceText: (n, amount, due) => `veuillez trouver ci-joint la facture ${n} d’un montant de ${amount}, à régler le ${due}.`,
    reminderSubject: (n, due, overdue, level) =>
      level && level > 1
        ? `Relance ${level} : la facture ${n} est échue`
        : overdue
          ? `Rappel : la facture ${n} est échue`
          : `Rappel : la facture ${n} est à régler le ${due}`,
    reminderText: (n, amount, due, overdue) =>
      `nous vous rappelons que la facture ${n} d’un montant de ${amount} ${
        overdue ? `était à régler le ${due} et reste impayée` : `est à régler le ${due}`
      }. Vous la trouverez de nouveau ci-jointe. Si vous avez déjà payé, merci de ne pas tenir compte de ce message.`,
    open: (amount) => `Reste à payer : ${amount}.`,
    fee: (fee, total) => `Des frais de relance de ${fee} s’appliquent ; merci de régler ${total} au total.`,
  },
};

export function invoiceEmail(
  invoice: Invoice,
  kind: 'invoice' | 'reminder',
  teamName: string,
  now = new Date(),
  options: { overrides?: { subject: string | null; message: string | null }; reminder?: ReminderFacts } = {},
): EmailContent {
  const content = defaultEmail(invoice, kind, teamName, now, options.reminder);
  return {
    subject: options.overrides?.subject?.trim() || content.subject,
    text: options.overrides?.message?.trim() || content.text,
  };
}

function defaultEmail(
  invoice: Invoice,
  kind: 'invoice' | 'reminder',
  teamName: string,
  now: Date,
  reminder: ReminderFacts | undefined,
): EmailContent {
  const t = invoice.template;
  const w = labelsFor(WORDS, t.locale);
  const money = moneyFormatter(t.locale, invoice.currency);
  const amount = money(toMinor(invoice.amount, invoice.currency));
  const due = formatDay(invoice.dueDate, t.dateFormat);
  const number = invoice.invoiceNumber ?? '';
  const payment = t.paymentDetails ? `\n\n${w.paymentDetails}\n${t.paymentDetails}` : '';
  const signature = `\n\n${w.regards}\n${teamName}`;
  if (kind === 'reminder') {
    const overdue = invoice.status === 'overdue' || isPastDue(invoice.dueDate, invoice.timezone, now);
    const level = reminder?.level ?? null;
    const openMinor = toMinor(invoice.amountDue, invoice.currency);
    const feeMinor = reminder?.feeMinor ?? 0;
    // A part already paid, or a fee, is said in numbers: what is open, and the total with the fee.
    const open = openMinor !== toMinor(invoice.amount, invoice.currency) ? ` ${w.open(money(openMinor))}` : '';
    const fee = feeMinor > 0 ? ` ${w.fee(money(feeMinor), money(openMinor + feeMinor))}` : '';
    return {
      subject: w.reminderSubject(number, due, overdue, level),
      text: `${w.hello(invoice.customerName)}\n\n${w.reminderText(number, amount, due, overdue)}${open}${fee}${payment}${signature}`,
    };
  }
  return {
    subject: w.invoiceSubject(number, teamName),
    text: `${w.hello(invoice.customerName)}\n\n${w.invoiceText(number, amount, due)}${payment}${signature}`,
  };
}
