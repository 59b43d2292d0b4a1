import { type Db, type OpenEvent, type OpenOptions, openDatabase } from '../store/db';
import { installSubscriptions } from './subscriptions';

/**
 * Opens a data dir for this process: the database (checked, backed up before a migration, migrated, with its
 * pragmas), after the domain-event subscriptions are in place, so no write of this process can miss the work its
 * events set off. Every entry point that writes (the server, each CLI command) opens its data dir through here.
 * What opening did worth saying (the backup before a migration and where it is, each migration) goes to
 * `options.onEvent`, by default one line each on stderr.
 */
export function openDataDir(dataDir: string, options: OpenOptions = {}): Db {
  installSubscriptions();
  return openDatabase(dataDir, { ...options, onEvent: options.onEvent ?? printOpenEvent });
}

export function describeOpenEvent(event: OpenEvent): string | undefined {
  switch (event.type) {
    case 'backup':
      return `backed up the database to ${event.path} before migrating it from schema version ${event.from} to ${event.to}`;
    case 'migration':
      return `migrating: step ${event.index + 1} of ${event.total} (${event.version} ${event.name})`;
    case 'migrated':
      return `migrated the database from schema version ${event.from} to ${event.to} in ${(event.ms / 1000).toFixed(1)} s`;
    default:
      return undefined;
  }
}

export function printOpenEvent(event: OpenEvent): void {
  const line = describeOpenEvent(event);
  if (line) process.stderr.write(`finops: ${line}\n`);
}
