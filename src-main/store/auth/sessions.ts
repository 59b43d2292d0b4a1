import crypto from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Db } from '../db';
import { newId } from '../ids';
import type { Role } from '../users/users';

/**
 * Web sign-in sessions and the slowing down of repeated wrong passwords (docs/decisions/0110-web-sign-in-sessions.md).
 *
 * A session token is 32 random bytes (base64url) sent only as an HttpOnly cookie; the database keeps its SHA-256
 * hash. A session acts for one user in one team while the user is still a member of it, until the first of: its
 * absolute expiry, its idle expiry (pushed forward while it is used), a revocation.
 */

/** A session lives at most this long, used or not. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600_000;
/** A session unused for this long has ended. */
export const SESSION_IDLE_MS = 12 * 3600_000;
/** The idle expiry is pushed forward at most this often (a write per minute, not per request). */
const TOUCH_EVERY_MS = 60_000;

export interface WebSession {
  id: string;
  teamId: string;
  userId: string;
  role: Role;
  createdAt: string;
  lastSeenAt: number;
  idleExpiresAt: number;
  expiresAt: number;
  userAgent: string | null;
  ip: string | null;
}

interface Row {
  id: string;
  team_id: string;
  user_id: string;
  role: Role;
  created_at: string;
  last_seen_at: number;
  idle_expires_at: number;
  expires_at: number;
  user_agent: string | null;
  ip: string | null;
}

const toSession = (r: Row): WebSession => ({
  id: r.id,
  teamId: r.team_id,
  userId: r.user_id,
  role: r.role,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  idleExpiresAt: r.idle_expires_at,
  expiresAt: r.expires_at,
  userAgent: r.user_agent,
  ip: r.ip,
});

