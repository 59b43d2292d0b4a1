import type { Db } from '../db';
import { newId } from '../ids';

/**
 * The data dir's backup settings and the log of backups made (migration 026, docs/decisions/0185-backups.md). One
 * settings row for the whole data dir: a backup holds every team, so these are the installation's, not a team's.
 */

export interface BackupSettings {
  enabled: boolean;
  intervalHours: number;
  keep: number;
  /** Where archives go; null = `<data dir>/backups`. Set only by the machine's operator (the CLI). */
  folder: string | null;
  includeSecrets: boolean;
  updatedAt: string;
}

export type BackupTrigger = 'scheduled' | 'manual' | 'migration' | 'restore' | 'cli';

export interface BackupRun {
  id: string;
  trigger: BackupTrigger;
  state: 'running' | 'done' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  path: string | null;
  size: number | null;
  error: string | null;
}

interface SettingsRow {
  enabled: number;
  interval_hours: number;
  keep: number;
  folder: string | null;
  include_secrets: number;
  updated_at: string;
}

export function backupSettings(db: Db): BackupSettings {
  const row = db.prepare('SELECT * FROM backup_settings WHERE id = 1').get() as SettingsRow;
  return {
    enabled: row.enabled === 1,
    intervalHours: row.interval_hours,
    keep: row.keep,
    folder: row.folder,
    includeSecrets: row.include_secrets === 1,
    updatedAt: row.updated_at,
  };
}

export function setBackupSettings(
  db: Db,
  change: Partial<Omit<BackupSettings, 'updatedAt'>>,
  now = new Date().toISOString(),
): BackupSettings {
  const current = backupSettings(db);
  const next = { ...current, ...change };
  db.prepare(
    `UPDATE backup_settings SET enabled = ?, interval_hours = ?, keep = ?, folder = ?, include_secrets = ?, updated_at = ?
     WHERE id = 1`,
  ).run(next.enabled ? 1 : 0, next.intervalHours, next.keep, next.folder, next.includeSecrets ? 1 : 0, now);
  return backupSettings(db);
}

interface RunRow {
  id: string;
  trigger: BackupTrigger;
  state: BackupRun['state'];
  started_at: string;
  finished_at: string | null;
  path: string | null;
  size: number | null;
  error: string | null;
}

const toRun = (r: RunRow): BackupRun => ({
  id: r.id,
  trigger: r.trigger,
  state: r.state,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  path: r.path,
  size: r.size,
  error: r.error,
});

export function startBackupRun(db: Db, trigger: BackupTrigger, now = new Date().toISOString()): string {
  const id = newId();
  db.prepare("INSERT INTO backup_runs (id, trigger, state, started_at) VALUES (?, ?, 'running', ?)").run(id, trigger, now);
  return id;
}

export function finishBackupRun(
  db: Db,
  id: string,
  outcome: { path: string; size: number } | { error: string },
  now = new Date().toISOString(),
): void {
  if ('error' in outcome) {
    db.prepare("UPDATE backup_runs SET state = 'failed', finished_at = ?, error = ? WHERE id = ?").run(now, outcome.error, id);
  } else {
    db.prepare("UPDATE backup_runs SET state = 'done', finished_at = ?, path = ?, size = ? WHERE id = ?").run(
      now,
      outcome.path,
      outcome.size,
      id,
    );
  }
}

/** A backup made outside this database's life (before a migration, before a restore): logged once it is done. */
export function recordBackupRun(
  db: Db,
  trigger: BackupTrigger,
  outcome: { path: string; size: number; startedAt: string },
  now = new Date().toISOString(),
): void {
  db.prepare(
    "INSERT INTO backup_runs (id, trigger, state, started_at, finished_at, path, size) VALUES (?, ?, 'done', ?, ?, ?, ?)",
  ).run(newId(), trigger, outcome.startedAt, now, outcome.path, outcome.size);
}

export function backupRuns(db: Db, limit = 20): BackupRun[] {
  return (db.prepare('SELECT * FROM backup_runs ORDER BY started_at DESC, id DESC LIMIT ?').all(limit) as RunRow[]).map(toRun);
}

export function lastSuccessfulBackup(db: Db): BackupRun | undefined {
  const row = db.prepare("SELECT * FROM backup_runs WHERE state = 'done' ORDER BY finished_at DESC, id DESC LIMIT 1").get() as
    | RunRow
    | undefined;
  return row ? toRun(row) : undefined;
}

/** A run left `running` by a process that died mid-backup: failed, so the screen does not wait for it forever. */
export function failAbandonedRuns(db: Db, before: string): number {
  return db
    .prepare(
      "UPDATE backup_runs SET state = 'failed', error = 'interrupted', finished_at = ? WHERE state = 'running' AND started_at < ?",
    )
    .run(before, before).changes;
}

export interface TeamCounters {
  changeSeq: number;
  authSeq: number;
}

export function teamCounters(db: Db): Map<string, TeamCounters> {
  const rows = db.prepare('SELECT id, change_seq AS changeSeq, auth_seq AS authSeq FROM teams').all() as ({
    id: string;
  } & TeamCounters)[];
  return new Map(rows.map((r) => [r.id, { changeSeq: r.changeSeq, authSeq: r.authSeq }]));
}

/**
 * After a restore into a running server: every team's change and credential counters move past what they were
 * before it, so no cached response or credential of the replaced data stays current (their counters no longer
 * match), and a replica that pulled this feed up to the old sequence sees the restored records' next changes.
 */
export function advanceCountersPast(db: Db, before: ReadonlyMap<string, TeamCounters>): void {
  const update = db.prepare('UPDATE teams SET change_seq = max(change_seq, ?) + 1, auth_seq = max(auth_seq, ?) + 1 WHERE id = ?');
  db.transaction(() => {
    for (const id of db.prepare('SELECT id FROM teams').pluck().all() as string[]) {
      const b = before.get(id);
      update.run(b?.changeSeq ?? 0, b?.authSeq ?? 0, id);
    }
  }).immediate();
}

/** How many teams the data dir holds (the app's backup routes serve a data dir of one team only). */
export function teamCount(db: Db): number {
  return db.prepare('SELECT count(*) FROM teams').pluck().get() as number;
}
