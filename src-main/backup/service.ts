import fs from 'node:fs';
import path from 'node:path';
import {
  type BackupRun,
  type BackupTrigger,
  backupSettings,
  failAbandonedRuns,
  finishBackupRun,
  startBackupRun,
} from '../store/backups/settings';
import type { Db } from '../store/db';
import { type CreatedBackup, createBackup } from './archive';
import { backupFolder } from './folder';
import { archiveName } from './restore';

/**
 * Making a backup into the data dir's backup folder and keeping only as many as its settings say
 * (docs/decisions/0185-backups.md). Each is logged in `backup_runs` (the Settings screen's "last backup").
 */

export interface BackUpOptions {
  trigger: BackupTrigger;
  /** `online` in a server (its own connection, in steps), `vacuum` in a CLI beside one. */
  mode: 'online' | 'vacuum';
  /** An explicit archive path (`finops backup --to`); default: a new name in the backup folder. */
  to?: string;
  includeSecrets?: boolean;
  now?: Date;
}

export async function backUp(db: Db, dataDir: string, options: BackUpOptions): Promise<CreatedBackup> {
  const settings = backupSettings(db);
  const now = options.now ?? new Date();
  const to = options.to ?? path.join(backupFolder(dataDir, settings), archiveName(now, options.trigger));
  const run = startBackupRun(db, options.trigger, now.toISOString());
  try {
    const made = await createBackup({
      db,
      dataDir,
      to,
      mode: options.mode,
      includeSecrets: options.includeSecrets ?? settings.includeSecrets,
      now,
    });
    finishBackupRun(db, run, { path: made.path, size: made.size });
    if (!options.to) pruneBackups(backupFolder(dataDir, settings), settings.keep);
    return made;
  } catch (err) {
    finishBackupRun(db, run, { error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}

export interface BackupFile {
  name: string;
  path: string;
  size: number;
  createdAt: string;
  trigger: string;
}

const ARCHIVE = /^finops-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)-([a-z]+)-[0-9a-f]{4}\.tar\.gz$/;

/** The archives in a backup folder, newest first (names carry their time, so no file's mtime is trusted). */
export function listBackups(folder: string): BackupFile[] {
  if (!fs.existsSync(folder)) return [];
  const out: BackupFile[] = [];
  for (const name of fs.readdirSync(folder)) {
    const m = ARCHIVE.exec(name);
    if (!m?.[1] || !m[2]) continue;
    const file = path.join(folder, name);
    const stamp = m[1].replace(/T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/, 'T$1:$2:$3.$4Z');
    out.push({ name, path: file, size: fs.statSync(file).size, createdAt: stamp, trigger: m[2] });
  }
  return out.sort((a, b) => (a.name < b.name ? 1 : -1));
}

/**
 * Keeps the newest `keep` scheduled and hand-made archives; the copies made before a migration or a restore and the
 * ones written with `--to` elsewhere are never pruned (they are few and each marks a moment worth going back to).
 */
export function pruneBackups(folder: string, keep: number): string[] {
  const routine = listBackups(folder).filter((b) => b.trigger === 'scheduled' || b.trigger === 'manual');
  const removed: string[] = [];
  for (const b of routine.slice(keep)) {
    fs.rmSync(b.path, { force: true });
    removed.push(b.path);
  }
  return removed;
}

/** Whether a scheduled backup is due: on, and none succeeded within the interval. */
export function backupDue(db: Db, lastDone: BackupRun | undefined, now: Date): boolean {
  const settings = backupSettings(db);
  if (!settings.enabled) return false;
  if (!lastDone?.finishedAt) return true;
  return now.getTime() - Date.parse(lastDone.finishedAt) >= settings.intervalHours * 3_600_000;
}

/** Runs a process left `running` (it died mid-backup) are marked failed at start. */
export function settleAbandonedRuns(db: Db, startedBefore: Date): void {
  failAbandonedRuns(db, startedBefore.toISOString());
}
