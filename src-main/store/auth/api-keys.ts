import crypto from 'node:crypto';
import type { Scope } from '../../../src-shared/contract/scopes';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { newId, nowIso } from '../ids';
import { bumpAuthSeq } from '../team-versions';

/**
 * API keys: `finops_` + 64 hex characters (256 random bits). The fixed prefix lets secret scanners recognise a
 * leaked key. Only a SHA-256 hash is stored (a fast hash is right here: the key has full entropy, so there is
 * nothing to brute-force, and the lookup happens on every request). The key is shown once, at creation.
 */
export const API_KEY_PREFIX = 'finops_';
const API_KEY_PATTERN = /^finops_[0-9a-f]{64}$/;

export interface ApiKey {
  id: string;
  teamId: string;
  /** The user the key acts for (`finops token create --user`); null: the team's owner (docs/decisions/0086). */
  userId: string | null;
  name: string;
  hint: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface Row {
  id: string;
  team_id: string;
  user_id: string | null;
  name: string;
  key_hint: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function toApiKey(r: Row): ApiKey {
  return {
    id: r.id,
    teamId: r.team_id,
    userId: r.user_id,
    name: r.name,
    hint: r.key_hint,
    scopes: r.scopes.split(' ').filter(Boolean) as Scope[],
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}

export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

export function looksLikeApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

export function createApiKey(
  db: Db,
  input: { teamId: string; name: string; scopes: readonly Scope[]; userId?: string | null },
): { key: string; apiKey: ApiKey } {
  const key = API_KEY_PREFIX + crypto.randomBytes(32).toString('hex');
  const id = newId();
  db.prepare(
    `INSERT INTO api_keys (id, team_id, user_id, name, key_hash, key_hint, scopes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, input.teamId, input.userId ?? null, input.name, hashSecret(key), key.slice(-4), input.scopes.join(' '), nowIso());
  return { key, apiKey: getApiKey(db, input.teamId, id) };
}

export function getApiKey(db: Db, teamId: string, id: string): ApiKey {
  const row = db.prepare('SELECT * FROM api_keys WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
  if (!row) throw new NotFound('api key', id);
  return toApiKey(row);
}

export function listApiKeys(db: Db, teamId: string): ApiKey[] {
  return (db.prepare('SELECT * FROM api_keys WHERE team_id = ? ORDER BY created_at').all(teamId) as Row[]).map(toApiKey);
}

export interface ActiveApiKey extends ApiKey {
  /** The team's auth_seq read in the same statement: a cache of this key is current while it stays (team-versions.ts). */
  teamAuthSeq: number;
}

/** The active key with this secret, or undefined (unknown, malformed or revoked). */
export function findActiveApiKey(db: Db, key: string): ActiveApiKey | undefined {
  if (!looksLikeApiKey(key)) return undefined;
  const row = db
    .prepare(
      `SELECT k.*, t.auth_seq FROM api_keys k JOIN teams t ON t.id = k.team_id WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    )
    .get(hashSecret(key)) as (Row & { auth_seq: number }) | undefined;
  return row ? { ...toApiKey(row), teamAuthSeq: row.auth_seq } : undefined;
}

/**
 * Revokes by id, or by the full key, and marks the team's cached credentials stale in the same transaction.
 * Returns the revoked key; revoking twice is harmless.
 */
export function revokeApiKey(db: Db, idOrKey: string): ApiKey {
  return db
    .transaction(() => {
      const row = (
        looksLikeApiKey(idOrKey)
          ? db.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(hashSecret(idOrKey))
          : db.prepare('SELECT * FROM api_keys WHERE id = ?').get(idOrKey)
      ) as Row | undefined;
      if (!row) throw new NotFound('api key', looksLikeApiKey(idOrKey) ? `…${idOrKey.slice(-4)}` : idOrKey);
      db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(nowIso(), row.id);
      bumpAuthSeq(db, row.team_id);
      return getApiKey(db, row.team_id, row.id);
    })
    .immediate();
}

/**
 * Marks a key used: bookkeeping, which leaves cached credentials and responses alone (team-versions.ts). Written at most once a minute per key — a write per request would put an fsync
 * (synchronous=FULL) and the writer lock on every read — and best-effort: a busy database must not turn an
 * authenticated read into an error, so a failed bookkeeping write is skipped.
 */
export function touchApiKey(db: Db, key: ApiKey, now = new Date()): void {
  if (key.lastUsedAt && now.getTime() - Date.parse(key.lastUsedAt) < 60_000) return;
  try {
    db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now.toISOString(), key.id);
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return;
    throw err;
  }
}
