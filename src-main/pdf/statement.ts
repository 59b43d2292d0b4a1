import { formatIban } from '../../src-shared/validation/iban';
import type { StatementData } from '../store/bank-accounts/bank-accounts';
import {
  addressLines,
  createPdf,
  drawTable,
  FONT,
  formatDay,
  labelsFor,
  moneyFormatter,
  numberPages,
  type PostalAddress,
  renderPdf,
  type TableColumn,
} from './document';

/**
 * An account statement as a PDF (docs/decisions/0057-account-statement.md): the account holder's name and address,
 * the account and its IBAN, the period, the opening balance, every transaction of the period in booking order with
 * its running balance, money in and out, and the closing balance; the day it was generated, and a note when the
 * period reaches past that day — in the reader's locale and date format, on the shared building blocks of
 * src-main/pdf/document.ts. Reproducible: the same data on the same day gives the same bytes (the document's
 * metadata date is the account's last change, not the clock).
 */

export interface StatementPdfInput {
  data: StatementData;
  /** The account holder: the team, with its postal address. */
  owner: PostalAddress & { name: string };
  /** The day the statement is generated (YYYY-MM-DD, in the team's time zone). */
  today: string;
  locale: string;
  dateFormat: string;
  size?: 'a4' | 'letter';
}

export interface StatementLabels {
  title: string;
  holder: string;
  account: string;
  iban: string;
  generated: string;
  future: (today: string) => string;
  institution: string;
  currency: string;
  period: string;
  opening: string;
  moneyIn: string;
  moneyOut: string;
  closing: string;
  date: string;
  description: string;
  amount: string;
  balance: string;
  none: string;
  count: (n: number) => string;
  status: Record<string, string>;
  page: (p: number, n: number) => string;
}

const LABELS: Record<'en' | 'de' | 'fr', StatementLabels> = {
  en: {
    title: 'Account statement',
    holder: 'Account holder',
    account: 'Account',
    iban: 'IBAN',
    generated: 'Generated on',
    future: (today) => `The period ends after ${today}, the day this statement was generated: later transactions may follow.`,
    institution: 'Institution',
    currency: 'Currency',
    period: 'Period',
    opening: 'Opening balance',
    moneyIn: 'Money in',
    moneyOut: 'Money out',
    closing: 'Closing balance',
    date: 'Date',
    description: 'Description',
    amount: 'Amount',
    balance: 'Balance',
    none: 'No transactions in this period.',
    count: (n: number) => `${n} transaction${n === 1 ? '' : 's'}`,
    status: { pending: 'pending', excluded: 'excluded', archived: 'archived' },
    page: (p: number, n: number) => `Page ${p} of ${n}`,
  },
  de: {
    title: 'Kontoauszug',
    holder: 'Kontoinhaber',
    account: 'Konto',
    iban: 'IBAN',
    generated: 'Erstellt am',
    future: (today) =>
      `Der Zeitraum reicht über den ${today} hinaus, den Tag, an dem dieser Auszug erstellt wurde: spätere Umsätze können folgen.`,
    institution: 'Bank',
    currency: 'Währung',
    period: 'Zeitraum',
    opening: 'Anfangssaldo',
    moneyIn: 'Eingänge',
    moneyOut: 'Ausgänge',
    closing: 'Endsaldo',
    date: 'Datum',
    description: 'Beschreibung',
    amount: 'Betrag',
    balance: 'Saldo',
    none: 'Keine Umsätze in diesem Zeitraum.',
    count: (n: number) => `${n} ${n === 1 ? 'Umsatz' : 'Umsätze'}`,
    status: { pending: 'vorgemerkt', excluded: 'ausgeschlossen', archived: 'archiviert' },
    page: (p: number, n: number) => `Seite ${p} von ${n}`,
  },
  fr: {
    title: 'Relevé de compte',
    holder: 'Titulaire du compte',
    account: 'Compte',
    iban: 'IBAN',
    generated: 'Établi le',
    future: (today) =>
      `La période se termine après le ${today}, jour où ce relevé a été établi : d’autres opérations peuvent suivre.`,
    institution: 'Banque',
    currency: 'Devise',
    period: 'Période',
    opening: 'Solde initial',
    moneyIn: 'Crédits',
    moneyOut: 'Débits',
    closing: 'Solde final',
    date: 'Date',
    description: 'Libellé',
    amount: 'Montant',
    balance: 'Solde',
    none: 'Aucune opération sur cette période.',
    count: (n: number) => `${n} opération${n === 1 ? '' : 's'}`,
    status: { pending: 'en attente', excluded: 'exclue', archived: 'archivée' },
    page: (p: number, n: number) => `Page ${p} sur ${n}`,
  },
};

