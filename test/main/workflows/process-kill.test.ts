/**
 * Real processes, really killed: `finops serve` runs workflows in its background; SIGKILL takes it down mid-run, and
 * a new server on the same data dir carries on. A run waiting for a person stays waiting across the kill and the
 * restart and completes once approved; a run killed while its non-idempotent HTTP call was in flight is not called
 * again but failed with the reason.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type ServeHandle, startServe } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

const servers: ServeHandle[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop('SIGKILL').catch(() => undefined);
});

async function serve(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ServeHandle> {
  const s = await startServe(['--data-dir', dataDir], env);
  servers.push(s);
  return s;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function setup(definition: unknown): { dataDir: string; token: string; workflowId: string } {
  const dataDir = tmpDir('finops-wf-kill-');
  const token = runCli(['token', 'create', '--data-dir', dataDir, '--team', 'Acme']).stdout.trim();
  const file = path.join(dataDir, 'wf.json');
  fs.writeFileSync(file, JSON.stringify(definition));
  const imported = runCli(['workflow', 'import', '--data-dir', dataDir, '--team', 'Acme', file, '--promote']);
  expect(imported.status, imported.stderr).toBe(0);
  return { dataDir, token, workflowId: imported.stdout.trim() };
}

async function api(base: string, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('workflow runs across a killed server', () => {
  it('a waiting run survives SIGKILL and restart, then completes when approved', async () => {
    const { dataDir, token, workflowId } = setup({
      name: 'Approve then notify',
      active: true,
      apiExecution: true,
      triggers: [{ type: 'manual' }],
      nodes: [
        { id: 'ask', kind: 'approval', title: 'Pay?' },
        { id: 'done', kind: 'notify', message: 'paid' },
      ],
      edges: [{ from: 'ask', to: 'done', when: 'approved' }],
    });
    let server = await serve(dataDir);
    const ack = await api(server.url, token, 'POST', `/v1/workflows/${workflowId}/execute`, { idempotencyKey: 'k' });
    expect(ack.status).toBe(200);
    const id = ack.body.executionId as string;
    await until('waiting', async () => {
      const r = await api(server.url, token, 'GET', `/v1/workflows/runs/${id}`);
      return r.body.status === 'waiting' ? r : undefined;
    });

    expect(await server.stop('SIGKILL')).toBeNull();
    servers.splice(servers.indexOf(server), 1);
    server = await serve(dataDir);
    const after = await api(server.url, token, 'GET', `/v1/workflows/runs/${id}`);
    expect(after.body).toMatchObject({ status: 'waiting', currentNodeId: 'ask' });
    // The same key still answers the same execution after the restart.
    const again = await api(server.url, token, 'POST', `/v1/workflows/${workflowId}/execute`, { idempotencyKey: 'k' });
    expect(again.body.executionId).toBe(id);

    const approved = await api(server.url, token, 'POST', `/app/workflow-runs/${id}/approve`, {});
    expect(approved.status).toBe(200);
    const done = await until('completed', async () => {
      const r = await api(server.url, token, 'GET', `/v1/workflows/runs/${id}`);
      return r.body.status === 'completed' ? r : undefined;
    });
    expect((done.body.steps as { nodeId: string; status: string }[]).map((s) => [s.nodeId, s.status])).toEqual([
      ['ask', 'completed'],
      ['done', 'completed'],
    ]);
  }, 90_000);

  it('a run killed during a non-idempotent call is not called again: the next server fails it with the reason', async () => {
    const received: string[] = [];
    const receiver = http.createServer((req) => {
      // Never answers: the server is killed while the call is in flight.
      received.push(`${req.method} ${req.headers['idempotency-key']}`);
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      const { dataDir, token, workflowId } = setup({
        name: 'Charge',
        active: true,
        apiExecution: true,
        triggers: [{ type: 'manual' }],
        nodes: [{ id: 'charge', kind: 'http_request', method: 'POST', url: `http://${host}/charge`, timeoutSeconds: 60 }],
      });
      // The allow-list is the team's (its data), and the lease is the default 30 s: the restarted server must not wait
      // it out, since the killed server was a process of this machine.
      const hosts = runCli(['workflow', 'http-hosts', '--data-dir', dataDir, '--team', 'Acme', '--set', host]);
      expect(hosts.stdout).toBe(`${host}\n`);
      let server = await serve(dataDir);
      const id = (await api(server.url, token, 'POST', `/v1/workflows/${workflowId}/execute`, {})).body.executionId as string;
      await until('the call to arrive', async () => (received.length ? true : undefined));
      await server.stop('SIGKILL');
      servers.splice(servers.indexOf(server), 1);

      server = await serve(dataDir);
      const restarted = Date.now();
      const failed = await until('failed', async () => {
        const r = await api(server.url, token, 'GET', `/v1/workflows/runs/${id}`);
        return r.body.status === 'failed' ? r : undefined;
      });
      expect(Date.now() - restarted).toBeLessThan(15_000);
      const step = (failed.body.steps as { status: string; errorMessage: string }[])[0];
      expect(step?.status).toBe('failed');
      expect(step?.errorMessage).toMatch(/^interrupted: .*not idempotent/);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatch(new RegExp(`^POST wf:${id}:1$`));
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 90_000);
});
