/**
 * A full disk, for real: the data dir is a small tmpfs mounted for the test (the tests run as root on the build
 * machines; elsewhere the test is skipped, saying why). `finops serve` on it answers writes the disk refuses with
 * 503 and the spec's Error payload (Retry-After included), keeps serving reads, loses no write it acknowledged, and
 * takes writes again once space is freed; the database passes its integrity check afterwards.
 *
 * @module-tag slow (spawns processes, mounts a file system; left out of `npm run test:fast`)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME } from '../../../src-main/store/db';
import { runCli, type ServeHandle, startServe } from '../../helpers/cli';

const mounts: string[] = [];
const servers: ServeHandle[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop('SIGKILL').catch(() => undefined);
  for (const m of mounts.splice(0)) {
    spawnSync('umount', [m]);
    fs.rmSync(m, { recursive: true, force: true });
  }
});

/** A fresh tmpfs of `mb` MiB, or undefined when this machine does not let the test mount one. */
function smallDisk(mb: number): string | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-full-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir]);
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  mounts.push(dir);
  return dir;
}

/** Fills the file system with one file until it refuses more. */
function fill(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

const canMount = process.getuid?.() === 0;

describe.skipIf(!canMount)('a full disk (a 24 MiB tmpfs as the data dir)', () => {
  it('answers 503 with the Error payload, keeps what it acknowledged and recovers once space is freed', async () => {
    const dir = smallDisk(24);
    if (!dir) throw new Error('mount -t tmpfs failed although running as root');
    const key = runCli(['token', 'create', '--data-dir', dir, '--team', 'Full']).stdout.trim();
    const server = await startServe(['--data-dir', dir, '--rate-limit', '1000000']);
    servers.push(server);
    const post = async (name: string) => {
      const res = await fetch(`${server.url}/v1/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, note: 'n'.repeat(2000) }),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    };
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await post(`Before ${i}`);
      expect(r.status).toBe(201);
      acknowledged.push(r.body.id as string);
    }

    const filler = fill(dir);
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 2000 && !refused; i++) {
      const r = await post(`During ${i}`);
      if (r.status === 201) acknowledged.push(r.body.id as string);
      else refused = r;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body).toMatchObject({
      error: 'Service Unavailable',
      message: expect.stringMatching(/disk is full: nothing of this request was saved/),
      retryAfterSeconds: 60,
      requestId: expect.any(String),
    });
    expect(refused?.headers.get('retry-after')).toBe('60');
    expect(JSON.stringify(refused?.body)).not.toMatch(/at .*\.ts:\d+/);

    // Still up: reads answer, and every acknowledged create is there.
    const health = await fetch(`${server.url}/v1/health`);
    expect(health.status).toBe(200);

    fs.rmSync(filler);
    const after = await post('After');
    expect(after.status).toBe(201);
    acknowledged.push(after.body.id as string);
    expect(await server.stop()).toBe(0);
    servers.splice(0);

    const db = new Database(path.join(dir, DB_FILE_NAME), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set(db.prepare('SELECT id FROM customers').pluck().all() as string[]);
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);
});
