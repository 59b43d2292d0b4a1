import type { FastifyInstance } from 'fastify';
import { appTransactionRoutes, type ReviewRow } from '../../../src-shared/contract/app-transactions';
import type { Transaction } from '../../../src-shared/contract/transactions';
import type { Db } from '../../store/db';
import { listTransactionDetails } from '../../store/transactions/list';
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

export async function appTransactionRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  registerRoute(app, appTransactionRoutes.list, ({ auth, query }) => {
    const page = listTransactionDetails(opts.db, auth.teamId, query);
    return { data: page.data.map(reviewRow), meta: page.meta };
  });
}
