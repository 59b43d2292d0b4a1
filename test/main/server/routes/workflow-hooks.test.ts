/**
 * `POST /hooks/workflows/{id}`: a signed call is accepted once within its window (docs/decisions/0178). A replay —
 * the same bytes and headers, or the same signature among other values, with no or another Idempotency-Key — is
 * 409 and starts nothing, whichever process on the data dir it reaches and after a restart; a repeat with the
 * call's own Idempotency-Key answers the run it started; a call whose start is refused is not remembered.
 * (The signature itself, its window and the 401s: test/main/workflows/examples.test.ts.)
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src-main/server/app';
import { type Db, openDatabase } from '../../../../src-main/store/db';
import { getWebhookSecret } from '../../../../src-main/store/workflows/workflows';
import { signWebhook } from '../../../../src-main/workflows/webhook-signature';
import { makeTestApi, type TestApi } from '../../../helpers/api';

const hooked = {
  name: 'Hooked',
  active: true,
  triggers: [{ type: 'webhook' }],
  nodes: [{ id: 'say', kind: 'notify', message: 'called: {{trigger.event}}' }],
};

async function setup(): Promise<{ api: TestApi; token: string; wf: string; secret: string }> {
  const api = await makeTestApi();
  const token = api.key('Acme');
  const res = await api.call('POST', '/app/workflows', { token, body: { definition: hooked, promote: true } });
  expect(res.statusCode, res.body).toBe(201);
  const wf = res.json().id as string;
  return { api, token, wf, secret: getWebhookSecret(api.db, api.team('Acme').id, wf) };
}

function signed(secret: string, body: string, ts = Math.floor(Date.now() / 1000)) {
  return { 'x-finops-timestamp': String(ts), 'x-finops-signature': signWebhook(secret, ts, body) };
}

const post = (app: FastifyInstance, wf: string, body: string, headers: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: `/hooks/workflows/${wf}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });

const runCount = (db: Db) => db.prepare('SELECT count(*) FROM workflow_runs').pluck().get() as number;

describe('POST /hooks/workflows/{id}: replays', () => {
  it('a replayed call is 409 and starts nothing, however its signature header is dressed up', async () => {
    const { api, wf, secret } = await setup();
    const body = JSON.stringify({ event: 'paid' });
    const headers = signed(secret, body);
    const first = await post(api.app, wf, body, headers);
    expect(first.statusCode, first.body).toBe(202);

    const sig = headers['x-finops-signature'];
    const replays: Record<string, string>[] = [
      headers,
      { ...headers, 'x-finops-signature': `v1=${'0'.repeat(64)}, ${sig}` },
      { ...headers, 'x-finops-signature': `${sig.toUpperCase().replace('V1=', 'v1=')}` },
      { ...headers, 'idempotency-key': 'fresh-key' },
    ];
    for (const h of replays) {
      const res = await post(api.app, wf, body, h);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ error: 'Conflict', message: 'This signed call was already accepted' });
      expect(res.json().description).toMatch(/new X-Finops-Timestamp/);
    }
    expect(runCount(api.db)).toBe(1);

    // The same event signed anew is a new call.
    const later = signed(secret, body, Math.floor(Date.now() / 1000) + 1);
    expect((await post(api.app, wf, body, later)).statusCode).toBe(202);
    expect(runCount(api.db)).toBe(2);
  });

  it('a repeat with the call’s own Idempotency-Key answers the run it started; another key is a replay', async () => {
    const { api, wf, secret } = await setup();
    const body = JSON.stringify({ event: 'refund' });
    const headers = { ...signed(secret, body), 'idempotency-key': 'evt-7' };
    const first = await post(api.app, wf, body, headers);
    expect(first.statusCode).toBe(202);
    const again = await post(api.app, wf, body, headers);
    expect(again.statusCode).toBe(202);
    expect(again.json().executionId).toBe(first.json().executionId);
    const { 'idempotency-key': _key, ...bare } = headers;
    expect((await post(api.app, wf, body, bare)).statusCode).toBe(409);
    expect(runCount(api.db)).toBe(1);
  });

  it('is refused through another connection to the data dir (as another process has) and after a restart', async () => {
    const { api, wf, secret } = await setup();
    const body = JSON.stringify({ event: 'shared' });
    const headers = signed(secret, body);
    // A second server process on the same data dir: its own connection, its own app.
    const otherDb = openDatabase(api.dataDir);
    const other = await buildApp({ db: otherDb, logLevel: 'silent' });
    try {
      expect((await post(api.app, wf, body, headers)).statusCode).toBe(202);
      expect((await post(other, wf, body, headers)).statusCode).toBe(409);
    } finally {
      await other.close();
      otherDb.close();
    }
    await api.app.close();
    api.db.close();

    const db = openDatabase(api.dataDir);
    const restarted = await buildApp({ db, logLevel: 'silent' });
    try {
      expect((await post(restarted, wf, body, headers)).statusCode).toBe(409);
      expect(runCount(db)).toBe(1);
    } finally {
      await restarted.close();
      db.close();
    }
    // makeTestApi closes what it opened after the test: give it something to close.
    api.db = openDatabase(api.dataDir);
    api.app = await buildApp({ db: api.db, logLevel: 'silent' });
  });

  it('a call whose start is refused is not remembered: sent again once the workflow is on, it starts its run', async () => {
    const { api, token, wf, secret } = await setup();
    expect((await api.call('POST', `/app/workflows/${wf}/deactivate`, { token })).statusCode).toBe(200);
    const body = JSON.stringify({ event: 'early' });
    const headers = signed(secret, body);
    const refused = await post(api.app, wf, body, headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The workflow is inactive');
    expect((await api.call('POST', `/app/workflows/${wf}/activate`, { token })).statusCode).toBe(200);
    expect((await post(api.app, wf, body, headers)).statusCode).toBe(202);
    expect(runCount(api.db)).toBe(1);
  });
});
