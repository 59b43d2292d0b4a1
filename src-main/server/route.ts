import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ErrorPayload } from '../../src-shared/contract/errors';
import { routeOrigin } from '../../src-shared/contract/origins';
import type { RouteBody, RouteContract, RouteParams, RouteQuery, RouteResponse } from '../../src-shared/contract/route';
import type { Credential } from './auth/credentials';
import { acceptBodies } from './body';
import type { GroupCommit } from './group-commit';
import { hasBody } from './has-body';

export interface RouteContext<R extends RouteContract> {
  params: RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  /** The caller; every store call takes `auth.teamId` so no query can leave the team. */
  auth: R['public'] extends true ? null : Credential;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Returns the success body, or the reply itself when the handler answered by itself (a page, a redirect). */
export type RouteHandler<R extends RouteContract> = (
  ctx: RouteContext<R>,
) => RouteResponse<R> | FastifyReply | Promise<RouteResponse<R> | FastifyReply>;

/** Error statuses any contract route may answer with, documented in OpenAPI with the Error payload. */
function errorResponses(route: RouteContract): Record<number, z.ZodType> {
  if (route.errorResponses) return route.errorResponses;
  const statuses = route.public ? [400, 422, 429] : [400, 401, 403, 404, 422, 429];
  if (route.idempotent) statuses.push(409, 503);
  if (route.method !== 'GET') statuses.push(409, 413, 415);
  return Object.fromEntries([...new Set(statuses)].sort().map((s) => [s, ErrorPayload]));
}

const JSON_ONLY = ['application/json'] as const;

/**
 * Registers one contract operation: its schemas validate the request and serialize the response, its scopes go
 * to the auth hook and to OpenAPI, and the handler's return value becomes the body with the first success status
 * the contract lists (a handler may set another one through `reply.code`).
 */
export interface RouteOptions<R extends RouteContract> {
  /**
   * GET only: the route's 200 responses may be served from the response cache (plugins/response-cache.ts) until the
   * database changes or until the instant this returns (epoch ms; Infinity when the body does not depend on the
   * clock). Only for handlers that set no headers of their own.
   */
  cacheUntil?: (body: RouteResponse<R>, now: number) => number;
  /**
   * Answers this route's errors, all of them (auth, rate limit, media type, validation, the handler's), in the shape
   * of the contract's `errorResponses`; without it they become the spec's Error payload (errors.ts).
   */
  errorHandler?: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  /**
   * The handler's writes share a commit with the other requests that arrived meanwhile (group-commit.ts): it runs in
   * the next batch and is answered once that batch is durable. Only for handlers that answer by returning their
   * body (never `reply.send` themselves) and need nothing outside a transaction (no VACUUM, no backup).
   */
  sharedCommit?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `finops serve --spec-only`: only the spec's and the hosted service's operations are served. */
    specOnly: boolean;
    /** The batches that write routes share their commits through (RouteOptions.sharedCommit). */
    groupCommit: GroupCommit;
  }
  interface FastifyContextConfig {
    /** The contract the route was registered from (the OpenAPI document reads what its schemas alone do not say). */
    contract?: RouteContract;
  }
}

export function registerRoute<R extends RouteContract>(
  app: FastifyInstance,
  route: R,
  handler: RouteHandler<R>,
  options: RouteOptions<R> = {},
): void {
  const origin = routeOrigin(route);
  // An extension is simply not there on a spec-only server: its path answers 404 like any unknown route.
  if (origin === 'extension' && app.specOnly) return;
  const successStatus = Number(Object.keys(route.responses)[0] ?? 200);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: route.method,
    url: route.path,
    config: {
      scopes: route.scopes,
      public: route.public ?? false,
      idempotent: route.idempotent ?? false,
      rateLimit: route.rateLimit ?? 'api',
      ...(options.cacheUntil ? { cacheUntil: options.cacheUntil as (body: unknown, now: number) => number } : {}),
      contract: route,
    },
    preParsing: acceptBodies(route.consumes ?? JSON_ONLY),
    ...(acceptsNoBody(route) ? { preValidation: noBodyIsEmpty } : {}),
    ...(options.errorHandler ? { errorHandler: options.errorHandler } : {}),
    schema: {
      ...(route.hidden ? { hide: true } : {}),
      ...(route.consumes ? { consumes: [...route.consumes] } : {}),
      ...(route.produces ? { produces: [route.produces] } : {}),
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: { ...route.responses, ...errorResponses(route) },
      ...(route.public ? { security: [] } : { security: [{ bearerAuth: [...route.scopes] }, { oauth2: [...route.scopes] }] }),
      ...({ 'x-scopes': [...route.scopes], 'x-finops-origin': origin } as object),
      ...(origin === 'extension' ? ({ 'x-finops-extension': true } as object) : {}),
    },
    handler: (request, reply) => {
      const call = () =>
        handler({
          params: request.params as RouteParams<R>,
          query: request.query as RouteQuery<R>,
          body: request.body as RouteBody<R>,
          auth: request.credential as RouteContext<R>['auth'],
          request,
          reply,
        });
      const result = options.sharedCommit ? app.groupCommit.run(call) : call();
      // Most handlers answer synchronously (a store read): sending at once spares each such request a promise and
      // two microtask hops. A handler that answered by itself (a page, a redirect) has nothing more to send.
      if (result instanceof Promise) return result.then((body) => (answered(reply, body) ? reply : withStatus(reply, body)));
      if (!answered(reply, result)) reply.send(withStatus(reply, result));
    },
  });

  function withStatus<T>(reply: FastifyReply, body: T): T {
    if (reply.statusCode === 200 && successStatus !== 200) reply.code(successStatus);
    return body;
  }
}

/**
 * A route whose body has no required field takes a request without a body as `{}` (docs/decisions/0014): a client
 * calling `POST /invoices/{id}/send` with nothing to say sends nothing. A body that is present (even `null`) is
 * validated as sent.
 */
const noBodyIsEmpty: preValidationHookHandler = (request, _reply, done) => {
  // undefined: a parser met an empty body; null: fastify read none (no Content-Length, or 0).
  if (request.body === undefined || (request.body === null && !hasBody(request))) request.body = {};
  done();
};

/** Whether a route's body has no required field, so that a request may leave it out. */
export function acceptsNoBody(contract: Pick<RouteContract, 'body'>): boolean {
  return contract.body?.safeParse({}).success === true;
}

function answered(reply: FastifyReply, result: unknown): boolean {
  return reply.sent || result === reply;
}
