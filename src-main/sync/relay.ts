import type { Db } from '../store/db';
import { remoteIdOf } from '../store/sync/records';
import { type SyncRemote, teamRemote } from '../store/sync/remotes';
import { isSingleTeam } from '../store/teams/teams';
import { NoCredential, remoteCredential, type ServerCredentialSources } from './credentials';
import { CredentialsRejected, RemoteClient, RemoteUnavailable } from './remote-client';

/**
 * Calls this server cannot answer itself — they need a service only the remote reaches (a payment provider) — sent
 * on to the team's sync remote (docs/decisions/0140-sync-engine.md) through the sync engine's HTTP client with the
 * team's credential, and answered with what the remote said. Without a remote, or when the remote cannot be
 * reached or refuses the credential, the outcome says so with the reason: the caller answers "not connected"
 * truthfully, never a success it did not get.
 */

export type RelayOutcome =
  | { kind: 'offline'; reason: string }
  | { kind: 'answered'; remote: SyncRemote; status: number; body: unknown; location: string | null };

export interface RelayRequest {
  method: 'GET' | 'POST';
  /** Relative to the remote's base URL (which ends in /v1), e.g. `/invoice-payments/stripe-status`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

export const NO_REMOTE =
  'This server has no payment provider of its own and the team has no sync remote to reach one through. ' +
  'Connect a remote that has one (the Sync screen, or `finops sync`).';

export async function relayToRemote(
  db: Db,
  teamId: string,
  request: RelayRequest,
  sources: ServerCredentialSources = {},
  noRemote = NO_REMOTE,
): Promise<RelayOutcome> {
  const remote = teamRemote(db, teamId);
  if (!remote) return { kind: 'offline', reason: noRemote };
  try {
    const client = new RemoteClient({
      baseUrl: remote.baseUrl,
      credential: await remoteCredential(remote, sources, isSingleTeam(db), db),
      // A person waits for the answer: a few quick tries, never the round's long back-off.
      attempts: 2,
      rateLimitAttempts: 1,
      timeoutMs: 20_000,
      redirect: 'manual',
    });
    const res = await client.request(request.method, request.path, {
      query: request.query,
      body: request.body,
      idempotencyKey: request.idempotencyKey,
    });
    return { kind: 'answered', remote, status: res.status, body: res.body, location: res.headers.get('location') };
  } catch (err) {
    if (err instanceof NoCredential)
      return { kind: 'offline', reason: `No credential for the remote ${remote.baseUrl}: ${err.message}` };
    if (err instanceof CredentialsRejected || err instanceof RemoteUnavailable) {
      return { kind: 'offline', reason: `The remote ${remote.baseUrl} did not answer the call: ${err.message}` };
    }
    throw err;
  }
}

/**
 * The id a local record has on the team's remote (a synced record's id map), or undefined when the remote has no
 * copy of it (never synced, or no remote).
 */
export function remoteRecordId(db: Db, teamId: string, entity: string, localId: string): string | undefined {
  const remote = teamRemote(db, teamId);
  return remote ? remoteIdOf(db, remote.id, entity, localId) : undefined;
}
