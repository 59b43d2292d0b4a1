import type { FastifyInstance } from 'fastify';
import { ExecuteBody, workflowRoutes } from '../../../src-shared/contract/workflows';
import type { Db } from '../../store/db';
import { getRun } from '../../store/workflows/runs/reads';
import { runReference } from '../../store/workflows/runs/row';
import { type Started, StartRefused, type StartRequest, startWorkflowRun } from '../../workflows/dispatch';
import { wakeRunners } from '../../workflows/wakeup';
import { principalOf } from '../auth/principal';
import { ApiError, forbidden } from '../errors';
import { type RouteContext, registerRoute } from '../route';

/**
 * The public workflow operations: execute, chat, read a run (contract/workflows.ts). Starting a run only enqueues
 * it; the runner in this process takes it at once (wakeRunners) and the answer never waits for it.
 */

/** Starts a run, turning the dispatcher's refusals into the spec's statuses (400, 403; 404 and 409 map by kind). */
export function startOrRefuse(db: Db, teamId: string, workflowId: string, request: StartRequest): Started {
  try {
    const started = startWorkflowRun(db, teamId, workflowId, request);
    if (!started.reused) wakeRunners();
    return started;
  } catch (err) {
    if (err instanceof StartRefused) {
      throw err.status === 403 ? forbidden(err.message) : new ApiError(400, 'Bad Request', err.message);
    }
    throw err;
  }
}

export function startAck(run: Started) {
  return { executionId: run.id, runId: runReference(run.runNumber), queuedAt: run.queuedAt, status: 'queued' as const };
}

export async function workflowRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  /** execute, and the same operation under the overview's name (POST /workflows/{id}/runs). */
  const execute = ({
    auth,
    params,
    body,
  }: Pick<RouteContext<typeof workflowRoutes.execute | typeof workflowRoutes.startRun>, 'auth' | 'params' | 'body'>) => {
    // An empty body is every default: a manual run with no trigger data.
    const b = body ?? ExecuteBody.parse({});
    const run = startOrRefuse(db, auth.teamId, params.id, {
      triggerType: b.triggerType,
      triggerData: b.triggerData,
      idempotencyKey: b.idempotencyKey,
      source: 'api',
      requireApiExecution: true,
      startedBy: principalOf(auth),
    });
    return startAck(run);
  };
  registerRoute(app, workflowRoutes.execute, execute);
  registerRoute(app, workflowRoutes.startRun, execute);
  registerRoute(app, workflowRoutes.chat, ({ auth, params, body }) => {
    const conversationId = body.conversationId ?? null;
    const run = startOrRefuse(db, auth.teamId, params.id, {
      triggerType: 'manual',
      // The top-level message and conversationId win over the same keys inside triggerData.
      triggerData: { ...(body.triggerData ?? {}), message: body.message, conversationId },
      idempotencyKey: body.idempotencyKey,
      conversationId,
      source: 'chat',
      requireApiExecution: true,
      chat: true,
      startedBy: principalOf(auth),
    });
    return { ...startAck(run), conversationId };
  });
  registerRoute(app, workflowRoutes.getRun, ({ auth, params }) => getRun(db, auth.teamId, params.executionId));
}
