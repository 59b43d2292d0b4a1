import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ChangeEvent } from '../../../src-shared/api-client';
import type { Change } from '../../store/changes';
import type { Db } from '../../store/db';
import { entityReadScope } from '../../store/entities';
import { changeWatcher, DEFAULT_POLL_MS } from '../change-watcher';
import { unprocessable } from '../errors';

/**
 * `GET /app/changes/stream`: the caller's team's change feed as server-sent events, for the UI to refresh what it
 * shows when anything changes (a write of its own, another client's, the CLI's). Internal (under `/app`, not in
 * the v1 contract or its OpenAPI document); authenticated like /v1, by API key or OAuth token.
 *
 *   id: 42
 *   data: {"seq":42,"entity":"customer","id":"0198…","op":"upsert"}
 *
 * - Each event is one record's latest change; only entities the credential may read are sent.
 * - `Last-Event-ID` (or `?since=` on a first connection) replays what came after it, then an `event: ready` whose
 *   id is the seq the live feed continues after. Without either the stream starts at the present. A client whose
 *   last id is above `ready`'s is looking at another database and should refetch everything.
 * - A comment every `heartbeatMs` keeps proxies and idle timers from closing the connection and lets a client
 *   notice a dead one.
 * - The credential (bearer token or the web UI's session cookie) is checked when the stream opens, like any
 *   request's, and again before each batch of changes is sent (`app.recheckCredential`, cached by change stamp), so a revoked credential is sent nothing more: its
 *   stream ends. It also ends at the credential's expiry, when the client reads too slowly (it resumes with
 *   Last-Event-ID and loses nothing), and on server shutdown, so `app.close()` never waits on an open stream.
 */
export interface AppEventsOptions {
  db: Db;
  pollMs?: number;
  heartbeatMs?: number;
}

export const DEFAULT_HEARTBEAT_MS = 15_000;
/** Bytes queued for one client before it is cut off to reconnect; a healthy client keeps this near zero. */
const MAX_QUEUED_BYTES = 1024 * 1024;

const StreamQuery = z.object({
  since: z.coerce.number().int().min(0).optional().describe('replay changes after this seq (first connection)'),
});

function parseLastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id'];
  if (header === undefined || header === '') return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^\d{1,15}$/.test(value.trim())) {
    throw unprocessable('Last-Event-ID must be a change sequence number', 'header: last-event-id');
  }
  return Number(value.trim());
}

function frame(change: Change): string {
  const event: ChangeEvent = { seq: change.seq, entity: change.entity, id: change.entityId, op: change.op };
  const data = JSON.stringify(event);
  return `id: ${change.seq}\ndata: ${data}\n\n`;
}

export async function appEventsPlugin(app: FastifyInstance, opts: AppEventsOptions): Promise<void> {
  const { db } = opts;
  const heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const open = new Set<{ end(): void; closed: Promise<void> }>();

  // Before the server stops accepting and waits for its connections: end every stream so none keeps it waiting.
  app.addHook('preClose', async () => {
    const closing = [...open];
    for (const s of closing) s.end();
    await Promise.all(closing.map((s) => s.closed));
  });

  app.get(
    '/changes/stream',
    {
      // No scope of its own: any valid credential may listen; each event is filtered by its entity's read scope.
      config: { scopes: [] },
      schema: { hide: true, querystring: StreamQuery },
    },
    (request: FastifyRequest<{ Querystring: z.infer<typeof StreamQuery> }>, reply: FastifyReply) => {
      const credential = request.credential!;
      const since = parseLastEventId(request) ?? request.query.since;
      const body = new PassThrough();
      let heartbeat: NodeJS.Timeout | undefined;
      let expiry: NodeJS.Timeout | undefined;
      let unsubscribe = () => {};
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(expiry);
        body.end();
      };
      const closed = new Promise<void>((resolve) => reply.raw.once('close', resolve));
      const handle = { end, closed };
      open.add(handle);
      void closed.then(() => {
        open.delete(handle);
        end();
      });

      const visible = (c: Change) => {
        const scope = entityReadScope(c.entity);
        return scope !== undefined && credential.scopes.has(scope);
      };
      const write = (text: string) => {
        if (ended) return;
        body.write(text);
        if (body.writableLength > MAX_QUEUED_BYTES) end();
      };

      const subscription = changeWatcher(db, opts.pollMs ?? DEFAULT_POLL_MS).subscribe(credential.teamId, since, (changes) => {
        if (app.recheckCredential(request)?.id !== credential.id) {
          end();
          return;
        }
        for (const c of changes) if (visible(c)) write(frame(c));
      });
      unsubscribe = subscription.unsubscribe;

      let first = 'retry: 2000\n\n';
      for (const c of subscription.replay) if (visible(c)) first += frame(c);
      first += `event: ready\nid: ${subscription.position}\ndata: ${JSON.stringify({ seq: subscription.position })}\n\n`;
      write(first);

      heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
      if (credential.expiresAt !== undefined) {
        // setTimeout fires at once for delays past 2^31-1 ms (~24.8 days).
        expiry = setTimeout(end, Math.min(2 ** 31 - 1, Math.max(0, credential.expiresAt - Date.now())));
      }

      request.raw.socket?.setNoDelay(true);
      reply
        .header('Content-Type', 'text/event-stream; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header('X-Accel-Buffering', 'no')
        // One stream per connection: when it ends, the connection goes too, so shutdown never waits on it.
        .header('Connection', 'close');
      return reply.send(body);
    },
  );
}
