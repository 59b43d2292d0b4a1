import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { appBackupRoutes, type BackupStatus } from '../../../src-shared/contract/app-backups';
import { createBackup } from '../../backup/archive';
import { backupFolder } from '../../backup/folder';
import { archiveName, restoreInto } from '../../backup/restore';
import { BACKUP_LEASE, BackupBusy } from '../../backup/scheduler';
import { backUp, listBackups } from '../../backup/service';
import { backgroundOf, pauseBackgroundWork } from '../../runtime/background';
import {
  advanceCountersPast,
  type BackupRun,
  backupRuns,
  backupSettings,
  lastSuccessfulBackup,
  recordBackupRun,
  setBackupSettings,
  teamCount,
  teamCounters,
} from '../../store/backups/settings';
import { type Db, migrate } from '../../store/db';
import { acquireLease, releaseLease } from '../../store/leases';
import { ApiError, conflict, forbidden, notFound, sendError } from '../errors';
import { registerRoute } from '../route';
import { mayManage } from './app-sync';

/**
 * The data dir's backups under /app (contract/app-backups.ts, docs/decisions/0185-backups.md): status, settings,
 * back up now, restore with a confirmation. A backup holds every team, so only a one-team data dir's owner may use
 * them; the folder is the operator's (CLI) and the app names archives by their file name in it, never a path.
 */

const restoring = new WeakSet<Db>();

/** Every request but the restore's own waits outside while a backup replaces the data (503 with Retry-After). */
export function installRestoreGate(app: FastifyInstance, db: Db): void {
  app.addHook('onRequest', (_request, reply, done) => {
    if (!restoring.has(db)) return done();
    sendError(reply, new ApiError(503, 'Service Unavailable', 'A backup is being restored; try again in a moment', undefined, 5));
  });
}

function runView(run: BackupRun | undefined) {
  if (!run) return null;
  return {
    id: run.id,
    trigger: run.trigger,
    state: run.state,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    fileName: run.path ? path.basename(run.path) : null,
    size: run.size,
    error: run.error,
  };
}

export async function appBackupRoutesPlugin(app: FastifyInstance, opts: { db: Db; dataDir: string }): Promise<void> {
  const { db, dataDir } = opts;
  const allowed = (auth: Parameters<typeof mayManage>[1]) => {
    if (!mayManage(db, auth)) throw forbidden('Only an owner of the team may manage backups', 'Ask an owner of the team.');
    if (teamCount(db) !== 1) {
      throw forbidden(
        'Backups hold every team on this server',
        'The server’s operator backs up and restores with finops backup and finops restore.',
      );
    }
  };
  const status = (): BackupStatus => {
    const settings = backupSettings(db);
    const folder = backupFolder(dataDir, settings);
    return {
      settings: {
        enabled: settings.enabled,
        intervalHours: settings.intervalHours,
        keep: settings.keep,
        includeSecrets: settings.includeSecrets,
        folder,
      },
      lastBackup: runView(lastSuccessfulBackup(db)),
      lastRun: runView(backupRuns(db, 1)[0]),
      backups: listBackups(folder).map(({ name, size, createdAt, trigger }) => ({ name, size, createdAt, trigger })),
    };
  };

  registerRoute(app, appBackupRoutes.status, ({ auth }) => {
    allowed(auth);
    return status();
  });

  registerRoute(app, appBackupRoutes.settings, ({ auth, body }) => {
    allowed(auth);
    setBackupSettings(db, body);
    return status();
  });

  registerRoute(app, appBackupRoutes.now, async ({ auth }) => {
    allowed(auth);
    try {
      const scheduler = backgroundOf(db)?.backups;
      if (scheduler) await scheduler.backUpNow();
      else {
        if (!acquireLease(db, BACKUP_LEASE, 30 * 60_000)) throw new BackupBusy();
        try {
          await backUp(db, dataDir, { trigger: 'manual', mode: 'online' });
        } finally {
          releaseLease(db, BACKUP_LEASE);
        }
      }
    } catch (err) {
      if (err instanceof BackupBusy) throw conflict(err.message);
      throw err;
    }
    return status();
  });

  registerRoute(app, appBackupRoutes.restore, async ({ auth, body }) => {
    allowed(auth);
    const folder = backupFolder(dataDir, backupSettings(db));
    const archive = listBackups(folder).find((b) => b.name === body.name);
    if (!archive) throw notFound(`No backup named ${body.name} in the backup folder`);
    if (!acquireLease(db, BACKUP_LEASE, 30 * 60_000)) throw conflict('a backup of this data dir is being made right now');
    restoring.add(db);
    const resume = await pauseBackgroundWork(db);
    try {
      const startedAt = new Date().toISOString();
      const safety = await createBackup({
        db,
        dataDir,
        to: path.join(folder, archiveName(new Date(), 'restore')),
        mode: 'online',
        includeSecrets: true,
      });
      const before = teamCounters(db);
      const manifest = await restoreInto(db, archive.path, dataDir);
      migrate(db);
      advanceCountersPast(db, before);
      recordBackupRun(db, 'restore', { path: safety.path, size: safety.size, startedAt });
      return {
        restoredFrom: archive.name,
        createdAt: manifest.createdAt,
        safetyBackup: path.basename(safety.path),
        rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
        files: manifest.entries.length - 1,
      };
    } finally {
      restoring.delete(db);
      resume();
      releaseLease(db, BACKUP_LEASE);
    }
  });
}
