// @module-tag slow (spawns processes; left out of `npm run test:fast`)
import { describe, expect, it } from 'vitest';
import { findActiveApiKey } from '../../../src-main/store/auth/api-keys';
import { openDatabase } from '../../../src-main/store/db';
import { findTeamByName } from '../../../src-main/store/teams/teams';
import { runCli, startServe } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

describe('finops command line', () => {
  it('--help lists the commands', () => {
    const r = runCli(['--help']);
    expect(r.status).toBe(0);
    for (const cmd of ['serve', 'token']) expect(r.stdout).toMatch(new RegExp(`^\\s+${cmd}\\b`, 'm'));
  });

  it.each([
    [['serve', '--bogus'], /unknown option '--bogus'/],
    [['serve', '--port', 'abc'], /--port.*invalid/],
    [['serve', '--port', '70000'], /--port.*invalid/],
    [['serve', '--rate-limit', '0'], /--rate-limit.*invalid/],
    [['token', 'create'], /required option '--team/],
    [['token', 'create', '--team', 'a', '--scopes', 'customers.read,bogus.scope'], /unknown scope\(s\): bogus\.scope/],
    [['nope'], /unknown command 'nope'/],
  ])('finops %j exits 2 with a one-line message', (args, message) => {
    const r = runCli([...args, '--data-dir', tmpDir()]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('token create prints only the key; revoke makes it unusable', async () => {
    const dir = tmpDir();
    const created = runCli(['token', 'create', '--data-dir', dir, '--team', 'Acme', '--scopes', 'customers.read']);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^finops_[0-9a-f]{64}\n$/);
    const key = created.stdout.trim();

    const listed = runCli(['token', 'list', '--data-dir', dir, '--team', 'Acme']);
    expect(listed.stdout).toContain(`…${key.slice(-4)}`);
    expect(listed.stdout).not.toContain(key);

    const revoked = runCli(['token', 'revoke', key, '--data-dir', dir]);
    expect(revoked.status).toBe(0);
    const unknown = runCli(['token', 'revoke', 'no-such-id', '--data-dir', dir]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/not found/);
  });

  it('token create --user binds the key to a member of the team; another email is a usage error', () => {
    const dir = tmpDir();
    const user = runCli([
      'user',
      'create',
      '--data-dir',
      dir,
      '--team',
      'Acme',
      '--email',
      'max@acme.test',
      '--password',
      'a long password',
    ]);
    expect(user.status, user.stderr).toBe(0);
    runCli([
      'user',
      'create',
      '--data-dir',
      dir,
      '--team',
      'Other',
      '--email',
      'olga@other.test',
      '--password',
      'a long password',
    ]);
    const created = runCli(['token', 'create', '--data-dir', dir, '--team', 'Acme', '--user', 'max@acme.test']);
    expect(created.status, created.stderr).toBe(0);
    for (const [team, email] of [
      ['Acme', 'olga@other.test'],
      ['Acme', 'nobody@acme.test'],
      ['Nowhere', 'max@acme.test'],
    ]) {
      const refused = runCli(['token', 'create', '--data-dir', dir, '--team', team!, '--user', email!]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(`${email} is not a member of team ${team}`);
      expect(refused.stdout).toBe('');
    }
    const db = openDatabase(dir);
    try {
      expect(findActiveApiKey(db, created.stdout.trim())?.userId).toBe(JSON.parse(user.stdout).id);
      // The refused key for a team that did not exist made no team either.
      expect(findTeamByName(db, 'Nowhere')).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('serve answers /v1/health, accepts a key made by the CLI while running, and stops cleanly on SIGTERM', async () => {
    const dir = tmpDir();
    const server = await startServe(['--data-dir', dir]);
    try {
      const health = await fetch(`${server.url}/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });

      // The CLI writes to the same database while the server holds it open (WAL + busy timeout).
      const created = runCli(['token', 'create', '--data-dir', dir, '--team', 'Live', '--scopes', 'tags.read']);
      expect(created.status).toBe(0);
      const key = created.stdout.trim();
      const unauth = await fetch(`${server.url}/v1/openapi.json`);
      expect(unauth.status).toBe(200);
      const noKey = await fetch(`${server.url}/v1/no-such-route`, { headers: { authorization: `Bearer ${key}` } });
      expect(noKey.status).toBe(404);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    expect(server.output()).toMatch(/shutting down/);
  });

  it('serve uses FINOPS_DATA_DIR when --data-dir is absent', async () => {
    const dir = tmpDir();
    const server = await startServe([], { FINOPS_DATA_DIR: dir });
    await server.stop('SIGINT');
    const r = runCli(['token', 'create', '--team', 'T'], { FINOPS_DATA_DIR: dir });
    expect(r.status).toBe(0);
    const fs = await import('node:fs');
    expect(fs.existsSync(`${dir}/finops.sqlite`)).toBe(true);
  });
});
