import { DISPATCHABLE_TRIGGER_TYPES, type Trigger, type WorkflowDefinition } from '../../src-shared/contract/workflow-definition';
import { REFERENCE_KEYS, REQUIRED_KEYS } from '../../src-shared/domain/workflow-trigger-inputs';
import type { Db } from '../store/db';
import { recordExists } from '../store/workflows/records';
import { findRunByKey, insertRun, type RunRef } from '../store/workflows/runs/enqueue';
import { getWorkflowForStart, workflowsDeclaring } from '../store/workflows/workflows';
import { write } from '../store/write';
import { parseStoredDefinition } from './definitions';

/**
 * Trigger sources and the rules of a trigger's data (docs/decisions/0102-workflow-start-rules.md).
 *
 * `enqueueTriggeredRuns` is what other areas call when something happened (the invoice scheduler marked an invoice
 * overdue): inside the caller's write, it enqueues a run of every active workflow of the team whose promoted version
 * declares that trigger. The runner picks the runs up; the caller's transaction carries them, so an event that
 * rolls back starts nothing.
 */

/** Why this trigger type cannot be dispatched by a start call, or undefined. */
export function dispatchProblem(triggerType: string): string | undefined {
  if ((DISPATCHABLE_TRIGGER_TYPES as readonly string[]).includes(triggerType)) return undefined;
  if (triggerType === 'schedule') return 'trigger dispatch invalid: schedule runs are started by their cron, not by a call';
  return `trigger dispatch invalid: unknown triggerType "${triggerType}"; one of ${DISPATCHABLE_TRIGGER_TYPES.join(', ')}`;
}

/**
 * Why a trigger's data cannot be loaded for this team, or undefined. Record ids resolve against the team only:
 * another team's id reads exactly like an id that does not exist, so nothing leaks.
 */
export function triggerDataProblem(
  db: Db,
  teamId: string,
  triggerType: string,
  data: Record<string, unknown>,
): string | undefined {
  const required = REQUIRED_KEYS[triggerType];
  if (required && !required.some((k) => data[k] !== undefined)) {
    return `trigger dispatch invalid: ${triggerType} needs triggerData.${required.join(' or triggerData.')}`;
  }
  for (const [key, resource] of Object.entries(REFERENCE_KEYS)) {
    const id = data[key];
    if (id === undefined) continue;
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
      return `referenced trigger data cannot be loaded: triggerData.${key} must be a ${resource} id`;
    }
    if (!recordExists(db, teamId, resource, id)) {
      return `referenced trigger data cannot be loaded for this team: triggerData.${key} names no ${resource} of the team`;
    }
  }
  return undefined;
}

export function declares(definition: WorkflowDefinition, triggerType: string): boolean {
  return definition.triggers.some((t) => t.type === triggerType);
}

export interface TriggeredOptions {
  /** Per workflow: a second event with the same key starts nothing more (e.g. `invoice_overdue:<invoiceId>:<dueDate>`). */
  idempotencyKey?: string;
  /** Whether a declared trigger of this type takes the event (a segment trigger names its segment); default all. */
  accepts?: (trigger: Trigger) => boolean;
}

/**
 * Enqueues runs of every active, promoted workflow of the team that declares `triggerType`, inside the caller's
 * write (or its own). A workflow whose promoted version no longer validates gets a run stored as failed with the
 * reason, so run monitoring shows why nothing happened.
 */
export function enqueueTriggeredRuns(
  db: Db,
  teamId: string,
  triggerType: string,
  triggerData: Record<string, unknown>,
  options: TriggeredOptions = {},
): RunRef[] {
  return write(
    db,
    teamId,
    (w) => {
      const runs: RunRef[] = [];
      for (const workflowId of workflowsDeclaring(db, teamId, triggerType)) {
        const wf = getWorkflowForStart(db, teamId, workflowId);
        if (wf.promotedVersion === null || wf.promotedDefinition === null) continue;
        if (options.idempotencyKey && findRunByKey(db, teamId, workflowId, options.idempotencyKey)) continue;
        const definition = parseStoredDefinition(wf.promotedDefinition);
        const accepts = options.accepts;
        if (accepts && typeof definition !== 'string') {
          if (!definition.triggers.some((t) => t.type === triggerType && accepts(t))) continue;
        }
        runs.push(
          insertRun(w, {
            workflowId,
            version: wf.promotedVersion,
            triggerType,
            triggerData,
            source: 'trigger',
            idempotencyKey: options.idempotencyKey ?? null,
            ...(typeof definition === 'string' ? { failed: `the promoted definition is malformed: ${definition}` } : {}),
          }),
        );
      }
      return runs;
    },
    { origin: 'workflow' },
  );
}
