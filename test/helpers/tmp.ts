import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';

const made: Record<'test' | 'file', string[]> = { test: [], file: [] };

/** A fresh temporary folder, removed after the current test (or after the file, for 'file'). */
export function tmpDir(prefix = 'finops-test-', lifetime: 'test' | 'file' = 'test'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made[lifetime].push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.test.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const dir of made.file.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
