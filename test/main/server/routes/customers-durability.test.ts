/**
 * Customers over real HTTP against `finops serve`: the Idempotency-Key guard under parallel retries of the same
 * create, and no acknowledged write lost when the server process is killed outright (SIGKILL) mid-load.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DB_FILE_NAME } from '../../../../src-main/store/db';
import { runCli, startServe } from '../../../helpers/cli';
import { tmpDir } from '../../../helpers/tmp';

function keyFor(dir: string): string {
  const r = runCli(['token', 'create', '--data-dir', dir, '--team', 'Durable']);
  expect(r.status).toBe(0);
  return r.stdout.trim();
}

describe('customers over HTTP', () => {
  it('parallel retries of one create with one Idempotency-Key make exactly one customer', async () => {
    const dir = tmpDir();
    const key = keyFor(dir);
    const server = await startServe(['--data-dir', dir, '--rate-limit', '100000']);
    try {
      const send = () =>
        fetch(`${server.url}/v1/customers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'create-acme-1' },
          body: JSON.stringify({ name: 'Acme Parallel' }),
        });
      const responses = await Promise.all(Array.from({ length: 12 }, send));
      const statuses = responses.map((r) => r.status);
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
      const created = responses.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      const ids = new Set(await Promise.all(created.map(async (r) => ((await r.json()) as { id: string }).id)));
      expect(ids.size).toBe(1);
      // A later retry replays the stored answer.
      const replay = await send();
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotency-replayed')).toBe('true');
      expect(((await replay.json()) as { id: string }).id).toBe([...ids][0]);
      const list = await fetch(`${server.url}/v1/customers?q=parallel`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });

  it('loses no acknowledged create when the server is killed with SIGKILL mid-load', async () => {
    const dir = tmpDir();
    const key = keyFor(dir);
    const server = await startServe(['--data-dir', dir, '--rate-limit', '100000']);
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${server.url}/v1/customers`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Writer ${w} #${i}` }),
          });
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((r) => setTimeout(r, 1500));
    const exit = server.stop('SIGKILL');
    stop = true;
    await exit;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(20);

    const db = new Database(`${dir}/${DB_FILE_NAME}`, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Set(db.prepare('SELECT id FROM customers').pluck().all() as string[]);
      const lost = acknowledged.filter((id) => !stored.has(id));
      expect(lost).toEqual([]);
      // Every stored customer has its change-feed row, written in the same transaction.
      const changes = db.prepare("SELECT count(*) FROM changes WHERE entity = 'customer'").pluck().get();
      expect(changes).toBe(stored.size);
    } finally {
      db.close();
    }
  });
});
