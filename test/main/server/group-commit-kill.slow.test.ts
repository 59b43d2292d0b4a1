/**
 * Group commit keeps the durability promise (docs/decisions/0187-group-commit.md): `finops serve` killed with SIGKILL
 * while 50 clients write loses no create it acknowledged, the ones rejected inside shared batches left nothing behind,
 * and the file is whole.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DB_FILE_NAME } from '../../../src-main/store/db';
import { runCli, startServe } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

const CLIENTS = 50;
const UNKNOWN_TAG = '01900000-0000-7000-8000-000000000000';

describe('group commit under SIGKILL', () => {
  it('loses nothing acknowledged when the server is killed right after answering', async () => {
    const dir = tmpDir();
    const token = runCli(['token', 'create', '--data-dir', dir, '--team', 'Killed']);
    expect(token.status).toBe(0);
    const key = token.stdout.trim();
    const server = await startServe(['--data-dir', dir, '--rate-limit', '1000000000']);
    const acknowledged = new Map<string, string>();
    let rejected = 0;
    let killed: Promise<number | null> | undefined;
    const kill = () => {
      killed ??= server.stop('SIGKILL');
    };
    const client = async (c: number) => {
      for (let i = 0; !killed; i++) {
        // Every tenth create names a tag that does not exist: a 422 whose customer row must not survive.
        const bad = i % 10 === 9;
        const name = `Client ${c} #${i}${bad ? ' bad' : ''}`;
        try {
          const res = await fetch(`${server.url}/v1/customers`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name, ...(bad ? { tags: [{ id: UNKNOWN_TAG }] } : {}) }),
          });
          const body = (await res.json()) as { id: string };
          if (res.status === 201) acknowledged.set(body.id, name);
          else if (res.status === 422) rejected++;
          else throw new Error(`${name}: ${res.status}`);
          // Killed right after an answer: the batches still in flight are the ones that must not have been answered.
          if (acknowledged.size >= 600) kill();
        } catch (error) {
          if (killed) return;
          throw error;
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    const timer = setTimeout(kill, 20_000);
    await Promise.all(clients);
    clearTimeout(timer);
    await killed;
    expect(acknowledged.size).toBeGreaterThanOrEqual(600);
    expect(rejected).toBeGreaterThan(0);

    const db = new Database(`${dir}/${DB_FILE_NAME}`, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Map(
        (db.prepare('SELECT id, name FROM customers').all() as { id: string; name: string }[]).map((r) => [r.id, r.name]),
      );
      const lost = [...acknowledged].filter(([id, name]) => stored.get(id) !== name);
      expect(lost).toEqual([]);
      expect([...stored.values()].filter((n) => n.endsWith(' bad'))).toEqual([]);
      // Every stored customer has its change-feed row, committed with it.
      expect(db.prepare("SELECT count(*) FROM changes WHERE entity = 'customer'").pluck().get()).toBe(stored.size);
    } finally {
      db.close();
    }
  });
});
