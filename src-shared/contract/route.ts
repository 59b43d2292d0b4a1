import type { z } from 'zod';
import type { Scope } from './scopes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Media types a request body may come in. */
export type BodyMediaType = 'application/json' | 'application/x-www-form-urlencoded';

/**
 * The rate-limit budget a route counts against (docs/decisions/0010-rate-limits.md): `api` is per credential (per
 * client IP on public routes); `oauth` is the tighter per-IP budget of the sign-in and token endpoints.
 */
export type RateLimitClass = 'api' | 'oauth';

/**
 * One operation of the v1 contract, declared once. The server registers it (validation, serialization, scope
 * check, OpenAPI), the typed client calls it, and the renderer takes its types from it.
 *
 * `path` is relative to `/v1` and uses `:name` segments (fastify's form); OpenAPI shows them as `{name}`.
 */
export interface RouteContract {
  method: HttpMethod;
  path: string;
  summary: string;
  /** OpenAPI tag: the resource area. */
  tag: string;
  description?: string;
  /** Scopes every one of which the credential must hold. Empty only for `public` routes. */
  scopes: readonly Scope[];
  /** No bearer credential needed (health, OAuth endpoints, the documentation). */
  public?: boolean;
  /** Honours the optional `Idempotency-Key` header (see docs/decisions/0011-idempotency-key-guard.md). */
  idempotent?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Success responses by status code. Error responses (the Error payload) are added by the server. */
  responses: Record<number, z.ZodType>;
  /**
   * Media types the body may be sent as; default JSON only. Any route accepts an empty body whatever its
   * Content-Type; a body in another media type is answered 415.
   */
  consumes?: readonly BodyMediaType[];
  /**
   * File uploads: how a media type of `consumes` carries the file when that is not `body` itself (a multipart form
   * with a `file` part, or the bare file). OpenAPI describes each such media type with its schema here; the server
   * turns every form into `body` before validating it.
   */
  bodyForms?: Readonly<Record<string, z.ZodType>>;
  /** Request headers the route reads besides the credential, for OpenAPI only (e.g. X-Filename of a bare file). */
  documentedHeaders?: z.ZodObject;
  /** Media type of the success body; default JSON. An HTML page's schema is a string. */
  produces?: 'application/json' | 'text/html';
  /** Default `api`. */
  rateLimit?: RateLimitClass;
  /**
   * Error responses by status, for routes whose errors are not the spec's Error payload (the OAuth endpoints answer
   * in RFC 6749 form); the server's route registration then needs an error mapper of the same shape.
   */
  errorResponses?: Record<number, z.ZodType>;
  /** Left out of the OpenAPI document (a browser page, not an API operation). */
  hidden?: boolean;
  /**
   * Where the server mounts the route: `/v1` (default) or `/app`, the internal app API. The typed client builds the
   * URL from it; the server registers the route under the prefix of the plugin that registers it.
   */
  mount?: '/v1' | '/app';
}

export function defineRoute<const T extends RouteContract>(route: T): T {
  return route;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type RouteParams<R extends RouteContract> = Infer<R['params']>;
export type RouteQuery<R extends RouteContract> = Infer<R['query']>;
export type RouteBody<R extends RouteContract> = Infer<R['body']>;
export type RouteSuccessStatus<R extends RouteContract> = keyof R['responses'] & number;
export type RouteResponse<R extends RouteContract, S extends number = RouteSuccessStatus<R>> = S extends keyof R['responses']
  ? Infer<R['responses'][S]>
  : never;
