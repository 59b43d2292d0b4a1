import type { Db } from '../db';

/**
 * Where a team's receipts arrive besides uploads (docs/decisions/0150-inbox-ingestion.md): a watched folder, a
 * mailbox fetched over IMAP, the inbound e-mail callback. Local configuration of this data dir, never synced; the
 * IMAP password and the callback's signing secret are kept in the data dir's secret file, never here.
 */

export const INBOX_SOURCE_KINDS = ['folder', 'imap', 'webhook'] as const;
export type InboxSourceKind = (typeof INBOX_SOURCE_KINDS)[number];

export type ImapSecurity = 'tls' | 'starttls' | 'none';

export interface FolderConfig {
  path: string;
}

export interface ImapConfig {
  host: string;
  port: number;
  /** tls: TLS from the first byte (993); starttls: upgrade required (143); none: plain (a local server only). */
  security: ImapSecurity;
  user: string;
  mailbox: string;
}

/** Where the last fetch stopped: UIDs only keep their meaning while the mailbox's UIDVALIDITY stays. */
export interface ImapCursor {
  uidValidity: string;
  lastUid: number;
}

interface ConfigOf {
  folder: FolderConfig;
  imap: ImapConfig;
  webhook: Record<string, never>;
}

export interface InboxSource<K extends InboxSourceKind = InboxSourceKind> {
  teamId: string;
  kind: K;
  config: ConfigOf[K];
  /** The callback's path segment (webhook only). */
  address: string | null;
  cursor: ImapCursor | null;
  lastRunAt: string | null;
  lastError: string | null;
  updatedAt: string;
}

interface Row {
  team_id: string;
  kind: InboxSourceKind;
  config: string;
  address: string | null;
  cursor: string | null;
  last_run_at: string | null;
  last_error: string | null;
  updated_at: string;
}

function fromRow<K extends InboxSourceKind>(r: Row): InboxSource<K> {
  return {
    teamId: r.team_id,
    kind: r.kind as K,
    config: JSON.parse(r.config) as ConfigOf[K],
    address: r.address,
    cursor: r.cursor ? (JSON.parse(r.cursor) as ImapCursor) : null,
    lastRunAt: r.last_run_at,
    lastError: r.last_error,
    updatedAt: r.updated_at,
  };
}

export function getInboxSource<K extends InboxSourceKind>(db: Db, teamId: string, kind: K): InboxSource<K> | undefined {
  const r = db.prepare('SELECT * FROM inbox_sources WHERE team_id = ? AND kind = ?').get(teamId, kind) as Row | undefined;
  return r ? fromRow<K>(r) : undefined;
}

/** Every team's source of one kind (the background runners walk them). */
export function inboxSourcesOfKind<K extends InboxSourceKind>(db: Db, kind: K): InboxSource<K>[] {
  return (db.prepare('SELECT * FROM inbox_sources WHERE kind = ? ORDER BY team_id').all(kind) as Row[]).map((r) => fromRow<K>(r));
}

/** The callback source a URL's address names, with its team. */
export function inboxSourceByAddress(db: Db, address: string): InboxSource<'webhook'> | undefined {
  const r = db.prepare("SELECT * FROM inbox_sources WHERE kind = 'webhook' AND address = ?").get(address) as Row | undefined;
  return r ? fromRow<'webhook'>(r) : undefined;
}

/**
 * Sets a source's configuration. A mailbox that is another one (host, user or folder changed) starts without a
 * cursor, so its mail is read from the start (the ledger still keeps each mail to one item).
 */
export function setInboxSource<K extends InboxSourceKind>(
  db: Db,
  teamId: string,
  kind: K,
  config: ConfigOf[K],
  options: { address?: string } = {},
): InboxSource<K> {
  db.transaction(() => {
    const before = getInboxSource(db, teamId, kind);
    const sameMailbox =
      kind === 'imap' && before
        ? (['host', 'port', 'user', 'mailbox'] as const).every(
            (k) => (before.config as ImapConfig)[k] === (config as ImapConfig)[k],
          )
        : true;
    db.prepare(
      `INSERT INTO inbox_sources (team_id, kind, config, address, updated_at) VALUES (@team, @kind, @config, @address, @now)
       ON CONFLICT (team_id, kind) DO UPDATE SET config = excluded.config,
         address = coalesce(excluded.address, inbox_sources.address), updated_at = excluded.updated_at,
         cursor = CASE WHEN @keepCursor THEN inbox_sources.cursor END, last_error = NULL`,
    ).run({
      team: teamId,
      kind,
      config: JSON.stringify(config),
      address: options.address ?? null,
      now: new Date().toISOString(),
      keepCursor: sameMailbox ? 1 : 0,
    });
  }).immediate();
  return getInboxSource(db, teamId, kind)!;
}

/** Removes a source; whether there was one. What it took in stays in the ledger. */
export function removeInboxSource(db: Db, teamId: string, kind: InboxSourceKind): boolean {
  return db.prepare('DELETE FROM inbox_sources WHERE team_id = ? AND kind = ?').run(teamId, kind).changes > 0;
}

/** Records a run of a source: its time, its error (null when it went well) and, for IMAP, where it stopped. */
export function recordInboxSourceRun(
  db: Db,
  teamId: string,
  kind: InboxSourceKind,
  run: { error: string | null; cursor?: ImapCursor },
): void {
  db.prepare(
    `UPDATE inbox_sources SET last_run_at = ?, last_error = ?, cursor = coalesce(?, cursor) WHERE team_id = ? AND kind = ?`,
  ).run(new Date().toISOString(), run.error, run.cursor ? JSON.stringify(run.cursor) : null, teamId, kind);
}
