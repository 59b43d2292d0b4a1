/**
 * scripts/link-bin.cjs (npm's postinstall) on a real file system in a temporary checkout: the symlink where it is
 * allowed, and the shims where Windows refuses it (EPERM without Developer Mode), so `npm ci` goes on.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp';

const { linkBin } = require('../../scripts/link-bin.cjs') as {
  linkBin(options: { root: string; fsys?: typeof fs; platform?: string; log?: (line: string) => void }): 'symlink' | 'shim';
};

/** A checkout whose launcher says where it runs from (as bin/finops finds the checkout) and what it was given. */
function checkout(): string {
  const root = tmpDir('finops-link-bin-');
  fs.mkdirSync(path.join(root, 'bin'));
  const launcher = '#!/bin/sh\necho "launcher=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd) args=$*"\n';
  fs.writeFileSync(path.join(root, 'bin', 'finops'), launcher, { mode: 0o755 });
  return root;
}

function runBin(root: string) {
  return spawnSync(path.join(root, 'node_modules', '.bin', 'finops'), ['serve', '--port', '1'], { encoding: 'utf8' });
}

/** The real fs, but symlinks are refused as Windows refuses them without Developer Mode. */
const refusingSymlinks = {
  ...fs,
  symlinkSync: (target: fs.PathLike, file: fs.PathLike) => {
    throw Object.assign(new Error(`EPERM: operation not permitted, symlink '${target}' -> '${file}'`), {
      code: 'EPERM',
      errno: -4048,
      syscall: 'symlink',
    });
  },
} as typeof fs;

describe('link-bin (npm postinstall)', () => {
  it('links node_modules/.bin/finops to the launcher where symlinks are allowed', () => {
    const root = checkout();
    expect(linkBin({ root, platform: 'linux' })).toBe('symlink');
    expect(fs.readlinkSync(path.join(root, 'node_modules/.bin/finops'))).toBe(path.join('..', '..', 'bin', 'finops'));
    const r = runBin(root);
    expect(r.stdout.trim()).toBe(`launcher=${fs.realpathSync(root)} args=serve --port 1`);
  });

  it('writes shims when the symlink is refused (EPERM), and the shim runs the launcher as the link did', () => {
    const root = checkout();
    const logged: string[] = [];
    expect(linkBin({ root, fsys: refusingSymlinks, platform: 'linux', log: (l) => logged.push(l) })).toBe('shim');
    expect(logged.join('\n')).toMatch(/symlink was refused \(EPERM\)/);
    const bin = path.join(root, 'node_modules/.bin/finops');
    expect(fs.lstatSync(bin).isSymbolicLink()).toBe(false);
    const r = runBin(root);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`launcher=${fs.realpathSync(root)} args=serve --port 1`);
    // cmd and PowerShell run the .cmd: bash on the launcher, relative to the shim's own folder, arguments passed on.
    expect(fs.readFileSync(`${bin}.cmd`, 'utf8')).toContain('bash "%~dp0\\..\\..\\bin\\finops" %*');
  });

  it('does not try a symlink on Windows, and replaces an earlier link or shim on a second install', () => {
    const root = checkout();
    expect(linkBin({ root, platform: 'linux' })).toBe('symlink');
    expect(linkBin({ root, fsys: refusingSymlinks, platform: 'win32', log: () => {} })).toBe('shim');
    expect(runBin(root).stdout).toContain('args=serve --port 1');
    expect(linkBin({ root, platform: 'linux' })).toBe('symlink');
    expect(fs.existsSync(path.join(root, 'node_modules/.bin/finops.cmd'))).toBe(false);
  });

  it('still fails the install for an error that is not a refused symlink', () => {
    const root = checkout();
    const broken = {
      ...fs,
      symlinkSync: () => {
        throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      },
    } as typeof fs;
    expect(() => linkBin({ root, fsys: broken, platform: 'linux' })).toThrow(/EIO/);
  });
});
