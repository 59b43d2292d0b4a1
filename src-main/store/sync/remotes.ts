import type { Db } from '../db';
import { NotFound } from '../errors';
import { newId, nowIso } from '../ids';
import { TEAM_REMOTE_SQL } from '../team-remote-sql';

/**
 * The remotes a team syncs with (docs/decisions/0140-sync-engine.md): where (a base URL ending in `/v1`), what kind
 * (another Finops Desk server, or the hosted service), how it signs in, and its round state for status screens.
 * The credential is never stored here: `credentialRef` names the secret in the OS keychain; a command may also
 * bring it (`--token`, `$FINOPS_REMOTE_TOKEN`).
 */
export type RemoteKind = 'finops' | 'hosted';
export type RemoteState = 'idle' | 'running' | 'failed' | 'credentials_expired' | 'refused';
export type AuthKind = 'api_key' | 'oauth';
/** `chosen`: someone named the kind (kept); `found`: a round's probe found it (checked again when the remote answers otherwise). */
export type KindSource = 'chosen' | 'found';

export interface RoundSummary {
  pulled: number;
  pushed: number;
  conflicts: number;
  /** Changes the remote failed on (tried again next round); absent in summaries of older rounds. */
  failed?: number;
  finishedAt: string;
}

export interface SyncRemote {
  id: string;
  teamId: string;
  name: string;
  baseUrl: string;
  kind: RemoteKind;
  kindSource: KindSource;
  remoteTeamId: string | null;
  credentialRef: string | null;
  authKind: AuthKind;
  oauthClientId: string | null;
  enabled: boolean;
  state: RemoteState;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastSummary: RoundSummary | null;
  roundStartedAt: string | null;
  progress: { phase: string | null; done: number; total: number };
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  team_id: string;
  name: string;
  base_url: string;
  kind: RemoteKind;
  kind_source: KindSource;
  remote_team_id: string | null;
  credential_ref: string | null;
  auth_kind: AuthKind;
  oauth_client_id: string | null;
  enabled: number;
  state: RemoteState;
  last_success_at: string | null;
  last_error: string | null;
  last_summary: string | null;
  round_started_at: string | null;
  progress_phase: string | null;
  progress_done: number;
  progress_total: number;
  created_at: string;
  updated_at: string;
}

