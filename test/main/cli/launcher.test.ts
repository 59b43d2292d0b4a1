// @module-tag slow (spawns the launcher and the build; left out of `npm run test:fast`)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../../../package.json';
import { COMMANDS } from '../../../src-main/cli/registry';
import { machineNow } from '../../../src-main/clock';
import { FINOPS_BIN, ROOT, startServe } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

/** `bin/finops` runs the esbuild build in out/cli, from any directory (docs/decisions/0008-compiled-cli.md). */

function run(bin: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(bin, args, { cwd: '/', encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
}

/** What a checkout needs for the launcher to build and run the CLI, copied into a fresh folder. */
function checkoutCopy(): string {
  const dir = tmpDir('finops-launcher-', 'file');
  for (const p of ['bin', 'scripts', 'src-main', 'src-shared', 'resources', 'package.json', 'tsconfig.json']) {
    fs.cpSync(path.join(ROOT, p), path.join(dir, p), { recursive: true, preserveTimestamps: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  if (fs.existsSync(path.join(ROOT, '.tools'))) fs.symlinkSync(path.join(ROOT, '.tools'), path.join(dir, '.tools'));
  return dir;
}

describe('the finops launcher', () => {
  it('runs from another directory with a shell whose PATH has only the system node, and opens a database', () => {
    const help = run(FINOPS_BIN, ['--help'], { PATH: '/usr/bin:/bin' });
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    const line = (name: string) => help.stdout.split('\n').find((l) => l.trimStart().startsWith(`${name} `));
    for (const c of COMMANDS) expect(line(c.name)).toContain(c.description.split(' ').slice(0, 3).join(' '));
    // better-sqlite3 is built for the project's Node 22: it loads only if the launcher picked that Node.
    const token = run(FINOPS_BIN, ['token', 'create', '--data-dir', tmpDir(), '--team', 'Anywhere'], { PATH: '/usr/bin:/bin' });
    expect(token.stderr).toBe('');
    expect(token.stdout).toMatch(/^finops_[0-9a-f]{64}\n$/);
  });

  it('--help loads the compiled CLI and commander, nothing else (no command module, no TypeScript loader)', () => {
    const list = path.join(tmpDir(), 'loaded.txt');
    const hook = path.join(ROOT, 'test', 'helpers', 'loaded-modules.cjs');
    const r = run(FINOPS_BIN, ['--help'], {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${hook}`,
      FINOPS_LOADED_MODULES: list,
    });
    expect(r.status).toBe(0);
    const loaded = fs.readFileSync(list, 'utf8').split('\n');
    const others = loaded.filter((f) => f !== hook && !f.startsWith(path.join(ROOT, 'node_modules', 'commander') + path.sep));
    expect(others).toEqual([path.join(ROOT, 'out', 'cli', 'finops.cjs')]);
    // 742 before the build and lazy commands (commander alone is 7 files).
    expect(loaded.length).toBeLessThanOrEqual(12);
  });

  it('a command with --help loads its module and shows every option', () => {
    const r = run(FINOPS_BIN, ['import', '--help']);
    expect(r.status).toBe(0);
    for (const option of ['--data-dir', '--team', '--account', '--mapping', '--dry-run', '--allow-reimport', '--json']) {
      expect(r.stdout).toContain(option);
    }
    expect(r.stdout).toMatch(/^Commands:\n\s+batches /m);
  });

  it('serves the web UI built beside it (out/web) whatever the working directory', async () => {
    const copy = checkoutCopy();
    fs.mkdirSync(path.join(copy, 'out', 'web'), { recursive: true });
    fs.writeFileSync(path.join(copy, 'out', 'web', 'index.html'), '<!doctype html><title>built web UI</title>');
    const server = await startServe(['--data-dir', tmpDir()], {}, { bin: path.join(copy, 'bin', 'finops'), cwd: '/' });
    try {
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('built web UI');
    } finally {
      await server.stop();
    }
  });

  it('builds when the build is missing, and again when it is older than a source: stale code never runs', () => {
    const copy = checkoutCopy();
    const bin = path.join(copy, 'bin', 'finops');
    const built = path.join(copy, 'out', 'cli', 'finops.cjs');

    const first = run(bin, ['--version']);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(`${pkg.version}\n`);
    expect(fs.existsSync(path.join(copy, 'out', 'cli', 'ocr-worker.cjs'))).toBe(true);

    // A build older than its sources (as after a pull or a branch switch) is replaced before anything runs.
    fs.writeFileSync(built, 'console.log("the stale build ran");\n');
    const past = new Date(machineNow() - 3_600_000); // file times are on the machine's clock
    fs.utimesSync(built, past, past);
    const second = run(bin, ['--version']);
    expect(second.stdout).toBe(`${pkg.version}\n`);
    expect(fs.statSync(built).mtimeMs).toBeGreaterThan(past.getTime());

    // A source saved after the build: the next start builds again and runs the edit.
    const version = path.join(copy, 'src-main', 'version.ts');
    fs.writeFileSync(version, fs.readFileSync(version, 'utf8').replace('pkg.version', "'9.9.9-edited'"));
    const third = run(bin, ['--version']);
    expect(third.stdout).toBe('9.9.9-edited\n');
  });
});
