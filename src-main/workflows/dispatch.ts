import type { Db } from '../store/db';
import { Conflict } from '../store/errors';
import { acceptHookCall, type HookCall } from '../store/workflows/hook-calls';
import { findRunByKey, insertRun, type RunRef } from '../store/workflows/runs/enqueue';
import type { RunSource } from '../store/workflows/runs/row';
import { getWorkflowForStart } from '../store/workflows/workflows';
import { write } from '../store/write';
import { parseStoredDefinition } from './definitions';
import { declares, dispatchProblem, triggerDataProblem } from './triggers';

/**
 * Starting a run on request: the public execute and chat calls, the app, the CLI and the inbound webhook
 * (docs/decisions/0102-workflow-start-rules.md). The checks, in order:
 *
 * 1. access: the workflow is the caller's team's (else NotFound → 404); the public API needs API execution (403);
 * 2. readiness: active, a promoted version, and that version validates under this build's rules (409 each);
 * 3. a signed webhook call is remembered, and a replay of one refused (409, docs/decisions/0178);
 * 4. a body idempotencyKey already used for this workflow answers that execution: bodies and callers are not
 *    compared, but 1 and 2 pass again first;
 * 5. the dispatch: a triggerType a call may name (400), declared by the promoted version (409; chat needs manual),
 *    and trigger data whose record ids are the team's (400).
 *
 * All of it runs in one IMMEDIATE transaction, so parallel starts with one key make exactly one run.
 */

export class StartRefused extends Error {
  override name = 'StartRefused';
  constructor(
    readonly status: 400 | 403,
    message: string,
  ) {
    super(message);
  }
}

export interface StartRequest {
  triggerType: string;
  triggerData: Record<string, unknown>;
  idempotencyKey?: string;
  conversationId?: string | null;
  source: RunSource;
  /** The public API (execute, chat) needs the workflow's API execution flag; the app and the CLI do not. */
  requireApiExecution: boolean;
  /** A chat start: the workflow must declare a manual trigger. */
  chat?: boolean;
  /** Who starts it by hand (runs/approvals.ts principals); none for a trigger, a schedule, a webhook. */
  startedBy?: string | null;
  /** The signed call of POST /hooks/workflows/{id} that starts it (remembered: a replay is refused). */
  hookCall?: HookCall;
}

export interface Started extends RunRef {
  /** The execution already existed under the idempotency key. */
  reused: boolean;
}

export function startWorkflowRun(db: Db, teamId: string, workflowId: string, request: StartRequest): Started {
  return write(db, teamId, (w) => {
    const wf = getWorkflowForStart(db, teamId, workflowId);
    if (request.requireApiExecution && !wf.apiExecution) {
      throw new StartRefused(403, 'API execution is disabled for this workflow');
    }
    if (!wf.active) throw new Conflict('The workflow is inactive', 'activate it in the app or with finops workflow activate');
    if (wf.promotedVersion === null || wf.promotedDefinition === null) {
      throw new Conflict(
        'The workflow has no promoted version',
        'promote a version: only the promoted version runs, never a draft',
      );
    }
    const definition = parseStoredDefinition(wf.promotedDefinition);
    if (typeof definition === 'string') {
      throw new Conflict(`The promoted definition (version ${wf.promotedVersion}) is malformed`, definition);
    }

    if (request.hookCall) acceptHookCall(w, request.hookCall);
    if (request.idempotencyKey) {
      const existing = findRunByKey(db, teamId, workflowId, request.idempotencyKey);
      if (existing) return { ...existing, reused: true };
    }

    const dispatch = dispatchProblem(request.triggerType);
    if (dispatch) throw new StartRefused(400, dispatch);
    if (request.chat && !declares(definition, 'manual')) {
      throw new Conflict(
        'The workflow declares no manual trigger, which chat needs',
        `it declares ${definition.triggers.map((t) => t.type).join(', ')}`,
      );
    }
    if (!declares(definition, request.triggerType)) {
      throw new Conflict(
        `The workflow declares no ${request.triggerType} trigger`,
        `it declares ${definition.triggers.map((t) => t.type).join(', ')}`,
      );
    }
    const data = triggerDataProblem(db, teamId, request.triggerType, request.triggerData);
    if (data) throw new StartRefused(400, data);

    const run = insertRun(w, {
      workflowId,
      version: wf.promotedVersion,
      triggerType: request.triggerType,
      triggerData: request.triggerData,
      source: request.source,
      conversationId: request.conversationId ?? null,
      idempotencyKey: request.idempotencyKey ?? null,
      startedBy: request.startedBy ?? null,
    });
    return { ...run, reused: false };
  });
}
