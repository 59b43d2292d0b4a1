import type { ConnectionTestResult } from '../../src-shared/contract/app-sync';
import type { Db } from '../store/db';
import { getTeam } from '../store/teams/teams';
import { type Credential, CredentialsRejected, isNetworkFailure, ok, RemoteClient, RemoteUnavailable } from './remote-client';
import { baseCurrencyMismatch } from './round';

/**
 * A connection test before a team is connected (the Sync screen): `GET /teams` on the remote with the credential,
 * once, with a short timeout, answering which team the credential belongs to and its base currency, or why a round
 * could not sync with it — said for the person who typed the address and the key. A first round makes the same
 * checks (round.ts); this one writes nothing.
 */
export async function testConnection(
  db: Db,
  teamId: string,
  baseUrl: string,
  credential: Credential,
  options: { timeoutMs?: number } = {},
): Promise<ConnectionTestResult> {
  const baseCurrency = getTeam(db, teamId).baseCurrency;
  const refused = (reason: string, reachable = true): ConnectionTestResult => ({
    ok: false,
    reason,
    reachable,
    team: null,
    baseCurrency,
  });
  const client = new RemoteClient({
    baseUrl,
    credential,
    attempts: 1,
    rateLimitAttempts: 1,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  let res: Awaited<ReturnType<typeof client.request<{ data?: unknown }>>>;
  try {
    res = await client.request<{ data?: unknown }>('GET', '/teams');
  } catch (err) {
    if (err instanceof CredentialsRejected) {
      return refused(
        err.status === 401
          ? 'The remote did not accept this API key (401). Check that it is a key of that server and that it was not revoked.'
          : 'The remote accepted the key but refused it access to its team (403). Sync needs a key with every scope (apis.all).',
      );
    }
    if (err instanceof RemoteUnavailable && isNetworkFailure(err.message)) {
      return refused(
        `No answer from ${new URL(baseUrl).origin}. Check the address, and that the remote server is running and reachable from this server.`,
        false,
      );
    }
    if (err instanceof RemoteUnavailable) return refused(`The remote could not answer: ${err.message}`);
    throw err;
  }
  const first = ok(res.status) && Array.isArray(res.body?.data) ? (res.body.data[0] as Record<string, unknown>) : undefined;
  if (!first || typeof first.id !== 'string') {
    return refused(
      `The address answered GET /teams with ${res.status} but no team. Is it the base URL of a v1 API (ending in /v1)?`,
    );
  }
  const team = {
    id: first.id,
    name: typeof first.name === 'string' ? first.name : null,
    baseCurrency: typeof first.baseCurrency === 'string' ? first.baseCurrency : null,
  };
  if (team.baseCurrency && team.baseCurrency !== baseCurrency) {
    return {
      ok: false,
      reason: capitalised(baseCurrencyMismatch(team.baseCurrency, baseCurrency)),
      reachable: true,
      team,
      baseCurrency,
    };
  }
  return { ok: true, reason: null, reachable: true, team, baseCurrency };
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
