/**
 * The packaging configuration (electron-builder.yml), checked without building (the Electron binary that a build
 * needs cannot be downloaded here): electron-builder's own loader and schema read it; its own file matcher decides
 * which files go in; the unpack list covers the native modules and everything the OCR worker loads; the fuses are
 * set; nothing is rebuilt; the production dependencies hold no TypeScript loader or dev tool.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../../src-main/paths';
import { ROOT } from '../../helpers/cli';

interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { output: string; buildResources: string };
  files: { filter: string[] }[];
  asarUnpack: string[];
  npmRebuild: boolean;
  nodeGypRebuild: boolean;
  buildDependenciesFromSource: boolean;
  electronFuses: Record<string, boolean>;
  linux: { target: string[] };
  mac: { target: string[]; hardenedRuntime: boolean; notarize: boolean };
  win: { target: string[] };
}

const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const { FileMatcher } = require('app-builder-lib/out/fileMatcher') as {
  FileMatcher: new (
    from: string,
    to: string,
    expand: (p: string) => string,
    patterns: string[],
  ) => { createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean };
};

interface LockPackage {
  dev?: boolean;
  devOptional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')).packages as Record<string, LockPackage>;

/** Where Node would find `name` from the package installed at `from` (nested node_modules first, then up). */
function resolveInLock(name: string, from: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (!dir) return null;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up === -1 ? '' : dir.slice(0, up);
  }
}

/** Every installed package `roots` load at run time (their production dependency closure), as lock paths. */
function closure(roots: string[]): string[] {
  const seen = new Set<string>();
  const queue = roots.map((r) => `node_modules/${r}`);
  while (queue.length) {
    const at = queue.shift()!;
    if (seen.has(at)) continue;
    seen.add(at);
    const pkg = lock[at]!;
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = resolveInLock(dep, at);
      if (found) queue.push(found);
    }
  }
  return [...seen];
}

/** Does electron-builder's own matcher take this file (a path relative to the project) for these patterns? */
function matcher(patterns: string[]): (rel: string) => boolean {
  const filter = new FileMatcher(ROOT, '/app', (p) => p, patterns).createFilter();
  return (rel) => filter(path.join(ROOT, rel), { isDirectory: () => false });
}

let config: BuilderConfig;
beforeAll(async () => {
  config = await getConfig(ROOT, null, null);
});

describe('electron-builder configuration', () => {
  it('is valid by electron-builder 26’s own schema, for the product and the four targets', async () => {
    await validateConfiguration(config, new DebugLogger(false));
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: true });
    expect(config.win.target).toEqual(['nsis']);
  });

  it('packs the built app and its icon, and no sources, tests, scripts, maps or other builds', () => {
    const has = matcher(config.files.flatMap((f) => f.filter));
    for (const rel of [
      'package.json',
      'out/main/index.js',
      'out/main/server-host.js',
      'out/main/ocr-worker.cjs',
      'out/main/chunks/x.js',
      'out/preload/index.js',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
      'resources/icon.png',
    ]) {
      expect(has(rel), rel).toBe(true);
    }
    for (const rel of [
      'src-main/electron/main.ts',
      'src-shared/money.ts',
      'src-renderer/App.tsx',
      'test/main/electron/main.test.ts',
      'scripts/start-desktop.cjs',
      'docs/ARCHITECTURE.md',
      'bench/run.ts',
      'out/main/index.js.map',
      'out/cli/finops.js',
      'out/web/index.html',
      'resources/workflows/webhook-only.json',
      'electron.vite.config.ts',
      'tsconfig.json',
    ]) {
      expect(has(rel), rel).toBe(false);
    }
  });

  it('leaves every TypeScript loader, compiler, bundler, test and build tool out (devDependencies only)', () => {
    const prod = new Set(closure(Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).dependencies)));
    for (const tool of [
      'tsx',
      'typescript',
      'esbuild',
      'vite',
      'vitest',
      'electron-vite',
      'electron',
      'electron-builder',
      '@biomejs/biome',
      'playwright-core',
    ]) {
      expect(prod.has(`node_modules/${tool}`), tool).toBe(false);
      // `devOptional`: a dev dependency that a production package names only as an optional peer (i18next names
      // typescript): not in the production closure above, which is what electron-builder packs.
      const entry = lock[`node_modules/${tool}`];
      expect(entry?.dev === true || entry?.devOptional === true, `${tool} is marked dev in the lock`).toBe(true);
    }
  });

  it('unpacks the native modules and the OCR worker with everything it loads', () => {
    const unpacked = matcher(config.asarUnpack);
    for (const rel of [
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/better-sqlite3/lib/index.js',
      'node_modules/keytar/build/Release/keytar.node',
      'node_modules/@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node',
      'node_modules/@napi-rs/canvas-darwin-arm64/skia.darwin-arm64.node',
      'out/main/ocr-worker.cjs',
      'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz',
    ]) {
      expect(unpacked(rel), rel).toBe(true);
    }
    // The worker runs tesseract.js's own worker script, which requires tesseract.js's dependencies: each of them
    // (found as Node would, in this lock) must be outside the archive too.
    for (const pkg of closure(['tesseract.js', '@tesseract.js-data/eng'])) {
      expect(unpacked(`${pkg}/package.json`), pkg).toBe(true);
    }
    expect(unpacked('out/main/server-host.js')).toBe(false);
    expect(unpacked('node_modules/fastify/fastify.js')).toBe(false);
  });

  it('sets the fuses: no run-as-node, NODE_OPTIONS or --inspect; code only from a checked app.asar; cookies encrypted', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('never rebuilds native modules for Electron (Node-API builds load as they are)', () => {
    expect(config).toMatchObject({ npmRebuild: false, nodeGypRebuild: false, buildDependenciesFromSource: false });
  });

  it('has one large icon source for every platform’s icons', () => {
    expect(config.directories.buildResources).toBe('resources');
    const png = fs.readFileSync(path.join(ROOT, 'resources/icon.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
  });
});
