import type { FastifyInstance, FastifyRequest } from 'fastify';
import { blobStore, dataDirOf } from '../../documents/storage';
import { sortIntakes } from '../../inbox-ingest/intake';
import { readMail } from '../../inbox-ingest/mail';
import { readInboxSecrets } from '../../inbox-ingest/secrets';
import { ParserFailed, ParserStopped } from '../../sandbox/pool';
import type { Db } from '../../store/db';
import { ingestToInbox } from '../../store/inbox/ingest';
import { inboxSourceByAddress } from '../../store/inbox/sources';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignatureProblem } from '../../workflows/webhook-signature';
import { ApiError, unauthorized, unprocessable } from '../errors';
import { kickDocumentRunner } from './uploads';

/**
 * The inbound e-mail callback (docs/decisions/0150-inbox-ingestion.md): `POST /webhook/inbox/{address}` (and the
 * same under /webhooks, as the spec names both) takes one raw message (`Content-Type: message/rfc822`) from the mail
 * provider that receives the team's receipts address; its attachments become inbox items like an upload. Outside /v1
 * and its bearer scheme: the call is signed with the team's inbox secret (workflows/webhook-signature.ts: HMAC-SHA256
 * of "<timestamp>.<raw body>"). An unknown address and a bad or missing signature are the same 401, so addresses
 * cannot be probed. The same message sent again (a provider's retry) answers 200 with nothing new.
 */
export interface InboxWebhookOptions {
  db: Db;
  clock?: () => Date;
}

/** A 20 MiB receipt in base64 with the rest of the mail. */
const MAX_BODY_BYTES = 40 * 1024 * 1024;

export async function inboxWebhookPlugin(app: FastifyInstance, opts: InboxWebhookOptions): Promise<void> {
  const { db } = opts;
  const clock = opts.clock ?? (() => new Date());
  const dataDir = dataDirOf(db);
  const blobs = blobStore(dataDir);
  // The signature covers the bytes as sent: keep them as they came.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) => done(null, body));

  app.post(
    '/inbox/:address',
    // public + scopes: no bearer credential, but counted against the per-address rate limit.
    { schema: { hide: true }, bodyLimit: MAX_BODY_BYTES, config: { public: true, scopes: [] } },
    async (request: FastifyRequest<{ Params: { address: string }; Body: Buffer | undefined }>, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = (name: string) => {
        const v = request.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const source = request.params.address.length <= 200 ? inboxSourceByAddress(db, request.params.address) : undefined;
      const secret = source ? readInboxSecrets(dataDir, source.teamId).webhookSecret : undefined;
      const problem =
        source && secret
          ? webhookSignatureProblem(
              secret,
              { signature: header(SIGNATURE_HEADER), timestamp: header(TIMESTAMP_HEADER) },
              raw,
              clock(),
            )
          : 'the signature does not match';
      if (!source || problem) throw unauthorized('Webhook signature not accepted', problem);

      const type = header('content-type')?.split(';')[0]?.trim().toLowerCase();
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
