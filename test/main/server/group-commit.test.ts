/**
 * Group commit over real HTTP (docs/decisions/0187-group-commit.md): concurrent writes share SQLite commits, each is
 * answered after its commit, and one request failing inside a shared batch fails alone.
 */
import http from 'node:http';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { batchCommits } from '../../../src-main/store/batch';
import { DB_FILE_NAME } from '../../../src-main/store/db';
import { makeTestApi } from '../../helpers/api';

const agents: http.Agent[] = [];
afterEach(() => {
  for (const a of agents.splice(0)) a.destroy();
});

interface Answer {
  status: number;
  body: { id?: string; name?: string; code?: string };
}

function send(agent: http.Agent, base: string, token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${path}`,
      {
        agent,
        method,
        headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A server on loopback and `clients` kept-alive connections to it, opened beforehand: a burst then reaches the server
 * as concurrent clients' requests do, not spread over the time connections take to open.
 */
async function setUp(clients: number) {
  const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
  const token = api.key('Group');
  const base = await api.listen();
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  agents.push(agent);
  await Promise.all(Array.from({ length: clients }, () => send(agent, base, token, 'GET', '/v1/customers?pageSize=1')));
  return { api, token, base, agent };
}

function committedCustomers(dataDir: string): Map<string, string> {
  const other = new Database(`${dataDir}/${DB_FILE_NAME}`, { readonly: true });
  try {
    const rows = other.prepare('SELECT id, name FROM customers').all() as { id: string; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  } finally {
    other.close();
  }
}

describe('group commit', () => {
  it('lands 50 concurrent creates, each answered once committed, in fewer commits than requests', async () => {
    const { api, token, base, agent } = await setUp(50);
    const before = batchCommits(api.db);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(agent, base, token, 'POST', '/v1/customers', { name: `Concurrent ${i}` })),
    );
    const commits = batchCommits(api.db) - before;

    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    // Committed means visible to another connection: every acknowledged id, under its own name.
    const stored = committedCustomers(api.dataDir);
    for (const [i, a] of answers.entries()) expect(stored.get(a.body.id ?? '')).toBe(`Concurrent ${i}`);
    expect(stored.size).toBe(50);
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThan(25);
    expect(api.app.groupCommit.stats.largest).toBeGreaterThan(1);
  });

  it('answers a failing request in a shared batch with its 4xx while the others commit', async () => {
    const { api, token, base, agent } = await setUp(20);
    const unknownTag = '01900000-0000-7000-8000-000000000000';
    const unknownCustomer = '01900000-0000-7000-8000-0000000000ff';
    const before = batchCommits(api.db);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        // The create with an unknown tag inserts its customer before the tag lookup fails: its rollback must be its own.
        if (i === 7) return send(agent, base, token, 'POST', '/v1/customers', { name: 'Bad tag', tags: [{ id: unknownTag }] });
        if (i === 13) return send(agent, base, token, 'PATCH', `/v1/customers/${unknownCustomer}`, { name: 'Nobody' });
        return send(agent, base, token, 'POST', '/v1/customers', { name: `Good ${i}` });
      }),
    );
    const commits = batchCommits(api.db) - before;

    expect(answers[7]?.status).toBe(422);
    expect(answers[13]?.status).toBe(404);
    const good = answers.filter((_, i) => i !== 7 && i !== 13);
    expect(good.map((a) => a.status)).toEqual(Array(18).fill(201));
    const names = [...committedCustomers(api.dataDir).values()].sort();
    expect(names).toEqual(good.map((a) => a.body.name).sort());
    expect(names).not.toContain('Bad tag');
    // Shared: the failures were in batches with successful creates, not committed (or rolled back) on their own.
    expect(commits).toBeLessThan(10);
  });

  it('still answers a lone write, in its own commit', async () => {
    const { api, token, base, agent } = await setUp(1);
    const before = batchCommits(api.db);
    const created = await send(agent, base, token, 'POST', '/v1/customers', { name: 'Alone' });
    expect(created.status).toBe(201);
    expect(batchCommits(api.db) - before).toBe(1);
    const deleted = await send(agent, base, token, 'DELETE', `/v1/customers/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect(committedCustomers(api.dataDir).size).toBe(0);
  });
});
