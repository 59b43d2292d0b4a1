import type { Db } from '../db';
import type { EntityName } from '../entities';
import { write } from '../write';

/**
 * What `finops demo` fills in a team (bulk-seed.ts writes it): whether a team holds such data already, and deleting
 * it again (`--replace`, or a failed batched seed).
 */

/** Tables the demo fills, children before parents (the order deletes run in). */
export const DEMO_TABLES = [
  'transaction_tags',
  'customer_tags',
  'tracker_project_tags',
  'tracker_entries',
  'notifications',
  'transactions',
  'invoices',
  'tracker_projects',
  'bank_accounts',
  'customers',
  'tags',
  'transaction_categories',
] as const;

/** Entities the demo writes, children before parents. */
export const DEMO_ENTITIES = [
  'tracker_entry',
  'notification',
  'transaction',
  'invoice',
  'tracker_project',
  'bank_account',
  'customer',
  'tag',
  'transaction_category',
] as const satisfies readonly EntityName[];

/**
 * Whether the team already holds records the demo would mix with. Categories do not count: every team may start
 * with the default taxonomy, which the demo reuses.
 */
export function teamHasData(db: Db, teamId: string): boolean {
  return DEMO_TABLES.filter((t) => t !== 'transaction_categories' && !t.endsWith('_tags')).some(
    (t) => db.prepare(`SELECT 1 FROM ${t} WHERE team_id = ? LIMIT 1`).get(teamId) !== undefined,
  );
}

/**
 * Deletes the team's records of every kind the demo writes (credentials and members stay), leaving tombstones so a
 * synced copy learns of the deletes. Returns the records deleted.
 */
export function deleteTeamData(db: Db, teamId: string): number {
  return write(db, teamId, (w) => DEMO_ENTITIES.reduce((n, entity) => n + w.removeAll(entity), 0), { origin: 'system' });
}
