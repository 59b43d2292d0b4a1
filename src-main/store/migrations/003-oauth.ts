import type { Migration } from './index';

/**
 * OAuth 2.0 authorization server state (see docs/decisions/0030-oauth-authorization-server.md).
 *
 * - `oauth_clients`: registered applications of one team. `client_id` is the public identifier; the secret of a
 *   confidential client is stored only as a SHA-256 hash (`secret_hash` NULL = public client).
 * - `oauth_grants`: one row per authorization (a user's consent, or a client-credentials issue). Every code and token
 *   belongs to exactly one grant, so "revoke the grant" is one UPDATE and every token of it dies with it.
 * - `oauth_codes`: authorization codes (hash only), single-use: `used_at` is set on the first exchange.
 * - `oauth_tokens`: access and refresh tokens (hash only). A refresh token that was exchanged gets `rotated_at`;
 *   presenting it again is replay and revokes the grant.
 * - `oauth_sessions`: login sessions of the authorize page (cookie value stored as a hash).
 * These are credentials, not synced team records: they carry no `seq` and are not in the change feed.
 */
export const oauth: Migration = {
  version: 3,
  name: 'oauth',
  sql: `
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL UNIQUE,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  secret_hash TEXT,
  redirect_uris TEXT NOT NULL DEFAULT '[]',
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX oauth_clients_team ON oauth_clients(team_id);

CREATE TABLE oauth_grants (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('authorization_code', 'client_credentials')),
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  revoked_reason TEXT
);
CREATE INDEX oauth_grants_client ON oauth_grants(client_id);

CREATE TABLE oauth_codes (
  id TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL UNIQUE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT,
  code_challenge_method TEXT CHECK (code_challenge_method IS NULL OR code_challenge_method = 'S256'),
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE oauth_tokens (
  id TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  token_hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  rotated_at TEXT,
  revoked_at TEXT
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id);

CREATE TABLE oauth_sessions (
  id TEXT PRIMARY KEY,
  session_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
`,
};
