import { CronExpressionParser } from 'cron-parser';
import type { WorkflowDefinition } from '../../src-shared/contract/workflow-definition';
import type { Db } from '../store/db';
import { withLease } from '../store/leases';
import { insertRun, type RunRef } from '../store/workflows/runs/enqueue';
import { advanceSchedule, dueSchedules, getWorkflowForStart, type ScheduleRow } from '../store/workflows/workflows';
import { write } from '../store/write';
import { parseStoredDefinition } from './definitions';

/**
 * Schedule triggers (cron, via cron-parser: docs/decisions/0104-workflow-triggers.md). Each schedule trigger of an
 * active workflow's promoted version has a row with the next time it fires. A tick (under the named lease
 * `workflows:scheduler`, so one process fires) enqueues a run for each row that is due and moves the row to the
 * next time after now: times missed while no process ran fire once, not once per missed time.
 */

export const SCHEDULER_LEASE = 'workflows:scheduler';

export function nextFireAfter(cron: string, timezone: string, after: Date): string {
  return CronExpressionParser.parse(cron, { currentDate: after, tz: timezone }).next().toDate().toISOString();
}

/** The schedule rows of a definition's schedule triggers, next times counted from `now`. */
export function schedulesOf(definition: WorkflowDefinition, now: Date): ScheduleRow[] {
  return definition.triggers.flatMap((t, i) =>
    t.type === 'schedule'
      ? [{ triggerIndex: i, cron: t.cron, timezone: t.timezone, nextFireAt: nextFireAfter(t.cron, t.timezone, now) }]
      : [],
  );
}

/** Fires every due schedule once; returns the runs enqueued (none when another process holds the scheduler). */
export function fireDueSchedules(db: Db, now: Date): RunRef[] {
  const fired: RunRef[] = [];
  // Nothing due (the usual case): a read, no lease taken, nothing committed.
  if (dueSchedules(db, now.toISOString(), 1).length === 0) return fired;
  withLease(
    db,
    SCHEDULER_LEASE,
    30_000,
    () => {
      for (const due of dueSchedules(db, now.toISOString())) {
        write(
          db,
          due.teamId,
          (w) => {
            const next = nextFireAfter(due.cron, due.timezone, now);
            if (!advanceSchedule(w, due.workflowId, due.triggerIndex, due.nextFireAt, next)) return;
            const wf = getWorkflowForStart(db, due.teamId, due.workflowId);
            if (!wf.active || wf.promotedVersion === null || wf.promotedDefinition === null) return;
            const definition = parseStoredDefinition(wf.promotedDefinition);
            fired.push(
              insertRun(w, {
                workflowId: wf.id,
                version: wf.promotedVersion,
                triggerType: 'schedule',
                triggerData: { scheduledFor: due.nextFireAt, firedAt: now.toISOString(), cron: due.cron },
                source: 'schedule',
                ...(typeof definition === 'string' ? { failed: `the promoted definition is malformed: ${definition}` } : {}),
              }),
            );
          },
          { origin: 'workflow', now: now.toISOString() },
        );
      }
    },
    { now },
  );
  return fired;
}
