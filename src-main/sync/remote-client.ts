import { REPLICA_HEADER } from '../../src-shared/contract/sync';
import { type OutboundResponse, outboundFetch, ResponseTooLarge } from '../outbound/fetch';
import { OutboundRefused } from '../outbound/policy';

/**
 * HTTP to a remote v1 instance, with the robustness a round needs (docs/decisions/0140-sync-engine.md):
 * - 429 waits the remote's `Retry-After` (or `retryAfterSeconds`) and tries again, up to a bound;
 * - 5xx answers, timeouts and network errors back off exponentially with full jitter, a bounded number of times;
 * - 401 asks the credential for a fresh token once (an OAuth refresh), then stops with `CredentialsRejected`; 403
 *   stops at once: retrying a refused credential forever helps nobody;
 * - other answers (2xx, 404, 409, 422…) go back to the caller, whose rule for each they are.
 * Requests carry an `Idempotency-Key` when the caller gives one, so a retry after a lost answer is replayed by the
 * remote instead of being applied twice. A request that is not safe to repeat (a POST without a key or a chosen id)
 * is never resent here after a lost answer: the error goes up, and the outbox reads back before it sends again.
 * Every request goes through the outbound policy (outbound/fetch.ts): the remote's addresses are checked when
 * connecting, redirects are followed only within the remote's origin (the credential never goes elsewhere), and
 * answers are read up to a cap (`maxBytes`); a refusal by the policy is not retried.
 */

export class RemoteUnavailable extends Error {
  override name = 'RemoteUnavailable';
}

/** How a request that never got an answer says so; a round's stored error keeps it (the status's `online`). */
const NO_ANSWER = 'no answer after';

/** Whether a round's error means the remote could not be reached at all (not an answer it gave). */
export function isNetworkFailure(message: string | null | undefined): boolean {
  return message?.includes(`: ${NO_ANSWER} `) ?? false;
}

