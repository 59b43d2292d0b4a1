import type { Db } from '../db';
import { decodeCursor, encodeCursor, type SortKey, type SortKind } from './cursor';

/**
 * One page of a keyset-paginated list: the machinery every list resource shares, so a new list is a table of sort
 * columns and a set of filter conditions.
 *
 * Rows are ordered by one sort expression and then the id (a total order: ties never skip or repeat a row), and the
 * next page starts strictly after the last row's (key, id). Inserts and deletes between pages therefore never
 * shift a page the way an offset does (tested under concurrent writes). Only ids and sort keys go through the
 * sorter; the caller fetches the page's rows by id afterwards.
 *
 * A sort expression must never be NULL (wrap nullable columns in coalesce): NULL compares as unknown and would
 * end the walk early.
 */
export interface SortColumn {
  /** SQL expression over the list's row alias. */
  sql: string;
  kind: SortKind;
}

export interface KeysetQuery {
  /** `FROM` clause including the row alias and any joins, e.g. `customers c LEFT JOIN s ON s.cid = c.id`. */
  from: string;
  /** The row id expression, e.g. `c.id`. */
  id: string;
  /** A leading `WITH …` clause, when the sort or filters need one. */
  with?: string;
  /** Conditions ANDed together (the team condition among them). */
  where: readonly string[];
  /** Named parameters of `with`, `from` and `where`. */
  params: Record<string, unknown>;
  sort: SortColumn;
  direction: 'asc' | 'desc';
  pageSize: number;
  /** Fingerprint of the list (listFingerprint): binds cursors to it. */
  fingerprint: string;
  cursor?: string;
}

export interface KeysetPage {
  ids: string[];
  cursor: string | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export function keysetPage(db: Db, q: KeysetQuery): KeysetPage {
  const after = q.cursor ? decodeCursor(q.cursor, q.fingerprint, q.sort.kind) : null;
  const where = [...q.where];
  const params: Record<string, unknown> = { ...q.params, ks_limit: q.pageSize + 1 };
  if (after) {
    const op = q.direction === 'asc' ? '>' : '<';
    where.push(`(${q.sort.sql} ${op} @ks_key OR (${q.sort.sql} = @ks_key AND ${q.id} ${op} @ks_id))`);
    params.ks_key = after.key;
    params.ks_id = after.id;
  }
  const dir = q.direction === 'asc' ? 'ASC' : 'DESC';
  const rows = db
    .prepare(
      `${q.with ?? ''} SELECT ${q.id} AS id, ${q.sort.sql} AS sort_key FROM ${q.from}
       WHERE ${where.join(' AND ')} ORDER BY ${q.sort.sql} ${dir}, ${q.id} ${dir} LIMIT @ks_limit`,
    )
    .all(params) as { id: string; sort_key: SortKey }[];
  const hasNextPage = rows.length > q.pageSize;
  const page = hasNextPage ? rows.slice(0, q.pageSize) : rows;
  const last = page[page.length - 1];
  return {
    ids: page.map((r) => r.id),
    cursor: hasNextPage && last ? encodeCursor(q.fingerprint, last.sort_key, last.id) : null,
    hasNextPage,
    hasPreviousPage: after !== null,
  };
}

/** `?, ?, ?` for an IN list; the statement cache keeps one compiled text per count. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
