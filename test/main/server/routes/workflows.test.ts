/**
 * The public workflow operations against a real app over a real SQLite file: every row of the spec's workflows
 * error table, the start acknowledgments, the shared body idempotencyKey of execute and chat (parallel starts
 * included), the run resource exactly, and team isolation.
 */
import { describe, expect, it } from 'vitest';
import { WorkflowRunner } from '../../../../src-main/workflows/runner';
import { WorkflowRun } from '../../../../src-shared/contract/workflows';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { insertInvoice } from '../../workflows/fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function def(overrides: Record<string, unknown> = {}) {
  return {
    name: 'API workflow',
    active: true,
    apiExecution: true,
    triggers: [{ type: 'manual' }, { type: 'invoice_overdue' }],
    nodes: [{ id: 'reply', kind: 'chat_reply', text: 'secret reply to {{trigger.message}}' }],
    ...overrides,
  };
}

async function importWf(api: TestApi, token: string, definition: unknown = def(), promote = true): Promise<string> {
  const res = await api.call('POST', '/app/workflows', { token, body: { definition, promote } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function setup(options: Parameters<typeof makeTestApi>[0] = {}) {
  const api = await makeTestApi(options);
  const token = api.key('Acme');
  const other = api.key('Globex');
  const wf = await importWf(api, token);
  return { api, token, other, wf };
}

function expectError(res: { statusCode: number; json(): unknown }, status: number, message?: RegExp) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as { error: string; message: string; requestId: string; description?: string };
  expect(body.requestId).toBeTruthy();
  expect(typeof body.error).toBe('string');
  if (message) expect(`${body.message} ${body.description ?? ''}`).toMatch(message);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
}

describe('POST /v1/workflows/{id}/execute', () => {
  it('starts a run and acknowledges it as queued; the run reads back exactly as the spec shapes it', async () => {
    const { api, token, wf } = await setup();
    const res = await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: {} });
    expect(res.statusCode).toBe(200);
    const ack = res.json();
    expect(Object.keys(ack).sort()).toEqual(['executionId', 'queuedAt', 'runId', 'status']);
    expect(ack.executionId).toMatch(UUID);
    expect(ack.status).toBe('queued');
    expect(ack.runId).toMatch(/^WR-\d+$/);
    expect(Number.isNaN(Date.parse(ack.queuedAt))).toBe(false);

    const pending = await api.call('GET', `/v1/workflows/runs/${ack.executionId}`, { token });
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({
      executionId: ack.executionId,
      workflowId: wf,
      status: 'pending',
      currentNodeId: null,
      triggerType: 'manual',
      createdAt: ack.queuedAt,
      completedAt: null,
      steps: [],
    });

    await new WorkflowRunner(api.db, { schedules: false }).runUntilIdle();
    const done = (await api.call('GET', `/v1/workflows/runs/${ack.executionId}`, { token })).json();
    expect(WorkflowRun.strict().parse(done)).toBeTruthy();
    expect(done.status).toBe('completed');
    expect(Object.keys(done.steps[0]).sort()).toEqual(['completedAt', 'errorMessage', 'id', 'nodeId', 'startedAt', 'status']);
    // The generated reply is never returned.
    expect(JSON.stringify(done)).not.toContain('secret reply');
  });

  it('accepts an empty body as every default (a manual run)', async () => {
    const { api, token, wf } = await setup();
    const res = await api.app.inject({
      method: 'POST',
      url: `/v1/workflows/${wf}/execute`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const run = (await api.call('GET', `/v1/workflows/runs/${res.json().executionId}`, { token })).json();
    expect(run.triggerType).toBe('manual');
  });

  it('400: trigger dispatch invalid, trigger data that cannot be loaded for this team, request parsing failed', async () => {
    const { api, token, wf } = await setup();
    const url = `/v1/workflows/${wf}/execute`;
    expectError(await api.call('POST', url, { token, body: { triggerType: 'carrier_pigeon' } }), 400, /trigger dispatch invalid/);
    expectError(await api.call('POST', url, { token, body: { triggerType: 'schedule' } }), 400, /trigger dispatch invalid/);
    expectError(
      await api.call('POST', url, { token, body: { triggerType: 'invoice_overdue' } }),
      400,
      /needs triggerData.invoiceId/,
    );
    const foreignInvoice = insertInvoice(api.db, api.team('Globex').id);
    const res = await api.call('POST', url, {
      token,
      body: { triggerType: 'invoice_overdue', triggerData: { invoiceId: foreignInvoice } },
    });
    expectError(res, 400, /cannot be loaded for this team/);
    expect(res.body).not.toContain('Globex');
    expectError(
      await api.call('POST', url, { token, body: { triggerData: { customerId: 'nope' } } }),
      400,
      /no customer of the team/,
    );
    expectError(
      await api.call('POST', url, { token, body: { triggerData: { invoiceId: 42 } } }),
      400,
      /must be a invoice id|must be an? invoice id/,
    );
    expectError(await api.call('POST', url, { token, body: '{"triggerType": ' }), 400, /not valid JSON/);
    // A real invoice of the team loads.
    const mine = insertInvoice(api.db, api.team('Acme').id);
    const ok = await api.call('POST', url, { token, body: { triggerType: 'invoice_overdue', triggerData: { invoiceId: mine } } });
    expect(ok.statusCode).toBe(200);
  });

  it('401: credentials absent, invalid or without effective scopes', async () => {
    const { api, wf } = await setup();
    const url = `/v1/workflows/${wf}/execute`;
    expectError(await api.call('POST', url, { body: {} }), 401);
    expectError(await api.call('POST', url, { token: 'garbage', body: {} }), 401);
    expectError(await api.call('POST', url, { token: api.key('Acme', []), body: {} }), 401);
  });

  it('403: missing scope, or API execution disabled', async () => {
    const { api, token, wf } = await setup();
    const denied = await api.call('POST', `/v1/workflows/${wf}/execute`, {
      token: api.key('Acme', ['workflows.read']),
      body: {},
    });
    expectError(denied, 403, /workflows\.write/);
    const internal = await importWf(api, token, def({ apiExecution: false }));
    expectError(
      await api.call('POST', `/v1/workflows/${internal}/execute`, { token, body: {} }),
      403,
      /API execution is disabled/,
    );
    expectError(
      await api.call('POST', `/v1/workflows/${internal}/chat`, { token, body: { message: 'hi' } }),
      403,
      /API execution/,
    );
    // The app may still start it.
    expect((await api.call('POST', `/app/workflows/${internal}/runs`, { token, body: {} })).statusCode).toBe(200);
  });

  it('404: a workflow or execution not in the team (another team’s is 404 too)', async () => {
    const { api, token, other, wf } = await setup();
    expectError(await api.call('POST', `/v1/workflows/${wf}/execute`, { token: other, body: {} }), 404);
    expectError(await api.call('POST', '/v1/workflows/00000000-0000-7000-8000-000000000000/execute', { token, body: {} }), 404);
    expectError(await api.call('POST', '/v1/workflows/not-a-uuid/chat', { token, body: { message: 'x' } }), 404);
    const run = (await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: {} })).json();
    expectError(await api.call('GET', `/v1/workflows/runs/${run.executionId}`, { token: other }), 404);
    expectError(await api.call('GET', '/v1/workflows/runs/nope', { token }), 404);
    expectError(await api.call('GET', `/app/workflow-runs/${run.executionId}`, { token: other }), 404);
  });

  it('409: inactive, no promoted version, malformed promoted definition, trigger not declared', async () => {
    const { api, token, wf } = await setup();
    const inactive = await importWf(api, token, def({ active: false }));
    expectError(await api.call('POST', `/v1/workflows/${inactive}/execute`, { token, body: {} }), 409, /inactive/);

    const draft = await importWf(api, token, def(), false);
    await api.call('POST', `/app/workflows/${draft}/activate`, { token });
    expectError(await api.call('POST', `/v1/workflows/${draft}/execute`, { token, body: {} }), 409, /no promoted version/);

    const broken = await importWf(api, token);
    // Stored by an older build or edited on disk: the promoted version no longer validates.
    api.db
      .prepare('UPDATE workflow_versions SET definition = ? WHERE workflow_id = ?')
      .run(
        JSON.stringify({ ...def(), nodes: [{ id: 'x', kind: 'send_invoice_reminder', invoiceId: '{{trigger.invoiceId}}' }] }),
        broken,
      );
    expectError(await api.call('POST', `/v1/workflows/${broken}/execute`, { token, body: {} }), 409, /malformed.*approval/);

    expectError(
      await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: { triggerType: 'webhook' } }),
      409,
      /no webhook trigger/,
    );
    const hookOnly = await importWf(api, token, def({ triggers: [{ type: 'webhook' }] }));
    expectError(
      await api.call('POST', `/v1/workflows/${hookOnly}/chat`, { token, body: { message: 'hi' } }),
      409,
      /manual trigger/,
    );
    expectError(await api.call('POST', `/v1/workflows/${hookOnly}/execute`, { token, body: {} }), 409, /no manual trigger/);
  });

  it('422: the request schema', async () => {
    const { api, token, wf } = await setup();
    const url = `/v1/workflows/${wf}/execute`;
    expectError(await api.call('POST', url, { token, body: { idempotencyKey: '' } }), 422, /idempotencyKey/);
    expectError(await api.call('POST', url, { token, body: { idempotencyKey: 'k'.repeat(256) } }), 422, /idempotencyKey/);
    expect((await api.call('POST', url, { token, body: { idempotencyKey: 'k'.repeat(255) } })).statusCode).toBe(200);
    expectError(await api.call('POST', url, { token, body: { triggerData: [1, 2] } }), 422, /triggerData/);
    expectError(await api.call('POST', url, { token, body: { trigger_type: 'manual' } }), 422);
    const chat = `/v1/workflows/${wf}/chat`;
    expectError(await api.call('POST', chat, { token, body: {} }), 422, /message/);
    expectError(await api.call('POST', chat, { token, body: { message: '' } }), 422, /message/);
    expectError(await api.call('POST', chat, { token, body: { message: 'm'.repeat(8001) } }), 422, /message/);
    expect((await api.call('POST', chat, { token, body: { message: 'm'.repeat(8000) } })).statusCode).toBe(200);
    expectError(await api.call('POST', chat, { token, body: { message: 'hi', conversationId: '' } }), 422, /conversationId/);
    expectError(
      await api.call('POST', chat, { token, body: { message: 'hi', conversationId: 'c'.repeat(256) } }),
      422,
      /conversationId/,
    );
  });

  it('429: the rate limit, with Retry-After', async () => {
    // The import in setup() counts too: 1 + 3 starts fit, the fifth start does not.
    const { api, token, wf } = await setup({ rateLimitPerMinute: 4 });
    const codes: number[] = [];
    let last: Awaited<ReturnType<TestApi['call']>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: {} });
      codes.push(last.statusCode);
    }
    expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
    expect(codes[4]).toBe(429);
    expect(last?.headers['retry-after']).toBeTruthy();
    expect(last?.json().retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe('POST /v1/workflows/{id}/runs (the overview’s name for execute)', () => {
  it('is execute: the same acknowledgment, key space, checks and refusals', async () => {
    const { api, token, other, wf } = await setup();
    const res = await api.call('POST', `/v1/workflows/${wf}/runs`, { token, body: { idempotencyKey: 'r-1' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'queued', executionId: expect.any(String), runId: expect.any(String) });
    const viaExecute = (await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: { idempotencyKey: 'r-1' } })).json();
    expect(viaExecute.executionId).toBe(res.json().executionId);
    const run = (await api.call('GET', `/v1/workflows/runs/${res.json().executionId}`, { token })).json();
    expect(run).toMatchObject({ workflowId: wf, triggerType: 'manual' });
    expectError(await api.call('POST', `/v1/workflows/${wf}/runs`, { token: other, body: {} }), 404);
    expectError(await api.call('POST', `/v1/workflows/${wf}/runs`, { token, body: { triggerType: 'nope' } }), 400);
    expectError(await api.call('POST', `/v1/workflows/${wf}/runs`, { token, body: { triggerType: 'webhook' } }), 409);
    // Listing a workflow's runs is not a public operation (the app's list is /app/workflows/{id}/runs).
    expect([404, 405]).toContain((await api.call('GET', `/v1/workflows/${wf}/runs`, { token })).statusCode);
  });
});

