import type { FastifyInstance } from 'fastify';
import { appTransactionRoutes, type ReviewRow } from '../../../src-shared/contract/app-transactions';
import type { Transaction } from '../../../src-shared/contract/transactions';
import { csvLine } from '../../../src-shared/domain/csv';
import { toMajor } from '../../../src-shared/money';
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

const EXPORT_HEADER = [
  'date',
  'name',
  'counterparty',
  'description',
  'amount',
  'currency',
  'account',
  'category',
  'tags',
  'status',
  'review_state',
  'note',
  'id',
];

function exportLine(t: Transaction): string {
  return csvLine([
    t.date.slice(0, 10),
    t.name,
    t.counterpartyName,
    t.description,
    t.amount,
    t.currency,
    t.account.name,
    t.category?.name ?? null,
    (t.tags ?? []).map((tag) => tag.name ?? tag.id).join('; '),
    t.status,
    t.reviewState,
    t.note,
    t.id,
  ]);
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
    const total = transactionTotals(db, auth.teamId, query).reduce((n, c) => n + c.count, 0);
    if (total > MAX_EXPORT_ROWS) {
      throw unprocessable(
        `The filters select ${total} transactions; an export holds at most ${MAX_EXPORT_ROWS}`,
        'Narrow the filters (a shorter period, an account) and export in parts.',
      );
    }
    // A byte order mark, so that spreadsheet programs read the file as UTF-8.
    let csv = `\uFEFF${csvLine(EXPORT_HEADER)}`;
    let cursor: string | undefined;
    do {
      const page = listTransactionDetails(db, auth.teamId, { ...query, pageSize: 1000, cursor });
      for (const t of page.data) csv += exportLine(t);
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
