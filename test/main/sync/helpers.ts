import net from 'node:net';
import { expect } from 'vitest';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { ensureRemote, type RemoteKind } from '../../../src-main/store/sync/remotes';
import { staticCredential } from '../../../src-main/sync/credentials';
import { type RoundResult, runRound } from '../../../src-main/sync/round';
import { makeTestApi, type TestApi } from '../../helpers/api';
import { seeded } from './fault-proxy';

/**
 * Replicas for sync tests: each a real app over its own data dir; the remote listens on loopback and replicas sync
 * with it over real HTTP through the engine, exactly as `finops sync` does.
 */
export interface Replica {
  api: TestApi;
  teamId: string;
  token: string;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read as whatever the route answers
  call: (method: string, url: string, body?: unknown) => Promise<{ status: number; body: any }>;
}

export async function replica(team = 'Acme'): Promise<Replica> {
  const api = await makeTestApi();
  const token = api.key(team);
  const teamId = api.team(team).id;
  return {
    api,
    teamId,
    token,
    call: async (method, url, body) => {
      const res = await api.call(method, url, { token, body });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
    },
  };
}

export interface Remote extends Replica {
  url: string;
}

export async function remoteReplica(team = 'Acme', options: Parameters<typeof makeTestApi>[0] = {}): Promise<Remote> {
  const api = await makeTestApi(options);
  const token = api.key(team);
  const url = `${await api.listen()}/v1`;
  const teamId = api.team(team).id;
  return {
    api,
    teamId,
    token,
    url,
    call: async (method, path, body) => {
      const res = await api.call(method, path, { token, body });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
    },
  };
}

export function syncOnce(
  local: Replica,
  remote: { url: string; token: string },
  kind: RemoteKind = 'finops',
  pageSize?: number,
): Promise<RoundResult> {
  const r = ensureRemote(local.api.db, local.teamId, { baseUrl: remote.url, kind });
  return runRound({
    db: local.api.db,
    remote: r,
    credential: staticCredential(remote.token),
    pageSize,
    client: { backoffMs: 5, maxBackoffMs: 50, timeoutMs: 10_000 },
  });
}

/** A seeded random source and a chooser over it (convergence tests: the same seed, the same interleaving). */
export function chooser(seed: number) {
  const random = seeded(seed);
  return { random, pick: <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]! };
}

/** A ↔ R ↔ B, each replica's first round done. */
export async function triangle(): Promise<{ r: Remote; a: Replica; b: Replica }> {
  const r = await remoteReplica();
  const a = await replica();
  const b = await replica();
  await syncOnce(a, r);
  await syncOnce(b, r);
  return { r, a, b };
}

/** Every same-field conflict the replicas recorded holds two different values. */
export function expectConflictsOfTwoValues(...replicas: Replica[]): void {
  for (const s of replicas) {
    for (const c of listConflicts(s.api.db, s.teamId, { all: true }))
      if (c.kind === 'fields') expect(c.local).not.toEqual(c.remote);
  }
}

/** Rounds of both replicas until every change has gone round (three each), then a quiet round moves nothing. */
export async function settleThenQuiet(a: Replica, b: Replica, r: Remote, check: () => Promise<void>): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await syncOnce(a, r);
    await syncOnce(b, r);
  }
  await check();
  const quietA = await syncOnce(a, r);
  const quietB = await syncOnce(b, r);
  expect([quietA.pulled, quietA.pushed, quietB.pulled, quietB.pushed]).toEqual([0, 0, 0, 0]);
}

/** A port free on 127.0.0.1 a moment ago, for a loopback redirect registered with an OAuth client. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Calls of the Sync screen's API over real HTTP, as the page makes them (a bearer credential). */
export function screenApi(origin: string) {
  return async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };
}

/** "Sync now" from the screen, then the remote's tag names once the round has ended. */
export async function roundThenRemoteTags(app: ReturnType<typeof screenApi>, token: string, remote: Remote): Promise<string[]> {
  expect((await app('POST', '/app/sync/run', token)).status).toBe(202);
  for (let i = 0; i < 100; i++) {
    const s = (await app('GET', '/app/sync/status', token)).body;
    if (s.remote.state !== 'running' && s.remote.lastSuccessAt) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  return (await remote.call('GET', '/v1/tags')).body.data.map((t: { name: string }) => t.name);
}
