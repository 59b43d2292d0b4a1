import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  onSendHookHandler,
  preSerializationHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { changeStamp, type Db } from '../../store/db';
import { teamVersions } from '../../store/team-versions';
import { withHook } from './route-hooks';

/**
 * Reuse of GET responses while the team's data is unchanged (docs/decisions/0012-response-cache.md).
 *
 * A route opts in with `config.cacheUntil(body, now)`, which says until when (epoch ms) a 200 body it produced stays
 * true if nothing is written: `Infinity` unless the body depends on the clock (a customer's "recent" tab does).
 * Its body must depend only on the caller's team's recorded records (and the clock). An entry is served only while
 * all of these hold, so a hit is byte-for-byte what the handler would answer now:
 * - the team's change_seq is the one read before the handler read the body (store/team-versions.ts). Every
 *   recorded change of the team's records moves it in the write's transaction: this server's writes at once,
 *   another process's (the CLI) from the next request to arrive. Other teams' writes and bookkeeping writes
 *   (lastUsedAt, idempotency rows) do not move it. While the database's change stamp (changeStamp) has not moved
 *   at all, not even that one point read is made;
 * - the key matches: the caller's team and the exact URL (path and query), so one team never sees another's entry;
 * - the clock is before the entry's `cacheUntil`.
 * Auth, scopes and rate limits run before the lookup (their plugins register first, so each route gets their
 * onRequest hooks ahead of this one), so a hit is counted and refused exactly like a miss. Bodies are kept up to a byte budget, oldest out.
 */
export interface ResponseCacheOptions {
  db: Db;
  /** Budget for cached bodies in bytes; 0 turns the cache off. Default 32 MiB. */
  maxBytes?: number;
  /** Clock in ms, injectable for tests of time-bound entries. */
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Opt-in to the response cache: until when a 200 body of this route stays exact without writes. */
    cacheUntil?: (body: unknown, now: number) => number;
  }
  interface FastifyInstance {
    responseCache: ResponseCacheStats;
  }
}

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  entries(): number;
  bytes(): number;
}

export const DEFAULT_RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;
/** Map bookkeeping per entry, counted against the budget with the key and the body. */
const ENTRY_OVERHEAD_BYTES = 100;

interface Entry {
  body: string;
  contentType: string;
  until: number;
  size: number;
  teamId: string;
  /** The team's change_seq read before the body was. */
  changeSeq: number;
  /** The last change stamp under which the entry was known current. */
  stamp: string;
}

interface Pending {
  key: string;
  teamId: string;
  changeSeq: number;
  stamp: string;
  until: number;
}

const kPending = Symbol('responseCachePending');
type WithPending = FastifyRequest & { [kPending]?: Pending };

export const responseCachePlugin = fp(
  async (app: FastifyInstance, options: ResponseCacheOptions) => {
    const { db } = options;
    const maxBytes = options.maxBytes ?? DEFAULT_RESPONSE_CACHE_BYTES;
    const now = options.now ?? Date.now;
    const entries = new Map<string, Entry>();
    let bytes = 0;
    const stats: ResponseCacheStats = { hits: 0, misses: 0, entries: () => entries.size, bytes: () => bytes };
    app.decorate('responseCache', stats);
    if (maxBytes <= 0) return;

    function drop(key: string, entry: Entry): void {
      entries.delete(key);
      bytes -= entry.size;
    }

    /** Whether the entry is still what the handler would answer (the clock aside); a stale one is dropped here. */
    function isCurrent(key: string, entry: Entry, stamp: string): boolean {
      if (entry.stamp === stamp) return true;
      if (teamVersions(db, entry.teamId, stamp)?.changeSeq === entry.changeSeq) {
        entry.stamp = stamp;
        return true;
      }
      drop(key, entry);
      return false;
    }

    const lookup: onRequestHookHandler = (request, reply, done) => {
      // Only GET routes get this hook (fastify's automatic HEAD twin goes through onRoute on its own, as HEAD).
      const teamId = request.credential?.teamId;
      if (!teamId) {
        done();
        return;
      }
      const stamp = changeStamp(db);
      const key = `${teamId} ${request.url}`;
      const entry = entries.get(key);
      if (entry && now() < entry.until && isCurrent(key, entry, stamp)) {
        stats.hits++;
        reply.code(200).type(entry.contentType).send(entry.body);
        return;
      }
      stats.misses++;
      // Read before the handler reads the body: a write landing in between moves it past this value, never hides.
      const versions = teamVersions(db, teamId, stamp);
      if (versions) (request as WithPending)[kPending] = { key, teamId, changeSeq: versions.changeSeq, stamp, until: 0 };
      done();
    };

    const noteLifetime =
      (cacheUntil: (body: unknown, now: number) => number): preSerializationHookHandler =>
      (request, reply, payload, done) => {
        const pending = (request as WithPending)[kPending];
        // Error payloads pass through here too: only a success body is the route's to judge.
        if (pending && reply.statusCode === 200) pending.until = cacheUntil(payload, now());
        done(null, payload);
      };

    const store: onSendHookHandler = (request, reply, payload, done) => {
      const pending = (request as WithPending)[kPending];
      // The entry carries the stamp and change_seq of its lookup, both taken before the body was read: a commit
      // since then makes the next lookup compare change_seq, and a change of the team's data drops it there.
      if (pending && reply.statusCode === 200 && typeof payload === 'string' && now() < pending.until) {
        // String lengths stand for bytes: JSON bodies are almost all ASCII, which V8 keeps at one byte a character.
        const size = payload.length + pending.key.length + ENTRY_OVERHEAD_BYTES;
        if (size <= maxBytes) {
          const previous = entries.get(pending.key);
          if (previous) drop(pending.key, previous);
          for (const [oldKey, old] of entries) {
            if (bytes + size <= maxBytes) break;
            drop(oldKey, old);
          }
          const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
          const { teamId, changeSeq, stamp, until } = pending;
          entries.set(pending.key, { body: payload, contentType, until, size, teamId, changeSeq, stamp });
          bytes += size;
        }
      }
      done(null, payload);
    };

    app.addHook('onRoute', (route) => {
      const cacheUntil = route.config?.cacheUntil;
      if (!cacheUntil || route.method !== 'GET') return;
      route.onRequest = withHook(route.onRequest, lookup);
      route.preSerialization = withHook(route.preSerialization, noteLifetime(cacheUntil));
      route.onSend = withHook(route.onSend, store);
    });
  },
  { name: 'response-cache', dependencies: ['auth'] },
);