/** The remote refused the credential (401 after a refresh, or 403): the round stops with a clear state. */
export class CredentialsRejected extends Error {
  override name = 'CredentialsRejected';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Credential {
  /** The bearer token to send now. */
  token(): Promise<string>;
  /** After a 401: get a new token (an OAuth refresh); false when there is none to get. */
  refresh?(): Promise<boolean>;
}

export interface ClientOptions {
  /** e.g. `http://127.0.0.1:4100/v1` */
  baseUrl: string;
  credential: Credential;
  /** Attempts for 5xx/network failures (default 5) and for 429s (default 8). */
  attempts?: number;
  rateLimitAttempts?: number;
  /** First back-off in ms (default 200), doubled each time up to `maxBackoffMs` (default 10 s), with full jitter. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** The longest Retry-After honoured by waiting (default 120 s); a longer one ends the round (resumed later). */
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  /** `manual`: a redirect is answered as it came (a relayed call hands it to its caller); default follow (same origin). */
  redirect?: 'follow' | 'manual';
  /** The most bytes of an answer read (default 32 MiB; a file download: 64 MiB). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Tests: a seeded random source for the jitter, a sleep that can be observed. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Called for each request that will be retried (status or error), for progress and logs. */
  onRetry?: (info: { method: string; path: string; reason: string; waitMs: number }) => void;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  /** A JSON body, or raw bytes already serialised (an outbox payload). */
  body?: unknown;
  rawBody?: string;
  idempotencyKey?: string;
  /**
   * Whether sending it twice is harmless (default: every method but POST, and a POST with an Idempotency-Key).
   * Unsafe requests are not retried after a network error or a 5xx, which may have come after the remote committed.
   */
  retrySafe?: boolean;
  /** Answer a success's body as its bytes (a file download), not parsed JSON. */
  binary?: boolean;
}

export interface RemoteResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

const MAX_REDIRECTS = 5;
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
const MAX_FILE_ANSWER_BYTES = 64 * 1024 * 1024;

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export class RemoteClient {
  readonly baseUrl: string;
  private requests = 0;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** Requests sent so far (budgets and benches). */
  get requestCount(): number {
    return this.requests;
  }

  url(path: string, query?: RequestOptions['query']): string {
    const u = new URL(`${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const x of v) u.searchParams.append(k, String(x));
      else u.searchParams.set(k, String(v));
    }
    return u.toString();
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<RemoteResponse<T>> {
    const o = this.options;
    const attempts = o.attempts ?? 5;
    const rateAttempts = o.rateLimitAttempts ?? 8;
    const sleep = o.sleep ?? ((ms: number) => defaultSleep(ms, o.signal));
    const random = o.random ?? Math.random;
    let failures = 0;
    let limited = 0;
    let refreshed = false;
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const retrySafe = options.retrySafe ?? (method !== 'POST' || options.idempotencyKey !== undefined);
    const giveUp = (reason: string) =>
      new RemoteUnavailable(
        `${method} ${path}: ${reason}${retrySafe ? '' : ' (not resent: it may have been applied; the next round checks)'}`,
      );
    for (;;) {
      o.signal?.throwIfAborted();
      const headers: Record<string, string> = {
        authorization: `Bearer ${await o.credential.token()}`,
        accept: 'application/json',
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
      // Marks a replica's push: a Finops Desk remote runs no creation rules on it (they ran where it was made).
      headers[REPLICA_HEADER] = '1';
      let res: OutboundResponse;
      this.requests++;
      try {
        const signals = [AbortSignal.timeout(o.timeoutMs ?? 30_000), ...(o.signal ? [o.signal] : [])];
        res = await outboundFetch(this.url(path, options.query), {
          method,
          headers,
          body,
          maxRedirects: o.redirect === 'manual' ? 0 : MAX_REDIRECTS,
          sameOrigin: true,
          maxBytes: o.maxBytes ?? (options.binary ? MAX_FILE_ANSWER_BYTES : MAX_ANSWER_BYTES),
          signal: AbortSignal.any(signals),
        });
      } catch (err) {
        if (o.signal?.aborted) throw o.signal.reason;
        if (err instanceof OutboundRefused) throw new RemoteUnavailable(`${method} ${path}: ${err.message}`);
        failures++;
        const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        if (failures >= attempts || !retrySafe) throw giveUp(`${NO_ANSWER} ${failures} attempt(s) (${reason})`);
        const waitMs = this.backoff(failures, random);
        o.onRetry?.({ method, path, reason, waitMs });
        await sleep(waitMs);
        continue;
      }
      let bytes: Uint8Array | undefined;
      let text = '';
      try {
        if (options.binary && ok(res.status)) bytes = await res.bytes();
        else text = await res.text();
      } catch (err) {
        if (err instanceof ResponseTooLarge) throw new RemoteUnavailable(`${method} ${path}: ${err.message}`);
        // A body cut off by the network reads as empty, as before.
      }
      const parsed = bytes ?? parseJson(text);
      if (res.status === 429) {
        limited++;
        const waitMs = retryAfterMs(res.headers, parsed);
        if (limited >= rateAttempts || waitMs > (o.maxRetryAfterMs ?? 120_000)) {
          throw new RemoteUnavailable(
            `${method} ${path}: rate limited by the remote (retry after ${Math.ceil(waitMs / 1000)} s)`,
          );
        }
        o.onRetry?.({ method, path, reason: '429 rate limited', waitMs });
        await sleep(waitMs);
        continue;
      }
      if (res.status >= 500) {
        failures++;
        if (failures >= attempts || !retrySafe)
          throw giveUp(`the remote answered ${res.status} ${messageOf(parsed) ?? ''}`.trim());
        const waitMs = this.backoff(failures, random);
        o.onRetry?.({ method, path, reason: `${res.status}`, waitMs });
        await sleep(waitMs);
        continue;
      }
      if (res.status === 401) {
        if (!refreshed && o.credential.refresh && (await o.credential.refresh())) {
          refreshed = true;
          continue;
        }
        throw new CredentialsRejected(401, `the remote refused the credential (401): ${messageOf(parsed) ?? 'sign in again'}`);
      }
      if (res.status === 403) {
        throw new CredentialsRejected(403, `the remote refused access (403): ${messageOf(parsed) ?? 'missing scopes'}`);
      }
      return { status: res.status, body: parsed as T, headers: res.headers };
    }
  }

  /** Full jitter: a random wait up to the doubled back-off (AWS Architecture Blog, "Exponential Backoff And Jitter"). */
  private backoff(failures: number, random: () => number): number {
    const cap = this.options.maxBackoffMs ?? 10_000;
    const base = this.options.backoffMs ?? 200;
    return Math.round(random() * Math.min(cap, base * 2 ** (failures - 1)));
  }
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; description?: unknown; error?: unknown };
    const m = b.message ?? b.description ?? b.error;
    return typeof m === 'string' ? m : undefined;
  }
  return typeof body === 'string' && body.length < 300 ? body : undefined;
}

/** Retry-After in seconds or as an HTTP date, else the body's retryAfterSeconds, else one second. */
export function retryAfterMs(headers: Headers, body: unknown): number {
  const h = headers.get('retry-after');
  if (h) {
    if (/^\d+$/.test(h.trim())) return Number(h.trim()) * 1000;
    const at = Date.parse(h);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  const s = body && typeof body === 'object' ? (body as { retryAfterSeconds?: unknown }).retryAfterSeconds : undefined;
  return typeof s === 'number' && s >= 0 ? s * 1000 : 1000;
}

/** Whether a status is a success. */
export function ok(status: number): boolean {
  return status >= 200 && status < 300;
}
