import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  onSendHookHandler,
  preSerializationHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { changeStamp, type Db } from '../../store/db';
import { withHook } from './route-hooks';

/**
 * Reuse of GET responses while the database is unchanged (docs/decisions/0012-response-cache.md).
 *
 * A route opts in with `config.cacheUntil(body, now)`, which says until when (epoch ms) a 200 body it produced stays
 * true if nothing is written: `Infinity` unless the body depends on the clock (a customer's "recent" tab does).
 * An entry is served only while all of these hold, so a hit is byte-for-byte what the handler would answer now:
 * - the database's change stamp is the one the entry was read under. The stamp moves on every commit: this
 *   server's at once (total_changes), another process's (the CLI) from the next request to arrive (data_version,
 *   read once per event-loop turn: see changeStamp); any change empties the whole cache;
 * - the key matches: the caller's team and the exact URL (path and query), so one team never sees another's entry;
 * - the clock is before the entry's `cacheUntil`.
 * Auth, scopes and rate limits run before the lookup (route hooks run after the app's), so a hit is counted and
 * refused exactly like a miss. Bodies are kept up to a byte budget, oldest out.
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
}

interface Pending {
  key: string;
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
    let entries = new Map<string, Entry>();
    let bytes = 0;
    let stampOfEntries = '';
    const stats: ResponseCacheStats = { hits: 0, misses: 0, entries: () => entries.size, bytes: () => bytes };
    app.decorate('responseCache', stats);
    if (maxBytes <= 0) return;

    /** The current stamp; entries read under another one are dropped here, all at once. */
    function currentStamp(): string {
      const stamp = changeStamp(db);
      if (stamp !== stampOfEntries) {
        entries = new Map();
        bytes = 0;
        stampOfEntries = stamp;
      }
      return stamp;
    }

    const lookup: onRequestHookHandler = (request, reply, done) => {
      // Only GET routes get this hook (fastify's automatic HEAD twin goes through onRoute on its own, as HEAD).
      const teamId = request.credential?.teamId;
      if (!teamId) {
        done();
        return;
      }
      const stamp = currentStamp();
      const key = `${teamId} ${request.url}`;
      const entry = entries.get(key);
      if (entry && now() < entry.until) {
        stats.hits++;
        reply.code(200).type(entry.contentType).send(entry.body);
        return;
      }
      stats.misses++;
      (request as WithPending)[kPending] = { key, stamp, until: 0 };
      done();
    };

    const noteLifetime: preSerializationHookHandler = (request, reply, payload, done) => {
      const pending = (request as WithPending)[kPending];
      const cacheUntil = request.routeOptions.config.cacheUntil;
      // Error payloads pass through here too: only a success body is the route's to judge.
      if (pending && cacheUntil && reply.statusCode === 200) pending.until = cacheUntil(payload, now());
      done(null, payload);
    };

    const store: onSendHookHandler = (request, reply, payload, done) => {
      const pending = (request as WithPending)[kPending];
      if (
        pending &&
        reply.statusCode === 200 &&
        typeof payload === 'string' &&
        now() < pending.until &&
        // Not if anything was committed since the lookup: the body may be older than the stamp it would carry.
        currentStamp() === pending.stamp
      ) {
        // String lengths stand for bytes: JSON bodies are almost all ASCII, which V8 keeps at one byte a character.
        const size = payload.length + pending.key.length + ENTRY_OVERHEAD_BYTES;
        if (size <= maxBytes) {
          const previous = entries.get(pending.key);
          if (previous) bytes -= previous.size;
          entries.delete(pending.key);
          for (const [oldKey, old] of entries) {
            if (bytes + size <= maxBytes) break;
            entries.delete(oldKey);
            bytes -= old.size;
          }
          const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
          entries.set(pending.key, { body: payload, contentType, until: pending.until, size });
          bytes += size;
        }
      }
      done(null, payload);
    };

    app.addHook('onRoute', (route) => {
      if (!route.config?.cacheUntil || route.method !== 'GET') return;
      route.onRequest = withHook(route.onRequest, lookup);
      route.preSerialization = withHook(route.preSerialization, noteLifetime);
      route.onSend = withHook(route.onSend, store);
    });
  },
  { name: 'response-cache', dependencies: ['auth'] },
);
