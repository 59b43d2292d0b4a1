/**
 * Backups and restores with the real CLI and a real server: `finops backup` while `finops serve` takes writes
 * (customers, transactions and document uploads from several clients) gives an archive whose database is one
 * consistent instant holding every write acknowledged before the backup began; `finops restore` puts it back
 * verified — the same checksum for every table as the archive's copy, every stored file with its bytes,
 * `PRAGMA integrity_check` ok and `finops ledger check` clean. Restore refuses an occupied data dir without
 * `--force`, a damaged archive, and a data dir a server is running on.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { extractBackup } from '../../../src-main/backup/archive';
import { DB_FILE_NAME } from '../../../src-main/store/db';
import { missingBlobs, tableChecksums, tinyPdf } from '../../helpers/checksums';
import { type CliResult, FINOPS_BIN, runCli, type ServeHandle, startServe } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

const servers: ServeHandle[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop('SIGKILL').catch(() => undefined);
});

/** `finops …` without blocking this process (the load keeps going while it runs). */
function cli(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(FINOPS_BIN, args, { env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

function setUp(): { dir: string; key: string; account: string } {
  const dir = tmpDir('finops-backup-');
  const key = runCli(['token', 'create', '--data-dir', dir, '--team', 'Books']).stdout.trim();
  return { dir, key, account: '' };
}

async function call(url: string, key: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Writers of three kinds until stopped; what each had acknowledged, with when the answer came. */
function load(url: string, key: string, accountId: string) {
  const acked: { id: string; at: number }[] = [];
  let stop = false;
  let n = 0;
  const writer = async (kind: number) => {
    while (!stop) {
      const i = n++;
      const r =
        kind === 0
          ? await call(url, key, 'POST', '/v1/customers', { name: `Load ${i}` })
          : kind === 1
            ? await call(url, key, 'POST', '/v1/transactions', {
                name: `Line ${i}`,
                amount: -(i % 97) - 1,
                currency: 'EUR',
                date: '2026-06-01',
                bankAccountId: accountId,
              })
            : await call(url, key, 'POST', '/v1/documents', {
                fileName: `r${i}.pdf`,
                content: tinyPdf(i).toString('base64'),
              });
      if (r.status >= 200 && r.status < 300) acked.push({ id: r.body.id as string, at: Date.now() });
      // A 503 (the database busy past its timeout on a loaded machine) says "try again": a client does, unacknowledged.
      else if (r.status === 503) await new Promise((resolve) => setTimeout(resolve, 200));
      else throw new Error(`write failed: ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  const running = Promise.all([0, 0, 1, 1, 2].map(writer));
  return {
    acked,
    async stop() {
      stop = true;
      await running;
    },
  };
}

function ids(file: string, table: string): Set<string> {
  const db = new Database(file, { readonly: true });
  try {
    return new Set(db.prepare(`SELECT id FROM ${table}`).pluck().all() as string[]);
  } finally {
    db.close();
  }
}

describe('finops backup and restore', () => {
  it('a backup taken under write load restores verified, holding every write acknowledged before it began', async () => {
    const { dir, key } = setUp();
    const server = await startServe(['--data-dir', dir, '--rate-limit', '1000000']);
    servers.push(server);
    const account = await call(server.url, key, 'POST', '/v1/bank-accounts', {
      name: 'Main',
      currency: 'EUR',
      type: 'depository',
    });
    expect(account.status, JSON.stringify(account.body)).toBeLessThan(300);
    const writes = load(server.url, key, account.body.id as string);
    // Writes before the backup begins: three seconds' worth, and at least a dozen however slow the machine is.
    await new Promise((r) => setTimeout(r, 3000));
    await expect.poll(() => writes.acked.length, { timeout: 30_000 }).toBeGreaterThan(10);
    const before = writes.acked.length;
    const began = Date.now();
    const archive = path.join(tmpDir('finops-archives-'), 'under-load.tar.gz');
    const backup = await cli(['backup', '--data-dir', dir, '--to', archive]);
    const during = writes.acked.filter((a) => a.at > began).length;
    await writes.stop();
    expect(backup.status, backup.stderr).toBe(0);
    expect(before).toBeGreaterThan(10);
    // The server kept answering writes while the backup ran.
    expect(during).toBeGreaterThan(0);

    // The archive's own copy, unpacked and checked on its own.
    const unpacked = tmpDir('finops-unpacked-');
    const manifest = await extractBackup(archive, unpacked);
    expect(manifest.secretsIncluded).toBe(false);
    const target = tmpDir('finops-restored-');
    const restored = runCli(['restore', '--from', archive, '--data-dir', target]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/files verified/);

    const restoredDb = path.join(target, DB_FILE_NAME);
    // Every table as in the archive's copy (restoring wrote no row; leases and the backup log are bookkeeping).
    const skip = ['leases', 'backup_runs'];
    expect(tableChecksums(restoredDb, { skip })).toEqual(tableChecksums(path.join(unpacked, DB_FILE_NAME), { skip }));
    expect(missingBlobs(restoredDb, target)).toEqual([]);
    const db = new Database(restoredDb, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const storedFiles = db.prepare('SELECT count(*) FROM stored_files').pluck().get() as number;
    db.close();
    expect(storedFiles).toBeGreaterThan(0);
    const ledger = runCli(['ledger', 'check', '--data-dir', target]);
    expect(ledger.status, ledger.stdout + ledger.stderr).toBe(0);

    // Every write acknowledged before the backup began is in it.
    const present = new Set([
      ...ids(restoredDb, 'customers'),
      ...ids(restoredDb, 'transactions'),
      ...ids(restoredDb, 'documents'),
    ]);
    const early = writes.acked.filter((a) => a.at < began);
    expect(early.length).toBe(before);
    expect(early.filter((a) => !present.has(a.id))).toEqual([]);
  }, 120_000);

  it('a quiet round trip gives back exactly the data dir: every table and every stored file', async () => {
    const { dir, key } = setUp();
    const server = await startServe(['--data-dir', dir]);
    servers.push(server);
    for (let i = 0; i < 5; i++) {
      expect(
        (await call(server.url, key, 'POST', '/v1/documents', { fileName: `d${i}.pdf`, content: tinyPdf(i).toString('base64') }))
          .status,
      ).toBe(201);
      expect((await call(server.url, key, 'POST', '/v1/customers', { name: `Quiet ${i}` })).status).toBe(201);
    }
    fs.mkdirSync(path.join(dir, 'secrets'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'secrets', 'smtp.json'), '{"t":{"password":"pw"}}\n', { mode: 0o600 });
    await server.stop();
    servers.splice(0);
    const source = tableChecksums(path.join(dir, DB_FILE_NAME), { skip: ['leases', 'backup_runs'] });

    const archive = path.join(tmpDir('finops-archives-'), 'quiet.tar.gz');
    expect(runCli(['backup', '--data-dir', dir, '--to', archive]).status).toBe(0);
    const target = tmpDir('finops-restored-');
    expect(runCli(['restore', '--from', archive, '--data-dir', target]).status).toBe(0);
    expect(tableChecksums(path.join(target, DB_FILE_NAME), { skip: ['leases', 'backup_runs'] })).toEqual(source);
    expect(missingBlobs(path.join(target, DB_FILE_NAME), target)).toEqual([]);
    // Secrets stay out unless asked for …
    expect(fs.existsSync(path.join(target, 'secrets', 'smtp.json'))).toBe(false);

    // … and come along when asked.
    const withSecrets = path.join(tmpDir('finops-archives-'), 'secrets.tar.gz');
    expect(runCli(['backup', '--data-dir', dir, '--to', withSecrets, '--include-secrets']).status).toBe(0);
    const again = runCli(['restore', '--from', withSecrets, '--data-dir', target]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/is not empty; .*--force/);
    const forced = runCli(['restore', '--from', withSecrets, '--data-dir', target, '--force']);
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/the previous state is in .*backups/);
    expect(fs.readFileSync(path.join(target, 'secrets', 'smtp.json'), 'utf8')).toContain('pw');
  }, 120_000);

  it('refuses a damaged archive and a data dir a server is running on, leaving the data as it was', async () => {
    const { dir, key } = setUp();
    const archive = path.join(tmpDir('finops-archives-'), 'good.tar.gz');
    expect(runCli(['backup', '--data-dir', dir, '--to', archive]).status).toBe(0);

    // One byte of the database changed inside the archive: its hash no longer matches the manifest.
    const tarBytes = zlib.gunzipSync(fs.readFileSync(archive));
    const at = tarBytes.indexOf(Buffer.from('SQLite format 3'));
    tarBytes[at + 5000] = (tarBytes[at + 5000] ?? 0) ^ 0xff;
    const damaged = path.join(path.dirname(archive), 'damaged.tar.gz');
    fs.writeFileSync(damaged, zlib.gzipSync(tarBytes));
    const target = tmpDir('finops-restored-');
    const refused = runCli(['restore', '--from', damaged, '--data-dir', target]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/does not match its manifest/);
    expect(fs.existsSync(path.join(target, DB_FILE_NAME))).toBe(false);

    const server = await startServe(['--data-dir', dir]);
    servers.push(server);
    expect((await call(server.url, key, 'POST', '/v1/customers', { name: 'Kept' })).status).toBe(201);
    const busy = runCli(['restore', '--from', archive, '--data-dir', dir, '--force']);
    expect(busy.status).toBe(1);
    expect(busy.stderr).toMatch(/a server is running on/);
    const list = await call(server.url, key, 'GET', '/v1/customers?q=Kept');
    expect((list.body.data as unknown[]).length).toBe(1);
  }, 120_000);
});
