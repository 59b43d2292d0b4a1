import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { CARRIED_OUT, IDEMPOTENCY_OUTCOME_HEADER } from '../../../src-shared/contract/idempotency';
import type { Db } from '../../store/db';
import {
  beginIdempotentRequest,
  completeIdempotentRequest,
  DEFAULT_RETENTION_MS,
  type IdempotencyScope,
  markIdempotentWriteCommitted,
  purgeExpiredIdempotencyKeys,
  releaseIdempotentRequest,
  renewLease,
} from '../../store/idempotency';
import { withWriteHook } from '../../store/write';
import { ApiError, unprocessable } from '../errors';
import { withHook } from './route-hooks';

/**
 * The optional `Idempotency-Key` header on routes whose contract says `idempotent: true` (config.idempotent).
 * Policy, and why: docs/decisions/0011-idempotency-key-guard.md. In short:
 * - no header → the route runs unguarded; a malformed header → 422;
 * - first request with a key → a 'running' marker is committed, then the handler runs; its response is stored when
 *   it is 2xx or 4xx (except 409 and 429), otherwise the key is released so that a retry runs again;
 * - same key, same request, finished → the stored status and body, with `Idempotency-Replayed: true`;
 * - same key, same request, still running → 409; same key, different request → 422;
 * - same key, same request, whose first run died after committing its change but before its answer was stored (a
 *   crash) → 409 saying so, never a second run (docs/decisions/0189-crash-harness.md);
 * - the store fails (SQLite busy, locked, corrupt, table missing) → 503 with Retry-After; the handler does not run.
 * Keys are scoped by team + credential + route (method, pattern, path params) and remembered 24 h.
 *
 * Hooks: preValidation keeps the request as sent (validation replaces body and query with parsed values), preHandler
 * runs after auth, rate limits and validation, a second preHandler runs the handler with the write hook that marks
 * the key in each of its commits, onSend stores or releases, onResponse releases a key whose response never went
 * through onSend.
 */
export interface IdempotencyOptions {
  /** Clock, injectable for tests of expiry and leases. */
  now?: () => Date;
  /** How long a key is remembered after its first request; default 24 h. */
  retentionMs?: number;
  /** How long the running marker survives without renewal (a crashed process); default 30 s. */
  leaseMs?: number;
  /** How often a running request renews its lease; default leaseMs / 3. */
  renewEveryMs?: number;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotency-Replayed';
const DEFAULT_LEASE_MS = 30_000;
const PURGE_EVERY_MS = 60_000;
const UNAVAILABLE_RETRY_AFTER_S = 5;
const RUNNING_RETRY_AFTER_S = 1;

/** 1 to 255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/**
 * Declares the header in the route schema, for the OpenAPI document. It is not checked there (checkIdempotencyKey
 * gives the clearer message), and other headers pass through untouched.
 */
const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      '1 to 255 printable ASCII characters. Replays the response of an earlier request with the same key and content ' +
        '(marked Idempotency-Replayed: true); 409 while that request still runs; 422 when the key was used for a ' +
        'different request. Kept 24 h per credential and route.',
    ),
});

export type KeyCheck = { ok: true; key: string } | { ok: false; reason: string };

/** Checks the header value as received (node joins repeated headers with ", "). */
export function checkIdempotencyKey(value: string | string[] | undefined): KeyCheck | undefined {
  if (value === undefined) return undefined;
  const v = Array.isArray(value) ? value.join(', ') : value;
  if (v.length === 0) return { ok: false, reason: 'is empty' };
  if (v.length > 255) return { ok: false, reason: `is ${v.length} characters long (at most 255)` };
  if (!KEY_PATTERN.test(v)) return { ok: false, reason: 'contains characters other than printable ASCII' };
  return { ok: true, key: v };
}

/** JSON with object keys sorted at every level, so that key order does not change a request's identity. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v)) {
      const o = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(o)
          .sort()
          .map((k) => [k, o[k]]),
      );
    }
    return v;
  });
}

/** Whether a response is remembered for replay: 2xx and 4xx, except the retryable 409 and 429 (5xx releases). */
export function isStoredOutcome(statusCode: number): boolean {
  return statusCode < 500 && statusCode !== 409 && statusCode !== 429;
}

interface Held {
  teamId: string;
  scope: IdempotencyScope;
  owner: string;
  timer: NodeJS.Timeout;
}

const unavailable = () =>
  new ApiError(
    503,
    'Service Unavailable',
    'The Idempotency-Key guard is unavailable, so the request was not executed',
    'Retry later with the same Idempotency-Key',
    UNAVAILABLE_RETRY_AFTER_S,
  );

