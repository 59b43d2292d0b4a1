import crypto from 'node:crypto';
import type { Db } from '../../db';
import { newId } from '../../ids';
import { hashSecret } from '../api-keys';
import { isoIn } from './secrets';

/** The authorize page's login sessions: a person signs in once to consent to clients' requests. */

export const SESSION_TTL_SECONDS = 8 * 60 * 60;

export function createSession(db: Db, userId: string, now = new Date()): string {
  const token = crypto.randomBytes(32).toString('base64url');
  db.prepare('DELETE FROM oauth_sessions WHERE expires_at <= ?').run(now.toISOString());
  db.prepare('INSERT INTO oauth_sessions (id, session_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
    newId(),
    hashSecret(token),
    userId,
    now.toISOString(),
    isoIn(now, SESSION_TTL_SECONDS),
  );
  return token;
}

/** The user id of a live session, or undefined. */
export function findSessionUser(db: Db, token: string, now = new Date()): string | undefined {
  const row = db
    .prepare('SELECT user_id FROM oauth_sessions WHERE session_hash = ? AND expires_at > ?')
    .get(hashSecret(token), now.toISOString()) as { user_id: string } | undefined;
  return row?.user_id;
}

export function deleteSession(db: Db, token: string): void {
  db.prepare('DELETE FROM oauth_sessions WHERE session_hash = ?').run(hashSecret(token));
}
