import { readSecretFile, writeSecretEntry } from '../../infra/secret-file';

/**
 * Access-point API keys, kept out of the database as the SMTP password is: `<data dir>/secrets/peppol.json`
 * ({teamId: key}; infra/secret-file.ts keeps it 0600). Written by the settings route, read by the hand-off
 * runner, never answered back.
 */

const NAME = 'peppol';

export function readAccessPointKey(dataDir: string | undefined, teamId: string): string | undefined {
  return dataDir ? readSecretFile<string>(dataDir, NAME)[teamId] : undefined;
}

/** Stores (or, with null, removes) a team's key. */
export function writeAccessPointKey(dataDir: string, teamId: string, key: string | null): void {
  writeSecretEntry(dataDir, NAME, teamId, key);
}