export const idempotencyPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db } & IdempotencyOptions) => {
    const { db } = opts;
    const now = opts.now ?? (() => new Date());
    const retentionMs = opts.retentionMs ?? DEFAULT_RETENTION_MS;
    const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    const renewEveryMs = opts.renewEveryMs ?? Math.max(1, Math.floor(leaseMs / 3));
    const asSent = new WeakMap<FastifyRequest, { body: unknown; query: unknown }>();
    const held = new WeakMap<FastifyRequest, Held>();
    let nextPurgeAt = 0;

    function letGo(request: FastifyRequest): Held | undefined {
      const h = held.get(request);
      if (h) {
        held.delete(request);
        clearInterval(h.timer);
      }
      return h;
    }

    const preValidation = async (request: FastifyRequest) => {
      asSent.set(request, { body: request.body, query: request.query });
    };

    const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
      const check = checkIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
      if (!check) return;
      if (!check.ok) {
        const message = `The Idempotency-Key header ${check.reason}`;
        throw unprocessable(
          message,
          'Idempotency-Key: 1 to 255 printable ASCII characters, e.g. a UUID; use a new key for each logical change',
          [{ location: 'headers', path: IDEMPOTENCY_HEADER, message }],
        );
      }
      const credential = request.credential;
      if (!credential) return; // a public route has no caller to scope keys by: it runs unguarded
      const sent = asSent.get(request);
      const scope: IdempotencyScope = {
        credentialId: credential.id,
        route: `${request.method} ${request.routeOptions.url} ${canonicalJson(request.params ?? {})}`,
        key: check.key,
      };
      const requestHash = crypto
        .createHash('sha256')
        .update(canonicalJson({ route: scope.route, query: sent?.query ?? null, body: sent?.body ?? null }))
        .digest('hex');

      const at = now();
      let outcome: ReturnType<typeof beginIdempotentRequest>;
      try {
        if (at.getTime() >= nextPurgeAt) {
          purgeExpiredIdempotencyKeys(db, at);
          nextPurgeAt = at.getTime() + PURGE_EVERY_MS;
        }
        outcome = beginIdempotentRequest(db, credential.teamId, scope, requestHash, { now: at, leaseMs, retentionMs });
      } catch (err) {
        request.log.error({ err }, 'idempotency store unavailable');
        throw unavailable();
      }

      switch (outcome.kind) {
        case 'mismatch':
          throw unprocessable(
            'This Idempotency-Key was already used for a different request',
            'A key stands for one request (same route, path, query and body). Send a new key for a changed request.',
            [{ location: 'headers', path: IDEMPOTENCY_HEADER, message: 'already used for a different request' }],
          );
        case 'running':
          throw new ApiError(
            409,
            'Conflict',
            'A request with this Idempotency-Key is still running',
            'Retry after it finished to receive its response',
            RUNNING_RETRY_AFTER_S,
          );
        case 'carried-out':
          // Not retryable: the change is made, and running it again would make it twice. No Retry-After.
          throw new ApiError(
            409,
            'Conflict',
            'The request with this Idempotency-Key was carried out, but its answer was lost when the server stopped',
            'Read the record to see the change; send the change again only under a new key',
            undefined,
            { [IDEMPOTENCY_OUTCOME_HEADER]: CARRIED_OUT },
          );
        case 'replay': {
          const { response } = outcome;
          reply.code(response.statusCode).header(REPLAYED_HEADER, 'true');
          if (response.contentType) reply.header('content-type', response.contentType);
          reply.send(response.body);
          return reply;
        }
        case 'acquired': {
          if (outcome.takenOver) request.log.warn({ key: scope.key, route: scope.route }, 'idempotency lease lapsed; re-running');
          const { owner } = outcome;
          const timer = setInterval(() => {
            try {
              renewLease(db, credential.teamId, scope, owner, new Date(now().getTime() + leaseMs));
            } catch (err) {
              request.log.error({ err }, 'idempotency lease renewal failed');
            }
          }, renewEveryMs);
          timer.unref();
          held.set(request, { teamId: credential.teamId, scope, owner, timer });
          return;
        }
      }
    };

    // Callback style, so that the rest of the request (the handler, a group commit's unit bound to it) runs inside.
    const enterWriteHook = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      const h = held.get(request);
      if (!h) return done();
      withWriteHook((hookDb) => {
        if (hookDb === db) markIdempotentWriteCommitted(db, h.teamId, h.scope, h.owner);
      }, done);
    };

    const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const h = letGo(request);
      if (!h) return payload;
      const body =
        typeof payload === 'string'
          ? Buffer.from(payload)
          : Buffer.isBuffer(payload)
            ? payload
            : payload == null
              ? Buffer.alloc(0)
              : null;
      try {
        if (body && isStoredOutcome(reply.statusCode)) {
          const contentType = reply.getHeader('content-type');
          completeIdempotentRequest(db, h.teamId, h.scope, h.owner, {
            statusCode: reply.statusCode,
            contentType: typeof contentType === 'string' ? contentType : null,
            body,
          });
        } else {
          releaseIdempotentRequest(db, h.teamId, h.scope, h.owner);
        }
      } catch (err) {
        // The handler's work is done and answered; only its replay is lost. The lease lapses and a retry runs again.
        request.log.error({ err }, 'idempotency outcome could not be stored');
      }
      return payload;
    };

    const onResponse = async (request: FastifyRequest) => {
      const h = letGo(request);
      if (!h) return;
      try {
        releaseIdempotentRequest(db, h.teamId, h.scope, h.owner);
      } catch (err) {
        request.log.error({ err }, 'idempotency key release failed');
      }
    };

    // The guard's hooks are attached to the idempotent routes only: no other request pays for them.
    app.addHook('onRoute', (route) => {
      if (!route.config?.idempotent) return;
      if (route.schema && !route.schema.headers) route.schema = { ...route.schema, headers: IdempotencyHeaders };
      route.preValidation = withHook(route.preValidation, preValidation);
      route.preHandler = withHook(withHook(route.preHandler, preHandler), enterWriteHook);
      route.onSend = withHook(route.onSend, onSend);
      route.onResponse = withHook(route.onResponse, onResponse);
    });
  },
  // Both read request.credential, which the auth plugin's onRequest hook sets.
  { name: 'idempotency', dependencies: ['auth'] },
);
