import crypto from 'node:crypto';
import { isScope, type Scope } from '../../../../src-shared/contract/scopes';
import type { Db } from '../../db';
import { InvalidReference } from '../../errors';
import { newId } from '../../ids';
import { hashSecret } from '../api-keys';
import { checkRedirectUri, REDIRECT_URI_PROBLEMS } from './checks';
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, hasShape, newSecret } from './secrets';

/** OAuth clients: registration, lookup and authentication at the token and revocation endpoints. */

export interface OAuthClient {
  /** Internal row id. */
  id: string;
  /** The public `client_id`. */
  clientId: string;
  teamId: string;
  name: string;
  /** No secret: PKCE is then required, and the client-credentials grant is refused. */
  isPublic: boolean;
  redirectUris: string[];
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

interface ClientRow {
  id: string;
  client_id: string;
  team_id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

const toClient = (r: ClientRow): OAuthClient => ({
  id: r.id,
  clientId: r.client_id,
  teamId: r.team_id,
  name: r.name,
  isPublic: r.secret_hash === null,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  scopes: r.scopes.split(' ').filter(isScope),
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/**
 * Registers a client for the team. Redirect URIs must pass `checkRedirectUri`; a public client needs at least one
 * (it can only use the code flow). Returns the client secret once (null for a public client).
 */
export function createClient(
  db: Db,
  teamId: string,
  input: { name: string; scopes: readonly Scope[]; redirectUris: readonly string[]; isPublic: boolean },
  now = new Date(),
): { client: OAuthClient; clientSecret: string | null } {
  for (const uri of input.redirectUris) {
    const check = checkRedirectUri(uri);
    if (check !== 'ok') throw new InvalidReference('redirect_uri', `redirect URI ${uri} ${REDIRECT_URI_PROBLEMS[check]}`);
  }
  if (input.isPublic && input.redirectUris.length === 0) {
    throw new InvalidReference('redirect_uri', 'a public client needs at least one redirect URI');
  }
  if (input.scopes.length === 0) throw new InvalidReference('scopes', 'a client needs at least one scope');
  const id = newId();
  const clientId = CLIENT_ID_PREFIX + crypto.randomBytes(16).toString('hex');
  const clientSecret = input.isPublic ? null : newSecret(CLIENT_SECRET_PREFIX);
  db.prepare(
    `INSERT INTO oauth_clients (id, client_id, team_id, name, secret_hash, redirect_uris, scopes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    clientId,
    teamId,
    input.name,
    clientSecret ? hashSecret(clientSecret) : null,
    JSON.stringify([...new Set(input.redirectUris)]),
    [...new Set(input.scopes)].join(' '),
    now.toISOString(),
  );
  return { client: toClient(db.prepare('SELECT * FROM oauth_clients WHERE id = ?').get(id) as ClientRow), clientSecret };
}

export function listClients(db: Db, teamId: string): OAuthClient[] {
  return (db.prepare('SELECT * FROM oauth_clients WHERE team_id = ? ORDER BY created_at').all(teamId) as ClientRow[]).map(
    toClient,
  );
}

/** The active (not revoked) client with this public client_id. */
export function findClient(db: Db, clientId: string): OAuthClient | undefined {
  const row = db.prepare('SELECT * FROM oauth_clients WHERE client_id = ? AND revoked_at IS NULL').get(clientId) as
    | ClientRow
    | undefined;
  return row ? toClient(row) : undefined;
}

export type ClientAuthentication =
  | { ok: true; client: OAuthClient }
  | { ok: false; reason: 'unknown-client' | 'secret-required' | 'secret-wrong' | 'secret-unexpected' };

/**
 * Authenticates a client at the token or revocation endpoint: a confidential client must present its secret; a
 * public client must present none (it proves possession through PKCE instead).
 */
export function authenticateClient(db: Db, clientId: string, clientSecret: string | undefined): ClientAuthentication {
  const row = db.prepare('SELECT * FROM oauth_clients WHERE client_id = ? AND revoked_at IS NULL').get(clientId) as
    | ClientRow
    | undefined;
  if (!row) return { ok: false, reason: 'unknown-client' };
  if (row.secret_hash === null) {
    return clientSecret ? { ok: false, reason: 'secret-unexpected' } : { ok: true, client: toClient(row) };
  }
  if (!clientSecret) return { ok: false, reason: 'secret-required' };
  const a = Buffer.from(hashSecret(clientSecret));
  const b = Buffer.from(row.secret_hash);
  if (!hasShape(clientSecret, CLIENT_SECRET_PREFIX) || !crypto.timingSafeEqual(a, b))
    return { ok: false, reason: 'secret-wrong' };
  return { ok: true, client: toClient(row) };
}
