import path from 'node:path';
import type { BackupSettings } from '../store/backups/settings';

/** The folder inside a data dir where its backups go unless its operator names another (a backup never holds it). */
export const BACKUPS_DIR_NAME = 'backups';

export function backupFolder(dataDir: string, settings: Pick<BackupSettings, 'folder'>): string {
  return settings.folder ? path.resolve(settings.folder) : path.join(dataDir, BACKUPS_DIR_NAME);
}