export function statementLabels(locale: string): StatementLabels {
  return labelsFor(LABELS, locale);
}

export async function renderStatementPdf(input: StatementPdfInput): Promise<Buffer> {
  const { data } = input;
  const { account } = data;
  const t = statementLabels(input.locale);
  const money = moneyFormatter(input.locale, account.currency);
  const day = (d: string) => formatDay(d, input.dateFormat);
  const { owner } = input;
  const doc = createPdf({
    size: input.size ?? 'a4',
    title: `${t.title} ${account.name} ${data.from} – ${data.to}`,
    subject: `${t.title}: ${account.name}`,
    author: owner.name,
    createdAt: new Date(account.updatedAt),
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.font(FONT.bold).fontSize(18).text(t.title, left, doc.page.margins.top);
  doc
    .font(FONT.regular)
    .fontSize(9)
    .fillColor('#444444')
    .text(`${t.generated} ${day(input.today)}`, left, doc.page.margins.top + 6, { width, align: 'right' });
  doc.fillColor('black').moveDown(1.2);

  const facts: [string, string][] = [
    [t.holder, [owner.name, ...addressLines(owner, input.locale)].join('\n')],
    [t.account, account.name],
    ...(data.iban ? [[t.iban, formatIban(data.iban)] as [string, string]] : []),
    [t.institution, account.institution.name],
    [t.currency, account.currency],
    [t.period, `${day(data.from)} – ${day(data.to)}`],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font(FONT.bold).fontSize(10).text(label, left, y, { width: 110 });
    doc.font(FONT.regular).text(value, left + 115, y, { width: width - 115 });
  }
  if (data.to > input.today) {
    doc
      .moveDown(0.4)
      .font(FONT.regular)
      .fontSize(9)
      .fillColor('#b00020')
      .text(t.future(day(input.today)), left, doc.y, { width });
    doc.fillColor('black');
  }
  doc.moveDown(0.8);

  const summary: [string, string][] = [
    [`${t.opening} (${day(data.from)})`, money(data.openingMinor)],
    [t.moneyIn, money(data.inflowMinor)],
    [t.moneyOut, money(-data.outflowMinor)],
    [`${t.closing} (${day(data.to)})`, money(data.closingMinor)],
  ];
  for (const [i, [label, value]] of summary.entries()) {
    const y = doc.y;
    const font = i === 0 || i === summary.length - 1 ? FONT.bold : FONT.regular;
    doc
      .font(font)
      .fontSize(10)
      .text(label, left, y, { width: width - 160 });
    doc.font(font).text(value, left + width - 160, y, { width: 160, align: 'right' });
  }
  doc.moveDown(1);

  if (data.lines.length === 0) {
    doc.font(FONT.regular).fontSize(10).text(t.none, left);
  } else {
    doc.font(FONT.regular).fontSize(9).fillColor('#444444').text(t.count(data.lines.length), left);
    doc.fillColor('black').moveDown(0.4);
    const columns: TableColumn[] = [
      { header: t.date, width: 16 },
      { header: t.description, width: 52 },
      { header: t.amount, width: 16, align: 'right' },
      { header: t.balance, width: 16, align: 'right' },
    ];
    const rows = [
      ['', t.opening, '', money(data.openingMinor)],
      ...data.lines.map((l) => {
        const marker = t.status[l.status];
        const detail = [l.counterpartyName && l.counterpartyName !== l.name ? l.counterpartyName : null, l.description]
          .filter(Boolean)
          .join(' · ');
        const text = `${l.name}${marker ? ` [${marker}]` : ''}${detail ? `\n${detail}` : ''}`;
        return [day(l.date), text, money(l.amountMinor), money(l.balanceMinor)];
      }),
      ['', t.closing, '', money(data.closingMinor)],
    ];
    drawTable(doc, columns, rows);
  }

  numberPages(doc, t.page);
  return renderPdf(doc);
}
