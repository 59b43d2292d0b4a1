import { afterEach, describe, expect, it } from 'vitest';
import { changesSince } from '../../../src-main/store/changes';
import { getCustomer } from '../../../src-main/store/customers/read';
import { upsertCustomer } from '../../../src-main/store/customers/write';
import type { Db } from '../../../src-main/store/db';
import { notificationsOfRun } from '../../../src-main/store/workflows/records';
import { decideApproval } from '../../../src-main/store/workflows/runs/approvals';
import { cancelRun } from '../../../src-main/store/workflows/runs/cancel';
import { getRun, getRunDetail, stepRecords } from '../../../src-main/store/workflows/runs/reads';
import { loadRunState } from '../../../src-main/store/workflows/runs/state';
import { startWorkflowRun } from '../../../src-main/workflows/dispatch';
import { WorkflowRunner } from '../../../src-main/workflows/runner';
import { definition, importActive, insertInvoice, openTestDb } from './fixtures';

const runners: WorkflowRunner[] = [];
const dbs: Db[] = [];
afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop();
  for (const db of dbs.splice(0)) db.close();
});

function setup() {
  const t = openTestDb();
  dbs.push(t.db);
  return t;
}

function runner(db: Db, options: ConstructorParameters<typeof WorkflowRunner>[1] = {}) {
  const r = new WorkflowRunner(db, { schedules: false, ...options });
  runners.push(r);
  return r;
}

function start(db: Db, teamId: string, workflowId: string, triggerData: Record<string, unknown> = {}, triggerType = 'manual') {
  return startWorkflowRun(db, teamId, workflowId, { triggerType, triggerData, source: 'app', requireApiExecution: false });
}

