import type { StatementData } from '../store/bank-accounts/bank-accounts';
import { createPdf, drawTable, FONT, formatDay, moneyFormatter, numberPages, renderPdf, type TableColumn } from './document';

/**
 * An account statement as a PDF (docs/decisions/0057-account-statement.md): the account, the period, the opening
 * balance, every transaction of the period in booking order with its running balance, money in and out, and the
 * closing balance — in the reader's locale and date format, on the shared building blocks of src-main/pdf/document.ts.
 * Reproducible: the same data gives the same bytes (the document date is the account's last change, not the clock).
 */

export interface StatementPdfInput {
  data: StatementData;
  teamName: string;
  locale: string;
  dateFormat: string;
  size?: 'a4' | 'letter';
}

export interface StatementLabels {
  title: string;
  account: string;
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

const LABELS: Record<'en' | 'de', StatementLabels> = {
  en: {
    title: 'Account statement',
    account: 'Account',
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
    account: 'Konto',
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
    count: (n: number) => `${n} Umsatz${n === 1 ? '' : 'e'}`,
    status: { pending: 'vorgemerkt', excluded: 'ausgeschlossen', archived: 'archiviert' },
    page: (p: number, n: number) => `Seite ${p} von ${n}`,
  },
};

export function statementLabels(locale: string): StatementLabels {
  return locale.toLowerCase().startsWith('de') ? LABELS.de : LABELS.en;
}

export async function renderStatementPdf(input: StatementPdfInput): Promise<Buffer> {
  const { data } = input;
  const { account } = data;
  const t = statementLabels(input.locale);
  const money = moneyFormatter(input.locale, account.currency);
  const day = (d: string) => formatDay(d, input.dateFormat);
  const doc = createPdf({
    size: input.size ?? 'a4',
    title: `${t.title} ${account.name} ${data.from} – ${data.to}`,
    subject: `${t.title}: ${account.name}`,
    author: input.teamName,
    createdAt: new Date(account.updatedAt),
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.font(FONT.bold).fontSize(18).text(t.title, left, doc.page.margins.top);
  doc.font(FONT.regular).fontSize(10).fillColor('#444444').text(input.teamName);
  doc.moveDown(0.8).fillColor('black');

  const facts: [string, string][] = [
    [t.account, account.name],
    [t.institution, account.institution.name],
    [t.currency, account.currency],
    [t.period, `${day(data.from)} – ${day(data.to)}`],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font(FONT.bold).fontSize(10).text(label, left, y, { width: 110 });
    doc.font(FONT.regular).text(value, left + 115, y, { width: width - 115 });
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
