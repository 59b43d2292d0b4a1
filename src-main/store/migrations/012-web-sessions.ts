import type { Migration } from './index';

/**
 * Web sign-in (docs/decisions/0110-web-sign-in-sessions.md).
 *
 * - `web_sessions`: one row per signed-in browser. Only a SHA-256 hash of the session token is stored (the token has
 *   256 random bits: nothing to brute-force, and it is looked up on every request). A session acts for one user in
 *   one team; it ends at `expires_at` (absolute), at `idle_expires_at` (pushed forward while it is used), or when
 *   revoked (sign-out, "sign out other sessions", the user leaving the team). Expiries are epoch milliseconds.
 * - `sign_in_failures`: failed sign-ins per account (`account:<email>`) and per client address (`ip:<address>`),
 *   which slow further attempts down. Not team-owned (an unknown email has no team).
 */
export const webSessions: Migration = {
  version: 12,
  name: 'web-sessions',
  sql: `
CREATE TABLE web_sessions (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  last_seen_at INTEGER NOT NULL,
  idle_expires_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at TEXT,
  user_agent TEXT,
  ip TEXT
);
CREATE INDEX web_sessions_user ON web_sessions(user_id, created_at);

CREATE TABLE sign_in_failures (
  key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  last_failed_at INTEGER NOT NULL
);
`,
};
