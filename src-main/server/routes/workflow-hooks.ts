import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../store/db';
import { findWebhookTarget } from '../../store/workflows/workflows';
import {
  SIGNATURE_HEADER,
  signWebhook,
  TIMESTAMP_HEADER,
  TOLERANCE_SECONDS,
  webhookSignatureProblem,
} from '../../workflows/webhook-signature';
import { ApiError, unauthorized, unprocessable } from '../errors';
import { startAck, startOrRefuse } from './workflows';

/**
 * `POST /hooks/workflows/{id}`: starts a run of a workflow that declares a webhook trigger, for a system outside the
 * app (an automation platform, a form). Outside /v1 and its bearer scheme: the call is signed with the workflow's own
 * secret (webhook-signature.ts; `finops workflow webhook-secret ID` shows it). The JSON body becomes the trigger data;
 * an `Idempotency-Key` header (1-255 characters) makes retries start one run. Answers 202 with the start
 * acknowledgment. An unknown workflow and a bad signature are the same 401, so ids cannot be probed. A signed call
 * is accepted once (docs/decisions/0178): its replay within the window is 409 — unless it repeats its
 * Idempotency-Key, which answers the run it started — in every process on the data dir and after a restart.
 */
export interface WorkflowHooksOptions {
  db: Db;
  clock?: () => Date;
}

const MAX_BODY_BYTES = 256 * 1024;

export async function workflowHooksPlugin(app: FastifyInstance, opts: WorkflowHooksOptions): Promise<void> {
  const { db } = opts;
  const clock = opts.clock ?? (() => new Date());
  // The signature covers the bytes as sent: keep them, parse afterwards.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) => done(null, body));

  app.post(
    '/workflows/:id',
    // public + scopes: no bearer credential, but counted against the per-address rate limit.
    { schema: { hide: true }, bodyLimit: MAX_BODY_BYTES, config: { public: true, scopes: [] } },
    (request: FastifyRequest<{ Params: { id: string }; Body: string | undefined }>, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const header = (name: string) => {
        const v = request.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const now = clock();
      const target = request.params.id.length <= 200 ? findWebhookTarget(db, request.params.id) : undefined;
      const problem = target
        ? webhookSignatureProblem(
            target.secret,
            { signature: header(SIGNATURE_HEADER), timestamp: header(TIMESTAMP_HEADER) },
            raw,
            now,
          )
        : 'the signature does not match';
      if (!target || problem) throw unauthorized('Webhook signature not accepted', problem);

      let data: unknown = {};
      if (raw.trim() !== '') {
        try {
          data = JSON.parse(raw);
        } catch {
          throw new ApiError(400, 'Bad Request', 'The request body is not valid JSON');
        }
      }
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        throw unprocessable('The body must be a JSON object', 'it becomes the run’s trigger data');
      }
      const key = header('idempotency-key');
      if (key !== undefined && (key.length < 1 || key.length > 255)) {
        throw unprocessable('Idempotency-Key must be 1 to 255 characters', 'header: idempotency-key');
      }
      const timestamp = Number(header(TIMESTAMP_HEADER));
      const run = startOrRefuse(db, target.teamId, request.params.id, {
        triggerType: 'webhook',
        triggerData: data as Record<string, unknown>,
        idempotencyKey: key,
        source: 'webhook',
        requireApiExecution: false,
        hookCall: {
          workflowId: request.params.id,
          signature: signWebhook(target.secret, timestamp, raw).slice('v1='.length),
          idempotencyKey: key,
          expiresAt: new Date((timestamp + TOLERANCE_SECONDS) * 1000).toISOString(),
          now: now.toISOString(),
        },
      });
      return reply.code(202).send(startAck(run));
    },
  );
}
