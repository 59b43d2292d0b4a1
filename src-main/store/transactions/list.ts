import type {
  Transaction,
  TransactionFilters,
  TransactionListItem,
  TransactionSort,
  TransactionSortColumn,
} from '../../../src-shared/contract/transactions';
import { listStatus } from '../../../src-shared/domain/transactions';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { fromIds } from '../ids';
import { listFingerprint } from '../list/cursor';
import { keysetPage, type SortColumn } from '../list/keyset';
import { filtersSql } from './list-filters';
import { getTransactions } from './read';

/** The list of transactions: filters (list-filters.ts), sort and keyset cursor; summary items or detailed records. */

const SORTS: Record<TransactionSortColumn, SortColumn> = {
  date: { sql: 't.date', kind: 'text' },
  amount: { sql: 't.amount_minor', kind: 'number' },
  name: { sql: 't.name COLLATE NOCASE', kind: 'text' },
  status: { sql: 't.status', kind: 'text' },
  attachment: {
    sql: '(SELECT count(*) FROM transaction_attachments x WHERE x.team_id = t.team_id AND x.transaction_id = t.id)',
    kind: 'number',
  },
  assigned: { sql: "coalesce(t.assigned_id, '')", kind: 'text' },
  bank_account: {
    sql: "coalesce((SELECT a.name FROM bank_accounts a WHERE a.team_id = t.team_id AND a.id = t.bank_account_id), '') COLLATE NOCASE",
    kind: 'text',
  },
  category: { sql: "coalesce(t.category_slug, '')", kind: 'text' },
  tags: {
    sql: "coalesce((SELECT min(g.name) FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.team_id = t.team_id AND tt.transaction_id = t.id), '') COLLATE NOCASE",
    kind: 'text',
  },
  counterparty: { sql: "coalesce(t.counterparty_name, '') COLLATE NOCASE", kind: 'text' },
};

export interface TransactionListOptions extends Partial<TransactionFilters> {
  sort?: TransactionSort;
  cursor?: string;
  pageSize?: number;
}

interface PageOf<T> {
  data: T[];
  cursor: string | null;
  meta: { cursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
}

/** The ids of one page of the list (the shared keyset machinery over the sort table). */
export function transactionPageIds(db: Db, teamId: string, query: TransactionListOptions) {
  const column = query.sort?.column ?? 'date';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const { where, params, fingerprint } = filtersSql(teamId, query);
  return keysetPage(db, {
    from: 'transactions t',
    id: 't.id',
    where,
    params,
    sort: SORTS[column],
    direction,
    pageSize: query.pageSize ?? 50,
    fingerprint: listFingerprint([column, direction, ...fingerprint]),
    cursor: query.cursor,
  });
}

const LIST_COLUMNS = `t.id, t.bank_account_id, t.description, t.method, t.amount_minor, t.name, t.date, t.currency, t.status,
  t.counterparty_name, t.category_slug, t.balance_minor`;

interface ListRow {
  id: string;
  bank_account_id: string;
  description: string | null;
  method: string | null;
  amount_minor: number;
  name: string;
  date: string;
  currency: string;
  status: string;
  counterparty_name: string | null;
  category_slug: string | null;
  balance_minor: number | null;
}

function toListItem(r: ListRow): TransactionListItem {
  return {
    id: r.id,
    accountId: r.bank_account_id,
    description: r.description,
    method: r.method,
    amount: toMajor(r.amount_minor, r.currency),
    name: r.name,
    date: r.date,
    currency: r.currency,
    status: listStatus(r.status),
    counterparty_name: r.counterparty_name,
    category: r.category_slug,
    balance: r.balance_minor === null ? null : toMajor(r.balance_minor, r.currency),
  };
}

export function listTransactions(db: Db, teamId: string, query: TransactionListOptions): PageOf<TransactionListItem> {
  return db.transaction(() => {
    const page = transactionPageIds(db, teamId, query);
    const rows =
      page.ids.length === 0
        ? []
        : (db
            .prepare(`SELECT ${LIST_COLUMNS} FROM ${fromIds('transactions', 't')} WHERE t.team_id = ?`)
            .all(JSON.stringify(page.ids), teamId) as ListRow[]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const data = page.ids.flatMap((id) => {
      const r = byId.get(id);
      return r ? [toListItem(r)] : [];
    });
    return {
      data,
      cursor: page.cursor,
      meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
    };
  })();
}

/** A page of detailed records (the review screens' rows), under the same filters, sort and cursor as the list. */
export function listTransactionDetails(db: Db, teamId: string, query: TransactionListOptions): PageOf<Transaction> {
  return db.transaction(() => {
    const page = transactionPageIds(db, teamId, query);
    return {
      data: getTransactions(db, teamId, page.ids),
      cursor: page.cursor,
      meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
    };
  })();
}
