/**
 * Durability under crashes. A run is driven by a succession of "processes" (runners with their own lease owner)
 * over one real SQLite file; each may die at random points of the step protocol (a SimulatedCrash thrown at the
 * engine's fault points: before a step, after its start commit, after an external effect, after its completion, before
 * a resume). The next process takes the run over once the dead one's lease lapses. Property: a non-idempotent effect
 * (an HTTP POST to a real server on loopback) never happens twice, idempotent effects (notifications) happen exactly
 * once when the run completes, and a run that had to give up says why.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { notificationsOfRun } from '../../../src-main/store/workflows/records';
import { decideApproval } from '../../../src-main/store/workflows/runs/approvals';
import { getRunDetail } from '../../../src-main/store/workflows/runs/reads';
import { loadRunState } from '../../../src-main/store/workflows/runs/state';
import { setWorkflowSettings } from '../../../src-main/store/workflows/settings';
import { startWorkflowRun } from '../../../src-main/workflows/dispatch';
import { type FaultPoint, SimulatedCrash } from '../../../src-main/workflows/engine';
import { WorkflowRunner } from '../../../src-main/workflows/runner';
import { deadPid } from '../../helpers/processes';
import { definition, importActive, openTestDb } from './fixtures';

/** A receiver counting calls per method and Idempotency-Key. */
let server: http.Server;
let host: string;
const calls = new Map<string, number>();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const key = `${req.method} ${req.headers['idempotency-key']}`;
    calls.set(key, (calls.get(key) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function callsOf(method: string, runId: string): number {
  let n = 0;
  for (const [k, v] of calls) if (k.startsWith(`${method} wf:${runId}:`)) n += v;
  return n;
}

const LEASE_MS = 10_000;

function crashyWorkflow(db: Db, teamId: string): string {
  setWorkflowSettings(db, teamId, { httpHosts: [host] });
  return importActive(
    db,
    teamId,
    definition({
      nodes: [
        { id: 'first', kind: 'notify', message: 'first of {{run.id}}' },
        { id: 'charge', kind: 'http_request', method: 'POST', url: `http://${host}/charge`, body: { run: '{{run.id}}' } },
        { id: 'ask', kind: 'approval', title: 'Continue?' },
        { id: 'sync', kind: 'http_request', method: 'PUT', url: `http://${host}/sync` },
        { id: 'last', kind: 'notify', message: 'last of {{run.id}}' },
      ],
      edges: [
        { from: 'first', to: 'charge' },
        { from: 'charge', to: 'ask' },
        { from: 'ask', to: 'sync', when: 'approved' },
        { from: 'sync', to: 'last' },
      ],
    }),
  );
}

/** Drives the runs through processes that die when `crashes` says so; returns how many processes it took. */
async function driveThroughCrashes(db: Db, teamId: string, runIds: string[], crashes: readonly boolean[]): Promise<number> {
  // From the real now: the run and its approval are stamped by the store's own clock, so a fixed past instant
  // made the runner see them as not yet due once the day passed it.
  let clock = Date.now();
  let hits = 0;
  let processes = 0;
  for (let round = 0; round < 80; round++) {
    processes++;
    const runner = new WorkflowRunner(db, {
      owner: `process-${processes}`,
      leaseMs: LEASE_MS,
      clock: () => new Date(clock),
      schedules: false,
      concurrency: 2,
      faults: {
        hit(_point: FaultPoint) {
          if (crashes[hits++ % Math.max(1, crashes.length)] && hits <= crashes.length) throw new SimulatedCrash('killed');
        },
      },
    });
    try {
      await runner.runUntilIdle();
    } catch (err) {
      if (!(err instanceof SimulatedCrash)) throw err;
      await runner.stop();
      // The dead process's leases lapse before the next one looks.
      clock += LEASE_MS + 1000;
      continue;
    }
    await runner.stop();
    let progressed = false;
    for (const id of runIds) {
      const state = loadRunState(db, teamId, id);
      if (state.status === 'waiting' && state.approval?.status === 'pending') {
        decideApproval(db, teamId, id, 'approved', { principal: 'tester', administers: false });
        progressed = true;
      }
    }
    const open = runIds.some((id) => !['completed', 'failed', 'canceled'].includes(loadRunState(db, teamId, id).status));
    if (!open) return processes;
    if (!progressed) clock += 1000;
  }
  throw new Error('runs did not finish');
}

describe('crash recovery', () => {
  it('never repeats a non-idempotent effect, and completes idempotent ones exactly once (random crash points)', async () => {
    let completed = 0;
    let gaveUp = 0;
    // One data dir for the whole property (migrating a fresh file per case costs more than the case); a team per case.
    const { db } = openTestDb();
    // The crashes here are in-process (no power loss), so fsync on commit proves nothing and only costs time.
    db.pragma('synchronous = OFF');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
          { maxLength: 40 },
        ),
        async (crashes) => {
          const teamId = ensureTeam(db, `Crash team ${++n}`).id;
          {
            const wf = crashyWorkflow(db, teamId);
            const runs = [0, 1].map(
              (i) =>
                startWorkflowRun(db, teamId, wf, {
                  triggerType: 'manual',
                  triggerData: { i },
                  source: 'app',
                  requireApiExecution: false,
                }).id,
            );
            await driveThroughCrashes(db, teamId, runs, crashes);
            for (const id of runs) {
              const detail = getRunDetail(db, teamId, id);
              const posts = callsOf('POST', id);
              // The property: the POST happened at most once, whatever the crashes.
              expect(posts).toBeLessThanOrEqual(1);
              const notes = notificationsOfRun(db, teamId, id).map((n) => n.message.split(' ')[0]);
              expect(notes.filter((m) => m === 'first')).toHaveLength(detail.steps.some((s) => s.nodeId === 'first') ? 1 : 0);
              if (detail.status === 'completed') {
                completed++;
                expect(posts).toBe(1);
                expect(notes).toEqual(['first', 'last']);
                expect(callsOf('PUT', id)).toBeGreaterThanOrEqual(1);
              } else {
                gaveUp++;
                // Only the step whose effect is not idempotent may be given up on, with the reason stated.
                expect(detail.status).toBe('failed');
                const failed = detail.steps.find((s) => s.status === 'failed');
                expect(failed?.nodeId).toBe('charge');
                expect(failed?.errorMessage).toMatch(/^interrupted: .* not idempotent/);
                expect(detail.errorMessage).toBe(failed?.errorMessage);
                expect(notes).toEqual(['first']);
              }
            }
          }
        },
      ),
      { numRuns: 150, seed: 20261123 },
    );
    db.close();
    // The seeded runs cover both outcomes.
    expect(completed).toBeGreaterThan(0);
    expect(gaveUp).toBeGreaterThan(0);
  }, 120_000);

  it('retries an idempotent step cut short (same effect key, attempt 2) instead of failing it', async () => {
    const { db, teamId } = openTestDb();
    try {
      const wf = crashyWorkflow(db, teamId);
      const run = startWorkflowRun(db, teamId, wf, {
        triggerType: 'manual',
        triggerData: {},
        source: 'app',
        requireApiExecution: false,
      });
      // Die right after the PUT went out (the 3rd external effect hit: charge, then sync) — walk there step by step.
      const points: FaultPoint[] = [];
      let clock = Date.now();
      const make = (owner: string, dieAt?: (p: FaultPoint, node: string) => boolean) =>
        new WorkflowRunner(db, {
          owner,
          leaseMs: LEASE_MS,
          clock: () => new Date(clock),
          schedules: false,
          faults: {
            hit(p, info) {
              points.push(p);
              if (dieAt?.(p, info.nodeId)) throw new SimulatedCrash('killed');
            },
          },
        });
      await make('a').runUntilIdle();
      decideApproval(db, teamId, run.id, 'approved', { principal: 'tester', administers: false });
      clock = Date.now(); // the approval is stamped by the real clock: the runners see it as already made
      await expect(make('b', (p, node) => p === 'after-effect' && node === 'sync').runUntilIdle()).rejects.toThrow(
        SimulatedCrash,
      );
      expect(loadRunState(db, teamId, run.id).openStep).toMatchObject({ nodeId: 'sync', status: 'running', attempt: 1 });
      // Before the lease lapses, nobody else may take it.
      await make('c').runUntilIdle();
      expect(loadRunState(db, teamId, run.id).openStep?.attempt).toBe(1);
      clock += LEASE_MS + 1;
      await make('d').runUntilIdle();
      const detail = getRunDetail(db, teamId, run.id);
      expect(detail.status).toBe('completed');
      expect(detail.steps.find((s) => s.nodeId === 'sync')).toMatchObject({ attempt: 2, status: 'completed' });
      expect(callsOf('PUT', run.id)).toBe(2);
      expect(callsOf('POST', run.id)).toBe(1);
      expect(points).toContain('before-resume');
    } finally {
      db.close();
    }
  });

  it('never lets two processes claim one run (two connections to one file)', async () => {
    const { db, teamId, dataDir } = openTestDb();
    const { openDatabase } = await import('../../../src-main/store/db');
    const db2 = openDatabase(dataDir);
    try {
      const wf = importActive(db, teamId, definition({ nodes: [{ id: 'ask', kind: 'approval', title: 'x' }] }));
      const ids = Array.from(
        { length: 20 },
        () =>
          startWorkflowRun(db, teamId, wf, { triggerType: 'manual', triggerData: {}, source: 'app', requireApiExecution: false })
            .id,
      );
      const a = new WorkflowRunner(db, { owner: 'A', schedules: false, concurrency: 3 });
      const b = new WorkflowRunner(db2, { owner: 'B', schedules: false, concurrency: 3 });
      await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
      for (const id of ids) {
        const d = getRunDetail(db, teamId, id);
        // Each run has exactly one step and one approval: no step ran twice.
        expect(d.steps).toHaveLength(1);
        expect(d.approvals).toHaveLength(1);
        expect(d.status).toBe('waiting');
      }
    } finally {
      db2.close();
      db.close();
    }
  });

  it('takes back at once the runs a dead process of this machine held, and waits for a live holder', async () => {
    const { db, teamId } = openTestDb();
    try {
      const wf = importActive(db, teamId, definition({ nodes: [{ id: 'note', kind: 'notify', message: 'resumed' }] }));
      const start = () =>
        startWorkflowRun(db, teamId, wf, { triggerType: 'manual', triggerData: {}, source: 'app', requireApiExecution: false })
          .id;
      const orphan = start();
      const held = start();
      // Claimed for a minute: one by a server that crashed (its pid has ended), one by a live process (our parent).
      const claim = (id: string, owner: string) =>
        db
          .prepare('UPDATE workflow_runs SET lease_owner = ?, lease_expires_at = ? WHERE id = ?')
          .run(owner, new Date(Date.now() + 60_000).toISOString(), id);
      claim(orphan, `${os.hostname()}:${await deadPid()}:abcd:runner:0001`);
      claim(held, `${os.hostname()}:${process.ppid}:abcd:runner:0002`);
      const runner = new WorkflowRunner(db, { schedules: false, pollMs: 60_000 }).start();
      await expect.poll(() => getRunDetail(db, teamId, orphan).status, { timeout: 5_000 }).toBe('completed');
      await runner.stop();
      expect(getRunDetail(db, teamId, held).status).toBe('pending');
    } finally {
      db.close();
    }
  });

  it('an HTTP node follows the team’s allow-list, read from its data wherever the run is advanced', async () => {
    const { db, teamId, otherTeamId } = openTestDb();
    try {
      const def = definition({ nodes: [{ id: 'get', kind: 'http_request', method: 'GET', url: `http://${host}/status` }] });
      const run = (team: string) =>
        startWorkflowRun(db, team, importActive(db, team, def), {
          triggerType: 'manual',
          triggerData: {},
          source: 'app',
          requireApiExecution: false,
        }).id;
      setWorkflowSettings(db, teamId, { httpHosts: [host.toUpperCase(), host] });
      const allowed = run(teamId);
      const refused = run(otherTeamId);
      // Two "processes" (a server's runner, a command's) with no settings of their own: the team's decide.
      await new WorkflowRunner(db, { owner: 'server', schedules: false }).runUntilIdle();
      expect(getRunDetail(db, teamId, allowed).status).toBe('completed');
      const other = getRunDetail(db, otherTeamId, refused);
      expect(other.status).toBe('failed');
      expect(other.errorMessage).toContain("no host is on the team's allow-list");
      expect(() => setWorkflowSettings(db, teamId, { httpHosts: ['https://evil.example/x'] })).toThrow(/httpHosts\[0\]/);
    } finally {
      db.close();
    }
  });
});