describe('POST /v1/workflows/{id}/chat', () => {
  it('passes the message and conversationId as trigger data (top level wins) and echoes conversationId', async () => {
    const { api, token, wf } = await setup();
    const res = await api.call('POST', `/v1/workflows/${wf}/chat`, {
      token,
      body: {
        message: 'Where is my money?',
        conversationId: 'conv-1',
        triggerData: { message: 'ignored', conversationId: 'x', extra: 1 },
      },
    });
    expect(res.statusCode).toBe(200);
    const ack = res.json();
    expect(Object.keys(ack).sort()).toEqual(['conversationId', 'executionId', 'queuedAt', 'runId', 'status']);
    expect(ack).toMatchObject({ conversationId: 'conv-1', status: 'queued' });
    const detail = (await api.call('GET', `/app/workflow-runs/${ack.executionId}`, { token })).json();
    expect(detail.triggerData).toEqual({ message: 'Where is my money?', conversationId: 'conv-1', extra: 1 });
    expect(detail.source).toBe('chat');

    const bare = (await api.call('POST', `/v1/workflows/${wf}/chat`, { token, body: { message: 'hi' } })).json();
    expect(bare.conversationId).toBeNull();
  });
});

describe('the body idempotencyKey', () => {
  it('is shared by execute and chat: a reuse answers the same execution, bodies not compared', async () => {
    const { api, token, wf } = await setup();
    const first = (await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: { idempotencyKey: 'k-1' } })).json();
    const again = (
      await api.call('POST', `/v1/workflows/${wf}/execute`, {
        token,
        body: { idempotencyKey: 'k-1', triggerData: { other: true } },
      })
    ).json();
    const viaChat = (
      await api.call('POST', `/v1/workflows/${wf}/chat`, {
        token: api.key('Acme'),
        body: { message: 'hi', idempotencyKey: 'k-1', conversationId: 'c9' },
      })
    ).json();
    expect(again.executionId).toBe(first.executionId);
    expect(viaChat.executionId).toBe(first.executionId);
    expect(viaChat.conversationId).toBe('c9');
    expect(again.runId).toBe(first.runId);
    expect(again.queuedAt).toBe(first.queuedAt);
    // Another workflow has its own key space; no key starts another run each time.
    const wf2 = await importWf(api, token);
    const elsewhere = (await api.call('POST', `/v1/workflows/${wf2}/execute`, { token, body: { idempotencyKey: 'k-1' } })).json();
    expect(elsewhere.executionId).not.toBe(first.executionId);
    const a = (await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: {} })).json();
    const b = (await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: {} })).json();
    expect(a.executionId).not.toBe(b.executionId);
  });

  it('still passes access and readiness checks on reuse', async () => {
    const { api, token, other, wf } = await setup();
    await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: { idempotencyKey: 'again' } });
    expectError(await api.call('POST', `/v1/workflows/${wf}/execute`, { token: other, body: { idempotencyKey: 'again' } }), 404);
    await api.call('POST', `/app/workflows/${wf}/deactivate`, { token });
    expectError(
      await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: { idempotencyKey: 'again' } }),
      409,
      /inactive/,
    );
  });

  it('makes exactly one execution from parallel starts with one key (over real HTTP)', async () => {
    const { api, token, wf } = await setup();
    const base = await api.listen();
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        fetch(`${base}/v1/workflows/${wf}/${i % 2 ? 'chat' : 'execute'}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(i % 2 ? { message: `m${i}`, idempotencyKey: 'same' } : { idempotencyKey: 'same' }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { executionId: string } })),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(new Set(responses.map((r) => r.body.executionId)).size).toBe(1);
    const runs = (await api.call('GET', `/app/workflow-runs?workflowId=${wf}`, { token })).json();
    expect(runs.data).toHaveLength(1);
  });
});

describe('the public API has only the spec’s workflow operations', () => {
  it('answers 404/405 for list, create, update, delete, deploy, run lists, resume and cancel under /v1', async () => {
    const { api, token, wf } = await setup();
    for (const [method, url] of [
      ['GET', '/v1/workflows'],
      ['POST', '/v1/workflows'],
      ['PATCH', `/v1/workflows/${wf}`],
      ['DELETE', `/v1/workflows/${wf}`],
      ['GET', `/v1/workflows/${wf}`],
      ['POST', `/v1/workflows/${wf}/deploy`],
      ['GET', `/v1/workflows/${wf}/runs`],
      ['GET', '/v1/workflows/runs'],
      ['POST', '/v1/workflows/runs/x/resume'],
      ['POST', '/v1/workflows/runs/x/cancel'],
    ] as const) {
      const res = await api.call(method, url, { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
    }
    const doc = (await api.call('GET', '/v1/openapi.json')).json() as { paths: Record<string, unknown> };
    const v1Workflow = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/workflows'));
    expect(v1Workflow.sort()).toEqual([
      '/v1/workflows/runs/{executionId}',
      '/v1/workflows/{id}/chat',
      '/v1/workflows/{id}/execute',
      '/v1/workflows/{id}/runs',
    ]);
  });
});
