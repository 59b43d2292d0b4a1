/**
 * The internal workflow API under /app: definitions (import, 422 naming each problem, versions, promote, activate),
 * runs (list with filters and cursor, detail, approve, reject, cancel with their 409s), and the change stream telling
 * the app that a run moved. Team isolation of every route is in the authorization matrix.
 */
import { describe, expect, it } from 'vitest';
import { configureOperator, resetOperator } from '../../../../src-main/operator/settings';
import { createApiKey } from '../../../../src-main/store/auth/api-keys';
import { createClient } from '../../../../src-main/store/auth/oauth/clients';
import { issueClientCredentials } from '../../../../src-main/store/auth/oauth/tokens';
import { createSession } from '../../../../src-main/store/auth/sessions';
import { createUser } from '../../../../src-main/store/users/users';
import { insertRun } from '../../../../src-main/store/workflows/runs/enqueue';
import { write } from '../../../../src-main/store/write';
import { WorkflowRunner } from '../../../../src-main/workflows/runner';
import { createApiClient } from '../../../../src-shared/api-client';
import { makeTestApi, type TestApi } from '../../../helpers/api';

const approvalFlow = {
  name: 'Approve',
  active: true,
  triggers: [{ type: 'manual' }],
  nodes: [
    { id: 'ask', kind: 'approval', title: 'Proceed with {{trigger.n}}?' },
    { id: 'yes', kind: 'notify', message: 'yes' },
  ],
  edges: [{ from: 'ask', to: 'yes', when: 'approved' }],
};

async function setup(): Promise<{ api: TestApi; token: string; wf: string }> {
  const api = await makeTestApi();
  const token = api.key('Acme');
  const res = await api.call('POST', '/app/workflows', { token, body: { definition: approvalFlow, promote: true } });
  expect(res.statusCode, res.body).toBe(201);
  return { api, token, wf: res.json().id };
}

const drive = (api: TestApi) => new WorkflowRunner(api.db, { schedules: false }).runUntilIdle();