export function hashSessionToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Session tokens are 43 base64url characters; anything else is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function looksLikeSessionToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function createSession(
  db: Db,
  input: { teamId: string; userId: string; userAgent?: string | null; ip?: string | null },
  now = Date.now(),
): { token: string; session: WebSession } {
  const token = crypto.randomBytes(32).toString('base64url');
  const id = newId();
  db.prepare(
    `INSERT INTO web_sessions (id, team_id, user_id, token_hash, created_at, last_seen_at, idle_expires_at, expires_at, user_agent, ip)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    input.teamId,
    input.userId,
    hashSessionToken(token),
    new Date(now).toISOString(),
    now,
    now + SESSION_IDLE_MS,
    now + SESSION_MAX_AGE_MS,
    input.userAgent?.slice(0, 300) ?? null,
    input.ip ?? null,
  );
  const session = findSession(db, token, now);
  if (!session) throw new Error('a session just created could not be read back');
  return { token, session };
}

const ACTIVE = `s.revoked_at IS NULL AND s.expires_at > @now AND s.idle_expires_at > @now`;

/** The live session of a token, or undefined (unknown, revoked, expired, or its user left the team). */
export function findSession(db: Db, token: string, now = Date.now()): WebSession | undefined {
  if (!looksLikeSessionToken(token)) return undefined;
  const row = db
    .prepare(
      `SELECT s.id, s.team_id, s.user_id, m.role, s.created_at, s.last_seen_at, s.idle_expires_at, s.expires_at,
              s.user_agent, s.ip
         FROM web_sessions s JOIN team_members m ON m.team_id = s.team_id AND m.user_id = s.user_id
        WHERE s.token_hash = @hash AND ${ACTIVE}`,
    )
    .get({ hash: hashSessionToken(token), now }) as Row | undefined;
  return row ? toSession(row) : undefined;
}

/** Records use of a session: its idle expiry moves forward (at most once a minute; never past its absolute expiry). */
export function touchSession(db: Db, session: WebSession, now = Date.now()): WebSession {
  if (now - session.lastSeenAt < TOUCH_EVERY_MS) return session;
  const idleExpiresAt = Math.min(now + SESSION_IDLE_MS, session.expiresAt);
  db.prepare('UPDATE web_sessions SET last_seen_at = ?, idle_expires_at = ? WHERE id = ? AND revoked_at IS NULL').run(
    now,
    idleExpiresAt,
    session.id,
  );
  return { ...session, lastSeenAt: now, idleExpiresAt };
}

/** The user's live sessions in a team, newest first. */
export function listSessions(db: Db, teamId: string, userId: string, now = Date.now()): WebSession[] {
  return (
    db
      .prepare(
        `SELECT s.id, s.team_id, s.user_id, m.role, s.created_at, s.last_seen_at, s.idle_expires_at, s.expires_at,
                s.user_agent, s.ip
           FROM web_sessions s JOIN team_members m ON m.team_id = s.team_id AND m.user_id = s.user_id
          WHERE s.team_id = @team AND s.user_id = @user AND ${ACTIVE}
          ORDER BY s.created_at DESC, s.id DESC`,
      )
      .all({ team: teamId, user: userId, now }) as Row[]
  ).map(toSession);
}

/** Revokes one of the user's sessions in a team; false when there is no such live session (another user's too). */
export function revokeSession(db: Db, teamId: string, userId: string, id: string, now = Date.now()): boolean {
  const result = db
    .prepare(
      `UPDATE web_sessions AS s SET revoked_at = @at
        WHERE s.id = @id AND s.team_id = @team AND s.user_id = @user AND ${ACTIVE}`,
    )
    .run({ id, team: teamId, user: userId, now, at: new Date(now).toISOString() });
  return result.changes > 0;
}

/** Every live session of a user, in every team, newest first (for `finops sessions list`). */
export function listUserSessions(db: Db, userId: string, now = Date.now()): (WebSession & { teamName: string })[] {
  return (
    db
      .prepare(
        `SELECT s.id, s.team_id, s.user_id, m.role, s.created_at, s.last_seen_at, s.idle_expires_at, s.expires_at,
                s.user_agent, s.ip, t.name AS team_name
           FROM web_sessions s JOIN team_members m ON m.team_id = s.team_id AND m.user_id = s.user_id
           JOIN teams t ON t.id = s.team_id
          WHERE s.user_id = @user AND ${ACTIVE}
          ORDER BY s.created_at DESC, s.id DESC`,
      )
      .all({ user: userId, now }) as (Row & { team_name: string })[]
  ).map((r) => ({ ...toSession(r), teamName: r.team_name }));
}

/** Revokes every live session of a user (in every team), except `keepId`; returns how many ended. */
export function revokeUserSessions(db: Db, userId: string, options: { keepId?: string } = {}, now = Date.now()): number {
  return db
    .prepare(
      `UPDATE web_sessions AS s SET revoked_at = @at
        WHERE s.user_id = @user AND s.id <> @keep AND ${ACTIVE}`,
    )
    .run({ user: userId, keep: options.keepId ?? '', now, at: new Date(now).toISOString() }).changes;
}

/** Deletes sessions that ended more than a day ago (they can no longer be shown or used). */
export function pruneSessions(db: Db, now = Date.now()): number {
  const cutoff = now - 24 * 3600_000;
  return db
    .prepare(
      `DELETE FROM web_sessions WHERE expires_at < @cutoff OR idle_expires_at < @cutoff
         OR (revoked_at IS NOT NULL AND revoked_at < @cutoffIso)`,
    )
    .run({ cutoff, cutoffIso: new Date(cutoff).toISOString() }).changes;
}

/** The teams a user may sign in to, in the order they joined them. */
export function userTeams(db: Db, userId: string): { id: string; name: string; role: Role }[] {
  return db
    .prepare(
      `SELECT t.id, t.name, m.role FROM team_members m JOIN teams t ON t.id = m.team_id
        WHERE m.user_id = ? ORDER BY m.created_at, t.name`,
    )
    .all(userId) as { id: string; name: string; role: Role }[];
}

// ---------------------------------------------------------------------------------------------------------------
// Slowing down repeated wrong passwords.

export interface ThrottlePolicy {
  /** Failures allowed before any wait. */
  free: number;
  /** The longest wait, in seconds. */
  maxDelaySeconds: number;
}

/** Per account (the email typed, known or not): 5 free tries, then 1 s, 2 s, 4 s … up to 15 minutes between tries. */
export const ACCOUNT_THROTTLE: ThrottlePolicy = { free: 5, maxDelaySeconds: 900 };
/** Per client address: 20 free failures (an office behind one address), then the same doubling. */
export const ADDRESS_THROTTLE: ThrottlePolicy = { free: 20, maxDelaySeconds: 900 };
/** A counter is forgotten an hour after its last failure. */
export const FAILURE_MEMORY_MS = 3600_000;

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
/**
 * A client address as counted: an IPv4 address as it is, an IPv6 address by its /64 (one subscriber gets a whole
 * /64 and can change the rest at will), an IPv4-mapped IPv6 address as the IPv4 address.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return `ip:${ip}`;
  let parsed = ipaddr.parse(ip);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return `ip:${parsed.toString()}`;
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `ip:${parts.join(':')}::/64`;
}

/** Seconds to wait after `failures` failures: 0 while free, then doubling from 1 s, capped. */
export function throttleDelaySeconds(failures: number, policy: ThrottlePolicy): number {
  if (failures <= policy.free) return 0;
  return Math.min(policy.maxDelaySeconds, 2 ** Math.min(30, failures - policy.free - 1));
}

/** How long (seconds, rounded up) the key must still wait before another try; 0 when it may try now. */
export function signInWait(db: Db, key: string, policy: ThrottlePolicy, now = Date.now()): number {
  const row = db.prepare('SELECT failures, last_failed_at FROM sign_in_failures WHERE key = ?').get(key) as
    | { failures: number; last_failed_at: number }
    | undefined;
  if (!row || now - row.last_failed_at >= FAILURE_MEMORY_MS) return 0;
  const until = row.last_failed_at + throttleDelaySeconds(row.failures, policy) * 1000;
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

/** Counts a failed sign-in against each key; returns the new counts. */
export function recordSignInFailure(db: Db, keys: readonly string[], now = Date.now()): number[] {
  const upsert = db.prepare(
    `INSERT INTO sign_in_failures (key, failures, last_failed_at) VALUES (@key, 1, @now)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN @now - last_failed_at >= @memory THEN 1 ELSE failures + 1 END,
       last_failed_at = @now
     RETURNING failures`,
  );
  return db.transaction(() =>
    keys.map((key) => (upsert.get({ key, now, memory: FAILURE_MEMORY_MS }) as { failures: number }).failures),
  )();
}

/** A successful sign-in clears its account's counter (not the address's: one good account must not unlock guessing at others). */
export function clearSignInFailures(db: Db, key: string): void {
  db.prepare('DELETE FROM sign_in_failures WHERE key = ?').run(key);
}
