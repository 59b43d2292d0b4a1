import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type SplitInput,
  type TransactionCreate,
  type TransactionPatch,
  transactionRoutes,
} from '../../../src-shared/contract/transactions';
import { dayOf, needsTimeZone } from '../../../src-shared/domain/day-input';
import { applyRules } from '../../rules/apply';
import type { Db } from '../../store/db';
import { InvalidReference } from '../../store/errors';
import { minorOf } from '../../store/money-input';
import { createTransactions, type NewTransaction } from '../../store/transactions/create';
import { deleteTransactions } from '../../store/transactions/delete';
import { listTransactions } from '../../store/transactions/list';
import { getTransaction, getTransactions } from '../../store/transactions/read';
import { reviewCounts } from '../../store/transactions/review';
import type { NewSplit } from '../../store/transactions/splits';
import { type TransactionChange, updateTransaction, updateTransactions } from '../../store/transactions/update';
import { teamTimeZone } from '../../store/users/users';
import { write } from '../../store/write';
import { isReplicaPush } from '../replica';
import { registerRoute } from '../route';

/** How a replica's push is written: provenance `sync`, which local rules leave alone. */
const REPLICA_SOURCE = { source: 'sync' } as const;

function splitsOf(splits: readonly SplitInput[] | null | undefined, currency: string): NewSplit[] | null | undefined {
  if (splits === undefined || splits === null) return splits;
  return splits.map((p, i) => ({
    amountMinor: minorOf(p.amount, currency, `splits.${i}.amount`),
    categorySlug: p.categorySlug,
    taxRate: p.taxRate,
    taxType: p.taxType,
    note: p.note,
  }));
}

function newTransaction(body: TransactionCreate, day: DayOf): NewTransaction {
  return {
    bankAccountId: body.bankAccountId,
    name: body.name,
    amountMinor: minorOf(body.amount, body.currency, 'amount'),
    currency: body.currency,
    date: day(body.date),
    manual: body.manual ?? true,
    status: body.status,
    description: body.description,
    counterpartyName: body.counterpartyName,
    method: body.method,
    categorySlug: body.categorySlug,
    note: body.note,
    internal: body.internal,
    assignedId: body.assignedId,
    tagIds: body.tags?.map((t) => t.id),
    splits: splitsOf(body.splits, body.currency),
    id: body.id,
  };
}

function changeOf(db: Db, teamId: string, id: string, body: TransactionPatch): TransactionChange {
  const needsCurrency = body.amount !== undefined || body.splits;
  const currency = needsCurrency ? getTransaction(db, teamId, id).currency : 'EUR';
  return {
    categorySlug: body.categorySlug,
    tagIds: body.tags?.map((t) => t.id),
    note: body.note,
    status: body.status,
    internal: body.internal,
    recurring: body.recurring,
    frequency: body.frequency,
    taxRate: body.taxRate,
    taxType: body.taxType,
    assignedId: body.assignedId,
    fulfilled: body.fulfilled,
    reviewed: body.reviewed,
    splits: splitsOf(body.splits, currency),
    name: body.name,
    amountMinor: body.amount === undefined ? undefined : minorOf(body.amount, currency, 'amount'),
    date: body.date,
    description: body.description,
    counterpartyName: body.counterpartyName,
  };
}

/** Turns a date input into the stored day (src-shared/domain/day-input.ts). */
type DayOf = (value: string) => string;

/** The day of a date input in the team's time zone, looked up once and only when a date-time needs it. */
function teamDays(db: Db, teamId: string): DayOf {
  let zone: string | undefined;
  return (value) => {
    if (!needsTimeZone(value)) return dayOf(value, 'UTC');
    zone ??= teamTimeZone(db, teamId);
    return dayOf(value, zone);
  };
}

export async function transactionRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  // Nothing in a transaction read depends on the clock: reads are cached until the team's data changes.
  const forever = { cacheUntil: () => Number.POSITIVE_INFINITY };
  registerRoute(app, transactionRoutes.list, ({ auth, query }) => listTransactions(db, auth.teamId, query), forever);
  registerRoute(
    app,
    transactionRoutes.reviewCounts,
    ({ auth, query }) => ({ data: reviewCounts(db, auth.teamId, query) }),
    forever,
  );
  registerRoute(app, transactionRoutes.get, ({ auth, params }) => getTransaction(db, auth.teamId, params.id), forever);
  /**
   * Manual creation runs the team's rules that apply on creation, in the same transaction as the create; a sync
   * replica's push does not (they ran where it was made) and is written with the provenance `sync`.
   */
  const createWithRules = (teamId: string, inputs: NewTransaction[], request: FastifyRequest) =>
    write(db, teamId, () => {
      if (isReplicaPush(request)) return createTransactions(db, teamId, inputs, REPLICA_SOURCE);
      const ids = createTransactions(db, teamId, inputs);
      applyRules(db, teamId, ids, { trigger: 'create' });
      return ids;
    });
  registerRoute(app, transactionRoutes.create, ({ auth, body, request }) => {
    const [id] = createWithRules(auth.teamId, [newTransaction(body, teamDays(db, auth.teamId))], request);
    return getTransaction(db, auth.teamId, id!);
  });
  registerRoute(app, transactionRoutes.bulkCreate, ({ auth, body, request }) => {
    const day = teamDays(db, auth.teamId);
    const ids = createWithRules(
      auth.teamId,
      body.map((t, i) => {
        try {
          return newTransaction(t, day);
        } catch (err) {
          if (err instanceof InvalidReference)
            throw new InvalidReference(`${i}.${err.field}`, `Transaction ${i}: ${err.message}`);
          throw err;
        }
      }),
      request,
    );
    return { data: getTransactions(db, auth.teamId, ids) };
  });
  registerRoute(app, transactionRoutes.bulkUpdate, ({ auth, body }) => {
    const { ids, tagId, ...fields } = body;
    updateTransactions(db, auth.teamId, ids, { ...fields, addTagIds: tagId ? [tagId] : undefined });
    return { data: getTransactions(db, auth.teamId, [...new Set(ids)]) };
  });
  registerRoute(app, transactionRoutes.update, ({ auth, params, body, request }) => {
    const change = changeOf(db, auth.teamId, params.id, body);
    updateTransaction(db, auth.teamId, params.id, change, isReplicaPush(request) ? REPLICA_SOURCE : undefined);
    return getTransaction(db, auth.teamId, params.id);
  });
  const remove = (teamId: string, ids: readonly string[]) => {
    const before = new Map(getTransactions(db, teamId, ids).map((t) => [t.id, t]));
    const outcomes = deleteTransactions(db, teamId, ids);
    const after = new Map(
      getTransactions(
        db,
        teamId,
        outcomes.filter((o) => o.outcome === 'excluded').map((o) => o.id),
      ).map((t) => [t.id, t]),
    );
    return outcomes.map((o) => ({ ...o, transaction: (after.get(o.id) ?? before.get(o.id))! }));
  };
  registerRoute(app, transactionRoutes.delete, ({ auth, params }) => remove(auth.teamId, [params.id])[0]!);
  registerRoute(app, transactionRoutes.bulkDelete, ({ auth, body }) => ({ data: remove(auth.teamId, body) }));
}
