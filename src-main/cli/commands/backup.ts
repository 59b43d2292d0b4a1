import path from 'node:path';
import { Command, Option } from 'commander';
import { createBackup } from '../../backup/archive';
import { backupFolder } from '../../backup/folder';
import { BACKUP_LEASE } from '../../backup/scheduler';
import { listBackups } from '../../backup/service';
import { backupSettings, finishBackupRun, setBackupSettings, startBackupRun } from '../../store/backups/settings';
import { acquireLease, releaseLease } from '../../store/leases';
import { dataDirOption, parsePositiveInt, resolveDataDir, UsageError, withDatabase, withDatabaseAsync } from '../program';

/**
 * `finops backup`: one archive of the data dir (database, stored documents, invoice PDFs; secrets only with
 * `--include-secrets`), consistent while a server writes beside it (VACUUM INTO; docs/decisions/0185-backups.md).
 * `finops backup list` shows the backup folder's archives; `finops backup settings` the server's schedule.
 */
export function backupCommand(): Command {
  const backup = new Command('backup')
    .addOption(dataDirOption())
    .option('--to <file>', 'the archive to write (default: a new file in the backup folder)')
    .option('--include-secrets', "also the data dir's secret files (mail, IMAP and access-point passwords)")
    .action(async (opts: { dataDir?: string; to?: string; includeSecrets?: boolean }) => {
      const dataDir = resolveDataDir(opts);
      await withDatabaseAsync(opts, async (db) => {
        if (!acquireLease(db, BACKUP_LEASE, 30 * 60_000)) throw new Error('a backup of this data dir is being made right now');
        const run = startBackupRun(db, 'cli');
        try {
          const started = performance.now();
          const settings = backupSettings(db);
          const to = opts.to
            ? path.resolve(opts.to)
            : path.join(
                backupFolder(dataDir, settings),
                (await import('../../backup/restore')).archiveName(new Date(), 'manual'),
              );
          const made = await createBackup({
            db,
            dataDir,
            to,
            mode: 'vacuum',
            includeSecrets: opts.includeSecrets === true,
            onProgress: (phase, done, total) => {
              if (phase === 'files' && (done === total || done % 1000 === 0))
                process.stderr.write(`backup: ${done}/${total} entries\n`);
            },
          });
          finishBackupRun(db, run, { path: made.path, size: made.size });
          const rows = made.manifest.tables.reduce((n, t) => n + t.rows, 0);
          process.stderr.write(`backup: done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
          process.stdout.write(
            `${made.path}\n${made.size} bytes, schema version ${made.manifest.schemaVersion}, ${made.manifest.tables.length} tables, ` +
              `${rows} rows, ${made.manifest.entries.length - 1} files${made.manifest.secretsIncluded ? ', secrets included' : ''}\n`,
          );
        } catch (err) {
          finishBackupRun(db, run, { error: err instanceof Error ? err.message : String(err) });
          throw err;
        } finally {
          releaseLease(db, BACKUP_LEASE);
        }
      });
    });
  backup
    .command('list')
    .description("the backup folder's archives, newest first (JSON lines)")
    .addOption(dataDirOption())
    .action((opts: { dataDir?: string }) => {
      const dataDir = resolveDataDir(opts);
      withDatabase(opts, (db) => {
        for (const b of listBackups(backupFolder(dataDir, backupSettings(db)))) process.stdout.write(`${JSON.stringify(b)}\n`);
      });
    });
  backup
    .command('settings')
    .description('the scheduled backups a server on this data dir makes (shown as JSON; options change them)')
    .addOption(dataDirOption())
    .addOption(new Option('--on', 'make scheduled backups').conflicts('off'))
    .option('--off', 'make none')
    .option('--every <hours>', 'hours between backups', parsePositiveInt)
    .option('--keep <n>', 'how many scheduled and hand-made backups to keep', parsePositiveInt)
    .option('--folder <dir>', 'where backups go (another disk is better; "default" = <data dir>/backups)')
    .addOption(new Option('--include-secrets', 'scheduled backups include the secret files').conflicts('noSecrets'))
    .option('--no-secrets', 'scheduled backups leave the secret files out')
    .action(
      (opts: {
        dataDir?: string;
        on?: boolean;
        off?: boolean;
        every?: number;
        keep?: number;
        folder?: string;
        includeSecrets?: boolean;
        secrets?: boolean;
      }) => {
        if (opts.every !== undefined && opts.every > 8760) throw new UsageError('--every: at most 8760 hours (a year)');
        if (opts.keep !== undefined && opts.keep > 1000) throw new UsageError('--keep: at most 1000');
        withDatabase(opts, (db) => {
          const change = {
            ...(opts.on ? { enabled: true } : opts.off ? { enabled: false } : {}),
            ...(opts.every !== undefined ? { intervalHours: opts.every } : {}),
            ...(opts.keep !== undefined ? { keep: opts.keep } : {}),
            ...(opts.folder !== undefined ? { folder: opts.folder === 'default' ? null : path.resolve(opts.folder) } : {}),
            ...(opts.includeSecrets ? { includeSecrets: true } : opts.secrets === false ? { includeSecrets: false } : {}),
          };
          const settings = Object.keys(change).length ? setBackupSettings(db, change) : backupSettings(db);
          process.stdout.write(
            `${JSON.stringify({ ...settings, resolvedFolder: backupFolder(resolveDataDir(opts), settings) })}\n`,
          );
        });
      },
    );
  return backup;
}
