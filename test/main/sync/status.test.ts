/**
 * @module-tag slow (spawns `finops sync status`)
 *
 * The status counts open conflicts (issue 34, item 12: a first round ended with 50 open conflicts while the Sync
 * screen said "Up to date"): after a round that leaves conflicts open, the status the Sync screen reads
 * (`GET /app/sync/status`) and `finops sync status` say how many wait for a choice; once they are resolved, the
 * status is up to date again. Between real servers on loopback, on both kinds of remote.
 */
import { describe, expect, it } from 'vitest';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { resolveConflict } from '../../../src-main/sync/resolve';
import { runCli } from '../../helpers/cli';
import { type Replica, remoteReplica, replica, syncOnce } from './helpers';

type Kind = 'finops' | 'hosted';

async function status(a: Replica) {
  const res = await a.call('GET', '/app/sync/status');
  expect(res.status).toBe(200);
  return res.body as { standing: string; openConflicts: number; remote: { state: string } };
}

for (const kind of ['finops', 'hosted'] as Kind[]) {
  describe(`sync status, ${kind === 'finops' ? 'full remote' : 'spec-only remote (hosted kind)'}`, () => {
    it('a round that leaves conflicts open is never "up to date": the status says how many are open', {
      timeout: 120_000,
    }, async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const made = await Promise.all(
        ['Umbrella Corp', 'Initech'].map(
          async (name) => (await a.call('POST', '/v1/customers', { name, email: `${name[0]}@example.test` })).body.id as string,
        ),
      );
      await syncOnce(a, r, kind);
      expect(await status(a)).toMatchObject({ standing: 'up_to_date', openConflicts: 0 });
      // Both sides change the same field of both customers: two conflicts.
      for (const id of made) {
        const remoteId = (await r.call('GET', '/v1/customers')).body.data.find(
          (c: { name: string }) => c.name === (id === made[0] ? 'Umbrella Corp' : 'Initech'),
        ).id as string;
        await a.call('PATCH', `/v1/customers/${id}`, { phone: '+49 30 1111' });
        await r.call('PATCH', `/v1/customers/${remoteId}`, { phone: '+49 30 2222' });
      }
      await syncOnce(a, r, kind);
      const open = listConflicts(a.api.db, a.teamId);
      expect(open).toHaveLength(2);

      const s = await status(a);
      expect(s).toMatchObject({ standing: 'open_conflicts', openConflicts: 2, remote: { state: 'idle' } });
      const cli = runCli(['sync', 'status', '--data-dir', a.api.dataDir, '--team', 'Acme']);
      expect(cli.status, cli.stderr).toBe(0);
      expect(cli.stdout.split('\n')[0]).toBe('status: 2 open conflicts wait for a choice (finops sync conflicts)');
      expect(cli.stdout).not.toMatch(/up to date/i);
      expect(
        JSON.parse(runCli(['sync', 'status', '--data-dir', a.api.dataDir, '--team', 'Acme', '--json']).stdout),
      ).toMatchObject({
        standing: 'open_conflicts',
        openConflicts: 2,
      });

      resolveConflict(a.api.db, a.teamId, open[0]!.id, 'remote');
      expect(await status(a)).toMatchObject({ standing: 'open_conflicts', openConflicts: 1 });
      resolveConflict(a.api.db, a.teamId, open[1]!.id, 'local');
      await syncOnce(a, r, kind);
      expect(await status(a)).toMatchObject({ standing: 'up_to_date', openConflicts: 0 });
      expect(runCli(['sync', 'status', '--data-dir', a.api.dataDir, '--team', 'Acme']).stdout.split('\n')[0]).toBe(
        'status: up to date',
      );
    });
  });
}
