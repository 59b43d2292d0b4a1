/**
 * The memory of accepted webhook calls (store/workflows/hook-calls.ts): a call is remembered in the write that
 * starts its run, kept while its timestamp is in the window, and deleted once it left it (the timestamp then
 * refuses the call by itself). Rows are the team's and the workflow's: the same signature on another workflow is
 * another call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../../src-main/store/db';
import { acceptHookCall, type HookCall, ReplayedCall } from '../../../../src-main/store/workflows/hook-calls';
import { write } from '../../../../src-main/store/write';
import { definition, importActive, openTestDb } from '../../workflows/fixtures';

const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const rows = (db: Db) =>
  db.prepare('SELECT workflow_id AS workflowId, signature FROM workflow_hook_calls ORDER BY accepted_at').all();

describe('accepted webhook calls', () => {
  it('refuses a signature twice, keeps rows for their window only, and keeps workflows apart', () => {
    const { db, teamId, otherTeamId } = openTestDb();
    dbs.push(db);
    const hook = definition({ triggers: [{ type: 'webhook' }] });
    const wf = importActive(db, teamId, hook);
    const otherWf = importActive(db, otherTeamId, hook);
    const call = (over: Partial<HookCall>): HookCall => ({
      workflowId: wf,
      signature: 'a'.repeat(64),
      expiresAt: '2026-06-16T09:35:00.000Z',
      now: '2026-06-16T09:30:00.000Z',
      ...over,
    });
    write(db, teamId, (w) => acceptHookCall(w, call({})));
    expect(() => write(db, teamId, (w) => acceptHookCall(w, call({ now: '2026-06-16T09:34:59.000Z' })))).toThrow(ReplayedCall);
    write(db, otherTeamId, (w) => acceptHookCall(w, call({ workflowId: otherWf })));
    expect(rows(db)).toHaveLength(2);

    // Another call after the first one's window: the expired rows go.
    write(db, teamId, (w) =>
      acceptHookCall(
        w,
        call({ signature: 'b'.repeat(64), now: '2026-06-16T09:35:01.000Z', expiresAt: '2026-06-16T09:40:01.000Z' }),
      ),
    );
    expect(rows(db)).toEqual([{ workflowId: wf, signature: 'b'.repeat(64) }]);
  });

  it('a write that rolls back remembers nothing', () => {
    const { db, teamId } = openTestDb();
    dbs.push(db);
    const wf = importActive(db, teamId, definition({ triggers: [{ type: 'webhook' }] }));
    const call: HookCall = {
      workflowId: wf,
      signature: 'c'.repeat(64),
      expiresAt: '2026-06-16T09:35:00.000Z',
      now: '2026-06-16T09:30:00.000Z',
    };
    expect(() =>
      write(db, teamId, (w) => {
        acceptHookCall(w, call);
        throw new Error('the start was refused');
      }),
    ).toThrow('the start was refused');
    expect(rows(db)).toEqual([]);
  });
});
