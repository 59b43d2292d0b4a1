import type { FastifyInstance } from 'fastify';
import { appTransactionRoutes, type ReviewRow } from '../../../src-shared/contract/app-transactions';
import type { Transaction } from '../../../src-shared/contract/transactions';
import { CSV_COMMA, CSV_POINT, type CsvDialect, csvAmount, csvLine } from '../../../src-shared/domain/csv';
import { toMajor, toMinor } from '../../../src-shared/money';
import type { Db } from '../../store/db';
import { listTransactionDetails } from '../../store/transactions/list';
import { transactionTotals } from '../../store/transactions/review';
import { contentDisposition } from '../content-disposition';
import { unprocessable } from '../errors';
import { registerRoute } from '../route';

/** `GET /app/transactions`: the review screen's rows (contract/app-transactions.ts), from the detailed records. */
export function reviewRow(t: Transaction): ReviewRow {
  return {
    id: t.id,
    date: t.date.slice(0, 10),
    name: t.name,
    description: t.description,
    counterpartyName: t.counterpartyName,
    amount: t.amount,
    currency: t.currency,
    status: t.status,
    reviewState: t.reviewState,
    reviewed: t.reviewedAt !== null,
    category: t.category ? { slug: t.category.slug, name: t.category.name, color: t.category.color } : null,
    tags: t.tags ?? [],
    accountId: t.bankAccountId,
    accountName: t.account.name,
    attachments: t.attachments?.length ?? 0,
    note: t.note,
    splits: t.splits.length,
    manual: t.manual === true,
    internal: t.internal === true,
    reconciled: t.reconciledAt !== null,
  };
}

/** The most lines an export writes: beyond it the filters must narrow the set (an answer, not a stalled server). */
export const MAX_EXPORT_ROWS = 100_000;

const EXPORT_COLUMNS = [
  'date',
  'name',
  'counterparty',
  'description',
  'amount',
  'currency',
  'tax_rate',
  'tax_amount',
  'account',
  'category',
  'tags',
  'status',
  'review_state',
  'note',
  'id',
] as const;

/** Column names for people, in the languages the app speaks; the machine names stay the default. */
const EXPORT_LABELS: Record<'en' | 'de' | 'fr', Record<(typeof EXPORT_COLUMNS)[number], string>> = {
  en: {
    date: 'Date',
    name: 'Name',
    counterparty: 'Counterparty',
    description: 'Description',
    amount: 'Amount',
    currency: 'Currency',
    tax_rate: 'VAT rate %',
    tax_amount: 'VAT amount',
    account: 'Account',
    category: 'Category',
    tags: 'Tags',
    status: 'Status',
    review_state: 'Review state',
    note: 'Note',
    id: 'ID',
  },
  de: {
    date: 'Datum',
    name: 'Name',
    counterparty: 'Gegenpartei',
    description: 'Beschreibung',
    amount: 'Betrag',
    currency: 'Währung',
    tax_rate: 'USt-Satz %',
    tax_amount: 'USt-Betrag',
    account: 'Konto',
    category: 'Kategorie',
    tags: 'Tags',
    status: 'Status',
    review_state: 'Prüfstatus',
    note: 'Notiz',
    id: 'ID',
  },
  fr: {
    date: 'Date',
    name: 'Nom',
    counterparty: 'Contrepartie',
    description: 'Description',
    amount: 'Montant',
    currency: 'Devise',
    tax_rate: 'Taux de TVA %',
    tax_amount: 'Montant de TVA',
    account: 'Compte',
    category: 'Catégorie',
    tags: 'Étiquettes',
    status: 'Statut',
    review_state: 'État de revue',
    note: 'Note',
    id: 'ID',
  },
};

function exportLine(t: Transaction, dialect: CsvDialect): string {
  return csvLine(
    [
      t.date.slice(0, 10),
      t.name,
      t.counterpartyName,
      t.description,
      csvAmount(toMinor(t.amount, t.currency), t.currency),
      t.currency,
      t.taxRate,
      t.taxAmount === null ? null : csvAmount(toMinor(t.taxAmount, t.currency), t.currency),
      t.account.name,
      t.category?.name ?? null,
      (t.tags ?? []).map((tag) => tag.name ?? tag.id).join('; '),
      t.status,
      t.reviewState,
      t.note,
      t.id,
    ],
    dialect,
  );
}

export async function appTransactionRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, appTransactionRoutes.list, ({ auth, query }) => {
    const page = listTransactionDetails(db, auth.teamId, query);
    return { data: page.data.map(reviewRow), meta: page.meta };
  });
  registerRoute(app, appTransactionRoutes.totals, ({ auth, query }) => ({
    data: transactionTotals(db, auth.teamId, query).map((c) => {
      const moneyIn = toMajor(c.inMinor, c.currency);
      const moneyOut = toMajor(c.outMinor, c.currency);
      return { currency: c.currency, count: c.count, moneyIn, moneyOut, net: toMajor(c.inMinor + c.outMinor, c.currency) };
    }),
  }));
  registerRoute(app, appTransactionRoutes.export, ({ auth, query, reply }) => {
    const { decimal, lang, ...filters } = query;
    const total = transactionTotals(db, auth.teamId, filters).reduce((n, c) => n + c.count, 0);
    if (total > MAX_EXPORT_ROWS) {
      throw unprocessable(
        `The filters select ${total} transactions; an export holds at most ${MAX_EXPORT_ROWS}`,
        'Narrow the filters (a shorter period, an account) and export in parts.',
      );
    }
    const dialect = decimal === 'comma' ? CSV_COMMA : CSV_POINT;
    const header = EXPORT_COLUMNS.map((c) => (lang ? EXPORT_LABELS[lang][c] : c));
    // A byte order mark, so that spreadsheet programs read the file as UTF-8.
    let csv = `\uFEFF${csvLine(header, dialect)}`;
    let cursor: string | undefined;
    do {
      const page = listTransactionDetails(db, auth.teamId, { ...filters, pageSize: 1000, cursor });
      for (const t of page.data) csv += exportLine(t, dialect);
      cursor = page.meta.hasNextPage ? (page.meta.cursor ?? undefined) : undefined;
    } while (cursor);
    reply
      .type('text/csv; charset=utf-8')
      .header(
        'Content-Disposition',
        contentDisposition('attachment', `transactions-${new Date().toISOString().slice(0, 10)}.csv`),
      );
    return csv;
  });
}
