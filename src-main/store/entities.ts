import type { Scope } from '../../src-shared/contract/scopes';

/**
 * The registry of team-owned records: every table with a `team_id` is either an entity here or listed in
 * NOT_ENTITIES with the reason (a test holds this for the whole schema). The one write path (write.ts) takes its
 * table names and embeddings from here, the change feed readers (feed.ts) are typed by it, and the sync engine
 * syncs exactly the entities marked `synced`.
 *
 * - `table`: where the record lives; it has the columns id, team_id, created_at, updated_at, seq.
 * - `readScope`: the scope a credential needs to learn that a record of this kind changed (change stream).
 * - `synced`: whether the sync engine exchanges it with a remote; what it exchanges (the sync projection, its
 *   merge groups and rules) is src-shared/domain/sync/fields.ts, one entry per synced entity (a test holds the two
 *   equal). Records the app keeps for itself only (workflow runs, import batches) are in the feed for live screens
 *   but never pushed.
 * - `embeddedIn`: other records whose API shape includes this one (a customer shows its tags' names), found through
 *   a link table. When this record changes or goes, the write path records a change for each of them too, so a
 *   synced copy of a customer learns that its tag was renamed.
 */
export interface EntityDef {
  readonly table: string;
  readonly readScope: Scope;
  readonly synced: boolean;
  readonly embeddedIn?: readonly Embedding[];
}

/**
 * `SELECT <target> FROM <link> WHERE team_id = ? AND <column> = ?` lists the embedding records. `entity` names
 * another entity of this registry (a plain string here to keep the registry's type non-circular; a test checks it).
 */
export interface Embedding {
  readonly entity: string;
  readonly link: string;
  readonly column: string;
  readonly target: string;
}

export const ENTITIES = {
  customer: {
    table: 'customers',
    readScope: 'customers.read',
    synced: true,
  },
  tag: {
    table: 'tags',
    readScope: 'tags.read',
    synced: true,
    embeddedIn: [
      { entity: 'customer', link: 'customer_tags', column: 'tag_id', target: 'customer_id' },
      { entity: 'transaction', link: 'transaction_tags', column: 'tag_id', target: 'transaction_id' },
      { entity: 'tracker_project', link: 'tracker_project_tags', column: 'tag_id', target: 'project_id' },
    ],
  },
  transaction_category: {
    table: 'transaction_categories',
    readScope: 'transactions.read',
    synced: true,
  },
  bank_account: {
    table: 'bank_accounts',
    readScope: 'bank-accounts.read',
    synced: true,
  },
  transaction: {
    table: 'transactions',
    readScope: 'transactions.read',
    synced: true,
  },
  invoice: {
    table: 'invoices',
    readScope: 'invoices.read',
    // Numbered by the remote when first pushed; payments stay local, the lifecycle travels (docs/decisions/0143).
    synced: true,
  },
  tracker_project: {
    table: 'tracker_projects',
    readScope: 'tracker-projects.read',
    synced: true,
    // An entry shows its project's name, billing and rate (and its amount follows the rate).
    embeddedIn: [{ entity: 'tracker_entry', link: 'tracker_entries', column: 'project_id', target: 'id' }],
  },
  tracker_entry: {
    table: 'tracker_entries',
    readScope: 'tracker-entries.read',
    synced: true,
  },
  // Not synced (decision 0146): the hosted service has no route for them (hosted-service-facts.md lists none), so a
  // hosted remote cannot hold one, and an entry's sync projection leaves its category out. The remote bills an
  // entry at its project's rate; the category's rate applies here only. Syncing them with a Finops Desk remote
  // means a SYNC_SPECS entry (src-shared/domain/sync/fields.ts) and the entry's categoryId in its projection.
  tracker_category: {
    table: 'tracker_categories',
    readScope: 'tracker-entries.read',
    synced: false,
    // An entry shows its category's name and colour, and its rate and amount follow the category's rate.
    embeddedIn: [{ entity: 'tracker_entry', link: 'tracker_entries', column: 'category_id', target: 'id' }],
  },
  // Their status syncs (read, archived); each side creates its own (sync/capabilities.ts: no create, no delete).
  notification: {
    table: 'notifications',
    readScope: 'notifications.read',
    synced: true,
  },
  // A receipt on a transaction: its metadata syncs after its transaction, its file with it to a Finops Desk remote
  // (docs/decisions/0151-document-sync.md); attached and detached, never edited.
  transaction_attachment: {
    table: 'transaction_attachments',
    readScope: 'transactions.read',
    synced: true,
  },
  document: {
    table: 'documents',
    readScope: 'documents.read',
    // Synced with a Finops Desk remote, file and all; the hosted v1 cannot receive files, so there it stays local
    // (docs/decisions/0151-document-sync.md).
    synced: true,
  },
  inbox_item: {
    table: 'inbox_items',
    readScope: 'inbox.read',
    synced: false,
  },
  workflow: {
    table: 'workflows',
    readScope: 'workflows.read',
    synced: false,
  },
  // Runs are the app's own record of automation (never pushed); in the feed so run monitoring refreshes live.
  workflow_run: {
    table: 'workflow_runs',
    readScope: 'workflows.read',
    synced: false,
  },
  // An invoice's link to a payment: a matched transaction (suggested, applied, dismissed) or a payment marked by hand.
  // Kept local: the hosted service has no such record; the invoice's status and paidAt carry the outcome.
  invoice_payment: {
    table: 'invoice_payments',
    readScope: 'invoices.read',
    synced: false,
  },
  rule: {
    table: 'rules',
    readScope: 'transactions.read',
    // A team's own automation: the hosted service has no rules to sync them with.
    synced: false,
  },
  recurring_series: {
    table: 'recurring_series',
    readScope: 'transactions.read',
    synced: false,
  },
  // Modelled outputs with their inputs (spec rule 4): the app's own record, never pushed to a remote.
  forecast: {
    table: 'forecasts',
    readScope: 'metrics.read',
    synced: false,
  },
  stress_test: {
    table: 'stress_tests',
    readScope: 'metrics.read',
    synced: false,
  },
  // Import batches, their review queue, saved mappings, transfer pairs and reconciliations: the app's own records of
  // bank-file work (decisions 0060–0066), in the feed for live screens, never pushed (the hosted service has none).
  import_batch: { table: 'import_batches', readScope: 'transactions.read', synced: false },
  import_review_item: { table: 'import_review_items', readScope: 'transactions.read', synced: false },
  import_mapping: { table: 'import_mappings', readScope: 'transactions.read', synced: false },
  transfer_pair: { table: 'transfer_pairs', readScope: 'transactions.read', synced: false },
  reconciliation: { table: 'reconciliations', readScope: 'transactions.read', synced: false },
  // [entities of later resources register here]
} as const satisfies Record<string, EntityDef>;

