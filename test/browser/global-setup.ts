/**
 * The web UI is built once per browser run, not once per journey file: a vite build of the renderer takes longer
 * on a 2-core machine than most journeys, and 22 files × 2 languages of it were most of the browser run's time.
 * FINOPS_TEST_WEB_ROOT names a build already made (scripts/test.sh builds `out/web` first); without it, the build
 * goes into a temporary folder, removed at the end. Each journey reads it with `webUiRoot()` (helpers/ui-server).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    webRoot: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export default async function setup(project: TestProject): Promise<() => void> {
  const given = process.env.FINOPS_TEST_WEB_ROOT;
  if (given && fs.existsSync(path.join(given, 'index.html'))) {
    project.provide('webRoot', path.resolve(given));
    return () => {};
  }
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-web-'));
  await build({
    configFile: path.join(ROOT, 'vite.web.config.mts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
  project.provide('webRoot', outDir);
  return () => fs.rmSync(outDir, { recursive: true, force: true });
}
