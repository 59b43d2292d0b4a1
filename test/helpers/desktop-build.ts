/**
 * The desktop build (`electron-vite build` into out/main, out/preload, out/renderer) for tests that run or package
 * it. Built only when missing or older than a source, and by one test file at a time (a lock folder), since test
 * files run in parallel and a build empties out/renderer while it writes — another file's running app would see it
 * half gone. CI builds before the tests, so there it is normally fresh already.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './cli';

const OUTPUTS = ['out/main/index.js', 'out/main/server-host.js', 'out/preload/index.js', 'out/renderer/index.html'];
const SOURCES = ['src-main', 'src-shared', 'src-renderer', 'electron.vite.config.ts', 'package.json'];
const LOCK = path.join(ROOT, 'out', '.desktop-build-lock');

function newest(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs.readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), st.mtimeMs);
}

function fresh(): boolean {
  const built = OUTPUTS.map((o) => path.join(ROOT, o));
  if (!built.every((o) => fs.existsSync(o))) return false;
  const oldestOutput = Math.min(...built.map((o) => fs.statSync(o).mtimeMs));
  return SOURCES.every((s) => newest(path.join(ROOT, s)) <= oldestOutput);
}

/** Runs `fn` while no other test file builds into out/ (a lock folder beside the build). */
async function withDesktopBuildLock<T>(fn: () => T): Promise<T> {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  const until = Date.now() + 180_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`${LOCK} held for 3 minutes (a build that died? remove it)`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

export async function ensureDesktopBuild(): Promise<void> {
  if (fresh()) return;
  await withDesktopBuildLock(() => {
    if (fresh()) return;
    const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 180_000,
    });
    if (r.status !== 0) throw new Error(`electron-vite build failed:\n${r.stdout}\n${r.stderr}`);
  });
}
