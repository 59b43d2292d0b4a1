/**
 * A `finops` command on the desktop app's own data dir takes the private addresses the app's user allowed in
 * Settings (the shell's file), as the app's server host does; on any other data dir it does not.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptDesktopOperator, isDesktopDataDir } from '../../../src-main/desktop/beside-the-app';
import { PRIVATE_HOSTS_FILE, savePrivateHosts } from '../../../src-main/desktop/private-hosts';
import { operatorSettings, resetOperator } from '../../../src-main/operator/settings';
import { FINOPS_BIN, runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

/** A Linux desktop's folders under `home`: the app folder is `$XDG_CONFIG_HOME/Finops Desk`. */
function desktopEnv(home: string): NodeJS.ProcessEnv {
  return { XDG_CONFIG_HOME: path.join(home, '.config'), HOME: home, FINOPS_ALLOW_PRIVATE_HOSTS: '' };
}
const appDirOf = (home: string) => path.join(home, '.config', 'Finops Desk');

afterEach(() => resetOperator());

describe.runIf(process.platform === 'linux')('adoptDesktopOperator', () => {
  it("takes the app's saved entries beside the environment's, and any watched folder, on the app's data dir", () => {
    const home = tmpDir();
    savePrivateHosts(path.join(appDirOf(home), PRIVATE_HOSTS_FILE), ['192.168.1.10:587', 'nas.lan']);
    const env = { ...desktopEnv(home), FINOPS_ALLOW_PRIVATE_HOSTS: '10.0.0.0/8' };
    const dataDir = path.join(appDirOf(home), 'data');
    expect(isDesktopDataDir(`${dataDir}/`, env)).toBe(true);
    expect(adoptDesktopOperator(dataDir, env)).toBe(true);
    expect(operatorSettings(env)).toEqual({
      allowPrivateHosts: ['10.0.0.0/8', '192.168.1.10:587', 'nas.lan'],
      inboxRoots: 'any',
    });
  });

  it('leaves any other data dir to the environment', () => {
    const home = tmpDir();
    savePrivateHosts(path.join(appDirOf(home), PRIVATE_HOSTS_FILE), ['192.168.1.10:587']);
    const env = { ...desktopEnv(home), FINOPS_ALLOW_PRIVATE_HOSTS: '10.0.0.0/8', FINOPS_INBOX_ROOTS: '/srv/inbox' };
    expect(adoptDesktopOperator(path.join(home, 'elsewhere'), env)).toBe(false);
    expect(operatorSettings(env)).toEqual({ allowPrivateHosts: ['10.0.0.0/8'], inboxRoots: ['/srv/inbox'] });
  });

  it('allows nothing of its own when the app saved no list (or a damaged one)', () => {
    const home = tmpDir();
    fs.mkdirSync(appDirOf(home), { recursive: true });
    fs.writeFileSync(path.join(appDirOf(home), PRIVATE_HOSTS_FILE), '{not json');
    const env = desktopEnv(home);
    expect(adoptDesktopOperator(path.join(appDirOf(home), 'data'), env)).toBe(true);
    expect(operatorSettings(env).allowPrivateHosts).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('a finops command beside the desktop app', () => {
  it("reaches a private address the app's Settings allow, and is refused it otherwise", { timeout: 120_000 }, async () => {
    const home = tmpDir();
    const env = { ...process.env, ...desktopEnv(home) };
    delete env.FINOPS_DATA_DIR;
    // The team on the app's data dir (the default one: no --data-dir).
    expect(runCli(['token', 'create', '--team', 'Acme'], env).status).toBe(0);
    const seen: string[] = [];
    const remote = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"no"}');
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    const port = (remote.address() as AddressInfo).port;
    const sync = () =>
      promisify(execFile)(FINOPS_BIN, ['sync', '--team', 'Acme', '--remote', `http://127.0.0.1:${port}/v1`, '--token', 'k'], {
        env,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
      );
    try {
      const refused = await sync();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/127\.0\.0\.1/);
      expect(seen).toEqual([]);

      savePrivateHosts(path.join(appDirOf(home), PRIVATE_HOSTS_FILE), [`127.0.0.1:${port}`]);
      await sync();
      expect(seen.length).toBeGreaterThan(0);
    } finally {
      remote.close();
    }
  });
});
