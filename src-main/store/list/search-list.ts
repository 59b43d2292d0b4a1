import type { Db } from '../db';
import { listFingerprint } from './cursor';
import { ftsQuery } from './fts';
import { keysetPage, placeholders, type SortColumn } from './keyset';

/**
 * The list of a searchable resource (documents, inbox items): the team's rows, narrowed by a full-text search and a
 * set of statuses, sorted by one column of a table (newest first by default), in keyset pages; the page's rows are
 * then read by id and mapped in page order. A resource declares its table, sorts and row reader, and adds only its
 * own filters.
 */
export interface SearchListSpec<R extends { id: string }, T> {
  /** Names the list in its cursors' fingerprint. */
  name: string;
  /** The table and its row alias, e.g. `documents d`. */
  table: string;
  alias: string;
  /** The FTS5 table indexing the rows by `search_rowid`. */
  fts: string;
  /** The sortable columns; `created_at` is the default order. */
  sorts: Record<string, SortColumn> & { created_at: SortColumn };
  /** The status column the `statuses` filter applies to, and the condition when none is asked for. */
  status: { column: string; otherwise?: string };
  /** `SELECT … FROM table alias` (no WHERE): reads a page's rows. */
  select: string;
  toItem: (row: R) => T;
}

export interface SearchListQuery {
  q?: string;
  sort?: { column: string; direction: 'asc' | 'desc' };
  cursor?: string;
  pageSize: number;
}

/** A resource's own conditions: SQL over the alias, their named parameters, and what identifies them in cursors. */
export interface ListFilters {
  where: readonly string[];
  params: Record<string, unknown>;
  fingerprint: readonly unknown[];
}

export interface ListPage<T> {
  data: T[];
  meta: { cursor: string | null; hasPreviousPage: boolean; hasNextPage: boolean };
}

export function searchList<R extends { id: string }, T>(
  db: Db,
  teamId: string,
  spec: SearchListSpec<R, T>,
  query: SearchListQuery & { statuses?: readonly string[] },
  filters: ListFilters = { where: [], params: {}, fingerprint: [] },
): ListPage<T> {
  const a = spec.alias;
  const where = [`${a}.team_id = @team`];
  const params: Record<string, unknown> = { team: teamId };
  const match = ftsQuery(query.q);
  if (match) {
    where.push(`${a}.search_rowid IN (SELECT rowid FROM ${spec.fts} WHERE ${spec.fts} MATCH @match)`);
    params.match = match;
  }
  if (query.statuses?.length) {
    where.push(`${a}.${spec.status.column} IN (SELECT value FROM json_each(@statuses))`);
    params.statuses = JSON.stringify(query.statuses);
  } else if (spec.status.otherwise) {
    where.push(spec.status.otherwise);
  }
  const column = query.sort?.column ?? 'created_at';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const page = keysetPage(db, {
    from: spec.table,
    id: `${a}.id`,
    where: [...where, ...filters.where],
    params: { ...params, ...filters.params },
    sort: spec.sorts[column]!,
    direction,
    pageSize: query.pageSize,
    cursor: query.cursor,
    fingerprint: listFingerprint([
      spec.name,
      teamId,
      column,
      direction,
      match,
      [...(query.statuses ?? [])].sort(),
      ...filters.fingerprint,
    ]),
  });
  const rows =
    page.ids.length === 0
      ? []
      : (db
          .prepare(`${spec.select} WHERE ${a}.team_id = ? AND ${a}.id IN (${placeholders(page.ids.length)})`)
          .all(teamId, ...page.ids) as R[]);
  const byId = new Map(rows.map((r) => [r.id, spec.toItem(r)]));
  return {
    data: page.ids.flatMap((id) => byId.get(id) ?? []),
    meta: { cursor: page.cursor, hasPreviousPage: page.hasPreviousPage, hasNextPage: page.hasNextPage },
  };
}
