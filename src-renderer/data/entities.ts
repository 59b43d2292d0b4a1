/**
 * Which synced entity each API area serves, and what each entity's queries embed. Every query key starts with its
 * entity name (`['customer', 'list', …]`), so a change to an entity — a write of ours or an event of the change
 * stream — refreshes exactly the queries that show it: its own lists and records, and those of the entities that
 * embed it (a customer shows its tags' names, so a tag change refreshes customers too).
 *
 * Entity names are the server's (src-main/store/entities.ts, the `entity` of change events).
 */
import type { RouteContract } from '../../src-shared/contract/route';
import { SYNC_ORDER } from '../../src-shared/domain/sync/fields';

/** The entity of each contract area (`RouteContract.tag`) the UI reads or writes. */
const ENTITY_OF_AREA: Readonly<Record<string, string>> = {
  customers: 'customer',
  tags: 'tag',
  // Invoices, their payment links (the same contract area), and the time tracker's projects, entries and timer.
  invoices: 'invoice',
  tracker: 'tracker_project',
  // Search answers summaries of many entities: it refreshes when any of them changes.
  search: 'search_result',
  // [areas of later screens register here]
  users: 'user',
  'app: session': 'web_session',
  notifications: 'notification',
  transactions: 'transaction',
  'transaction-categories': 'transaction_category',
  'bank-accounts': 'bank_account',
  // Team settings: the team and its members, and the mail server (not records of the change stream).
  teams: 'team',
  'app: smtp': 'smtp_settings',
  // The team's Peppol access point (settings, not records of the change stream).
  'app: access point': 'einvoice_access_point',
  // The data dir's backups (settings, runs and archives in a folder, not records of the change stream).
  'app: backups': 'data_backup',
  rules: 'rule',
  inbox: 'inbox_item',
  'app: workflows': 'workflow_run',
  // The sync status and conflicts (bookkeeping, not in the change stream: the screen polls while a round runs).
  'app: sync': 'sync_remote',
  // Reports are computed from transactions: a transaction change refreshes them.
  reports: 'transaction',
  // Forecasts and stress tests share the area; stress tests embed the forecast they bend.
  metrics: 'stress_test',
  import: 'import_batch',
  reconciliation: 'reconciliation',
};

/** Entities whose records appear inside another entity's API shape. */
const EMBEDS: Readonly<Record<string, readonly string[]>> = {
  // A customer shows its tags' names and figures computed from its invoices (outstanding, overdue, last invoice).
  customer: ['tag', 'invoice'],
  // An invoice shows its customer's name and e-mail; its payment links name transactions; its e-invoice check reads
  // the customer, the team and its bank accounts.
  invoice: ['customer', 'invoice_payment', 'transaction', 'team', 'bank_account'],
  // Projects show their customer and tags, totals from their entries, and which entries an invoice billed.
  tracker_project: ['tracker_entry', 'customer', 'tag', 'invoice'],
  search_result: ['customer', 'invoice', 'transaction', 'tracker_project', 'inbox_item', 'document'],
  // A receipt shows the transaction it is matched to and those suggested for it.
  inbox_item: ['transaction'],
  // A transaction shows its tags' names, its category's name and colour, its account's name.
  transaction: ['tag', 'transaction_category', 'bank_account'],
  // Run lists name their workflow; the workflows area's lists are keyed as runs too (one contract area).
  workflow_run: ['workflow'],
  stress_test: ['forecast', 'transaction'],
  // The import screen's batches, review queue and previews change with the transactions they make.
  import_batch: ['import_review_item', 'transaction', 'import_mapping'],
  reconciliation: ['transaction'],
  // Pending changes and conflicts move with every edit of a synced record.
  sync_remote: SYNC_ORDER,
};

export function entityOf(route: RouteContract): string {
  const entity = ENTITY_OF_AREA[route.tag];
  if (!entity) throw new Error(`no entity is registered for the API area "${route.tag}" (src-renderer/data/entities.ts)`);
  return entity;
}

export type QueryKind = 'list' | 'record';

/** `[entity, kind, path, input]`: the entity first, for invalidation; the path and input make it exact. */
export function queryKey(route: RouteContract, kind: QueryKind, input: unknown): readonly unknown[] {
  return [entityOf(route), kind, route.path, input ?? null];
}

/** True when a query with this key shows records of `entity` (its own, or embedded). */
export function keyShows(key: readonly unknown[], entity: string): boolean {
  const owner = key[0];
  if (typeof owner !== 'string') return false;
  return owner === entity || (EMBEDS[owner]?.includes(entity) ?? false);
}
