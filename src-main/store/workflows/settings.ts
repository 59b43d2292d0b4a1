import { normalizeHttpHost } from '../../../src-shared/domain/http-hosts';
import type { Db } from '../db';
import { InvalidReference } from '../errors';
import { nowIso } from '../ids';

/**
 * A team's workflow settings, kept with its data in the data dir's database (docs/decisions/0149): every process
 * that advances a run — the server, `finops workflow approve` — reads the same ones, so a run goes the same way
 * wherever it is advanced. Today: the hosts HTTP nodes may call (empty: HTTP nodes are off). Local configuration,
 * never synced (entities.ts NOT_ENTITIES).
 */
export interface WorkflowSettings {
  httpHosts: string[];
  updatedAt: string | null;
}

export function getWorkflowSettings(db: Db, teamId: string): WorkflowSettings {
  const row = db.prepare('SELECT http_hosts, updated_at FROM workflow_settings WHERE team_id = ?').get(teamId) as
    | { http_hosts: string; updated_at: string }
    | undefined;
  return row
    ? { httpHosts: JSON.parse(row.http_hosts) as string[], updatedAt: row.updated_at }
    : { httpHosts: [], updatedAt: null };
}

/** The hosts HTTP nodes of the team's runs may call. */
export function teamHttpHosts(db: Db, teamId: string): readonly string[] {
  return getWorkflowSettings(db, teamId).httpHosts;
}

/** Replaces the allow-list (entries normalised, duplicates dropped, sorted); a bad entry is refused by its index. */
export function setWorkflowSettings(db: Db, teamId: string, input: { httpHosts: readonly string[] }): WorkflowSettings {
  const hosts = new Set<string>();
  input.httpHosts.forEach((entry, i) => {
    const n = normalizeHttpHost(entry);
    if ('problem' in n) throw new InvalidReference(`httpHosts[${i}]`, `httpHosts[${i}]: ${n.problem}`);
    hosts.add(n.host);
  });
  db.prepare(
    `INSERT INTO workflow_settings (team_id, http_hosts, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (team_id) DO UPDATE SET http_hosts = excluded.http_hosts, updated_at = excluded.updated_at`,
  ).run(teamId, JSON.stringify([...hosts].sort()), nowIso());
  return getWorkflowSettings(db, teamId);
}
