import type { Db } from '../db';
import { acquireLease, holderIsGone, PROCESS_OWNER, releaseLease } from '../leases';

/**
 * A running server's presence on its data dir: a lease named for the process, renewed while it runs, so a command
 * that must not run beside a server (`finops restore`) can tell one is there. A server killed outright stops
 * renewing; its lease lapses, and one of this machine whose process is gone counts as absent at once.
 */
const PREFIX = 'server:';

export function announceServer(db: Db, ttlMs: number): void {
  acquireLease(db, `${PREFIX}${PROCESS_OWNER}`, ttlMs);
}

export function withdrawServer(db: Db): void {
  releaseLease(db, `${PREFIX}${PROCESS_OWNER}`);
}

/** The owners of the live servers' presence leases (host:pid:…). */
export function liveServers(db: Db, now = new Date()): string[] {
  const rows = db
    .prepare("SELECT owner FROM leases WHERE name LIKE 'server:%' AND expires_at > ?")
    .pluck()
    .all(now.toISOString()) as string[];
  return rows.filter((owner) => owner !== PROCESS_OWNER && !holderIsGone(owner));
}