function toRemote(r: Row): SyncRemote {
  return {
    id: r.id,
    teamId: r.team_id,
    name: r.name,
    baseUrl: r.base_url,
    kind: r.kind,
    kindSource: r.kind_source,
    remoteTeamId: r.remote_team_id,
    credentialRef: r.credential_ref,
    authKind: r.auth_kind,
    oauthClientId: r.oauth_client_id,
    enabled: r.enabled === 1,
    state: r.state,
    lastSuccessAt: r.last_success_at,
    lastError: r.last_error,
    lastSummary: r.last_summary ? (JSON.parse(r.last_summary) as RoundSummary) : null,
    roundStartedAt: r.round_started_at,
    progress: { phase: r.progress_phase, done: r.progress_done, total: r.progress_total },
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** `https://host/v1/` and `https://host/v1` are one remote: no trailing slash, scheme and host lower-cased. */
export function normalizeBaseUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

export interface RemoteInput {
  baseUrl: string;
  /** Chosen by someone; left out, the first round finds it (docs/decisions/0180-remote-kind-probe.md). */
  kind?: RemoteKind;
  name?: string;
  authKind?: AuthKind;
  credentialRef?: string | null;
  oauthClientId?: string | null;
}

/** The team's remote at this URL, created on first use (one team syncs with one remote at a time). */
export function ensureRemote(db: Db, teamId: string, input: RemoteInput): SyncRemote {
  const baseUrl = normalizeBaseUrl(input.baseUrl);
  return db
    .transaction(() => {
      const existing = db.prepare('SELECT * FROM sync_remotes WHERE team_id = ? AND base_url = ?').get(teamId, baseUrl) as
        | Row
        | undefined;
      const now = nowIso();
      if (existing) {
        db.prepare(
          `UPDATE sync_remotes SET kind = coalesce(?, kind),
             kind_source = CASE WHEN ? IS NULL THEN kind_source ELSE 'chosen' END, auth_kind = coalesce(?, auth_kind),
             credential_ref = coalesce(?, credential_ref), oauth_client_id = coalesce(?, oauth_client_id),
             name = coalesce(?, name), updated_at = ? WHERE id = ?`,
        ).run(
          input.kind ?? null,
          input.kind ?? null,
          input.authKind ?? null,
          input.credentialRef ?? null,
          input.oauthClientId ?? null,
          input.name ?? null,
          now,
          existing.id,
        );
        return getRemote(db, teamId, existing.id);
      }
      const others = db
        .prepare('SELECT count(*) FROM sync_remotes WHERE team_id = ? AND enabled = 1')
        .pluck()
        .get(teamId) as number;
      if (others > 0) {
        throw new RemoteTaken(
          'This team already syncs with another remote. A team keeps one remote: remove the other one first (its records would otherwise be pushed to both).',
        );
      }
      const id = newId();
      db.prepare(
        `INSERT INTO sync_remotes (id, team_id, name, base_url, kind, kind_source, auth_kind, credential_ref, oauth_client_id,
           created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        teamId,
        input.name ?? new URL(baseUrl).host,
        baseUrl,
        // Until the first round's probe: a Finops Desk server, the kind that asks least of the remote to find out.
        input.kind ?? 'finops',
        input.kind ? 'chosen' : 'found',
        input.authKind ?? 'api_key',
        input.credentialRef ?? null,
        input.oauthClientId ?? null,
        now,
        now,
      );
      return getRemote(db, teamId, id);
    })
    .immediate();
}

export class RemoteTaken extends Error {
  override name = 'RemoteTaken';
}

export function getRemote(db: Db, teamId: string, id: string): SyncRemote {
  const row = db.prepare('SELECT * FROM sync_remotes WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
  if (!row) throw new NotFound('sync remote', id);
  return toRemote(row);
}

/** The team's enabled remote, if it has one. */
export function teamRemote(db: Db, teamId: string): SyncRemote | undefined {
  const row = db.prepare(TEAM_REMOTE_SQL).get(teamId) as Row | undefined;
  return row ? toRemote(row) : undefined;
}

/** Every enabled remote of every team (the scheduler's work list). */
export function enabledRemotes(db: Db): SyncRemote[] {
  return (db.prepare('SELECT * FROM sync_remotes WHERE enabled = 1 ORDER BY team_id, created_at').all() as Row[]).map(toRemote);
}

export function removeRemote(db: Db, teamId: string, id: string): void {
  const r = db.prepare('DELETE FROM sync_remotes WHERE team_id = ? AND id = ?').run(teamId, id);
  if (r.changes === 0) throw new NotFound('sync remote', id);
}

export interface StateChange {
  state?: RemoteState;
  lastError?: string | null;
  lastSuccessAt?: string;
  lastSummary?: RoundSummary;
  roundStartedAt?: string | null;
  progress?: { phase: string | null; done: number; total: number };
  remoteTeamId?: string;
}

/** Records the kind a round found the remote to be (a probe of its change feed, docs/decisions/0180-remote-kind-probe.md). */
export function setFoundKind(db: Db, remoteId: string, kind: RemoteKind): void {
  db.prepare(`UPDATE sync_remotes SET kind = ?, kind_source = 'found', updated_at = ? WHERE id = ?`).run(
    kind,
    nowIso(),
    remoteId,
  );
}

/** Records a round's state, progress or outcome (read by `finops sync status` and the app's status route). */
export function setRemoteState(db: Db, remoteId: string, change: StateChange): void {
  const sets: string[] = ['updated_at = @now'];
  const params: Record<string, unknown> = { id: remoteId, now: nowIso() };
  const set = (column: string, value: unknown) => {
    sets.push(`${column} = @${column}`);
    params[column] = value;
  };
  if (change.state !== undefined) set('state', change.state);
  if (change.lastError !== undefined) set('last_error', change.lastError);
  if (change.lastSuccessAt !== undefined) set('last_success_at', change.lastSuccessAt);
  if (change.lastSummary !== undefined) set('last_summary', JSON.stringify(change.lastSummary));
  if (change.roundStartedAt !== undefined) set('round_started_at', change.roundStartedAt);
  if (change.remoteTeamId !== undefined) set('remote_team_id', change.remoteTeamId);
  if (change.progress !== undefined) {
    set('progress_phase', change.progress.phase);
    set('progress_done', change.progress.done);
    set('progress_total', change.progress.total);
  }
  db.prepare(`UPDATE sync_remotes SET ${sets.join(', ')} WHERE id = @id`).run(params);
}
