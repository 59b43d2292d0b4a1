import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimitClass } from '../../../src-shared/contract/route';
import type { Credential } from '../auth/credentials';
import { ApiError } from '../errors';
import { withHook } from './route-hooks';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget a contract route counts against (its contract's `rateLimit`); undefined outside the contract. */
    rateLimit?: RateLimitClass;
  }
}

/**
 * Request rate limits, fixed windows counted in memory (docs/decisions/0010-rate-limits.md). A route's class comes
 * from its contract (`rateLimit`, in the route config):
 * - class `oauth` (the authorize page, token and revocation endpoints), per client IP: its own, tighter budget (the
 *   hosted service: 20 per 15 min; ours defaults to 60 per 15 min so that a person who mistypes a password a few
 *   times can still log in);
 * - authenticated routes, per credential (request.credential.id, set by the auth hook, which runs first);
 * - other (public) contract routes, per client IP.
 * Routes outside the contract (documentation, the web UI's files, unknown paths) are not counted.
 *
 * Every counted response carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the
 * window ends) and `RateLimit-Policy` (`<limit>;w=<window seconds>`), as the hosted service sends them. Over the
 * limit the answer is 429 with the spec's Error payload, `retryAfterSeconds` and `Retry-After`, through the app's
 * error mapping like every other error.
 */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitOptions {
  /** Per credential on authenticated routes. Default: `AppOptions.rateLimitPerMinute` (600) per 60 s. */
  perCredential?: RateLimitRule;
  /**
   * Per web sign-in session (the UI's own cookie). Default: five times perCredential. A screen asks for several
   * lists and counts at once and refreshes what changed; a person moving through screens must not meet a 429 that an
   * API client pacing itself would not.
   */
  perSession?: RateLimitRule;
  /** Per client IP on public contract routes. Default: the same numbers as perCredential. */
  perIp?: RateLimitRule;
  /** Per client IP on routes of class `oauth`. Default: 60 per 15 minutes. */
  oauth?: RateLimitRule;
  /** Clock in ms, injectable for tests. */
  now?: () => number;
}

export const DEFAULT_PER_MINUTE = 600;
/** How many more requests a web sign-in session may make than an API credential (see `perSession`). */
const SESSION_FACTOR = 5;
export const DEFAULT_OAUTH_RULE: RateLimitRule = { limit: 60, windowMs: 15 * 60_000 };

interface Window {
  count: number;
  resetAt: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends, at least 1. */
  resetSeconds: number;
  windowSeconds: number;
}

/** Fixed-window counters by key. A key's window starts with its first request; expired windows are swept lazily. */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();
  private nextSweepAt = 0;

  constructor(private readonly now: () => number) {}

  hit(key: string, rule: RateLimitRule): Decision {
    const t = this.now();
    if (t >= this.nextSweepAt) this.sweep(t);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + rule.windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return {
      allowed: w.count <= rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - w.count),
      resetSeconds: Math.max(1, Math.ceil((w.resetAt - t) / 1000)),
      windowSeconds: Math.ceil(rule.windowMs / 1000),
    };
  }

  /** Number of live windows (for tests of the sweep). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(t: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= t) this.windows.delete(key);
    this.nextSweepAt = t + 60_000;
  }
}

type Bucket = { key: string; rule: RateLimitRule; who: string };

function checkRule(name: string, rule: RateLimitRule): RateLimitRule {
  if (!Number.isInteger(rule.limit) || rule.limit < 1) throw new Error(`rate limit ${name}.limit must be a positive integer`);
  if (!Number.isFinite(rule.windowMs) || rule.windowMs < 1) throw new Error(`rate limit ${name}.windowMs must be positive`);
  return rule;
}

function setHeaders(reply: FastifyReply, d: Decision, rule: RuleHeaders): void {
  reply.header('ratelimit-limit', rule.limit);
  reply.header('ratelimit-remaining', String(d.remaining));
  reply.header('ratelimit-reset', String(d.resetSeconds));
  reply.header('ratelimit-policy', rule.policy);
}

/** A rule's two header values that never change, written once (fastify keeps header names in lower case). */
interface RuleHeaders {
  limit: string;
  policy: string;
}

