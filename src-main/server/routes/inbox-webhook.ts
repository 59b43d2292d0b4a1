import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sortIntakes } from '../../inbox-ingest/intake';
import { readMail } from '../../inbox-ingest/mail';
import { readInboxSecrets } from '../../inbox-ingest/secrets';
import { blobStore, dataDirOf } from '../../infra/blob-store';
import { ParserFailed, ParserStopped } from '../../sandbox/pool';
import type { Db } from '../../store/db';
import { ingestToInbox } from '../../store/inbox/ingest';
import { inboxSourceByAddress } from '../../store/inbox/sources';
import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookHeadersProblem,
  webhookSignatureProblemOf,
} from '../../workflows/webhook-signature';
import { codingsOf, decodedBody, decodedChunks } from '../content-encoding';
import { ApiError, unauthorized, unprocessable } from '../errors';
import { kickDocumentRunner } from './uploads';

/**
 * The inbound e-mail callback (docs/decisions/0150-inbox-ingestion.md): `POST /webhook/inbox/{address}` (and the
 * same under /webhooks, as the spec names both) takes one raw message (`Content-Type: message/rfc822`) from the mail
 * provider that receives the team's receipts address; its attachments become inbox items like an upload. Outside /v1
 * and its bearer scheme: the call is signed with the team's inbox secret (workflows/webhook-signature.ts: HMAC-SHA256
 * of "<timestamp>.<raw body>"). An unknown address and a bad or missing signature are the same 401, so addresses
 * cannot be probed — and both are answered before the body is read, from the headers alone, so a stranger's body
 * is never buffered, let alone inflated (a compressed body is decoded only into the signature's hash until it
 * matches, then into memory: at most MAX_BODY_BYTES either way). The same message sent again (a provider's retry)
 * answers 200 with nothing new.
 */
export interface InboxWebhookOptions {
  db: Db;
  clock?: () => Date;
}

/** A 20 MiB receipt in base64 with the rest of the mail. */
const MAX_BODY_BYTES = 40 * 1024 * 1024;

/** What the route's first hook found for a request: its address's team and inbox secret. */
interface Sender {
  teamId: string;
  secret: string;
}

export async function inboxWebhookPlugin(app: FastifyInstance, opts: InboxWebhookOptions): Promise<void> {
  const { db } = opts;
  const clock = opts.clock ?? (() => new Date());
  const dataDir = dataDirOf(db);
  const blobs = blobStore(dataDir);
  const senders = new WeakMap<FastifyRequest, Sender>();
  // The signature covers the bytes as sent: keep them as they came (and still encoded: see below).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) => done(null, body));
  const header = (request: FastifyRequest, name: string) => {
    const v = request.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const signed = (request: FastifyRequest) => ({
    signature: header(request, SIGNATURE_HEADER),
    timestamp: header(request, TIMESTAMP_HEADER),
  });

  app.post(
    '/inbox/:address',
    {
      schema: { hide: true },
      bodyLimit: MAX_BODY_BYTES,
      // public + scopes: no bearer credential, but counted against the per-address rate limit. keepEncoding: the
      // body reaches the handler as sent; it is decoded only once its signature is known to be good.
      config: { public: true, scopes: [], keepEncoding: true },
      // Before a byte of the body is read (docs/decisions/0170): an unknown address, or signature headers no body
      // could make good, are the 401 a bad signature is.
      onRequest: async (request: FastifyRequest<{ Params: { address: string } }>) => {
        const address = request.params.address;
        const source = address.length <= 200 ? inboxSourceByAddress(db, address) : undefined;
        const secret = source ? readInboxSecrets(dataDir, source.teamId).webhookSecret : undefined;
        const problem = source && secret ? webhookHeadersProblem(signed(request), clock()) : 'the signature does not match';
        if (!source || !secret || problem) throw unauthorized('Webhook signature not accepted', problem);
        senders.set(request, { teamId: source.teamId, secret });
      },
    },
    async (request: FastifyRequest<{ Params: { address: string }; Body: Buffer | undefined }>, reply) => {
      const sender = senders.get(request);
      if (!sender) throw unauthorized('Webhook signature not accepted', 'the signature does not match');
      const sent = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const codings = codingsOf(request);
      if (codings instanceof ApiError) throw codings;
      // A compressed body is decoded into the signature's hash and thrown away; kept only once the hash matches.
      const problem = await webhookSignatureProblemOf(
        sender.secret,
        signed(request),
        decodedChunks(sent, codings, MAX_BODY_BYTES),
        clock(),
      );
      if (problem) throw unauthorized('Webhook signature not accepted', problem);
      const raw = await decodedBody(sent, codings, MAX_BODY_BYTES);
      const source = { teamId: sender.teamId };

      const type = header(request, 'content-type')?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'message/rfc822') {
        throw new ApiError(
          415,
          'Unsupported Media Type',
          'Send the raw message as message/rfc822',
          `got: ${type ?? 'no content type'}`,
        );
      }
      if (raw.length === 0) throw unprocessable('The body is empty', 'send the raw message (RFC 5322)');
      let mail: Awaited<ReturnType<typeof readMail>>;
      try {
        mail = await readMail(raw);
      } catch (err) {
        // A message its reader could not get through within the sandbox's limits (docs/decisions/0170).
        if (err instanceof ParserStopped || err instanceof ParserFailed) {
          throw unprocessable('The message could not be read', err.message);
        }
        throw err;
      }
      if (!mail.looksLikeMail)
        throw unprocessable('The body is not an e-mail message', 'it has neither a Message-ID nor a From header');
      const result = ingestToInbox(
        db,
        source.teamId,
        { source: 'webhook', messageKey: mail.messageKey, ...sortIntakes(mail.intakes) },
        blobs,
      );
      if (result.created.length > 0) kickDocumentRunner(db);
      return reply.code(200).send({
        duplicate: result.duplicateMessage,
        created: result.created.map((i) => ({ id: i.id, fileName: i.fileName })),
        duplicates: result.duplicates,
        skipped: result.skipped,
      });
    },
  );
}
