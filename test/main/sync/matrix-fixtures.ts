import { recordConflict } from '../../../src-main/store/sync/conflicts';
import { ensureRemote, teamRemote } from '../../../src-main/store/sync/remotes';
import { write } from '../../../src-main/store/write';
import type { TestApi } from '../../helpers/api';

/**
 * The Sync screen's routes in the authorization matrix (test/main/server/authorization-matrix.test.ts spreads these
 * into its tables). Changing how a team syncs is team administration: a key granted exactly the route's scope
 * (`teams.write`), with no person behind it and without `apis.all`, is refused with 403
 * (docs/decisions/0145-sync-screen.md); the owner's full access is tested in test/main/server/routes/app-sync.test.ts.
 */
const NOWHERE = 'http://127.0.0.1:9/v1';
let n = 0;

/** An open conflict of the token's team, on a tag of its own (each one unique, so none is deduplicated). */
async function matrixConflict(api: TestApi, token: string): Promise<string> {
  const teamId = (await api.call('GET', '/v1/teams', { token })).json().data[0].id as string;
  const remote = teamRemote(api.db, teamId) ?? ensureRemote(api.db, teamId, { baseUrl: NOWHERE });
  const name = `Matrix sync ${++n}`;
  const localId = write(api.db, teamId, (w) => w.insert('tag', { name }));
  recordConflict(api.db, {
    teamId,
    remoteId: remote.id,
    entity: 'tag',
    localId,
    kind: 'fields',
    group: 'name',
    fields: ['name'],
    base: { name },
    local: { name: `${name} here` },
    remote: { name: `${name} there` },
    rule: 'remote wins',
    winner: 'remote',
  });
  return api.db
    .prepare('SELECT id FROM sync_conflicts WHERE team_id = ? AND local_id = ?')
    .pluck()
    .get(teamId, localId) as string;
}

/** A 1×1 PNG, the smallest receipt the upload routes take. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A manual transaction of the token's team (a receipt's holder). */
async function matrixTransaction(api: TestApi, token: string): Promise<string> {
  const account = (
    await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Matrix receipts', currency: 'EUR', type: 'depository' } })
  ).json().id as string;
  return (
    await api.call('POST', '/v1/transactions', {
      token,
      body: { bankAccountId: account, name: 'Matrix lunch', amount: -12, currency: 'EUR', date: '2026-01-02' },
    })
  ).json().id as string;
}

/** A receipt on a transaction of the token's team (docs/decisions/0151-document-sync.md). */
async function matrixReceipt(api: TestApi, token: string): Promise<string> {
  const transactionId = await matrixTransaction(api, token);
  return (await api.call('POST', '/v1/transaction-attachments', { token, body: { transactionId, content: PNG } })).json()
    .id as string;
}

export const SYNC_FIXTURES: Record<string, (api: TestApi, token: string) => Promise<string>> = {
  '/app/sync/conflicts/{id}/resolve': matrixConflict,
  '/v1/transaction-attachments/{id}': matrixReceipt,
  '/v1/transaction-attachments/{id}/download': matrixReceipt,
  // A sign-in nobody started: an owner meets 404, everyone else the 403 of team administration.
  '/app/sync/oauth/sign-ins/{state}': async () => 'matrix-state',
};

/** Bodies that name a record of the owner's team, made before the call. */
export const SYNC_MADE_BODIES: Record<string, (api: TestApi, token: string) => Promise<unknown>> = {
  'POST /v1/transaction-attachments': async (api, token) => ({
    transactionId: await matrixTransaction(api, token),
    fileName: 'matrix.png',
    content: PNG,
  }),
};

export const SYNC_BODIES: Record<string, unknown> = {
  'PUT /app/sync/remote': { baseUrl: NOWHERE },
  'PUT /app/sync/credential': { apiKey: 'matrix-key' },
  'POST /app/sync/test': { baseUrl: NOWHERE, apiKey: 'matrix-key' },
  'POST /app/sync/conflicts/{id}/resolve': { take: 'local' },
  'POST /app/sync/conflicts/resolve': { take: 'local', ids: ['matrix-conflict'] },
  'POST /app/sync/oauth/start': { baseUrl: NOWHERE, clientId: 'matrix-client' },
  'POST /app/sync/oauth/finish': { state: 'matrix-state', code: 'matrix-code' },
};

export const SYNC_REFUSED: Record<string, number> = Object.fromEntries(
  [
    'PUT /app/sync/remote',
    'DELETE /app/sync/remote',
    'PUT /app/sync/credential',
    'POST /app/sync/test',
    'POST /app/sync/run',
    'POST /app/sync/conflicts/{id}/resolve',
    'POST /app/sync/conflicts/resolve',
    'POST /app/sync/oauth/start',
    'POST /app/sync/oauth/finish',
    'GET /app/sync/oauth/sign-ins/{state}',
    'DELETE /app/sync/oauth/sign-ins/{state}',
  ].map((op) => [op, 403]),
);