describe('workflow engine', () => {
  it('runs a manual workflow to completion: one step, one notification, the run and its step recorded', async () => {
    const { db, teamId } = setup();
    const wf = importActive(db, teamId);
    const run = start(db, teamId, wf, { name: 'Ada' });
    expect(getRun(db, teamId, run.id)).toMatchObject({ status: 'pending', currentNodeId: null, steps: [] });

    await runner(db).runUntilIdle();

    const read = getRun(db, teamId, run.id);
    expect(read.status).toBe('completed');
    expect(read.completedAt).not.toBeNull();
    expect(read.currentNodeId).toBeNull();
    expect(read.steps).toHaveLength(1);
    expect(read.steps[0]).toMatchObject({ nodeId: 'notify', status: 'completed', errorMessage: null });
    expect(notificationsOfRun(db, teamId, run.id)).toEqual([expect.objectContaining({ type: 'workflow', message: 'Hello Ada' })]);
    // The run is a record in the change feed (origin workflow), so the app sees it move.
    const changes = changesSince(db, teamId, 0).filter((c) => c.entity === 'workflow_run' && c.entityId === run.id);
    expect(changes).toHaveLength(1);
  });

  it('branches on a condition and follows the edge of its outcome', async () => {
    const { db, teamId } = setup();
    const wf = importActive(
      db,
      teamId,
      definition({
        nodes: [
          { id: 'big', kind: 'condition', if: { path: 'trigger.amount', op: 'gte', value: 1000 } },
          { id: 'yes', kind: 'notify', message: 'big' },
          { id: 'no', kind: 'notify', message: 'small' },
        ],
        edges: [
          { from: 'big', to: 'yes', when: 'true' },
          { from: 'big', to: 'no', when: 'false' },
        ],
      }),
    );
    const big = start(db, teamId, wf, { amount: 5000 });
    const small = start(db, teamId, wf, { amount: 10 });
    await runner(db).runUntilIdle();
    expect(getRun(db, teamId, big.id).steps.map((s) => s.nodeId)).toEqual(['big', 'yes']);
    expect(getRun(db, teamId, small.id).steps.map((s) => s.nodeId)).toEqual(['big', 'no']);
    expect(notificationsOfRun(db, teamId, small.id).map((n) => n.message)).toEqual(['small']);
  });

  it('waits for an approval as long as it takes, then goes on along the decision', async () => {
    const { db, teamId } = setup();
    const wf = importActive(
      db,
      teamId,
      definition({
        nodes: [
          { id: 'ask', kind: 'approval', title: 'Pay {{trigger.who}}?' },
          { id: 'ok', kind: 'notify', message: 'approved' },
          { id: 'nope', kind: 'notify', message: 'rejected' },
        ],
        edges: [
          { from: 'ask', to: 'ok', when: 'approved' },
          { from: 'ask', to: 'nope', when: 'rejected' },
        ],
      }),
    );
    const a = start(db, teamId, wf, { who: 'Bob' });
    const b = start(db, teamId, wf, { who: 'Eve' });
    const r = runner(db);
    await r.runUntilIdle();
    for (const run of [a, b]) {
      expect(getRun(db, teamId, run.id)).toMatchObject({ status: 'waiting', currentNodeId: 'ask' });
    }
    expect(getRunDetail(db, teamId, a.id).approvals).toEqual([
      expect.objectContaining({ title: 'Pay Bob?', status: 'pending', deadlineAt: null }),
    ]);
    // Nothing to do while they wait.
    expect(await r.runUntilIdle()).toBe(0);

    decideApproval(db, teamId, a.id, 'approved', { principal: 'user:1', administers: false }, 'fine');
    decideApproval(db, teamId, b.id, 'rejected', { principal: 'user:1', administers: false });
    await r.runUntilIdle();
    expect(getRun(db, teamId, a.id)).toMatchObject({ status: 'completed' });
    expect(getRun(db, teamId, a.id).steps.map((s) => [s.nodeId, s.status])).toEqual([
      ['ask', 'completed'],
      ['ok', 'completed'],
    ]);
    expect(notificationsOfRun(db, teamId, b.id).map((n) => n.message)).toEqual(['rejected']);
    expect(getRunDetail(db, teamId, a.id).approvals[0]).toMatchObject({
      status: 'approved',
      decidedBy: 'user:1',
      comment: 'fine',
    });
    // A decision on a run that waits for nothing is refused.
    expect(() => decideApproval(db, teamId, a.id, 'approved', { principal: 'user:1', administers: false })).toThrow(
      /not waiting for an approval/,
    );
  });

  it('lets an approval deadline decide with its stated outcome', async () => {
    const { db, teamId } = setup();
    let now = new Date('2026-11-23T10:00:00Z');
    const wf = importActive(
      db,
      teamId,
      definition({
        nodes: [
          { id: 'ask', kind: 'approval', title: 'Go?', deadline: { afterSeconds: 3600, outcome: 'rejected' } },
          { id: 'late', kind: 'notify', message: 'nobody answered' },
        ],
        edges: [{ from: 'ask', to: 'late', when: 'rejected' }],
      }),
    );
    const run = start(db, teamId, wf);
    const r = runner(db, { clock: () => now });
    await r.runUntilIdle();
    expect(getRunDetail(db, teamId, run.id).approvals[0]?.deadlineAt).toBe('2026-11-23T11:00:00.000Z');
    now = new Date('2026-11-23T10:59:00Z');
    expect(await r.runUntilIdle()).toBe(0);
    now = new Date('2026-11-23T11:00:01Z');
    await r.runUntilIdle();
    const detail = getRunDetail(db, teamId, run.id);
    expect(detail.status).toBe('completed');
    expect(detail.approvals[0]).toMatchObject({ status: 'rejected', decidedBy: 'deadline' });
    expect(notificationsOfRun(db, teamId, run.id).map((n) => n.message)).toEqual(['nobody answered']);
  });

  it('waits for a delay, then goes on', async () => {
    const { db, teamId } = setup();
    let now = new Date('2026-11-23T10:00:00Z');
    const wf = importActive(
      db,
      teamId,
      definition({
        nodes: [
          { id: 'pause', kind: 'wait', seconds: 120 },
          { id: 'after', kind: 'notify', message: 'later' },
        ],
        edges: [{ from: 'pause', to: 'after' }],
      }),
    );
    const run = start(db, teamId, wf);
    const r = runner(db, { clock: () => now });
    await r.runUntilIdle();
    expect(getRun(db, teamId, run.id).status).toBe('waiting');
    now = new Date('2026-11-23T10:02:00Z');
    await r.runUntilIdle();
    expect(getRun(db, teamId, run.id).status).toBe('completed');
  });

  it('fails a step with its errorMessage and fails only its own run', async () => {
    const { db, teamId, otherTeamId } = setup();
    const wf = importActive(
      db,
      teamId,
      definition({
        nodes: [
          { id: 'load', kind: 'load_record', resource: 'invoice', recordId: '{{trigger.invoiceId}}', as: 'invoice' },
          { id: 'tell', kind: 'notify', message: 'Invoice {{vars.invoice.invoiceNumber}} is {{vars.invoice.status}}' },
        ],
        edges: [{ from: 'load', to: 'tell' }],
      }),
    );
    const mine = insertInvoice(db, teamId);
    const theirs = insertInvoice(db, otherTeamId);
    // The app start skips trigger data checks only for the test of the node itself: go through the engine.
    const good = start(db, teamId, wf, { invoiceId: mine });
    const bad = startWorkflowRun(db, teamId, wf, {
      triggerType: 'manual',
      triggerData: {},
      source: 'app',
      requireApiExecution: false,
    });
    await runner(db).runUntilIdle();
    expect(getRun(db, teamId, good.id).status).toBe('completed');
    expect(notificationsOfRun(db, teamId, good.id)[0]?.message).toMatch(/^Invoice WF-\d+-\w+ is overdue$/);
    const failed = getRun(db, teamId, bad.id);
    expect(failed.status).toBe('failed');
    expect(failed.steps[0]).toMatchObject({ nodeId: 'load', status: 'failed' });
    expect(failed.steps[0]?.errorMessage).toMatch(/gives no invoice id/);
    // Another team's invoice id is refused before the run exists.
    expect(() => start(db, teamId, wf, { invoiceId: theirs })).toThrow(/cannot be loaded for this team/);
  });

  it('stops a run that exceeds its step budget', async () => {
    const { db, teamId } = setup();
    const wf = importActive(
      db,
      teamId,
      definition({
        start: 'a',
        settings: { maxSteps: 7 },
        nodes: [
          { id: 'a', kind: 'condition', if: { path: 'trigger.loop', op: 'eq', value: true } },
          { id: 'b', kind: 'chat_reply', text: 'again' },
        ],
        edges: [
          { from: 'a', to: 'b', when: 'true' },
          { from: 'b', to: 'a' },
        ],
      }),
    );
    const run = start(db, teamId, wf, { loop: true });
    await runner(db).runUntilIdle();
    const read = getRun(db, teamId, run.id);
    expect(read.status).toBe('failed');
    expect(read.steps).toHaveLength(7);
    expect(getRunDetail(db, teamId, run.id).errorMessage).toMatch(/step budget of 7 steps/);
  });

  it('updates a customer field through the customers store', async () => {
    const { db, teamId } = setup();
    const customer = upsertCustomer(db, teamId, { name: 'Flow Co' }).customer;
    const wf = importActive(
      db,
      teamId,
      definition({
        nodes: [
          {
            id: 'set',
            kind: 'update_record',
            resource: 'customer',
            recordId: '{{trigger.customerId}}',
            field: 'note',
            value: 'chased on {{trigger.day}}',
          },
        ],
      }),
    );
    const run = start(db, teamId, wf, { customerId: customer.id, day: 'Monday' });
    await runner(db).runUntilIdle();
    expect(getRun(db, teamId, run.id).status).toBe('completed');
    expect(getCustomer(db, teamId, customer.id).note).toBe('chased on Monday');
    const change = changesSince(db, teamId, 0).find((c) => c.entity === 'customer' && c.entityId === customer.id);
    expect(change?.origin).toBe('workflow');
  });

  it('cancels a waiting run at once, with its approval', async () => {
    const { db, teamId } = setup();
    const wf = importActive(db, teamId, definition({ nodes: [{ id: 'ask', kind: 'approval', title: 'Go?' }] }));
    const run = start(db, teamId, wf);
    await runner(db).runUntilIdle();
    expect(cancelRun(db, teamId, run.id)).toBe(true);
    const detail = getRunDetail(db, teamId, run.id);
    expect(detail.status).toBe('canceled');
    expect(detail.steps[0]?.status).toBe('canceled');
    expect(detail.approvals[0]?.status).toBe('canceled');
    expect(() => cancelRun(db, teamId, run.id)).toThrow(/already finished/);
    expect(loadRunState(db, teamId, run.id).status).toBe('canceled');
  });

  it('keeps step outputs (chat replies) out of the run as read', async () => {
    const { db, teamId } = setup();
    const wf = importActive(
      db,
      teamId,
      definition({ nodes: [{ id: 'reply', kind: 'chat_reply', text: 'You said {{trigger.message}}' }] }),
    );
    const run = start(db, teamId, wf, { message: 'hi' });
    await runner(db).runUntilIdle();
    expect(stepRecords(db, teamId, run.id)[0]?.output).toEqual({ reply: 'You said hi', conversationId: null });
    expect(JSON.stringify(getRun(db, teamId, run.id))).not.toContain('You said');
    expect(JSON.stringify(getRunDetail(db, teamId, run.id))).not.toContain('You said');
  });
});
