/**
 * A first round of a large team killed part-way resumes where it stopped: the pages it committed are not fetched
 * nor applied again, and the team ends complete. 100,000 transactions by default (SYNC_RESUME_TRANSACTIONS).
 */
import { describe, expect, it } from 'vitest';
import { planDemo } from '../../../src-main/demo/seed';
import { writeDemo } from '../../../src-main/demo/write';
import { cursorOf } from '../../../src-main/store/sync/cursors';
import { ensureRemote } from '../../../src-main/store/sync/remotes';
import { staticCredential } from '../../../src-main/sync/credentials';
import { RemoteClient } from '../../../src-main/sync/remote-client';
import { runRound } from '../../../src-main/sync/round';
import { remoteReplica, replica } from './helpers';

const N = Number(process.env.SYNC_RESUME_TRANSACTIONS ?? 100_000);

describe('a killed first round resumes', () => {
  it(`pulls ${N} transactions across a kill without fetching or applying a committed page twice`, {
    timeout: 600_000,
  }, async () => {
    const r = await remoteReplica('Acme');
    const data = planDemo({ seed: 'resume', asOf: '2026-06-30', transactions: N });
    data.baseCurrency = r.api.team('Acme').baseCurrency;
    writeDemo(r.api.db, r.teamId, data);
    const a = await replica('Acme');
    const remote = ensureRemote(a.api.db, a.teamId, { baseUrl: r.url, kind: 'finops' });
    const controller = new AbortController();
    const first = runRound({
      db: a.api.db,
      remote,
      credential: staticCredential(r.token),
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'pull' && p.done >= p.total * 0.4) controller.abort(new Error('killed'));
      },
    });
    await expect(first).rejects.toThrow();
    const stoppedAt = Number(cursorOf(a.api.db, remote.id).pullCursor);
    const before = a.api.db.prepare('SELECT count(*) FROM transactions WHERE team_id = ?').pluck().get(a.teamId) as number;
    expect(stoppedAt).toBeGreaterThan(0);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(N);

    // The resumed round asks the feed from where the kill left it, never from the start. Its requests go through
    // the outbound policy's own client (not globalThis.fetch): they are watched at the remote client, leaving out
    // the one-change probe of the remote's kind (docs/decisions/0180).
    const asked: number[] = [];
    const original = RemoteClient.prototype.request;
    RemoteClient.prototype.request = function (this: RemoteClient, method, path, options = {}) {
      const query = (options.query ?? {}) as Record<string, unknown>;
      if (path === '/sync/changes' && Number(query.limit) !== 1) asked.push(Number(query.since));
      return original.call(this, method, path, options);
    } as typeof original;
    try {
      const second = await runRound({ db: a.api.db, remote, credential: staticCredential(r.token) });
      expect(asked[0]).toBe(stoppedAt);
      expect(second.byEntity.transaction?.pulled).toBe(N - before);
    } finally {
      RemoteClient.prototype.request = original;
    }
    expect(a.api.db.prepare('SELECT count(*) FROM transactions WHERE team_id = ?').pluck().get(a.teamId)).toBe(N);
  });
});