describe('/app/workflows', () => {
  it('imports versions, answers 422 naming every problem, promotes only valid versions', async () => {
    const { api, token, wf } = await setup();
    const detail = (await api.call('GET', `/app/workflows/${wf}`, { token })).json();
    expect(detail).toMatchObject({
      id: wf,
      name: 'Approve',
      active: true,
      apiExecution: false,
      promotedVersion: 1,
      latestVersion: 1,
      triggers: [{ type: 'manual' }],
      webhookPath: null,
      versions: [{ version: 1, promoted: true, valid: true }],
    });
    expect(detail.definition.id).toBe(wf);

    const invalid = await api.call('POST', '/app/workflows', {
      token,
      body: {
        definition: {
          ...approvalFlow,
          nodes: [...approvalFlow.nodes, { id: 'remind', kind: 'send_invoice_reminder', invoiceId: 'x' }],
          edges: [...approvalFlow.edges, { from: 'ask', to: 'remind', when: 'rejected' }],
        },
      },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().description).toMatch(/"remind" \(send_invoice_reminder\) reaches the customer/);
    const shape = await api.call('POST', '/app/workflows', { token, body: { definition: { name: 'x' } } });
    expect(shape.statusCode).toBe(422);
    expect(shape.json().description).toMatch(/triggers/);

    // A second version of the same workflow (definition.id), renamed; promotion applies its name and flags.
    const v2 = await api.call('POST', '/app/workflows', {
      token,
      body: { definition: { ...approvalFlow, id: wf, name: 'Approve v2', apiExecution: true } },
    });
    expect(v2.json()).toMatchObject({ id: wf, latestVersion: 2, promotedVersion: 1, name: 'Approve', apiExecution: false });
    const promoted = (await api.call('POST', `/app/workflows/${wf}/promote`, { token, body: { version: 2 } })).json();
    expect(promoted).toMatchObject({ promotedVersion: 2, name: 'Approve v2', apiExecution: true });
    expect((await api.call('POST', `/app/workflows/${wf}/promote`, { token, body: { version: 9 } })).statusCode).toBe(404);
    // A version stored by an older build that no longer validates cannot be promoted.
    api.db.prepare('UPDATE workflow_versions SET definition = ? WHERE workflow_id = ? AND version = 1').run('{"name":1}', wf);
    const refused = await api.call('POST', `/app/workflows/${wf}/promote`, { token, body: { version: 1 } });
    expect(refused.statusCode).toBe(409);
    expect(
      (await api.call('GET', `/app/workflows/${wf}`, { token })).json().versions.map((v: { valid: boolean }) => v.valid),
    ).toEqual([false, true]);
    // Someone else's id in a definition is refused.
    const other = api.key('Globex');
    const taken = await api.call('POST', '/app/workflows', { token: other, body: { definition: { ...approvalFlow, id: wf } } });
    expect(taken.statusCode).toBe(409);
    expect((await api.call('GET', `/app/workflows/${wf}`, { token: other })).statusCode).toBe(404);
  });

  it('lists the team’s workflows a page at a time, filtered by active', async () => {
    const { api, token, wf } = await setup();
    const more: string[] = [];
    for (let i = 0; i < 4; i++) {
      more.push(
        (
          await api.call('POST', '/app/workflows', {
            token,
            body: { definition: { ...approvalFlow, name: `W${i}`, active: i % 2 === 0 } },
          })
        ).json().id,
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; meta: { cursor: string | null } } = (
        await api.call('GET', `/app/workflows?pageSize=2${cursor ? `&cursor=${cursor}` : ''}`, { token })
      ).json();
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((w: { id: string }) => w.id));
      cursor = page.meta.cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([wf, ...more].sort());
    const inactive = (await api.call('GET', '/app/workflows?active=false', { token })).json().data;
    expect(inactive.map((w: { name: string }) => w.name).sort()).toEqual(['W1', 'W3']);
    expect((await api.call('GET', '/app/workflows?cursor=garbage', { token })).statusCode).toBe(422);
  });
});

describe('/app/workflow-runs', () => {
  it('approves, rejects and cancels, with 409 when a run does not wait for that', async () => {
    const { api, token, wf } = await setup();
    const start = async (n: number) =>
      (await api.call('POST', `/app/workflows/${wf}/runs`, { token, body: { triggerData: { n } } })).json().executionId as string;
    const [a, b, c, d] = [await start(1), await start(2), await start(3), await start(4)];
    // A pending run cannot be approved yet (it waits for nothing).
    expect((await api.call('POST', `/app/workflow-runs/${a}/approve`, { token, body: {} })).statusCode).toBe(409);
    await drive(api);

    const approved = await api.call('POST', `/app/workflow-runs/${a}/approve`, { token, body: { comment: 'fine' } });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().approvals[0]).toMatchObject({
      status: 'approved',
      comment: 'fine',
      decidedBy: expect.stringMatching(/^api-key:/),
      decidedByName: 'test',
    });
    expect((await api.call('POST', `/app/workflow-runs/${b}/reject`, { token })).statusCode).toBe(200);
    const canceled = (await api.call('POST', `/app/workflow-runs/${c}/cancel`, { token })).json();
    expect(canceled.status).toBe('canceled');
    await drive(api);
    expect((await api.call('GET', `/app/workflow-runs/${a}`, { token })).json().status).toBe('completed');
    expect((await api.call('GET', `/app/workflow-runs/${b}`, { token })).json().status).toBe('completed');
    for (const id of [a, c]) {
      const res = await api.call('POST', `/app/workflow-runs/${id}/cancel`, { token });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/already finished/);
    }

    const waiting = (await api.call('GET', '/app/workflow-runs?statuses=waiting', { token })).json();
    expect(waiting.data.map((r: { executionId: string }) => r.executionId)).toEqual([d]);
    expect(waiting.data[0]).toMatchObject({
      runId: 'WR-4',
      workflowName: 'Approve',
      pendingApproval: { title: 'Proceed with 4?' },
    });
    const two = (await api.call('GET', '/app/workflow-runs?statuses=completed&statuses=canceled', { token })).json();
    expect(two.data).toHaveLength(3);
    const page1 = (await api.call('GET', `/app/workflow-runs?workflowId=${wf}&pageSize=3`, { token })).json();
    expect(page1.meta.hasNextPage).toBe(true);
    const page2 = (
      await api.call('GET', `/app/workflow-runs?workflowId=${wf}&pageSize=3&cursor=${page1.meta.cursor}`, { token })
    ).json();
    expect([...page1.data, ...page2.data].map((r: { runId: string }) => r.runId)).toEqual(['WR-4', 'WR-3', 'WR-2', 'WR-1']);
    expect((await api.call('GET', '/app/workflow-runs?statuses=bogus', { token })).statusCode).toBe(422);
  });

  it('names the person who decided, and retries a failed run once with the same trigger data', async () => {
    const { api, token, wf } = await setup();
    const teamId = api.team('Acme').id;
    const { user } = createUser(api.db, teamId, { email: 'dana@acme.test', passwordHash: 'x', fullName: 'Dana Decider' });
    const cookie = `finops_session=${createSession(api.db, { teamId, userId: user.id }).token}`;
    const csrf = (await api.call('GET', '/app/session', { headers: { cookie } })).json().csrfToken as string;
    const started = await api.call('POST', `/app/workflows/${wf}/runs`, { token, body: { triggerData: { n: 7 } } });
    await drive(api);
    const id = started.json().executionId as string;
    const decided = await api.call('POST', `/app/workflow-runs/${id}/approve`, { headers: { cookie, 'x-csrf-token': csrf } });
    expect(decided.json().approvals[0]).toMatchObject({ decidedBy: `user:${user.id}`, decidedByName: 'Dana Decider' });
    expect((await api.call('POST', `/app/workflow-runs/${id}/retry`, { token })).statusCode).toBe(409);

    const failing = {
      name: 'Load',
      active: true,
      triggers: [{ type: 'manual' }],
      nodes: [{ id: 'load', kind: 'load_record', resource: 'invoice', recordId: '{{trigger.invoiceId}}', as: 'invoice' }],
    };
    const other = (await api.call('POST', '/app/workflows', { token, body: { definition: failing, promote: true } })).json().id;
    const run = (await api.call('POST', `/app/workflows/${other}/runs`, { token, body: { triggerData: { note: 'x' } } })).json();
    await drive(api);
    expect((await api.call('GET', `/app/workflow-runs/${run.executionId}`, { token })).json().status).toBe('failed');
    const retry = await api.call('POST', `/app/workflow-runs/${run.executionId}/retry`, { token });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().runId).toBe('WR-3');
    expect((await api.call('POST', `/app/workflow-runs/${run.executionId}/retry`, { token })).json().runId).toBe('WR-3');
    const again = (await api.call('GET', `/app/workflow-runs/${retry.json().executionId}`, { token })).json();
    expect(again).toMatchObject({ triggerType: 'manual', triggerData: { note: 'x' }, source: 'app', workflowId: other });
    expect((await api.call('POST', '/app/workflow-runs/nope/retry', { token })).statusCode).toBe(404);
  });

  it('tells the app through the change stream that a run moved', async () => {
    const { api, token, wf } = await setup();
    const url = await api.listen();
    const controller = new AbortController();
    const stream = await createApiClient({ baseUrl: url, token: () => api.key('Acme', ['workflows.read']) }).stream(
      '/app/changes/stream',
      {
        signal: controller.signal,
      },
    );
    const entities: string[] = [];
    const reading = (async () => {
      try {
        for await (const item of stream) {
          if (item.type === 'event' && item.message.event === undefined) entities.push(JSON.parse(item.message.data).entity);
        }
      } catch {
        // aborted
      }
    })();
    try {
      await api.call('POST', `/app/workflows/${wf}/runs`, { token, body: {} });
      await drive(api);
      await expect.poll(() => entities.filter((e) => e === 'workflow_run').length).toBeGreaterThan(0);
    } finally {
      controller.abort();
      await reading;
    }
  });
});

