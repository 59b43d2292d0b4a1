/**
 * `npm start` (scripts/start-desktop.cjs) end to end with a stand-in Electron binary: the electron package's own
 * ELECTRON_OVERRIDE_DIST_PATH points it at a folder whose `electron` runs the real Node when asked to run as Node
 * (so the native-module check loads the real better-sqlite3 and keytar) and otherwise starts, or aborts as
 * Chromium does when its Linux sandbox cannot start.
 *
 * @module-tag slow (builds the app and spawns processes; left out of `npm run test:fast`)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { ensureDesktopBuild } from '../helpers/desktop-build';
import { tmpDir } from '../helpers/tmp';

const { isSandboxFailure, parseArgs } = require('../../scripts/start-desktop.cjs') as {
  isSandboxFailure(output: string): boolean;
  parseArgs(argv: string[]): { mode: string; build: boolean };
};

const SUID_ABORT =
  "[21520:1122/101010.123456:FATAL:setuid_sandbox_host.cc(158)] The SUID sandbox helper binary was found, but is not configured correctly. Rather than run without sandboxing I'm aborting now. You need to make sure that /x/chrome-sandbox is owned by root and has mode 4755.";

function fakeElectronDir(): string {
  const dir = tmpDir('finops-fake-electron-', 'file');
  const script = `#!/bin/sh
if [ "$ELECTRON_RUN_AS_NODE" = "1" ]; then
  if [ "$FAKE_NATIVE" = "broken" ]; then
    echo "Error: The module 'better_sqlite3.node' was compiled against a different Node.js version" >&2
    exit 1
  fi
  exec "$FAKE_NODE" "$@"
fi
if [ "$FAKE_SANDBOX" = "broken" ]; then
  echo "${SUID_ABORT}" >&2
  kill -TRAP $$
fi
echo "electron started with: $*"
`;
  fs.writeFileSync(path.join(dir, 'electron'), script, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'chrome-sandbox'), '');
  return dir;
}

const electronDir = fakeElectronDir();

function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [path.join(ROOT, 'scripts/start-desktop.cjs'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
    env: {
      ...process.env,
      ELECTRON_OVERRIDE_DIST_PATH: electronDir,
      FAKE_NODE: process.execPath,
      DISPLAY: ':99',
      ...env,
    },
  });
}

describe('npm start (scripts/start-desktop.cjs)', () => {
  it('checks the native modules inside "Electron" with an in-memory database and starts Electron on the app', async () => {
    // The build step itself is left out (--no-build): it would rewrite out/ under other test files running the app.
    await ensureDesktopBuild();
    const r = start(['--no-build']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/loads better-sqlite3 \(SQLite 3\.\d+\.\d+\) and keytar/);
    expect(r.stdout).toContain('electron started with: .');
    expect(r.stdout + r.stderr).not.toMatch(/rebuild/i);
  });

  it('explains a Linux sandbox abort (chrome-sandbox owner and mode, or user namespaces) and fails', () => {
    const r = start(['--no-build'], { FAKE_SANDBOX: 'broken' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(SUID_ABORT);
    expect(r.stderr).toContain(`sudo chown root:root "${path.join(electronDir, 'chrome-sandbox')}"`);
    expect(r.stderr).toContain('chmod 4755');
    expect(r.stderr).toMatch(/does not turn its sandbox off/);
  });

  it('stops with a clear message, and no rebuild, when the native modules do not load', () => {
    const r = start(['--no-build'], { FAKE_NATIVE: 'broken' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/native modules do not load in Electron/);
    expect(r.stderr).toMatch(/compiled against a different Node.js version/);
    expect(r.stderr).toMatch(/Run `npm ci`/);
    expect(r.stdout).not.toContain('electron started');
  });

  it('says how to work without a display on Linux', () => {
    if (process.platform !== 'linux') return;
    const r = start(['--no-build'], { DISPLAY: '', WAYLAND_DISPLAY: '' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no display .* npm run serve/s);
  });

  it('reads its options and refuses unknown ones (exit 2)', () => {
    expect(parseArgs(['--dev'])).toEqual({ mode: 'dev', build: true });
    expect(parseArgs(['--no-build'])).toEqual({ mode: 'start', build: false });
    expect(() => parseArgs(['--rebuild'])).toThrow(/unknown option --rebuild/);
    expect(start(['--rebuild']).status).toBe(2);
  });

  it('recognises the sandbox aborts of Chromium and nothing else', () => {
    expect(isSandboxFailure(SUID_ABORT)).toBe(true);
    expect(isSandboxFailure('[1:FATAL:zygote_host_impl_linux.cc(127)] No usable sandbox! Update your kernel')).toBe(true);
    expect(isSandboxFailure('Error: listen EADDRINUSE')).toBe(false);
  });
});
