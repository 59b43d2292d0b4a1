import { initial } from './001-initial';
import { customersSearch } from './002-customers-search';
import { oauth } from './003-oauth';
import { idempotency } from './004-idempotency';

/**
 * Forward-only schema migrations. A migration is never edited once released: a change is a new migration with the
 * next version. Each runs in its own transaction together with the `user_version` bump, so a crash mid-way leaves
 * the database at the previous version, intact.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  initial,
  customersSearch,
  oauth,
  // [004 idempotency] — reserved number
  idempotency,
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
