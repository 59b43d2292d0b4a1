import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from '../db';
import { Conflict, NotFound } from '../errors';
import { newId, nowIso } from '../ids';

/**
 * Local users and their team membership. A user signs in on the OAuth authorize page with the email and password
 * set by `finops user create`; users are global (one email, one account) and belong to teams through
 * `team_members` with role owner or member.
 *
 * Passwords are hashed with scrypt (node:crypto). The stored string carries everything needed to verify it later,
 * so the cost can be raised without a migration:
 *   `scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<hash, base64url>`   e.g. `scrypt$15$8$1$pV3…$Qm9…`
 */
export type Role = 'owner' | 'member';

export interface User {
  id: string;
  email: string;
  fullName: string;
  createdAt: string;
}

export interface Membership {
  teamId: string;
  userId: string;
  role: Role;
}

/** scrypt cost: N = 2^15, r = 8 (32 MiB, ~50–100 ms here), p = 1; 16-byte salt; 32-byte key. */
const SCRYPT_LOG2_N = 15;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
export const MIN_PASSWORD_LENGTH = 8;

const scryptAsync = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

function scryptOptions(log2N: number, r: number, p: number): crypto.ScryptOptions {
  const N = 2 ** log2N;
  // Node's default maxmem (32 MiB) is exactly 128·N·r at our cost: leave head-room.
  return { N, r, p, maxmem: 256 * N * r };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await scryptAsync(password, salt, KEY_BYTES, scryptOptions(SCRYPT_LOG2_N, SCRYPT_R, SCRYPT_P));
  return ['scrypt', SCRYPT_LOG2_N, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` matches `stored`; false for a wrong password or a malformed or unknown hash format. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![log2N, r, p].every((n) => Number.isInteger(n) && n > 0) || log2N > 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length === 0) return false;
  const actual = await scryptAsync(password, salt, expected.length, scryptOptions(log2N, r, p));
  return crypto.timingSafeEqual(actual, expected);
}

/** A valid hash of a random password: verifying against it costs the same time as against a real user's hash. */
let dummyHash: Promise<string> | undefined;

interface UserRow {
  id: string;
  email: string;
  full_name: string;
  password_hash: string | null;
  created_at: string;
}

const toUser = (r: UserRow): User => ({ id: r.id, email: r.email, fullName: r.full_name, createdAt: r.created_at });

export function getUser(db: Db, id: string): User {
  const row = db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  if (!row) throw new NotFound('user', id);
  return toUser(row);
}

export function findUserByEmail(db: Db, email: string): User | undefined {
  const row = db.prepare('SELECT * FROM users WHERE email = ?').get(email.trim()) as UserRow | undefined;
  return row ? toUser(row) : undefined;
}

export function getMembership(db: Db, teamId: string, userId: string): Membership | undefined {
  return db
    .prepare('SELECT team_id AS teamId, user_id AS userId, role FROM team_members WHERE team_id = ? AND user_id = ?')
    .get(teamId, userId) as Membership | undefined;
}

export function countMembers(db: Db, teamId: string): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM team_members WHERE team_id = ?').get(teamId) as { n: number }).n;
}

/**
 * Creates a user with a password (already hashed with `hashPassword`) as a member of the team, in one transaction.
 * A duplicate email (case-insensitive) is a Conflict. The role defaults to owner for a team's first member.
 */
export function createUser(
  db: Db,
  teamId: string,
  input: { email: string; passwordHash: string; fullName?: string; role?: Role },
): { user: User; membership: Membership } {
  const email = input.email.trim();
  return db
    .transaction(() => {
      if (findUserByEmail(db, email)) throw new Conflict(`a user with email ${email} already exists`);
      const role: Role = input.role ?? (countMembers(db, teamId) === 0 ? 'owner' : 'member');
      const id = newId();
      const now = nowIso();
      db.prepare('INSERT INTO users (id, email, full_name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
        id,
        email,
        input.fullName?.trim() || email.split('@')[0] || email,
        input.passwordHash,
        now,
        now,
      );
      db.prepare('INSERT INTO team_members (team_id, user_id, role, created_at) VALUES (?, ?, ?, ?)').run(teamId, id, role, now);
      return { user: getUser(db, id), membership: { teamId, userId: id, role } };
    })
    .immediate();
}

/**
 * The user with this email and password, or undefined. An unknown email costs the same scrypt work as a wrong
 * password, so response time does not reveal which emails exist.
 */
export async function authenticateUser(db: Db, email: string, password: string): Promise<User | undefined> {
  const row = db.prepare('SELECT * FROM users WHERE email = ?').get(email.trim()) as UserRow | undefined;
  if (!row?.password_hash) {
    dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
    await verifyPassword(password, await dummyHash);
    return undefined;
  }
  return (await verifyPassword(password, row.password_hash)) ? toUser(row) : undefined;
}

/**
 * The user a credential acts for, in one place (docs/decisions/0086-acting-user.md): a user's own credential (an
 * OAuth token granted by a user) acts for that user while they are a member of the credential's team; a credential
 * that is no user's (an API key from `finops token create`, a client-credentials token) acts for the team's owner,
 * the earliest-joined one. Undefined when there is no such user (a team without members). `/users/me`, the tracker
 * timer and notifications all use this rule.
 */
export function actingUserId(db: Db, credential: { teamId: string; userId: string | null }): string | undefined {
  if (credential.userId) return getMembership(db, credential.teamId, credential.userId) ? credential.userId : undefined;
  return db
    .prepare("SELECT user_id FROM team_members WHERE team_id = ? AND role = 'owner' ORDER BY created_at, user_id LIMIT 1")
    .pluck()
    .get(credential.teamId) as string | undefined;
}

/**
 * The team's time zone: its owner's (the earliest-joined owner, the user a key of no user acts for), UTC for a team
 * without members. The day of a date-time sent for a transaction is taken there (docs/decisions/0142).
 */
export function teamTimeZone(db: Db, teamId: string): string {
  const zone = db
    .prepare(
      `SELECT u.timezone FROM team_members m JOIN users u ON u.id = m.user_id
       WHERE m.team_id = ? AND m.role = 'owner' ORDER BY m.created_at, m.user_id LIMIT 1`,
    )
    .pluck()
    .get(teamId) as string | undefined;
  return zone ?? 'UTC';
}
