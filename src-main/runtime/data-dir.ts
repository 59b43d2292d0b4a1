import { type Db, type OpenOptions, openDatabase } from '../store/db';
import { installSubscriptions } from './subscriptions';

/**
 * Opens a data dir for this process: the database (migrated, with its pragmas), after the domain-event
 * subscriptions are in place, so no write of this process can miss the work its events set off. Every entry point
 * that writes (the server, each CLI command) opens its data dir through here.
 */
export function openDataDir(dataDir: string, options: OpenOptions = {}): Db {
  installSubscriptions();
  return openDatabase(dataDir, options);
}
