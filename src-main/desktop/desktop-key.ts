/**
 * The desktop app's own API key for its local server ("per-install key").
 *
 * The renderer talks to the local server over HTTP like any other client, so it needs a key. The shell keeps the
 * key in the OS keychain; the database stores only its hash. On every start the host checks the key it was given:
 * - still active, for the desktop team → keep it;
 * - absent (first launch, keychain unavailable or wiped) or revoked → mint a new `apis.all` key named
 *   `DESKTOP_KEY_NAME` and revoke the team's previous desktop keys, which nobody can present any more.
 *
 * The desktop team is the data dir's first team (so `finops demo` data shows up in the app), or a new one named
 * `DEFAULT_DESKTOP_TEAM` in an empty data dir.
 */
import { createApiKey, findActiveApiKey, listApiKeys, revokeApiKey } from '../store/auth/api-keys';
import type { Db } from '../store/db';
import { firstTeamOrCreate, type Team } from '../store/teams/teams';

export const DESKTOP_KEY_NAME = 'desktop app';
export const DEFAULT_DESKTOP_TEAM = 'My company';

export function desktopTeam(db: Db): Team {
  return firstTeamOrCreate(db, DEFAULT_DESKTOP_TEAM);
}

export function ensureDesktopKey(db: Db, presented: string | null): { key: string; created: boolean; teamId: string } {
  const team = desktopTeam(db);
  if (presented) {
    const active = findActiveApiKey(db, presented);
    if (active && active.teamId === team.id) return { key: presented, created: false, teamId: team.id };
  }
  const { key, apiKey } = createApiKey(db, { teamId: team.id, name: DESKTOP_KEY_NAME, scopes: ['apis.all'] });
  for (const old of listApiKeys(db, team.id)) {
    if (old.name === DESKTOP_KEY_NAME && old.id !== apiKey.id && !old.revokedAt) revokeApiKey(db, old.id);
  }
  return { key, created: true, teamId: team.id };
}
