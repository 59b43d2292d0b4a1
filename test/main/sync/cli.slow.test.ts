/**
 * @module-tag slow (spawns `finops serve` and `finops sync`)
 *
 * `finops sync` between real processes on loopback (issue 34): a Finops Desk remote (`finops serve`) and a
 * `finops serve --spec-only` remote. Without `--kind` the first round finds out which kind the remote is and keeps
 * it; a `finops sync` typed while another round of the team runs waits for it instead of failing with "busy".
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/db';
import { acquireLease, releaseLease } from '../../../src-main/store/leases';
import { teamRemote } from '../../../src-main/store/sync/remotes';
import { createTag } from '../../../src-main/store/tags/tags';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { leaseNameOf } from '../../../src-main/sync/round';
import { FINOPS_BIN, runCli, type ServeHandle, startServe } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

const servers: ServeHandle[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

async function remoteServer(specOnly: boolean): Promise<{ url: string; key: string }> {
  const dir = tmpDir();
  const key = runCli(['token', 'create', '--data-dir', dir, '--team', 'Acme']).stdout.trim();
  const server = await startServe(['--data-dir', dir, ...(specOnly ? ['--spec-only'] : [])]);
  servers.push(server);
  return { url: `${server.url}/v1`, key };
}

/** A replica's data dir with one tag of its own to push. */
function localWithTag(name: string): { dir: string; teamId: string } {
  const dir = tmpDir();
  const db = openDatabase(dir);
  try {
    const teamId = ensureTeam(db, 'Acme').id;
    createTag(db, teamId, { name });
    return { dir, teamId };
  } finally {
    db.close();
  }
}

// Each test starts two servers and CLI processes, one restarts a server: seconds on a quiet machine, more beside a
// busy suite.
describe('finops sync between real processes', { timeout: 120_000 }, () => {
  it.each([
    ['a Finops Desk remote', false, 'finops'],
    ['a --spec-only remote', true, 'hosted'],
  ])('finds out the kind of %s on the first round, keeps it, and syncs both ways', async (_, specOnly, kind) => {
    const remote = await remoteServer(specOnly);
    const { dir, teamId } = localWithTag('Local tag');
    const first = runCli(['sync', '--data-dir', dir, '--team', 'Acme', '--remote', remote.url, '--token', remote.key]);
    expect(first.stderr).not.toMatch(/404/);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^pulled \d+, pushed \d+, conflicts 0/);
    const db = openDatabase(dir);
    try {
      expect(teamRemote(db, teamId)?.kind).toBe(kind);
    } finally {
      db.close();
    }
    const tag = await fetch(`${remote.url}/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${remote.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Made there' }),
    });
    expect(tag.ok).toBe(true);
    const second = runCli(['sync', '--data-dir', dir, '--team', 'Acme', '--token', remote.key]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^pulled 1, /);
  });

  it('keeps a kind someone chose: --kind finops against a remote without a feed fails with what to do', async () => {
    const remote = await remoteServer(true);
    const { dir, teamId } = localWithTag('Chosen tag');
    const args = ['sync', '--data-dir', dir, '--team', 'Acme', '--remote', remote.url, '--token', remote.key];
    const chosen = runCli([...args, '--kind', 'finops']);
    expect(chosen.status).toBe(1);
    expect(chosen.stderr).toMatch(/no change feed.*without a kind, or as the hosted kind/);
    const db = openDatabase(dir);
    try {
      expect(teamRemote(db, teamId)).toMatchObject({ kind: 'finops', kindSource: 'chosen' });
    } finally {
      db.close();
    }
    // Chosen again as hosted: walked, and kept so.
    expect(runCli([...args, '--kind', 'hosted']).status).toBe(0);
    expect(runCli(args).status).toBe(0);
    const after = openDatabase(dir);
    try {
      expect(teamRemote(after, teamId)).toMatchObject({ kind: 'hosted', kindSource: 'chosen' });
    } finally {
      after.close();
    }
  });

  it('checks a found kind again when the remote answers otherwise: a server restarted with --spec-only is walked', async () => {
    const dataDir = tmpDir();
    const key = runCli(['token', 'create', '--data-dir', dataDir, '--team', 'Acme']).stdout.trim();
    const full = await startServe(['--data-dir', dataDir]);
    const port = new URL(full.url).port;
    const url = `${full.url}/v1`;
    const { dir, teamId } = localWithTag('Before the restart');
    const args = ['sync', '--data-dir', dir, '--team', 'Acme', '--remote', url, '--token', key];
    expect(runCli(args).status).toBe(0);
    await full.stop();
    const specOnly = await startServe(['--data-dir', dataDir, '--spec-only', '--port', port]);
    servers.push(specOnly);
    expect(specOnly.url).toBe(full.url);
    const db = openDatabase(dir);
    createTag(db, teamId, { name: 'After the restart' });
    db.close();
    const again = runCli(args);
    expect(again.status, again.stderr).toBe(0);
    const after = openDatabase(dir);
    try {
      expect(teamRemote(after, teamId)).toMatchObject({ kind: 'hosted', kindSource: 'found' });
    } finally {
      after.close();
    }
    const tags = await fetch(`${url}/tags`, { headers: { authorization: `Bearer ${key}` } });
    const names = ((await tags.json()) as { data: { name: string }[] }).data.map((t) => t.name).sort();
    expect(names).toEqual(['After the restart', 'Before the restart']);
    // Back to a full server: found to have its feed again, and read by it.
    await specOnly.stop();
    servers.pop();
    const fullAgain = await startServe(['--data-dir', dataDir, '--port', port]);
    servers.push(fullAgain);
    expect(runCli(args).status).toBe(0);
    const last = openDatabase(dir);
    try {
      expect(teamRemote(last, teamId)).toMatchObject({ kind: 'finops', kindSource: 'found' });
    } finally {
      last.close();
    }
  });

  it('waits for the round already running instead of failing with "busy", then runs its own', async () => {
    const remote = await remoteServer(false);
    const { dir, teamId } = localWithTag('Waiting tag');
    const db = openDatabase(dir);
    // Another process's round holds the team's lease (the server's scheduler, say).
    const owner = `${process.pid}-elsewhere`;
    expect(acquireLease(db, leaseNameOf(teamId), 60_000, { teamId, owner })).toBe(true);
    const child = spawn(
      FINOPS_BIN,
      ['sync', '--data-dir', dir, '--team', 'Acme', '--remote', remote.url, '--token', remote.key],
      { stdio: 'pipe' },
    );
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    for (let i = 0; i < 200 && !/waiting/.test(stderr); i++) await new Promise((r) => setTimeout(r, 100));
    expect(stderr).toMatch(/running .*waiting for it to end/);
    releaseLease(db, leaseNameOf(teamId), { owner });
    db.close();
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^pulled \d+, pushed \d+, conflicts 0/);
  });
});
