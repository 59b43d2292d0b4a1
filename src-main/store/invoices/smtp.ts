import type { Db } from '../db';
import { write } from '../write';
import { activateAwaitingDeliveries, suspendQueuedDeliveries } from './deliveries';

/**
 * A team's outgoing mail server (docs/decisions/0074): host, port, security, user name and sender. The password is
 * never stored in the database: it lives in the data dir's secret file (src-main/invoices/smtp-secrets.ts).
 * Setting it hands the team's emails waiting for sync to the SMTP sender; clearing it hands them back.
 */

export type SmtpSecurity = 'tls' | 'starttls' | 'none';

export interface SmtpSettings {
  host: string;
  port: number;
  /** tls: TLS from the first byte (port 465); starttls: upgrade required (587); none: plain (a local relay, tests). */
  security: SmtpSecurity;
  username: string | null;
  fromAddress: string;
  fromName: string | null;
  updatedAt: string;
}

interface Row {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  from_address: string;
  from_name: string | null;
  updated_at: string;
}

export function getSmtpSettings(db: Db, teamId: string): SmtpSettings | undefined {
  const r = db.prepare('SELECT * FROM smtp_settings WHERE team_id = ?').get(teamId) as Row | undefined;
  return r
    ? {
        host: r.host,
        port: r.port,
        security: r.security,
        username: r.username,
        fromAddress: r.from_address,
        fromName: r.from_name,
        updatedAt: r.updated_at,
      }
    : undefined;
}

export function setSmtpSettings(db: Db, teamId: string, s: Omit<SmtpSettings, 'updatedAt'>): SmtpSettings {
  db.transaction(() => {
    db.prepare(
      `INSERT INTO smtp_settings (team_id, host, port, security, username, from_address, from_name, updated_at)
       VALUES (@team, @host, @port, @security, @username, @from, @fromName, @now)
       ON CONFLICT (team_id) DO UPDATE SET host = excluded.host, port = excluded.port, security = excluded.security,
         username = excluded.username, from_address = excluded.from_address, from_name = excluded.from_name,
         updated_at = excluded.updated_at`,
    ).run({
      team: teamId,
      host: s.host,
      port: s.port,
      security: s.security,
      username: s.username,
      from: s.fromAddress,
      fromName: s.fromName,
      now: new Date().toISOString(),
    });
    activateAwaitingDeliveries(db, teamId);
  }).immediate();
  return getSmtpSettings(db, teamId)!;
}

/** Removes the team's SMTP settings; its queued emails wait for sync again. Returns whether there were settings. */
export function clearSmtpSettings(db: Db, teamId: string): boolean {
  return write(
    db,
    teamId,
    () => {
      const had = db.prepare('DELETE FROM smtp_settings WHERE team_id = ?').run(teamId).changes > 0;
      suspendQueuedDeliveries(db, teamId);
      return had;
    },
    { origin: 'system' },
  );
}
