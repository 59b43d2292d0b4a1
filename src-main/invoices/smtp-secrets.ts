import { readSecretFile, writeSecretEntry } from '../infra/secret-file';
import { canonicalHost } from '../outbound/allowance';
import { environmentSecretUse } from '../outbound/secret-binding';
import type { Db } from '../store/db';
import { getSmtpSettings, type SmtpSettings, setSmtpSettings } from '../store/invoices/smtp';

/**
 * SMTP passwords, kept out of the database: `<data dir>/secrets/smtp.json` ({teamId: password}; infra/secret-file.ts
 * keeps it 0600). A password can also come from the environment, FINOPS_SMTP_PASSWORD (a headless server's secret
 * manager), for a team without a stored one — but it is the operator's: only for the mail server
 * `$FINOPS_SMTP_HOST` names (`host` or `host:port`), or in a data dir of one team (outbound/secret-binding.ts).
 */

const NAME = 'smtp';

export const SMTP_PASSWORD_ENV = { secret: 'FINOPS_SMTP_PASSWORD', binding: 'FINOPS_SMTP_HOST' } as const;

/** The team's password for the mail server `target` (the environment's only where it may go there). */
export function readSmtpPassword(
  dataDir: string | undefined,
  teamId: string,
  env = process.env,
  target?: { host: string; port: number; singleTeam: boolean },
): string | undefined {
  const stored = dataDir ? readSecretFile<string>(dataDir, NAME)[teamId] : undefined;
  if (stored !== undefined || !env[SMTP_PASSWORD_ENV.secret] || !target) return stored;
  const use = environmentSecretUse(
    env,
    SMTP_PASSWORD_ENV,
    { host: target.host, port: target.port, defaultPort: target.port },
    target.singleTeam,
  );
  return use.use ? env[SMTP_PASSWORD_ENV.secret] : undefined;
}

/** Stores (or, with null, removes) a team's SMTP password. */
export function writeSmtpPassword(dataDir: string, teamId: string, password: string | null): void {
  writeSecretEntry(dataDir, NAME, teamId, password);
}

/** Whether the data dir holds a password for the team (the environment's is not looked at). */
export function hasSmtpPassword(dataDir: string, teamId: string): boolean {
  return Object.hasOwn(readSecretFile<string>(dataDir, NAME), teamId);
}

/**
 * Saves a team's mail server with its password, as `finops smtp set` and `PUT /app/smtp` do: a password given replaces
 * the stored one; no user name means no password; a server moved to another host drops the stored password unless
 * it is given again (it goes only to the server it was given for).
 */
export function saveSmtpSettings(
  db: Db,
  dataDir: string,
  teamId: string,
  settings: Omit<SmtpSettings, 'updatedAt'>,
  password: string | undefined,
): SmtpSettings {
  const before = getSmtpSettings(db, teamId);
  if (settings.username === null) writeSmtpPassword(dataDir, teamId, null);
  else if (password !== undefined) writeSmtpPassword(dataDir, teamId, password);
  else if (before && canonicalHost(before.host) !== canonicalHost(settings.host)) writeSmtpPassword(dataDir, teamId, null);
  return setSmtpSettings(db, teamId, settings);
}
