import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../../src-main/store/db';
import { NotFound } from '../../../../src-main/store/errors';
import { FEED_READERS } from '../../../../src-main/store/feed';
import { cancelRun } from '../../../../src-main/store/workflows/runs/cancel';
import { claimNextRun } from '../../../../src-main/store/workflows/runs/claims';
import { getRun, getRunDetail, listRuns } from '../../../../src-main/store/workflows/runs/reads';
import { loadRunState } from '../../../../src-main/store/workflows/runs/state';
import { beginStep, completeStep, LeaseLost } from '../../../../src-main/store/workflows/runs/steps';
import { getWorkflowForStart, workflowsDeclaring } from '../../../../src-main/store/workflows/workflows';
import { setActive } from '../../../../src-main/workflows/catalog';
import { startWorkflowRun } from '../../../../src-main/workflows/dispatch';
import { WorkflowRunner } from '../../../../src-main/workflows/runner';
import { definition, importActive, openTestDb } from '../../workflows/fixtures';

const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function setup() {
  const t = openTestDb();
  dbs.push(t.db);
  return t;
}

const start = (db: Db, teamId: string, wf: string) =>
  startWorkflowRun(db, teamId, wf, { triggerType: 'manual', triggerData: {}, source: 'app', requireApiExecution: false });

describe('workflow run store', () => {
  it('refuses the commits of a runner whose lease was taken over, and writes nothing of them', () => {
    const { db, teamId } = setup();
    const wf = importActive(db, teamId);
    const run = start(db, teamId, wf);
    const t0 = new Date('2026-11-23T10:00:00Z');
    expect(claimNextRun(db, 'slow', t0, 1000)).toEqual({ runId: run.id, teamId });
    const step = beginStep(db, teamId, run.id, { owner: 'slow', now: t0.toISOString() }, { id: 'notify', kind: 'notify' });
    // 'slow' stalls past its lease; 'fast' takes the run over.
    const t1 = new Date(t0.getTime() + 1500);
    expect(claimNextRun(db, 'fast', t1, 1000)).toEqual({ runId: run.id, teamId });
    expect(() => completeStep(db, teamId, run.id, { owner: 'slow', now: t1.toISOString() }, step.id, { next: null })).toThrow(
      LeaseLost,
    );
    expect(loadRunState(db, teamId, run.id)).toMatchObject({ status: 'running', openStep: { id: step.id, status: 'running' } });
    // A claim held by a live owner is never handed out twice.
    expect(claimNextRun(db, 'third', t1, 1000)).toBeUndefined();
  });

  it('numbers runs per team and keeps another team’s runs and workflows out of reach', () => {
    const { db, teamId, otherTeamId } = setup();
    const wf = importActive(db, teamId);
    const theirs = importActive(db, otherTeamId);
    const a = start(db, teamId, wf);
    const b = start(db, teamId, wf);
    const c = start(db, otherTeamId, theirs);
    expect([a.runNumber, b.runNumber, c.runNumber]).toEqual([1, 2, 1]);
    expect(() => getRun(db, otherTeamId, a.id)).toThrow(NotFound);
    expect(() => getRunDetail(db, teamId, c.id)).toThrow(NotFound);
    expect(() => getWorkflowForStart(db, otherTeamId, wf)).toThrow(NotFound);
    expect(() => start(db, otherTeamId, wf)).toThrow(NotFound);
    expect(workflowsDeclaring(db, teamId, 'manual')).toEqual([wf]);
    // The change feed reads both records as the APIs show them.
    expect(FEED_READERS.workflow_run?.(db, teamId, a.id)).toMatchObject({ executionId: a.id, workflowId: wf, status: 'pending' });
    expect(FEED_READERS.workflow?.(db, teamId, wf)).toMatchObject({ id: wf, active: true, promotedVersion: 1 });
    expect(() => FEED_READERS.workflow_run?.(db, otherTeamId, a.id)).toThrow(NotFound);
    setActive(db, teamId, wf, false);
    expect(workflowsDeclaring(db, teamId, 'manual')).toEqual([]);
  });

  it('cancels a run another process is advancing at its next step boundary', async () => {
    const { db, teamId } = setup();
    const wf = importActive(
      db,
      teamId,
      definition({
        nodes: [
          { id: 'one', kind: 'chat_reply', text: '1' },
          { id: 'two', kind: 'chat_reply', text: '2' },
        ],
        edges: [{ from: 'one', to: 'two' }],
      }),
    );
    const run = start(db, teamId, wf);
    let canceled: boolean | undefined;
    const runner = new WorkflowRunner(db, {
      schedules: false,
      faults: {
        hit(point, info) {
          // While step one is in progress (the run is claimed), a person cancels it.
          if (point === 'after-step-start' && info.nodeId === 'one') canceled = cancelRun(db, teamId, run.id);
        },
      },
    });
    await runner.runUntilIdle();
    expect(canceled).toBe(false);
    const detail = getRunDetail(db, teamId, run.id);
    expect(detail.status).toBe('canceled');
    expect(detail.steps.map((s) => [s.nodeId, s.status])).toEqual([['one', 'completed']]);
  });

  it('polls without committing anything while no run is ready and no schedule is due', async () => {
    const { db, teamId, dataDir } = setup();
    const wf = importActive(db, teamId, definition({ nodes: [{ id: 'ask', kind: 'approval', title: 'x' }] }));
    importActive(db, teamId, definition({ triggers: [{ type: 'schedule', cron: '0 0 1 1 *' }] }));
    start(db, teamId, wf);
    const runner = new WorkflowRunner(db, { pollMs: 10 }).start();
    await expect.poll(() => getRunDetail(db, teamId, getRunIds(db, teamId)[0]!).status).toBe('waiting');
    const other = openDatabase(dataDir);
    try {
      const version = () => other.prepare('PRAGMA data_version').pluck().get();
      const before = version();
      await new Promise((r) => setTimeout(r, 200));
      expect(version()).toBe(before);
    } finally {
      await runner.stop();
      other.close();
    }
  });
});

function getRunIds(db: Db, teamId: string): string[] {
  return listRuns(db, teamId, { pageSize: 10 }).data.map((r) => r.executionId);
}
