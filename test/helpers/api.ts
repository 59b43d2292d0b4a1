import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach } from 'vitest';
import { type AppOptions, buildApp } from '../../src-main/server/app';
import { createApiKey } from '../../src-main/store/auth/api-keys';
import { type Db, openDatabase } from '../../src-main/store/db';
import { ensureTeam, type Team } from '../../src-main/store/teams/teams';
import type { Scope } from '../../src-shared/contract/scopes';
import { tmpDir } from './tmp';

export interface TestApi {
  app: FastifyInstance;
  db: Db;
  dataDir: string;
  /** Creates (or reuses) a team and returns an API key for it with the given scopes. */
  key(team: string, scopes?: Scope[]): string;
  team(name: string): Team;
  /** `app.inject` with a bearer token and JSON body. */
  call(
    method: string,
    url: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** Listens on 127.0.0.1:0 and returns the base URL (`http://127.0.0.1:PORT`). */
  listen(): Promise<string>;
}

const open: Record<'test' | 'file', TestApi[]> = { test: [], file: [] };

/**
 * A real app over a real SQLite file in a fresh data dir; closed after the test, or after the whole file with
 * lifetime 'file' (for a beforeAll). Responses go through the production serializer, and each body it writes is
 * checked against the contract with zod (`validateResponses`): a mismatch is a 500 that fails the test.
 */
export async function makeTestApi(options: Partial<AppOptions> = {}, lifetime: 'test' | 'file' = 'test'): Promise<TestApi> {
  const dataDir = tmpDir('finops-api-', lifetime);
  const db = openDatabase(dataDir);
  const app = await buildApp({ db, logLevel: 'silent', validateResponses: true, ...options });
  const api: TestApi = {
    app,
    db,
    dataDir,
    key: (team, scopes = ['apis.all']) => createApiKey(db, { teamId: ensureTeam(db, team).id, name: 'test', scopes }).key,
    team: (name) => ensureTeam(db, name),
    call: (method, url, opts = {}) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: {
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
        ...(opts.body !== undefined ? { payload: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
      }),
    listen: async () => {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      return `http://127.0.0.1:${address.port}`;
    },
  };
  open[lifetime].push(api);
  return api;
}

async function closeAll(apis: TestApi[]): Promise<void> {
  for (const api of apis.splice(0)) {
    await api.app.close();
    api.db.close();
  }
}

afterEach(() => closeAll(open.test));
afterAll(() => closeAll(open.file));
