/**
 * A real electron-builder run (`--dir`, Linux) on the real build output, with a stand-in for the Electron
 * distribution it would download (`electronDist`): a tiny executable carrying @electron/fuses' sentinel and fuse
 * wire, so the fuses are flipped in it as they would be in Electron's binary. What comes out is then read back:
 * the archive's file list, what was unpacked beside it, and the fuse wire. (An installer target and code signing
 * need the real binary and the platforms' tools; they are not run here.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli';
import { ensureDesktopBuild } from '../../helpers/desktop-build';
import { tmpDir } from '../../helpers/tmp';

const asar = require('@electron/asar') as { listPackage(archive: string): string[] };

/** @electron/fuses' sentinel, then the wire: version 1, 8 fuses, each '0' or '1' (all on, to see them flipped). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_ORDER = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
];

let resources: string;
let binary: Buffer;

beforeAll(async () => {
  await ensureDesktopBuild();
  const dist = tmpDir('finops-electron-dist-', 'file');
  const wire = Buffer.concat([Buffer.from(`#!/bin/sh\n# ${SENTINEL}`), Buffer.from([1, 8]), Buffer.from('11111111\n')]);
  fs.writeFileSync(path.join(dist, 'electron'), wire, { mode: 0o755 });
  fs.mkdirSync(path.join(dist, 'resources'));
  const out = tmpDir('finops-package-', 'file');
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/electron-builder/cli.js'),
      '--dir',
      '--linux',
      '--x64',
      `-c.electronDist=${dist}`,
      '-c.electronVersion=45.4.1',
      `-c.directories.output=${out}`,
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
  );
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  resources = path.join(out, 'linux-unpacked', 'resources');
  binary = fs.readFileSync(path.join(out, 'linux-unpacked', 'finops-desk'));
}, 300_000);

describe('a packaged app (electron-builder --dir with a stand-in Electron)', () => {
  it('flips the fuses in the binary as configured', () => {
    const at = binary.indexOf(SENTINEL) + SENTINEL.length;
    const fuses = binary.subarray(at + 2, at + 2 + 8).toString('latin1');
    const state = Object.fromEntries(FUSE_ORDER.map((name, i) => [name, fuses[i] === '1']));
    expect(state).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('archives the built app and production dependencies only', () => {
    const files = asar.listPackage(path.join(resources, 'app.asar'));
    const top = new Set(files.filter((f) => !f.startsWith('/node_modules')).map((f) => f.split('/').slice(0, 3).join('/')));
    expect([...top].sort()).toEqual(
      ['/out', '/out/main', '/out/preload', '/out/renderer', '/package.json', '/resources', '/resources/icon.png'].sort(),
    );
    const packages = new Set(files.filter((f) => f.startsWith('/node_modules/')).map((f) => f.split('/').slice(2, 4).join('/')));
    const has = (name: string) => [...packages].some((p) => p === name || p.startsWith(`${name}/`));
    for (const runtime of ['fastify', 'better-sqlite3', 'keytar', 'zod', 'tesseract.js'])
      expect(has(runtime), runtime).toBe(true);
    for (const dev of ['tsx', 'typescript', 'vitest', 'vite', 'electron', 'electron-vite', 'esbuild', 'electron-builder']) {
      expect(has(dev), dev).toBe(false);
    }
    expect(files.filter((f) => f.endsWith('.map') || f.includes('/better-sqlite3/deps/'))).toEqual([]);
  });

  it('unpacks the native modules and the OCR worker with what it loads beside the archive', () => {
    const unpacked = path.join(resources, 'app.asar.unpacked');
    for (const rel of [
      'out/main/ocr-worker.cjs',
      'node_modules/better-sqlite3/prebuilds/linux-x64.node',
      'node_modules/keytar/build/Release/keytar.node',
      'node_modules/tesseract.js/src/worker-script/node/index.js',
      'node_modules/tesseract.js-core/package.json',
      'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz',
      'node_modules/regenerator-runtime/runtime.js',
    ]) {
      expect(fs.existsSync(path.join(unpacked, rel)), rel).toBe(true);
    }
    expect(fs.existsSync(path.join(unpacked, 'out/main/server-host.js'))).toBe(false);
  });
});
