import type { FastifyInstance } from 'fastify';
import { appWorkflowRoutes } from '../../../src-shared/contract/app-workflows';
import { refusedAddressEntry } from '../../outbound/entries';
import type { Db } from '../../store/db';
import { decideApproval } from '../../store/workflows/runs/approvals';
import { cancelRun } from '../../store/workflows/runs/cancel';
import { getRunDetail, listRuns } from '../../store/workflows/runs/reads';
import { getWorkflowSettings, setWorkflowSettings } from '../../store/workflows/settings';
import { listWorkflows } from '../../store/workflows/workflows';
import { InvalidDefinition, importWorkflow, promote, setActive, workflowDetail } from '../../workflows/catalog';
import { describeProblems } from '../../workflows/validate';
import { wakeRunners } from '../../workflows/wakeup';
import { principalOf } from '../auth/principal';
import { conflict, forbidden, unprocessable } from '../errors';
import { registerRoute } from '../route';
import { mayManage } from './app-sync';
import { startAck, startOrRefuse } from './workflows';

/**
 * The internal app API for workflows under /app (contract/app-workflows.ts): what the renderer and tools need that
 * the public API deliberately lacks. Same credentials and scopes as /v1; every call is scoped to the caller's team.
 */

export async function appWorkflowRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, appWorkflowRoutes.settings, ({ auth }) => getWorkflowSettings(db, auth.teamId));
  registerRoute(app, appWorkflowRoutes.putSettings, ({ auth, body }) => {
    // Where the team's runs may call out to is team administration (docs/decisions/0176): an owner (or a key with
    // apis.all); what those hosts' addresses may be stays the operator's (outbound/policy.ts, checked per call).
    if (!mayManage(db, auth)) {
      throw forbidden(
        'Only an owner of the team may change where its workflows may call',
        auth.userId
          ? 'Ask an owner of the team.'
          : 'A credential without a person needs the apis.all scope for team administration.',
      );
    }
    body.httpHosts.forEach((entry, i) => {
      const refused = refusedAddressEntry(entry);
      if (refused) {
        throw unprocessable(`httpHosts[${i}]: ${refused}`, undefined, [
          { location: 'body', path: `httpHosts.${i}`, message: refused },
        ]);
      }
    });
    return setWorkflowSettings(db, auth.teamId, body);
  });
  registerRoute(app, appWorkflowRoutes.list, ({ auth, query }) => listWorkflows(db, auth.teamId, query));
  registerRoute(app, appWorkflowRoutes.import, ({ auth, body }) => {
    try {
      const imported = importWorkflow(db, auth.teamId, body.definition, {
        promote: body.promote,
        author: principalOf(auth),
      });
      return workflowDetail(db, auth.teamId, imported.workflowId);
    } catch (err) {
      if (err instanceof InvalidDefinition)
        throw unprocessable('The workflow definition is not valid', describeProblems(err.problems));
      throw err;
    }
  });
  registerRoute(app, appWorkflowRoutes.get, ({ auth, params }) => workflowDetail(db, auth.teamId, params.id));
  registerRoute(app, appWorkflowRoutes.promote, ({ auth, params, body }) => {
    promote(db, auth.teamId, params.id, body.version);
    return workflowDetail(db, auth.teamId, params.id);
  });
  registerRoute(app, appWorkflowRoutes.activate, ({ auth, params }) => {
    setActive(db, auth.teamId, params.id, true);
    return workflowDetail(db, auth.teamId, params.id);
  });
  registerRoute(app, appWorkflowRoutes.deactivate, ({ auth, params }) => {
    setActive(db, auth.teamId, params.id, false);
    return workflowDetail(db, auth.teamId, params.id);
  });
  registerRoute(app, appWorkflowRoutes.start, ({ auth, params, body }) =>
    startAck(
      startOrRefuse(db, auth.teamId, params.id, {
        triggerType: body.triggerType,
        triggerData: body.triggerData,
        idempotencyKey: body.idempotencyKey,
        source: 'app',
        requireApiExecution: false,
        startedBy: principalOf(auth),
      }),
    ),
  );
  registerRoute(app, appWorkflowRoutes.listRuns, ({ auth, query }) => listRuns(db, auth.teamId, query));
  registerRoute(app, appWorkflowRoutes.getRun, ({ auth, params }) => getRunDetail(db, auth.teamId, params.id));
  for (const [route, decision] of [
    [appWorkflowRoutes.approve, 'approved'],
    [appWorkflowRoutes.reject, 'rejected'],
  ] as const) {
    registerRoute(app, route, ({ auth, params, body }) => {
      // Four eyes (0179): the store refuses an approval by whoever started the run, 403.
      const decider = { principal: principalOf(auth), administers: mayManage(db, auth) };
      decideApproval(db, auth.teamId, params.id, decision, decider, body?.comment);
      wakeRunners();
      return getRunDetail(db, auth.teamId, params.id);
    });
  }
  registerRoute(app, appWorkflowRoutes.retry, ({ auth, params }) => {
    const run = getRunDetail(db, auth.teamId, params.id);
    if (run.status !== 'failed') throw conflict(`Run ${run.runId} has not failed`, `it is ${run.status}`);
    // Keyed by the failed run: a second click (or a second person) gets the same new run, not another.
    return startAck(
      startOrRefuse(db, auth.teamId, run.workflowId, {
        triggerType: run.triggerType,
        triggerData: run.triggerData as Record<string, unknown>,
        idempotencyKey: `retry:${run.executionId}`,
        source: 'app',
        requireApiExecution: false,
        startedBy: principalOf(auth),
      }),
    );
  });
  registerRoute(app, appWorkflowRoutes.cancel, ({ auth, params }) => {
    cancelRun(db, auth.teamId, params.id);
    return getRunDetail(db, auth.teamId, params.id);
  });
}
