import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorPayload, FieldError, RuleFailure } from '../../src-shared/contract/errors';
import { Conflict, Forbidden, InvalidReference, NotFound } from '../store/errors';
import { newRequestId } from './request-id';
import { ResponseContractViolation } from './serializer';

/**
 * An error the API answers with, carrying its status and the spec's Error payload. Route code throws these (or the
 * store's named errors); `installErrorHandling` turns every failure into the payload. A stack trace never leaves
 * the server, and no client mistake becomes a 500.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly label: string,
    message: string,
    readonly description?: string,
    readonly retryAfterSeconds?: number,
    readonly headers: Record<string, string> = {},
    /** The inputs that failed, for 422 answers (docs/decisions/0013-error-field-list.md). */
    readonly fields?: readonly FieldError[],
    /** The business rules an e-invoice failed (docs/decisions/0160-e-invoices.md). */
    readonly rules?: readonly RuleFailure[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const STATUS_LABELS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  431: 'Request Header Fields Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const unauthorized = (message: string, description?: string) =>
  new ApiError(401, 'Unauthorized', message, description, undefined, { 'WWW-Authenticate': 'Bearer realm="v1"' });
export const forbidden = (message: string, description?: string) => new ApiError(403, 'Forbidden', message, description);
export const notFound = (message: string, description?: string) => new ApiError(404, 'Not Found', message, description);
export const conflict = (message: string, description?: string) => new ApiError(409, 'Conflict', message, description);
export const unprocessable = (message: string, description?: string, fields?: readonly FieldError[]) =>
  new ApiError(422, 'Unprocessable Entity', message, description, undefined, {}, fields);

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** fastify's names for the parts of a request, as the error payload names them. */
const LOCATIONS: Record<string, FieldError['location']> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

/** One entry per failing input: `/address/countryCode` in the body → `{ location: 'body', path: 'address.countryCode' }`. */
function validationFields(validation: readonly ValidationIssue[], context: string | undefined): FieldError[] {
  const location = LOCATIONS[context ?? 'body'] ?? 'body';
  return validation.map((issue) => ({
    location,
    path: (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.'),
    message: issue.message ?? 'invalid',
  }));
}

/** "body.email: Invalid email address; body.countryCode: …" — names each failing field for the person reading. */
function describeValidation(validation: readonly ValidationIssue[], context: string | undefined): string {
  const where = context ?? 'request';
  return validation
    .map((issue) => {
      const field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
      return `${where}${field ? `.${field}` : ''}: ${issue.message ?? 'invalid'}`;
    })
    .join('; ');
}

/**
 * The API error for any failure. `request` says where a store's InvalidReference came from: the query of a GET
 * (a filter naming a record that is not there), the body of anything else.
 */
export function toApiError(err: unknown, request?: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof NotFound) return notFound(`No ${err.entity} with id ${err.id}`);
  if (err instanceof Conflict) return conflict(err.message, err.description);
  if (err instanceof Forbidden) return forbidden(err.message, err.description);
  if (err instanceof InvalidReference) {
    const location = request?.method === 'GET' ? 'query' : 'body';
    return unprocessable(err.message, `field: ${err.field}`, [{ location, path: err.field, message: err.message }]);
  }
  const e = err as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (hasZodFastifySchemaValidationErrors(e) || Array.isArray(e.validation)) {
    return unprocessable(
      'The request does not match the schema',
      describeValidation(e.validation ?? [], e.validationContext),
      validationFields(e.validation ?? [], e.validationContext),
    );
  }
  if (e instanceof ResponseContractViolation) {
    // Raised only when responses are validated (tests): the issues say what the handler got wrong.
    return new ApiError(500, 'Internal Server Error', 'The server failed to build its response', e.message);
  }
  if (isDiskFailure(err)) return diskUnavailable(err);
  if (isDatabaseBusy(err)) return databaseBusy();
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors: malformed JSON, empty body, wrong content type, body too large.
    const label = STATUS_LABELS[status] ?? 'Bad Request';
    const message =
      e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError ? 'The request body is not valid JSON' : e.message;
    return new ApiError(status, label, message, e.code);
  }
  return new ApiError(500, 'Internal Server Error', 'An unexpected error occurred; quote the requestId when reporting it');
}

/**
 * A write the disk refused: full (SQLITE_FULL, ENOSPC, a quota), failing (SQLITE_IOERR_*), or read-only. SQLite
 * has rolled the transaction back, so the last committed state stands and nothing of the request was saved: the
 * server is unavailable for writes, not broken, and the client may retry once space is freed
 * (docs/decisions/0186-start-up-safety.md).
 */
const DISK_CODES = new Set(['SQLITE_FULL', 'SQLITE_READONLY', 'ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

export function isDiskFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (DISK_CODES.has(code) || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY_'))
  );
}

/**
 * Another process held the database's write lock past the busy timeout (a `finops` command beside the server, a
 * backup's bookkeeping, a second server, on a machine too loaded to keep up): SQLite rolled the request back, so a
 * retry is safe and soon likely to succeed — 503 with a short Retry-After, not a 500 that reads as a fault.
 */
export function isDatabaseBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED');
}

function databaseBusy(): ApiError {
  return new ApiError(
    503,
    'Service Unavailable',
    'The database is busy with other work: nothing of this request was saved',
    'Another process held the database longer than this request could wait; try again in a moment',
    1,
  );
}

function diskUnavailable(err: unknown): ApiError {
  const code = (err as { code: string }).code;
  const full = code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
  return new ApiError(
    503,
    'Service Unavailable',
    full
      ? 'The server’s disk is full: nothing of this request was saved'
      : 'The server cannot write to its disk: nothing of this request was saved',
    `${code}: the last saved state is intact; try again once the server's operator has freed space or fixed the disk`,
    60,
  );
}

export function errorBody(err: ApiError, requestId: string): ErrorPayload {
  const body: ErrorPayload = { error: err.label, message: err.message, requestId };
  if (err.description) body.description = err.description;
  if (err.retryAfterSeconds !== undefined) body.retryAfterSeconds = err.retryAfterSeconds;
  if (err.fields?.length) body.fields = [...err.fields];
  if (err.rules?.length) body.rules = [...err.rules];
  return body;
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  if (err.retryAfterSeconds !== undefined) reply.header('Retry-After', String(err.retryAfterSeconds));
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.statusCode).type('application/json; charset=utf-8').send(errorBody(err, reply.request.id));
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Error handler and not-found handler for the whole app: unknown route 404, known path with another method 405. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error, request);
    if (apiError.statusCode >= 500)
      request.log.error({ err: error, reqId: request.id, route: request.routeOptions.url }, 'request failed');
    return sendError(reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => m !== request.method && app.findRoute({ method: m, url }));
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        reply,
        new ApiError(405, 'Method Not Allowed', `${request.method} is not allowed on ${url}`, `Allowed: ${allowed.join(', ')}`),
      );
    }
    return sendError(reply, notFound(`No route ${request.method} ${url}`));
  });
}

/**
 * Requests Node's HTTP parser refuses before fastify sees them (headers too large, a malformed request line, a
 * timeout) get the Error payload and a request id like every other error, then the connection closes. fastify's
 * `clientErrorHandler`.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError(
          431,
          STATUS_LABELS[431] as string,
          'The request headers are too large',
          `At most ${http.maxHeaderSize} bytes of headers`,
        )
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError(408, STATUS_LABELS[408] as string, 'The request took too long to arrive')
        : new ApiError(400, 'Bad Request', 'The request is not valid HTTP', err.code);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody(apiError, requestId));
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${apiError.statusCode} ${apiError.label}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
