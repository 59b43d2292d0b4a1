import type { z } from 'zod';
import type { Scope } from './scopes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

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
