import { readSecretFile, writeSecretEntry } from '../runtime/secret-file';

/**
 * SMTP passwords, kept out of the database: `<data dir>/secrets/smtp.json` ({teamId: password}; runtime/secret-file.ts
 * keeps it 0600). A password can also come from the environment, FINOPS_SMTP_PASSWORD, which applies to every team
 * without a stored one (a headless server's secret manager).
 */

const NAME = 'smtp';

export function readSmtpPassword(dataDir: string | undefined, teamId: string, env = process.env): string | undefined {
  const stored = dataDir ? readSecretFile<string>(dataDir, NAME)[teamId] : undefined;
  return stored ?? (env.FINOPS_SMTP_PASSWORD || undefined);
}

/** Stores (or, with null, removes) a team's SMTP password. */
export function writeSmtpPassword(dataDir: string, teamId: string, password: string | null): void {
  writeSecretEntry(dataDir, NAME, teamId, password);
}

/** Whether the data dir holds a password for the team (the environment's is not looked at). */
export function hasSmtpPassword(dataDir: string, teamId: string): boolean {
  return Object.hasOwn(readSecretFile<string>(dataDir, NAME), teamId);
}
