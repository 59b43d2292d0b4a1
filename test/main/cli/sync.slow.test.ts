/**
 * `finops sync` as a user runs it: real processes (a remote `finops serve`, a local server on the replica's data dir,
 * the CLI round beside it), real HTTP on loopback. One round pushes, another pulls; status, conflicts and resolve
 * print what they say; a round killed with SIGKILL mid-way loses nothing and repeats nothing visible.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../../src-main/store/auth/api-keys';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { FINOPS_BIN, runCli, startServe } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

function keyFor(dataDir: string, team = 'Acme'): string {
  const db = openDatabase(dataDir);
  try {
    return createApiKey(db, { teamId: ensureTeam(db, team).id, name: 'cli', scopes: ['apis.all'] }).key;
  } finally {
    db.close();
  }
}

async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever the route answers
  return { status: res.status, body: (await res.json()) as any };
}

describe('finops sync', { timeout: 120_000 }, () => {
  it('runs a round beside a server on the same data dir, prints status, conflicts, and takes a side', async () => {
    const remoteDir = tmpDir();
    const localDir = tmpDir();
    const remoteKey = keyFor(remoteDir);
    const localKey = keyFor(localDir);
    const remote = await startServe(['--data-dir', remoteDir]);
    const local = await startServe(['--data-dir', localDir]);
    try {
      const tag = (await call(local.url, localKey, 'POST', '/v1/tags', { name: 'Urgent' })).body;
      const customer = (await call(local.url, localKey, 'POST', '/v1/customers', { name: 'Hooli', tags: [{ id: tag.id }] })).body;
      const args = ['sync', '--data-dir', localDir, '--team', 'Acme'];
      const first = runCli([...args, '--remote', `${remote.url}/v1`, '--token', remoteKey]);
      expect(first.stderr).toContain('sync');
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^pulled \d+, pushed \d+, conflicts 0\n$/);
      expect((await call(remote.url, remoteKey, 'GET', `/v1/customers/${customer.id}`)).body).toMatchObject({ name: 'Hooli' });

      // A same-field edit on both sides: the round records it and keeps the remote's (the customer's rule).
      await call(remote.url, remoteKey, 'PATCH', `/v1/customers/${customer.id}`, { note: 'from the remote' });
      await call(local.url, localKey, 'PATCH', `/v1/customers/${customer.id}`, { note: 'from here' });
      const second = runCli([...args, '--token', remoteKey], { FINOPS_REMOTE_TOKEN: '' });
      expect(second.status, second.stderr).toBe(0);
      expect(second.stdout).toContain('conflicts 1');
      const status = runCli(['sync', 'status', '--data-dir', localDir, '--team', 'Acme']);
      expect(status.stdout).toContain(`remote: ${remote.url}/v1 (finops)`);
      expect(status.stdout).toContain('open conflicts: 1');
      const conflicts = runCli(['sync', 'conflicts', '--data-dir', localDir, '--team', 'Acme'])
        .stdout.trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toMatchObject({
        entity: 'customer',
        local: { note: 'from here' },
        remote: { note: 'from the remote' },
        kept: 'remote',
      });
      expect((await call(local.url, localKey, 'GET', `/v1/customers/${customer.id}`)).body.note).toBe('from the remote');

      const taken = runCli(['sync', 'resolve', conflicts[0].id, '--take', 'local', '--data-dir', localDir, '--team', 'Acme']);
      expect(taken.status, taken.stderr).toBe(0);
      expect(runCli([...args, '--token', remoteKey]).status).toBe(0);
      expect((await call(remote.url, remoteKey, 'GET', `/v1/customers/${customer.id}`)).body.note).toBe('from here');
      expect(runCli(['sync', 'status', '--data-dir', localDir, '--team', 'Acme']).stdout).toContain('open conflicts: 0');
      // Taken already: said, exit 1; `--open` takes every open one (none now), and a bare `resolve` names nothing.
      const again = runCli(['sync', 'resolve', conflicts[0].id, '--take', 'remote', '--data-dir', localDir, '--team', 'Acme']);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain(`${conflicts[0].id}: This conflict is already resolved`);
      const open = runCli(['sync', 'resolve', '--open', '--take', 'remote', '--data-dir', localDir, '--team', 'Acme']);
      expect([open.status, open.stdout]).toEqual([0, '']);
      expect(runCli(['sync', 'resolve', '--take', 'remote', '--data-dir', localDir, '--team', 'Acme']).status).not.toBe(0);

      const bad = runCli([...args, '--token', 'finops_wrong']);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('refused the credential');
      expect(runCli(['sync', 'status', '--data-dir', localDir, '--team', 'Acme']).stdout).toContain('state: credentials_expired');
    } finally {
      await local.stop();
      await remote.stop();
    }
  });

  it('a round killed mid-way loses nothing: the next one completes with no duplicate', async () => {
    const remoteDir = tmpDir();
    const localDir = tmpDir();
    const remoteKey = keyFor(remoteDir);
    const localKey = keyFor(localDir);
    const remote = await startServe(['--data-dir', remoteDir]);
    const local = await startServe(['--data-dir', localDir]);
    try {
      for (let i = 0; i < 60; i++) await call(local.url, localKey, 'POST', '/v1/tags', { name: `tag ${i}` });
      const child = spawn(
        FINOPS_BIN,
        ['sync', '--data-dir', localDir, '--team', 'Acme', '--remote', `${remote.url}/v1`, '--token', remoteKey],
        {
          stdio: 'pipe',
        },
      );
      // Kill it once the remote holds some of the tags, not all.
      for (;;) {
        const n = (await call(remote.url, remoteKey, 'GET', '/v1/tags')).body.data.length;
        if (n >= 5) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const partial = (await call(remote.url, remoteKey, 'GET', '/v1/tags')).body.data.length;
      const after = runCli(['sync', '--data-dir', localDir, '--team', 'Acme', '--token', remoteKey]);
      expect(after.status, after.stderr).toBe(0);
      const names = (await call(remote.url, remoteKey, 'GET', '/v1/tags')).body.data.map((t: { name: string }) => t.name);
      expect(partial).toBeLessThan(60);
      expect(names).toHaveLength(60);
      expect(new Set(names).size).toBe(60);
    } finally {
      await local.stop();
      await remote.stop();
    }
  });
});
