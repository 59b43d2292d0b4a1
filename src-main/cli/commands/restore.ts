import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { createBackup } from '../../backup/archive';
import { backupFolder } from '../../backup/folder';
import { archiveName, dataDirIsEmpty, RestoreRefused, restoreDataDir, serversOn } from '../../backup/restore';
import { openDataDir } from '../../runtime/data-dir';
import { backupSettings, recordBackupRun } from '../../store/backups/settings';
import { DB_FILE_NAME } from '../../store/db';
import { dataDirOption, resolveDataDir } from '../program';

/**
 * `finops restore --from FILE --data-dir DIR [--force]`: a backup put back into a data dir no server runs on
 * (backup/restore.ts: unpacked beside it, every entry checked against the manifest, the database copy checked,
 * then moved in). A data dir with data is refused unless `--force`; its current state is then backed up first.
 */
export function restoreCommand(): Command {
  return new Command('restore')
    .requiredOption('--from <file>', 'the archive written by finops backup (or the app)')
    .addOption(dataDirOption())
    .option('--force', "replace the data dir's data (backed up first into its backup folder)")
    .action(async (opts: { from: string; dataDir?: string; force?: boolean }) => {
      const dataDir = path.resolve(resolveDataDir(opts));
      let safety: string | undefined;
      if (!dataDirIsEmpty(dataDir) && !opts.force) {
        throw new RestoreRefused(`${dataDir} is not empty; restore into an empty folder, or pass --force to replace its data`);
      }
      const servers = serversOn(dataDir);
      if (servers.length) {
        throw new RestoreRefused(
          `a server is running on ${dataDir} (${servers.join(', ')}); stop it first, or restore from its Settings screen`,
        );
      }
      if (opts.force && fs.existsSync(path.join(dataDir, DB_FILE_NAME))) {
        const db = openDataDir(dataDir);
        try {
          const startedAt = new Date().toISOString();
          const made = await createBackup({
            db,
            dataDir,
            to: path.join(backupFolder(dataDir, backupSettings(db)), archiveName(new Date(), 'restore')),
            mode: 'vacuum',
            includeSecrets: true,
          });
          recordBackupRun(db, 'restore', { path: made.path, size: made.size, startedAt });
          safety = made.path;
          process.stderr.write(`restore: the data dir's current state is backed up to ${made.path}\n`);
        } finally {
          db.close();
        }
      }
      const manifest = await restoreDataDir({ from: opts.from, dataDir, force: opts.force });
      // Opening it migrates a backup of an older version (backed up first, like any migration) and checks it.
      openDataDir(dataDir, { check: true }).close();
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      process.stdout.write(
        `restored ${path.resolve(opts.from)} (made ${manifest.createdAt}, schema version ${manifest.schemaVersion}) into ${dataDir}: ` +
          `${manifest.tables.length} tables, ${rows} rows, ${manifest.entries.length - 1} files verified` +
          `${manifest.secretsIncluded ? ', secrets included' : ''}${safety ? `; the previous state is in ${safety}` : ''}\n`,
      );
    });
}
