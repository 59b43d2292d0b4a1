/**
 * The invoice scheduler: overdue exactly at the end of the due date in the invoice's time zone, scheduled sends at
 * their time, the workflows' invoice_overdue trigger in the same write, the lease that keeps two processes (two
 * database connections here) from running it at once, and the catch-up at server start.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSchedulerOnce, SCHEDULER_LEASE } from '../../../src-main/invoices/scheduler';
import { startServer } from '../../../src-main/server/start';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { listDeliveries } from '../../../src-main/store/invoices/deliveries';
import { getInvoice } from '../../../src-main/store/invoices/read';
import { updateInvoice } from '../../../src-main/store/invoices/write';
import { acquireLease, releaseLease } from '../../../src-main/store/leases';
import { importWorkflow } from '../../../src-main/workflows/catalog';
import { invoice, seedTeam } from './fixtures';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

describe('invoice scheduler', () => {
  it('marks an unpaid invoice overdue at the first instant after its due date, in its time zone', () => {
    const { db, teamId, customerId } = seedTeam();
    closers.push(() => db.close());
    const created = new Date('2025-03-01T10:00:00Z');
    const berlin = invoice(
      db,
      teamId,
      { customerId, issueDate: '2025-03-01', dueDate: '2025-03-10', timezone: 'Europe/Berlin' },
      created,
    );
    const newYork = invoice(
      db,
      teamId,
      { customerId, issueDate: '2025-03-01', dueDate: '2025-03-10', timezone: 'America/New_York' },
      created,
    );
    for (const id of [berlin.id, newYork.id]) updateInvoice(db, teamId, id, { status: 'unpaid' }, created);

    expect(runSchedulerOnce(db, new Date('2025-03-10T22:59:59.999Z'))?.overdue).toEqual([]);
    expect(getInvoice(db, teamId, berlin.id).status).toBe('unpaid');
    const at = runSchedulerOnce(db, new Date('2025-03-10T23:00:00.000Z'));
    expect(at?.overdue).toEqual([{ teamId, invoiceId: berlin.id }]);
    expect(getInvoice(db, teamId, berlin.id).status).toBe('overdue');
    expect(getInvoice(db, teamId, newYork.id).status).toBe('unpaid');
    // New York's day ends at 04:00Z (EDT from 2025-03-09).
    expect(runSchedulerOnce(db, new Date('2025-03-11T03:59:59Z'))?.overdue).toEqual([]);
    expect(runSchedulerOnce(db, new Date('2025-03-11T04:00:00Z'))?.overdue).toEqual([{ teamId, invoiceId: newYork.id }]);
    // Nothing left: a second run moves nothing.
    expect(runSchedulerOnce(db, new Date('2025-03-12T00:00:00Z'))?.overdue).toEqual([]);
    // The move is recorded in the change feed as the system's.
    const change = db
      .prepare(`SELECT origin FROM changes WHERE team_id = ? AND entity = 'invoice' AND entity_id = ?`)
      .get(teamId, berlin.id) as { origin: string };
    expect(change.origin).toBe('system');
  });

  it('enqueues the workflows’ invoice_overdue trigger in the same write, once per overdue spell', () => {
    const { db, teamId, customerId } = seedTeam();
    closers.push(() => db.close());
    const wf = importTriggerWorkflow(db, teamId);
    const inv = invoice(
      db,
      teamId,
      { customerId, issueDate: '2025-01-01', dueDate: '2025-01-15' },
      new Date('2025-01-01T00:00:00Z'),
    );
    updateInvoice(db, teamId, inv.id, { status: 'unpaid' }, new Date('2025-01-02T00:00:00Z'));
    runSchedulerOnce(db, new Date('2025-01-16T00:00:00Z'));
    const runs = db
      .prepare(`SELECT trigger_type, trigger_data FROM workflow_runs WHERE team_id = ? AND workflow_id = ?`)
      .all(teamId, wf) as { trigger_type: string; trigger_data: string }[];
    expect(runs).toHaveLength(1);
    expect(runs[0]!.trigger_type).toBe('invoice_overdue');
    expect(JSON.parse(runs[0]!.trigger_data)).toEqual({ invoiceId: inv.id });
  });

  it('issues a scheduled invoice at its time and queues its email (awaiting sync without SMTP)', () => {
    const { db, teamId, customerId } = seedTeam();
    closers.push(() => db.close());
    const now = new Date('2025-05-01T08:00:00Z');
    const inv = invoice(
      db,
      teamId,
      { customerId, deliveryType: 'scheduled', scheduledAt: '2025-05-02T09:00:00Z', issueDate: '2025-05-02' },
      now,
    );
    expect(inv.status).toBe('scheduled');
    expect(runSchedulerOnce(db, new Date('2025-05-02T08:59:59Z'))?.issued).toEqual([]);
    expect(runSchedulerOnce(db, new Date('2025-05-02T09:00:00Z'))?.issued).toEqual([{ teamId, invoiceId: inv.id }]);
    const after = getInvoice(db, teamId, inv.id);
    expect(after.status).toBe('unpaid');
    expect(after.scheduledAt).toBeNull();
    expect(after.delivery).toMatchObject({ kind: 'invoice', state: 'awaiting_sync', recipient: 'ap@acme.example' });
    expect(runSchedulerOnce(db, new Date('2025-05-03T00:00:00Z'))?.issued).toEqual([]);
    expect(listDeliveries(db, teamId, inv.id)).toHaveLength(1);
  });

  it('runs in one process at a time: a held lease makes the other skip', () => {
    const { db, dataDir, teamId, customerId } = seedTeam();
    const other = openDatabase(dataDir);
    closers.push(
      () => db.close(),
      () => other.close(),
    );
    const inv = invoice(
      db,
      teamId,
      { customerId, issueDate: '2025-01-01', dueDate: '2025-01-02' },
      new Date('2025-01-01T00:00:00Z'),
    );
    updateInvoice(db, teamId, inv.id, { status: 'unpaid' }, new Date('2025-01-01T01:00:00Z'));
    const now = new Date('2025-02-01T00:00:00Z');
    // Another process (its own connection, its own owner name) holds the scheduler's lease.
    expect(acquireLease(other, SCHEDULER_LEASE, 60_000, { owner: 'other-process', now })).toBe(true);
    expect(runSchedulerOnce(db, now)).toBeUndefined();
    expect(getInvoice(db, teamId, inv.id).status).toBe('unpaid');
    releaseLease(other, SCHEDULER_LEASE, { owner: 'other-process' });
    expect(runSchedulerOnce(db, now)?.overdue).toHaveLength(1);
    // An expired lease of a dead holder is taken over.
    acquireLease(other, SCHEDULER_LEASE, 1_000, { owner: 'dead-process', now });
    expect(runSchedulerOnce(db, new Date(now.getTime() + 2_000))).toEqual({ issued: [], overdue: [], reminded: [], matched: [] });
  });

  it('catches up at server start on what fell due while the app was closed', async () => {
    const { db, dataDir, teamId, customerId } = seedTeam();
    const inv = invoice(
      db,
      teamId,
      { customerId, issueDate: '2020-01-01', dueDate: '2020-01-31' },
      new Date('2020-01-01T00:00:00Z'),
    );
    updateInvoice(db, teamId, inv.id, { status: 'unpaid' }, new Date('2020-01-02T00:00:00Z'));
    expect(getInvoice(db, teamId, inv.id, new Date('2020-01-02T00:00:00Z')).status).toBe('unpaid');
    db.close();
    const server = await startServer({ dataDir, logLevel: 'silent', workflows: false });
    closers.push(() => server.close());
    expect(getInvoice(server.db, teamId, inv.id).status).toBe('overdue');
    expect(fs.existsSync(path.join(dataDir, 'finops.sqlite'))).toBe(true);
  });
});

/** The shipped invoice-reminder example (declares invoice_overdue), imported and promoted. */
function importTriggerWorkflow(db: Db, teamId: string): string {
  const file = path.join(__dirname, '../../../resources/workflows/invoice-reminder.json');
  return importWorkflow(db, teamId, JSON.parse(fs.readFileSync(file, 'utf8')), { promote: true }).workflowId;
}