export type EntityName = keyof typeof ENTITIES;

export function isEntityName(name: string): name is EntityName {
  return Object.hasOwn(ENTITIES, name);
}

export function entityDef(name: EntityName): EntityDef {
  return ENTITIES[name];
}

/** The scope that lets a credential see changes of this entity; undefined for a name that is not an entity. */
export function entityReadScope(name: string): Scope | undefined {
  return isEntityName(name) ? ENTITIES[name].readScope : undefined;
}

/**
 * Tables with a `team_id` that are not records of their own, and why. Link tables are part of the record that owns
 * them (a customer's tags are written with the customer and sent with it).
 */
export const NOT_ENTITIES: Readonly<Record<string, string>> = {
  customer_tags: 'link table: part of the customer',
  transaction_tags: 'link table: part of the transaction',
  tracker_project_tags: 'link table: part of the tracker project',
  team_members: 'membership: managed with users, not a synced record',
  api_keys: 'credentials: never leave this server',
  web_sessions: 'credentials: never leave this server',
  oauth_clients: 'credentials: never leave this server',
  oauth_grants: 'credentials: never leave this server',
  oauth_codes: 'credentials: never leave this server',
  oauth_tokens: 'credentials: never leave this server',
  idempotency_keys: 'request bookkeeping of the Idempotency-Key guard',
  sync_remotes: 'sync bookkeeping',
  sync_cursors: 'sync bookkeeping',
  sync_records: 'sync bookkeeping',
  sync_conflicts: 'sync bookkeeping',
  sync_outbox: 'sync bookkeeping (pushes waiting for the remote)',
  leases: 'background-work claims',
  changes: 'the change feed itself',
  stored_file_refs: 'storage bookkeeping: which records hold a stored file (blobs go with their last reference)',
  inbox_suggestions: 'part of the inbox item (its match suggestions)',
  download_links: 'short-lived download credentials: never leave this server',
  workflow_versions: 'part of the workflow (its definitions)',
  workflow_schedules: 'bookkeeping of the schedule triggers of active workflows',
  workflow_steps: 'part of the workflow run',
  workflow_approvals: 'part of the workflow run',
  workflow_effects: 'idempotency ledger of workflow effects',
  workflow_hook_calls: 'bookkeeping of signed webhook calls accepted within their window (replays are refused)',
  invoice_settings: 'per-team invoice numbering and template defaults: local settings, shown through GET /v1/invoices/settings',
  invoice_deliveries: 'the send queue: part of the invoice (its latest email is shown on it; each change touches the invoice)',
  invoice_files: 'cache of rendered PDFs of invoices not yet issued, in the data dir (re-rendered when the invoice changes)',
  issued_invoice_files:
    "the documents of an issued invoice as first produced, kept in the data dir: part of the invoice's record, never changed (0119)",
  smtp_settings: "local mail settings of a team (the password lives in the data dir's secret file)",
  einvoice_access_points: "a team's local Peppol access point settings (the API key lives in the data dir's secret file)",
  einvoice_handoffs: 'the e-invoice hand-off queue: bookkeeping of a send, read on the invoice through /app (0162)',
  transaction_splits: 'part of the transaction (its split parts)',
  transaction_field_sources: 'part of the transaction (who set each field)',
  ledger_daily: 'derived roll-up of transactions, rebuilt from them',
  rule_failures: 'run log of rules (reported over the API), not a record',
  import_batch_rows: 'part of the import batch (the outcome of each row of its file)',
  import_uploads: 'scratch copies of uploaded bank files between preview and commit (expire after a day)',
  workflow_settings: "a team's workflow settings (the HTTP allow-list): local configuration, never synced",
  notification_reads: "part of the notification (each member's own status of a team-wide one; the change is the notification's)",
  inbox_sources: "a team's inbox ingestion settings and their state: local configuration, never synced",
  inbox_ingested: 'idempotency ledger of inbox ingestion (mails and files taken in)',
  // [tables that are not entities register here]
};
