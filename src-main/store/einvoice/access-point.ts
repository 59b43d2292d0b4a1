import type { ACCESS_POINT_PROVIDERS } from '../../../src-shared/contract/app-einvoice-delivery';
import type { Db } from '../db';

/**
 * A team's Peppol access point (docs/decisions/0162-peppol-access-point.md): the provider, its API's base URL and
 * the legal entity it sends on behalf of. The API key is never stored here: it lives in the data dir's secret file
 * (src-main/einvoice/access-point/secrets.ts), as the SMTP password does.
 */

export type AccessPointProvider = (typeof ACCESS_POINT_PROVIDERS)[number];

export interface AccessPointSettings {
  provider: AccessPointProvider;
  baseUrl: string;
  legalEntityId: number;
  updatedAt: string;
}

interface Row {
  provider: AccessPointProvider;
  base_url: string;
  legal_entity_id: number;
  updated_at: string;
}

export function getAccessPoint(db: Db, teamId: string): AccessPointSettings | undefined {
  const r = db.prepare('SELECT * FROM einvoice_access_points WHERE team_id = ?').get(teamId) as Row | undefined;
  return r ? { provider: r.provider, baseUrl: r.base_url, legalEntityId: r.legal_entity_id, updatedAt: r.updated_at } : undefined;
}

export function setAccessPoint(db: Db, teamId: string, s: Omit<AccessPointSettings, 'updatedAt'>): AccessPointSettings {
  db.prepare(
    `INSERT INTO einvoice_access_points (team_id, provider, base_url, legal_entity_id, updated_at)
     VALUES (@team, @provider, @baseUrl, @legalEntityId, @now)
     ON CONFLICT (team_id) DO UPDATE SET provider = excluded.provider, base_url = excluded.base_url,
       legal_entity_id = excluded.legal_entity_id, updated_at = excluded.updated_at`,
  ).run({ team: teamId, ...s, now: new Date().toISOString() });
  return getAccessPoint(db, teamId)!;
}

/** Removes the team's access point; hand-offs not yet made wait until one is set again. */
export function clearAccessPoint(db: Db, teamId: string): boolean {
  return db.prepare('DELETE FROM einvoice_access_points WHERE team_id = ?').run(teamId).changes > 0;
}
