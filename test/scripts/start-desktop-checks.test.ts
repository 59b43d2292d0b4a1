/**
 * `npm start`'s native-module check without the OS keychain library (scripts/start-desktop.cjs): keytar failing to
 * load in Electron is a warning, not a stop, since the app keeps its secrets with safeStorage then. The check script
 * runs in real Node here (Electron runs it as Node too) with keytar's load failing as it does without libsecret.
 * The whole of `npm start` with a stand-in Electron: start-desktop.test.ts (slow).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { tmpDir } from '../helpers/tmp';

const { keytarAdvice, NATIVE_CHECK } = require('../../scripts/start-desktop.cjs') as {
  keytarAdvice(loadError: string | null, platform?: string): string | null;
  NATIVE_CHECK: string;
};

const NO_LIBSECRET = 'libsecret-1.so.0: cannot open shared object file: No such file or directory';

/** The check as Electron runs it, in Node; with `keytarFails`, keytar's load throws as without libsecret. */
function runCheck(keytarFails: boolean) {
  const hook = path.join(tmpDir(), 'no-libsecret.cjs');
  fs.writeFileSync(
    hook,
    `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'keytar') throw new Error(${JSON.stringify(NO_LIBSECRET)});
  return load.call(this, request, ...rest);
};`,
  );
  const r = spawnSync(process.execPath, [...(keytarFails ? ['--require', hook] : []), '-e', NATIVE_CHECK], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as { sqlite: string; keytar: string | null };
}

describe('npm start without the OS keychain library', () => {
  it('reports a keytar that does not load instead of failing the check, better-sqlite3 still checked', () => {
    const found = runCheck(true);
    expect(found.sqlite).toMatch(/^3\.\d+\.\d+$/);
    expect(found.keytar).toBe(NO_LIBSECRET);
    expect(runCheck(false).keytar).toBeNull();
  });

  it('warns with the package to install on Linux and goes on; says nothing when keytar loads', () => {
    const warning = keytarAdvice(NO_LIBSECRET, 'linux');
    expect(warning).toMatch(/warning: keytar does not load in Electron \(libsecret-1\.so\.0/);
    expect(warning).toMatch(/sudo apt install libsecret-1-0/);
    expect(warning).toMatch(/starts anyway/);
    expect(keytarAdvice(null, 'linux')).toBeNull();
  });

  it('calls a keytar failure elsewhere a damaged install, still without stopping', () => {
    const warning = keytarAdvice('The specified module could not be found.\r\n\\\\?\\C:\\x\\keytar.node', 'win32');
    expect(warning).toMatch(/damaged install \(`npm ci` mends it\)/);
    expect(warning).not.toMatch(/libsecret/);
    expect(warning).toMatch(/starts anyway/);
  });
});