describe('/app/workflow-settings', () => {
  it('keeps each team’s HTTP allow-list, normalised; bad entries are refused by index', async () => {
    const { api, token } = await setup();
    expect((await api.call('GET', '/app/workflow-settings', { token })).json()).toEqual({ httpHosts: [], updatedAt: null });
    const put = await api.call('PUT', '/app/workflow-settings', {
      token,
      body: { httpHosts: ['Hooks.Example.com', 'api.example.org:8443', 'hooks.example.com'] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().httpHosts).toEqual(['api.example.org:8443', 'hooks.example.com']);
    const bad = await api.call('PUT', '/app/workflow-settings', {
      token,
      body: { httpHosts: ['ok.example', 'http://x.example/'] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('httpHosts[1]');
    const other = api.key('Globex');
    expect((await api.call('GET', '/app/workflow-settings', { token: other })).json().httpHosts).toEqual([]);
    const readOnly = api.key('Acme', ['workflows.read']);
    expect((await api.call('PUT', '/app/workflow-settings', { token: readOnly, body: { httpHosts: [] } })).statusCode).toBe(403);
  });
});

describe('/app/workflow-settings: who decides where runs may call', () => {
  it('only an owner (or an apis.all key) changes the allow-list; a member or a workflows.write key cannot', async () => {
    const { api } = await setup();
    const teamId = api.team('Acme').id;
    const owner = createUser(api.db, teamId, { email: 'olga@acme.test', passwordHash: 'x', role: 'owner' }).user;
    const member = createUser(api.db, teamId, { email: 'mo@acme.test', passwordHash: 'x', role: 'member' }).user;
    const asUser = async (userId: string) => {
      const cookie = `finops_session=${createSession(api.db, { teamId, userId }).token}`;
      const csrf = (await api.call('GET', '/app/session', { headers: { cookie } })).json().csrfToken as string;
      return { cookie, 'x-csrf-token': csrf };
    };
    const body = { httpHosts: ['hooks.example.com'] };
    const byMember = await api.call('PUT', '/app/workflow-settings', { headers: await asUser(member.id), body });
    expect(byMember.statusCode).toBe(403);
    const integration = api.key('Acme', ['workflows.read', 'workflows.write']);
    expect((await api.call('PUT', '/app/workflow-settings', { token: integration, body })).statusCode).toBe(403);
    expect((await api.call('GET', '/app/workflow-settings', { token: integration })).json().httpHosts).toEqual([]);
    const byOwner = await api.call('PUT', '/app/workflow-settings', { headers: await asUser(owner.id), body });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect((await api.call('PUT', '/app/workflow-settings', { token: api.key('Acme'), body })).statusCode).toBe(200);
  });

  it('an internal address is refused when set, and a name resolving to one fails the call: its answer reaches no notification', async () => {
    configureOperator({ allowPrivateHosts: [] });
    try {
      const { api, token } = await setup();
      const base = await api.listen();
      const port = new URL(base).port;
      for (const entry of [`127.0.0.1:${port}`, '169.254.169.254', `[::1]:${port}`, '10.0.0.1']) {
        const refused = await api.call('PUT', '/app/workflow-settings', { token, body: { httpHosts: [entry] } });
        expect(refused.statusCode, entry).toBe(422);
        expect(refused.json().message).toMatch(/operator does not let requests reach/);
      }
      // A name is accepted (its addresses are judged per call) — and then refused where it resolves to loopback.
      const ok = await api.call('PUT', '/app/workflow-settings', { token, body: { httpHosts: [`localhost:${port}`] } });
      expect(ok.statusCode).toBe(200);
      const leak = {
        name: 'Leak',
        active: true,
        triggers: [{ type: 'manual' }],
        nodes: [
          { id: 'read', kind: 'http_request', method: 'GET', url: `http://localhost:${port}/v1/health`, as: 'health' },
          { id: 'tell', kind: 'notify', message: 'health: {{vars.health}}' },
        ],
        edges: [{ from: 'read', to: 'tell' }],
      };
      const wf = (await api.call('POST', '/app/workflows', { token, body: { definition: leak, promote: true } })).json().id;
      const run = (await api.call('POST', `/app/workflows/${wf}/runs`, { token, body: {} })).json();
      await drive(api);
      const detail = (await api.call('GET', `/app/workflow-runs/${run.executionId}`, { token })).json();
      expect(detail.status).toBe('failed');
      expect(JSON.stringify(detail)).toMatch(/loopback address: refused/);
      const notes = (await api.call('GET', '/v1/notifications', { token })).json();
      expect(JSON.stringify(notes)).not.toMatch(/health/);
    } finally {
      resetOperator();
    }
  });
});

describe('/app/workflow-runs/{id}/approve: four eyes (docs/decisions/0179)', () => {
  async function person(api: TestApi, email: string, role: 'owner' | 'member') {
    const teamId = api.team('Acme').id;
    const { user } = createUser(api.db, teamId, { email, passwordHash: 'x', fullName: email.split('@')[0], role });
    const cookie = `finops_session=${createSession(api.db, { teamId, userId: user.id }).token}`;
    const csrf = (await api.call('GET', '/app/session', { headers: { cookie } })).json().csrfToken as string;
    const headers = { cookie, 'x-csrf-token': csrf };
    return {
      user,
      start: async () => {
        const res = await api.call('POST', `/app/workflows/${wfOf.get(api)}/runs`, { headers, body: { triggerData: { n: 1 } } });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().executionId as string;
      },
      decide: (run: string, kind: 'approve' | 'reject') => api.call('POST', `/app/workflow-runs/${run}/${kind}`, { headers }),
      /** Stores (and promotes) a new version of the team's workflow as this person. */
      write: async (definition: object) => {
        const res = await api.call('POST', '/app/workflows', {
          headers,
          body: { definition: { ...definition, id: wfOf.get(api) }, promote: true },
        });
        expect(res.statusCode, res.body).toBe(201);
      },
      ownKey: createApiKey(api.db, {
        teamId,
        name: `${email}'s key`,
        scopes: ['workflows.read', 'workflows.write'],
        userId: user.id,
      }).key,
    };
  }
  const wfOf = new Map<TestApi, string>();
  async function team(): Promise<{ api: TestApi; token: string }> {
    const { api, token, wf } = await setup();
    wfOf.set(api, wf);
    return { api, token };
  }
  const startWith = async (api: TestApi, token: string) => {
    const res = await api.call('POST', `/app/workflows/${wfOf.get(api)}/runs`, { token, body: { triggerData: { n: 2 } } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().executionId as string;
  };

  it('a member does not approve a run they started, with any credential of theirs; someone else does, and rejecting stays open', async () => {
    const { api } = await team();
    const ann = await person(api, 'ann@acme.test', 'owner');
    const bob = await person(api, 'bob@acme.test', 'member');
    const first = await ann.start();
    const second = await ann.start();
    await drive(api);

    const own = await ann.decide(first, 'approve');
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({
      error: 'Forbidden',
      message: 'Run WR-1 was started by you: someone else approves it',
      description: expect.stringContaining('Four eyes'),
    });
    // Her own API key is still her.
    expect((await api.call('POST', `/app/workflow-runs/${first}/approve`, { token: ann.ownKey })).statusCode).toBe(403);
    const detail = (await api.call('GET', `/app/workflow-runs/${first}`, { token: ann.ownKey })).json();
    expect(detail).toMatchObject({ status: 'waiting', startedBy: `user:${ann.user.id}`, startedByName: 'ann' });

    const approved = await bob.decide(first, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().approvals[0]).toMatchObject({ status: 'approved', decidedBy: `user:${bob.user.id}` });
    expect((await ann.decide(second, 'reject')).statusCode).toBe(200);
  });

  it('whoever wrote the version a run executes does not approve it; earlier versions and other people do (0188)', async () => {
    const { api, token } = await team();
    const ann = await person(api, 'ann@acme.test', 'owner');
    const bob = await person(api, 'bob@acme.test', 'member');
    const cat = await person(api, 'cat@acme.test', 'member');
    await ann.write({ ...approvalFlow, name: 'Approve (Ann)' });
    const onAnns = await bob.start();
    await drive(api);

    const own = await ann.decide(onAnns, 'approve');
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({
      error: 'Forbidden',
      message: 'Run WR-1 runs version 2 of the workflow, which you wrote: someone else approves it',
      description: expect.stringContaining('Four eyes'),
    });
    expect((await api.call('POST', `/app/workflow-runs/${onAnns}/approve`, { token: ann.ownKey })).statusCode).toBe(403);
    // The version's author is said where its versions are listed, in words too.
    const detail = (await api.call('GET', `/app/workflows/${wfOf.get(api)}`, { token })).json();
    expect(detail.versions).toMatchObject([
      { version: 1, author: expect.stringMatching(/^api-key:/), authorName: expect.any(String) },
      { version: 2, author: `user:${ann.user.id}`, authorName: 'ann', promoted: true },
    ]);
    expect((await cat.decide(onAnns, 'approve')).statusCode).toBe(200);
    // Rejecting what she wrote stays open to her.
    const another = await bob.start();
    await drive(api);
    expect((await ann.decide(another, 'reject')).statusCode).toBe(200);

    // A run of an earlier version, written by someone else, is hers to approve.
    const v1 = write(api.db, api.team('Acme').id, (w) =>
      insertRun(w, { workflowId: wfOf.get(api)!, version: 1, triggerType: 'manual', triggerData: {}, source: 'trigger' }),
    );
    await drive(api);
    expect((await ann.decide(v1.id, 'approve')).statusCode).toBe(200);
  });

  it('a key does not approve what it started; in a team of one person only its administration may', async () => {
    const { api, token: adminKey } = await team();
    const narrow = api.key('Acme', ['workflows.read', 'workflows.write']);
    const other = api.key('Acme', ['workflows.read', 'workflows.write']);
    const byNarrow = await startWith(api, narrow);
    const byAdmin = await startWith(api, adminKey);
    await drive(api);
    // No person in the team yet: a narrow key still needs another's approval; the apis.all key (the desktop app's
    // kind) approves what it started, as the team has no other eyes.
    const refused = await api.call('POST', `/app/workflow-runs/${byNarrow}/approve`, { token: narrow });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/started by you/);
    expect((await api.call('POST', `/app/workflow-runs/${byAdmin}/approve`, { token: adminKey })).statusCode).toBe(200);
    expect((await api.call('POST', `/app/workflow-runs/${byNarrow}/approve`, { token: other })).statusCode).toBe(200);

    // The team's one person may approve what they started; once a second person joins, not any more, nor the key.
    const solo = await person(api, 'sol@acme.test', 'owner');
    const bySolo = await solo.start();
    const byAdminAgain = await startWith(api, adminKey);
    await drive(api);
    expect((await solo.decide(bySolo, 'approve')).statusCode).toBe(200);
    await person(api, 'second@acme.test', 'member');
    expect((await api.call('POST', `/app/workflow-runs/${byAdminAgain}/approve`, { token: adminKey })).statusCode).toBe(403);
  });

  it('the public start (POST /v1/workflows/{id}/execute) and a retry record their starter too', async () => {
    const { api } = await team();
    const key = api.key('Acme', ['workflows.read', 'workflows.write']);
    const res = await api.call('POST', '/app/workflows', {
      token: api.key('Acme'),
      body: { definition: { ...approvalFlow, name: 'Public', apiExecution: true }, promote: true },
    });
    const run = (await api.call('POST', `/v1/workflows/${res.json().id}/execute`, { token: key, body: {} })).json();
    await drive(api);
    expect((await api.call('POST', `/app/workflow-runs/${run.executionId}/approve`, { token: key })).statusCode).toBe(403);

    // A failed run retried by another key: the retry is that key's.
    write(api.db, api.team('Acme').id, (w) => w.update('workflow_run', run.executionId, { status: 'failed' }));
    const retrier = api.key('Acme', ['workflows.read', 'workflows.write']);
    const retry = (await api.call('POST', `/app/workflow-runs/${run.executionId}/retry`, { token: retrier })).json();
    await drive(api);
    expect((await api.call('POST', `/app/workflow-runs/${retry.executionId}/approve`, { token: retrier })).statusCode).toBe(403);
    expect((await api.call('POST', `/app/workflow-runs/${retry.executionId}/approve`, { token: key })).statusCode).toBe(200);
  });

  it('an OAuth client is one principal across its client-credentials tokens', async () => {
    const { api } = await team();
    const teamId = api.team('Acme').id;
    const { client } = createClient(api.db, teamId, {
      name: 'Zap',
      scopes: ['workflows.read', 'workflows.write'],
      redirectUris: ['http://127.0.0.1:9/cb'],
      isPublic: false,
    });
    const token = () => {
      const issued = issueClientCredentials(api.db, { client, scope: undefined });
      if (!issued.ok) throw new Error(issued.description);
      return issued.accessToken;
    };
    const run = await startWith(api, token());
    await drive(api);
    const refused = await api.call('POST', `/app/workflow-runs/${run}/approve`, { token: token() });
    expect(refused.statusCode).toBe(403);
    const detail = (await api.call('GET', `/app/workflow-runs/${run}`, { token: token() })).json();
    expect(detail).toMatchObject({ startedBy: `oauth-client:${client.clientId}`, startedByName: 'Zap' });
  });

  it('runs a trigger, a schedule or a webhook started have no starter: anyone with the scope approves', async () => {
    const { api, token } = await team();
    const run = write(api.db, api.team('Acme').id, (w) =>
      insertRun(w, { workflowId: wfOf.get(api)!, version: 1, triggerType: 'manual', triggerData: {}, source: 'trigger' }),
    );
    await drive(api);
    const detail = (await api.call('GET', `/app/workflow-runs/${run.id}`, { token })).json();
    expect(detail).toMatchObject({ status: 'waiting', startedBy: null });
    const narrow = api.key('Acme', ['workflows.read', 'workflows.write']);
    expect((await api.call('POST', `/app/workflow-runs/${run.id}/approve`, { token: narrow })).statusCode).toBe(200);
  });
});
