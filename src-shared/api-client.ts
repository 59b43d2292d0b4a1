/**
 * The typed v1 client: one `call(route, input)` for every contract route (src-shared/contract/*). The route's zod
 * schemas give the types of `params`, `query`, `body` and the result, so the renderer cannot send a field the
 * server does not know or read one it does not return.
 *
 * Wire rules it applies:
 * - `:name` segments of the route path are filled from `params` (URI-encoded); a missing one is a programming
 *   error and throws before any request is made. The path is under the route's `mount` (`/v1`, or `/app` for the
 *   internal app API).
 * - Query arrays go as repeated keys (`?sort=name&sort=asc`, the hosted service's form); `undefined`/`null` values
 *   are left out; booleans as `true`/`false`.
 * - The bearer token, when there is one, goes in `Authorization`.
 * - A non-2xx answer becomes an `ApiClientError` carrying the spec's Error payload (status, label, message,
 *   description, requestId, retryAfterSeconds — the last two also read from `X-Request-Id` / `Retry-After` when the
 *   body lacks them — and, on a 422 about inputs, the `fields` that failed, or the e-invoice `rules`). A server that cannot be reached becomes an `ApiClientError` with status 0.
 * - `file(route, input)` reads a route that answers a file (an invoice's PDF, a document) as a Blob.
 * - `stream(path)` opens one of the server's internal event streams (`/app/…`, server-sent events) over fetch, so
 *   it can send the bearer token that `EventSource` cannot; the wire format is parsed by eventsource-parser.
 *
 * Runs in the browser, in Electron's renderer and in Node 22 (global fetch); its one run-time import is the SSE
 * parser.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { z } from 'zod';
import type { ErrorPayload, FieldError, RuleFailure } from './contract/errors';
import type { RouteContract, RouteResponse } from './contract/route';

type Input<T> = T extends z.ZodType ? z.input<T> : never;

/** The request parts a route takes: `params` and `body` are required when the contract declares them. */
export type CallInput<R extends RouteContract> = (R['params'] extends z.ZodType
  ? { params: Input<R['params']> }
  : { params?: undefined }) &
  (R['body'] extends z.ZodType ? { body: Input<R['body']> } : { body?: undefined }) & {
    query?: R['query'] extends z.ZodType ? Input<R['query']> : undefined;
    /** Sent as the `Idempotency-Key` header (routes marked `idempotent`). */
    idempotencyKey?: string;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };

/** A call's answer with what is useful besides the body: the status (201 vs 200 on upsert) and the request id. */
export interface ApiResult<R extends RouteContract> {
  status: number;
  data: RouteResponse<R>;
  requestId: string | null;
}

export class ApiClientError extends Error {
  override name = 'ApiClientError';
  /** The HTTP status; 0 when no answer arrived (server down, wrong URL, blocked by the browser). */
  readonly status: number;
  /** The payload's short label, e.g. "Unprocessable Entity". */
  readonly error: string;
  readonly description: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** Each input that failed (422; docs/decisions/0013-error-field-list.md); empty otherwise. */
  readonly fields: readonly FieldError[];
  /** The business rules an e-invoice failed (422; docs/decisions/0160-e-invoices.md); empty otherwise. */
  readonly rules: readonly RuleFailure[];

  constructor(status: number, payload: Partial<ErrorPayload>, fallbackMessage: string) {
    super(payload.message ?? fallbackMessage);
    this.status = status;
    this.error = payload.error ?? (status === 0 ? 'Network Error' : `HTTP ${status}`);
    this.description = payload.description;
    this.requestId = payload.requestId;
    this.retryAfterSeconds = payload.retryAfterSeconds;
    this.fields = Array.isArray(payload.fields) ? payload.fields : [];
    this.rules = Array.isArray(payload.rules) ? payload.rules : [];
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/** The server's internal event streams (outside the v1 contract). */
export type StreamPath = '/app/changes/stream';

/** One `data` payload of `/app/changes/stream`: a record of the caller's team changed (op `delete`: removed). */
export interface ChangeEvent {
  seq: number;
  entity: string;
  id: string;
  op: 'upsert' | 'delete';
}

/** What a stream yields: an event (`event` undefined for the default "message" type) or a comment (heartbeats). */
export type StreamItem = { type: 'event'; message: EventSourceMessage } | { type: 'comment'; text: string };

export interface StreamOptions {
  /** Sent as `Last-Event-ID`: the server replays what came after it. */
  lastEventId?: string;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Origin of the server (`http://127.0.0.1:4100`), without `/v1`; read on every call so settings can change it. */
  baseUrl: string | (() => string);
  /** The bearer token (API key or OAuth access token), read on every call. */
  token?: () => string | null | undefined;
  fetch?: typeof fetch;
}

export interface ApiClient {
  /** Calls the route and returns the parsed success body; throws ApiClientError otherwise. */
  call<R extends RouteContract>(route: R, input?: CallInput<R>): Promise<RouteResponse<R>>;
  /** Like `call`, with the status and request id. */
  send<R extends RouteContract>(route: R, input?: CallInput<R>): Promise<ApiResult<R>>;
  /** Calls a route whose success body is a file (a PDF): its bytes and type as a Blob; errors as `call`. */
  file<R extends RouteContract>(route: R, input?: CallInput<R>): Promise<Blob>;
  /**
   * Opens an event stream: resolves once the server has answered 2xx (throws ApiClientError otherwise, as `call`
   * does), then yields items until the server ends the stream (the iteration finishes), the connection fails (it
   * throws ApiClientError with status 0) or `signal` aborts (it throws the AbortError).
   */
  stream(path: StreamPath, options?: StreamOptions): Promise<AsyncIterable<StreamItem>>;
}

type QueryValue = string | number | boolean | null | undefined;

/** `/customers/:id` + `{id: 'a b'}` → `/customers/a%20b`. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** `{sort: ['name','asc'], q: 'x', tab: undefined}` → `sort=name&sort=asc&q=x`. */
export function serializeQuery(query: Record<string, QueryValue | readonly QueryValue[]> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, raw] of Object.entries(query ?? {})) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const v of values) {
      if (v === undefined || v === null) continue;
      search.append(key, String(v));
    }
  }
  return search.toString();
}

function parseRetryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const n = Number(header);
  return Number.isFinite(n) && n >= 0 ? Math.ceil(n) : undefined;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const baseUrl = () => (typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl).replace(/\/+$/, '');

  /** Sends the request; the answer's body is left unread. */
  async function request<R extends RouteContract>(route: R, input: CallInput<R> | undefined, accept: string): Promise<Response> {
    const path = fillPath(route.path, input?.params as Record<string, unknown> | undefined);
    const qs = serializeQuery(input?.query as Record<string, QueryValue> | undefined);
    const url = `${baseUrl()}${route.mount ?? '/v1'}${path}${qs ? `?${qs}` : ''}`;
    const headers: Record<string, string> = { accept, ...input?.headers };
    const token = options.token?.();
    if (token) headers.authorization = `Bearer ${token}`;
    if (input?.idempotencyKey) headers['idempotency-key'] = input.idempotencyKey;
    const hasBody = input?.body !== undefined;
    if (hasBody) headers['content-type'] = 'application/json';

    let response: Response;
    try {
      response = await doFetch(url, {
        method: route.method,
        headers,
        body: hasBody ? JSON.stringify(input?.body) : undefined,
        signal: input?.signal,
      });
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      throw new ApiClientError(0, {}, `Could not reach the server at ${baseUrl() || 'this address'}`);
    }
    return response;
  }

  async function send<R extends RouteContract>(route: R, input?: CallInput<R>): Promise<ApiResult<R>> {
    const response = await request(route, input, 'application/json');
    const body = await readBody(response);
    const requestId = response.headers.get('x-request-id');
    if (!response.ok) throw errorFromResponse(response, body);
    return { status: response.status, data: body as RouteResponse<R>, requestId };
  }

  async function stream(path: StreamPath, opts: StreamOptions = {}): Promise<AsyncIterable<StreamItem>> {
    const qs = serializeQuery(opts.query);
    const url = `${baseUrl()}${path}${qs ? `?${qs}` : ''}`;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    const token = options.token?.();
    if (token) headers.authorization = `Bearer ${token}`;
    if (opts.lastEventId) headers['last-event-id'] = opts.lastEventId;
    let response: Response;
    try {
      response = await doFetch(url, { method: 'GET', headers, signal: opts.signal });
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      throw new ApiClientError(0, {}, `Could not reach the server at ${baseUrl() || 'this address'}`);
    }
    if (!response.ok) throw errorFromResponse(response, await readBody(response));
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await response.body?.cancel();
      throw new ApiClientError(response.status, {}, `${path} did not answer with an event stream`);
    }
    return readEvents(response.body, opts.signal);
  }

  async function file<R extends RouteContract>(route: R, input?: CallInput<R>): Promise<Blob> {
    const response = await request(route, input, '*/*');
    if (!response.ok) throw errorFromResponse(response, await readBody(response));
    return response.blob();
  }

  return {
    send,
    call: async (route, input) => (await send(route, input)).data,
    file,
    stream,
  };
}

function errorFromResponse(response: Response, body: unknown): ApiClientError {
  const payload: Partial<ErrorPayload> = body && typeof body === 'object' ? (body as Partial<ErrorPayload>) : {};
  return new ApiClientError(
    response.status,
    {
      ...payload,
      requestId: payload.requestId ?? response.headers.get('x-request-id') ?? undefined,
      retryAfterSeconds: payload.retryAfterSeconds ?? parseRetryAfter(response.headers.get('retry-after')),
    },
    typeof body === 'string' && body ? body.slice(0, 200) : `The server answered ${response.status}`,
  );
}

async function* readEvents(body: ReadableStream<Uint8Array>, signal: AbortSignal | undefined): AsyncGenerator<StreamItem> {
  const queue: StreamItem[] = [];
  const parser = createParser({
    onEvent: (message) => queue.push({ type: 'event', message }),
    onComment: (text) => queue.push({ type: 'comment', text }),
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted || (err as Error)?.name === 'AbortError') throw err;
        throw new ApiClientError(0, {}, 'The event stream was cut off');
      }
      if (chunk.done) return;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      while (queue.length > 0) yield queue.shift()!;
    }
  } finally {
    // Leaving early (break, a throw in the consumer) closes the connection.
    await reader.cancel().catch(() => {});
  }
}