const ruleHeaders = new WeakMap<RateLimitRule, RuleHeaders>();

function headersOf(rule: RateLimitRule): RuleHeaders {
  let headers = ruleHeaders.get(rule);
  if (!headers) {
    headers = { limit: String(rule.limit), policy: `${rule.limit};w=${Math.ceil(rule.windowMs / 1000)}` };
    ruleHeaders.set(rule, headers);
  }
  return headers;
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: RateLimitOptions & { perMinute?: number }) => {
    const perCredential = checkRule(
      'perCredential',
      opts.perCredential ?? { limit: opts.perMinute ?? DEFAULT_PER_MINUTE, windowMs: 60_000 },
    );
    const perSession = checkRule(
      'perSession',
      opts.perSession ?? { limit: perCredential.limit * SESSION_FACTOR, windowMs: perCredential.windowMs },
    );
    const perIp = checkRule('perIp', opts.perIp ?? perCredential);
    const oauth = checkRule('oauth', opts.oauth ?? DEFAULT_OAUTH_RULE);
    const counter = new FixedWindowCounter(opts.now ?? Date.now);

    // A credential's bucket is made once while the auth plugin keeps the credential: its key string then keeps
    // its hash, and a request builds no string to find its window.
    const credentialBuckets = new WeakMap<Credential, Bucket>();

    function credentialBucket(credential: Credential): Bucket {
      let bucket = credentialBuckets.get(credential);
      if (!bucket) {
        bucket =
          credential.kind === 'session'
            ? { key: `credential ${credential.id}`, rule: perSession, who: 'this sign-in session' }
            : { key: `credential ${credential.id}`, rule: perCredential, who: 'this credential' };
        credentialBuckets.set(credential, bucket);
      }
      return bucket;
    }

    /** The bucket a request of a route counts against, chosen by the route's class once, when it registers. */
    function bucketsOf(config: FastifyContextConfig): ((request: FastifyRequest) => Bucket) | undefined {
      if (config.rateLimit === 'oauth')
        return (request) => ({ key: `oauth ${request.ip}`, rule: oauth, who: 'OAuth requests from this address' });
      if (!config.scopes) return undefined;
      // On a route that needs a caller the auth hook, which runs first, has set the credential (or answered 401).
      return (request) =>
        request.credential
          ? credentialBucket(request.credential)
          : { key: `ip ${request.ip}`, rule: perIp, who: 'unauthenticated requests from this address' };
    }

    const limit =
      (bucketOf: (request: FastifyRequest) => Bucket): onRequestHookHandler =>
      (request, reply, done) => {
        const bucket = bucketOf(request);
        const d = counter.hit(bucket.key, bucket.rule);
        setHeaders(reply, d, headersOf(bucket.rule));
        if (!d.allowed) {
          return done(
            new ApiError(
              429,
              'Too Many Requests',
              `Rate limit exceeded: at most ${d.limit} requests per ${d.windowSeconds} s for ${bucket.who}`,
              `Retry after ${d.resetSeconds} s`,
              d.resetSeconds,
            ),
          );
        }
        done();
      };

    // Each contract route gets its counter as an onRequest hook after the auth plugin's (registered before this
    // plugin, so its onRoute hook adds first). Routes outside the contract are not counted.
    app.addHook('onRoute', (route) => {
      const bucketOf = route.config ? bucketsOf(route.config) : undefined;
      if (bucketOf) route.onRequest = withHook(route.onRequest, limit(bucketOf));
    });
  },
  // Both read request.credential, which the auth plugin's onRequest hook sets.
  { name: 'rate-limit', dependencies: ['auth'] },
);
