import { describe, expect, it } from 'vitest';
import { backgroundOf } from '../../../src-main/runtime/background';
import { ensureRemote, teamRemote } from '../../../src-main/store/sync/remotes';
import { makeTestApi } from '../../helpers/api';
import { remoteReplica } from './helpers';

async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('sync scheduler in a server', () => {
  it('syncs soon after a local edit, and on demand', async () => {
    const r = await remoteReplica();
    const api = await makeTestApi({
      sync: { debounceMs: 100, pollMs: 25, intervalMs: 3_600_000, credentials: { env: { FINOPS_REMOTE_TOKEN: r.token } } },
    });
    const token = api.key('Acme');
    const teamId = api.team('Acme').id;
    await api.app.ready();
    ensureRemote(api.db, teamId, { baseUrl: r.url, kind: 'finops' });
    await api.call('POST', '/v1/tags', { token, body: { name: 'Scheduled' } });
    await until(async () => (await r.call('GET', '/v1/tags')).body.data.some((t: { name: string }) => t.name === 'Scheduled'));
    await until(() => teamRemote(api.db, teamId)?.state === 'idle');
    expect(teamRemote(api.db, teamId)).toMatchObject({ lastError: null, lastSummary: { pushed: 1 } });

    await r.call('POST', '/v1/tags', { name: 'From the remote' });
    backgroundOf(api.db)!.sync!.syncNow(teamId);
    await until(async () =>
      (await api.call('GET', '/v1/tags', { token })).json().data.some((t: { name: string }) => t.name === 'From the remote'),
    );
  });

  it('a team whose remote has no credential is reported, not retried in a loop', async () => {
    const r = await remoteReplica();
    const api = await makeTestApi({
      sync: {
        debounceMs: 10,
        pollMs: 20,
        credentials: { env: {} },
        secretStore: { kind: 'session-only', get: async () => null, set: async () => {}, delete: async () => false },
      },
    });
    const teamId = api.team('Acme').id;
    await api.app.ready();
    ensureRemote(api.db, teamId, { baseUrl: r.url, kind: 'finops' });
    backgroundOf(api.db)!.sync!.syncNow(teamId);
    await until(() => teamRemote(api.db, teamId)?.state === 'credentials_expired');
    expect(teamRemote(api.db, teamId)?.lastError).toContain('no credential');
  });
});
