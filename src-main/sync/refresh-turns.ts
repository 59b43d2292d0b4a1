import crypto from 'node:crypto';
import type { Db } from '../store/db';
import { PROCESS_OWNER, withLeaseAsync } from '../store/leases';

/**
 * Refreshes of one OAuth grant take turns across the processes on a data dir (the server's rounds and relayed calls,
 * a `finops sync` beside it): a remote that rotates refresh tokens and detects reuse (RFC 9700 §4.14.2; our own
 * server does) revokes the whole grant when two of them present the same refresh token. Whoever holds the turn
 * re-reads the keychain first (another holder may have refreshed meanwhile: its refresh token is the live one) and
 * saves before it lets go. The turn is a lease in the database, one per keychain entry; each credential has its
 * own holder name, so two credentials of one process take turns too.
 */
export interface RefreshTurns {
  /** Runs `fn` holding the turn; waits for it while another holds it, up to the wait (then runs nothing: false). */
  take(fn: () => Promise<boolean>): Promise<boolean>;
}

/** Long enough for a token endpoint's answer (30 s timeout) and the keychain write; a dead holder's turn expires. */
const TURN_MS = 45_000;
const WAIT_MS = 60_000;
const POLL_MS = 100;

export function refreshTurns(db: Db, account: string, waitMs = WAIT_MS): RefreshTurns {
  const name = `oauth-refresh:${account}`;
  const owner = `${PROCESS_OWNER}:refresh-${crypto.randomBytes(3).toString('hex')}`;
  return {
    async take(fn) {
      const until = Date.now() + waitMs;
      for (;;) {
        // Undefined only while another holds the turn: `fn` itself answers true or false.
        const done = await withLeaseAsync(db, name, TURN_MS, fn, { owner });
        if (done !== undefined) return done;
        if (Date.now() >= until) return false;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  };
}
