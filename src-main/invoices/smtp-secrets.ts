import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * SMTP passwords, kept out of the database: `<data dir>/secrets/smtp.json` ({teamId: password}), the folder 0700 and
 * the file 0600, written atomically (temporary file, then rename). A password can also come from the environment,
 * FINOPS_SMTP_PASSWORD, which applies to every team without a stored one (a headless server's secret manager).
 */

const FILE = path.join('secrets', 'smtp.json');

function file(dataDir: string): string {
  return path.join(dataDir, FILE);
}

function readAll(dataDir: string): Record<string, string> {
  try {
    const v = JSON.parse(fs.readFileSync(file(dataDir), 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function readSmtpPassword(dataDir: string | undefined, teamId: string, env = process.env): string | undefined {
  const stored = dataDir ? readAll(dataDir)[teamId] : undefined;
  return stored ?? (env.FINOPS_SMTP_PASSWORD || undefined);
}

/** Stores (or, with null, removes) a team's SMTP password. */
export function writeSmtpPassword(dataDir: string, teamId: string, password: string | null): void {
  const all = readAll(dataDir);
  if (password === null) delete all[teamId];
  else all[teamId] = password;
  const target = file(dataDir);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(target), 0o700);
  const tmp = `${target}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, target);
}

/** Whether the data dir holds a password for the team (the environment's is not looked at). */
export function hasSmtpPassword(dataDir: string, teamId: string): boolean {
  return Object.hasOwn(readAll(dataDir), teamId);
}
