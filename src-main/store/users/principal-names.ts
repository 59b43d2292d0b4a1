import type { Db } from '../db';

/**
 * A principal (`user:<id>`, `api-key:<id>`, `oauth-client:<client id>`, `cli`, `deadline`: server/auth/principal.ts)
 * in words, as the team knows it: the member's, key's or client's name. Null for the CLI, a deadline, or a former
 * member, key or client (the principal itself stays on record).
 */
export function principalName(db: Db, teamId: string, principal: string | null): string | null {
  const [kind, id] = principal?.split(':', 2) ?? [];
  if (!id) return null;
  const sql =
    kind === 'user'
      ? 'SELECT u.full_name FROM team_members m JOIN users u ON u.id = m.user_id WHERE m.team_id = ? AND m.user_id = ?'
      : kind === 'api-key'
        ? 'SELECT name FROM api_keys WHERE team_id = ? AND id = ?'
        : kind === 'oauth-client'
          ? 'SELECT name FROM oauth_clients WHERE team_id = ? AND client_id = ?'
          : null;
  return sql ? ((db.prepare(sql).pluck().get(teamId, id) as string | undefined) ?? null) : null;
}
