/**
 * Each example of resources/workflows end to end, through the real app (HTTP API, the runner, the stores of the
 * resources they touch): the invoice reminder (manual and invoice_overdue, approved, rejected), the webhook-only
 * workflow over a signed inbound call, the chat workflow, and the weekly schedule.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCustomer } from '../../../src-main/store/customers/read';
import { listDeliveries } from '../../../src-main/store/invoices/deliveries';
import { notificationsOfRun } from '../../../src-main/store/workflows/records';
import { stepRecords } from '../../../src-main/store/workflows/runs/reads';
import { listSchedules } from '../../../src-main/store/workflows/workflows';
import { write } from '../../../src-main/store/write';
import { WorkflowRunner } from '../../../src-main/workflows/runner';
import { fireDueSchedules } from '../../../src-main/workflows/schedule';
import { enqueueTriggeredRuns } from '../../../src-main/workflows/triggers';
import { signWebhook } from '../../../src-main/workflows/webhook-signature';
import { makeTestApi, type TestApi } from '../../helpers/api';
import { ROOT } from '../../helpers/cli';

function example(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'resources/workflows', name), 'utf8'));
}

async function importExample(api: TestApi, token: string, name: string): Promise<string> {
  const res = await api.call('POST', '/app/workflows', { token, body: { definition: example(name), promote: true } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const drive = (api: TestApi) => new WorkflowRunner(api.db, { schedules: false }).runUntilIdle();

/** An overdue invoice of a customer with an email address. */
async function overdueInvoice(api: TestApi, token: string, teamId: string): Promise<{ invoiceId: string; customerId: string }> {
  const customer = (
    await api.call('POST', '/v1/customers', { token, body: { name: 'Late Payer Ltd', email: 'ap@late.example' } })
  ).json();
  const invoiceId = write(api.db, teamId, (w) =>
    w.insert('invoice', {
      customer_id: customer.id,
      customer_name: 'Late Payer Ltd',
      invoice_number: `INV-${Math.floor(Math.random() * 1e6)}`,
      status: 'overdue',
      currency: 'EUR',
      amount_minor: 250_000,
      subtotal_minor: 250_000,
      issue_date: '2026-09-01',
      due_date: '2026-10-01',
      sent_at: '2026-09-01T10:00:00.000Z',
    }),
  );
  return { invoiceId, customerId: customer.id };
}

describe('resources/workflows/invoice-reminder.json', () => {
  it('started by hand: loads the invoice, waits for approval, then queues the reminder and notifies', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const team = api.team('Acme');
    const wf = await importExample(api, token, 'invoice-reminder.json');
    const { invoiceId } = await overdueInvoice(api, token, team.id);

    const ack = (
      await api.call('POST', `/v1/workflows/${wf}/execute`, {
        token,
        body: { triggerData: { invoiceId }, idempotencyKey: `remind-${invoiceId}` },
      })
    ).json();
    await drive(api);
    const waiting = (await api.call('GET', `/app/workflow-runs/${ack.executionId}`, { token })).json();
    expect(waiting.status).toBe('waiting');
    expect(waiting.currentNodeId).toBe('approve-reminder');
    expect(waiting.approvals[0].title).toMatch(/^Send a payment reminder for INV-\d+ \(2500 EUR\) to Late Payer Ltd\?$/);
    expect(listDeliveries(api.db, team.id, invoiceId)).toHaveLength(0);

    const approved = await api.call('POST', `/app/workflow-runs/${ack.executionId}/approve`, { token, body: { comment: 'go' } });
    expect(approved.statusCode).toBe(200);
    await drive(api);
    const done = (await api.call('GET', `/v1/workflows/runs/${ack.executionId}`, { token })).json();
    expect(done.status).toBe('completed');
    expect(done.steps.map((s: { nodeId: string }) => s.nodeId)).toEqual([
      'load-invoice',
      'still-open',
      'approve-reminder',
      'send-reminder',
      'notify-sent',
    ]);
    const deliveries = listDeliveries(api.db, team.id, invoiceId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ kind: 'reminder', recipient: 'ap@late.example' });
    // The reminder carries the step's idempotency key: the same step can never queue a second email.
    expect(deliveries[0]?.idempotency_key).toBe(stepRecords(api.db, team.id, ack.executionId)[3]?.effectKey);
    expect(notificationsOfRun(api.db, team.id, ack.executionId)).toEqual([
      expect.objectContaining({
        type: 'invoice_reminder_queued',
        message: expect.stringMatching(/^Payment reminder for INV-\d+ queued$/),
      }),
    ]);
  });

  it('started by the invoice_overdue trigger inside the invoice’s write; a rejection sends nothing', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const team = api.team('Acme');
    const wf = await importExample(api, token, 'invoice-reminder.json');
    const { invoiceId } = await overdueInvoice(api, token, team.id);

    // A trigger whose surrounding write rolls back starts nothing.
    expect(() =>
      write(api.db, team.id, () => {
        enqueueTriggeredRuns(api.db, team.id, 'invoice_overdue', { invoiceId });
        throw new Error('the invoice move failed');
      }),
    ).toThrow();
    expect((await api.call('GET', '/app/workflow-runs', { token })).json().data).toHaveLength(0);

    const runs = write(api.db, team.id, () => enqueueTriggeredRuns(api.db, team.id, 'invoice_overdue', { invoiceId }));
    expect(runs).toHaveLength(1);
    // Another team's workflows are not started by this team's events.
    expect(enqueueTriggeredRuns(api.db, api.team('Other').id, 'invoice_overdue', { invoiceId: 'x' })).toEqual([]);
    await drive(api);
    const id = runs[0]!.id;
    const waiting = (await api.call('GET', `/app/workflow-runs/${id}`, { token })).json();
    expect(waiting).toMatchObject({ status: 'waiting', triggerType: 'invoice_overdue', source: 'trigger', workflowId: wf });
    await api.call('POST', `/app/workflow-runs/${id}/reject`, { token, body: {} });
    await drive(api);
    const done = (await api.call('GET', `/v1/workflows/runs/${id}`, { token })).json();
    expect(done.status).toBe('completed');
    expect(done.steps.at(-1).nodeId).toBe('notify-declined');
    expect(listDeliveries(api.db, team.id, invoiceId)).toHaveLength(0);
  });

  it('fails with a clear message when started without an invoice', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const wf = await importExample(api, token, 'invoice-reminder.json');
    const ack = (await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: {} })).json();
    await drive(api);
    const run = (await api.call('GET', `/v1/workflows/runs/${ack.executionId}`, { token })).json();
    expect(run.status).toBe('failed');
    expect(run.steps[0].errorMessage).toMatch(/gives no invoice id/);
  });
});

describe('resources/workflows/webhook-only.json', () => {
  it('starts only from a signed inbound call, never from the public API', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const team = api.team('Acme');
    const wf = await importExample(api, token, 'webhook-only.json');
    const customer = (await api.call('POST', '/v1/customers', { token, body: { name: 'Hooked Co' } })).json();
    const secret = (await import('../../../src-main/store/workflows/workflows')).getWebhookSecret(api.db, team.id, wf);
    const detail = (await api.call('GET', `/app/workflows/${wf}`, { token })).json();
    expect(detail.webhookPath).toBe(`/hooks/workflows/${wf}`);

    const body = JSON.stringify({
      customerId: customer.id,
      amount: 99.5,
      currency: 'EUR',
      reason: 'card declined',
      reference: 'pi_1',
    });
    const ts = Math.floor(Date.now() / 1000);
    const post = (headers: Record<string, string>, payload = body, id = wf) =>
      api.app.inject({
        method: 'POST',
        url: `/hooks/workflows/${id}`,
        headers: { 'content-type': 'application/json', ...headers },
        payload,
      });

    const ok = await post({
      'x-finops-timestamp': String(ts),
      'x-finops-signature': signWebhook(secret, ts, body),
      'idempotency-key': 'evt-1',
    });
    expect(ok.statusCode, ok.body).toBe(202);
    expect(ok.json().status).toBe('queued');
    // A delivery retried with the same key starts nothing more.
    const retry = await post({
      'x-finops-timestamp': String(ts),
      'x-finops-signature': signWebhook(secret, ts, body),
      'idempotency-key': 'evt-1',
    });
    expect(retry.json().executionId).toBe(ok.json().executionId);

    const attempts: Record<string, string>[] = [
      {},
      { 'x-finops-timestamp': String(ts), 'x-finops-signature': signWebhook('wrong', ts, body) },
      { 'x-finops-timestamp': String(ts - 3600), 'x-finops-signature': signWebhook(secret, ts - 3600, body) },
      { 'x-finops-timestamp': String(ts), 'x-finops-signature': signWebhook(secret, ts, `${body} `) },
    ];
    for (const headers of attempts) {
      const res = await post(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('Unauthorized');
    }
    const signed = (payload: string, extra: Record<string, string> = {}) =>
      post({ 'x-finops-timestamp': String(ts), 'x-finops-signature': signWebhook(secret, ts, payload), ...extra }, payload);
    expect((await signed('[1]')).statusCode).toBe(422);
    expect((await signed('{"a":')).statusCode).toBe(400);
    expect((await signed('{}', { 'idempotency-key': 'k'.repeat(256) })).statusCode).toBe(422);
    const unknown = await post(
      { 'x-finops-timestamp': String(ts), 'x-finops-signature': signWebhook(secret, ts, body) },
      body,
      'nope',
    );
    expect(unknown.statusCode).toBe(401);

    expect((await api.call('POST', `/v1/workflows/${wf}/execute`, { token, body: { triggerType: 'webhook' } })).statusCode).toBe(
      403,
    );
    expect((await api.call('POST', `/v1/workflows/${wf}/chat`, { token, body: { message: 'hi' } })).statusCode).toBe(403);

    await drive(api);
    const run = (await api.call('GET', `/v1/workflows/runs/${ok.json().executionId}`, { token })).json();
    expect(run).toMatchObject({ status: 'completed', triggerType: 'webhook' });
    expect(getCustomer(api.db, team.id, customer.id).note).toBe('Payment of 99.5 EUR failed: card declined');
    expect(notificationsOfRun(api.db, team.id, run.executionId).map((n) => n.type)).toEqual(['payment_failed']);

    // Another team's customer id in the payload is refused like a missing one.
    const foreign = (await api.call('POST', '/v1/customers', { token: api.key('Globex'), body: { name: 'Theirs' } })).json();
    const leak = JSON.stringify({ customerId: foreign.id });
    const refused = await post({ 'x-finops-timestamp': String(ts), 'x-finops-signature': signWebhook(secret, ts, leak) }, leak);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).not.toContain('Theirs');
  });
});

describe('resources/workflows/chat-assistant.json', () => {
  it('answers a chat message (the reply stays with the run) and raises invoice questions', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const team = api.team('Acme');
    const wf = await importExample(api, token, 'chat-assistant.json');
    const ack = (
      await api.call('POST', `/v1/workflows/${wf}/chat`, {
        token,
        body: { message: 'Where is invoice INV-7?', conversationId: 'conv-42' },
      })
    ).json();
    expect(ack.conversationId).toBe('conv-42');
    const other = (await api.call('POST', `/v1/workflows/${wf}/chat`, { token, body: { message: 'hello' } })).json();
    await drive(api);
    const run = (await api.call('GET', `/v1/workflows/runs/${ack.executionId}`, { token })).json();
    expect(run.status).toBe('completed');
    expect(JSON.stringify(run)).not.toContain('person will answer');
    const steps = stepRecords(api.db, team.id, ack.executionId);
    expect(steps.map((s) => s.nodeId)).toEqual(['about-invoices', 'reply-invoices', 'raise']);
    expect(steps[1]?.output).toMatchObject({ reply: expect.stringContaining('(conv-42)'), conversationId: 'conv-42' });
    expect(notificationsOfRun(api.db, team.id, ack.executionId)[0]?.message).toBe(
      'Chat question about invoices: Where is invoice INV-7?',
    );
    expect(stepRecords(api.db, team.id, other.executionId).map((s) => s.nodeId)).toEqual(['about-invoices', 'reply-general']);
  });
});

describe('resources/workflows/weekly-overdue-digest.json', () => {
  it('fires on its cron, and a time missed while closed fires once', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const team = api.team('Acme');
    // Imported on Monday 2026-11-23 07:00 UTC (08:00 in Berlin): the next firing is 09:00 Berlin the same day.
    const { importWorkflow } = await import('../../../src-main/workflows/catalog');
    const wf = importWorkflow(api.db, team.id, example('weekly-overdue-digest.json'), {
      promote: true,
      now: new Date('2026-11-23T07:00:00Z'),
    }).workflowId;
    expect(listSchedules(api.db, team.id, wf)).toEqual([
      expect.objectContaining({ cron: '0 9 * * 1', timezone: 'Europe/Berlin', nextFireAt: '2026-11-23T08:00:00.000Z' }),
    ]);
    expect(fireDueSchedules(api.db, new Date('2026-11-23T07:59:59Z'))).toHaveLength(0);
    expect(fireDueSchedules(api.db, new Date('2026-11-23T08:00:30Z'))).toHaveLength(1);
    expect(fireDueSchedules(api.db, new Date('2026-11-23T08:01:00Z'))).toHaveLength(0);
    expect(listSchedules(api.db, team.id, wf)[0]?.nextFireAt).toBe('2026-11-30T08:00:00.000Z');
    // Closed for three Mondays: one run when it opens again, and the next one after that instant.
    expect(fireDueSchedules(api.db, new Date('2026-12-16T12:00:00Z'))).toHaveLength(1);
    expect(fireDueSchedules(api.db, new Date('2026-12-16T12:00:01Z'))).toHaveLength(0);
    expect(listSchedules(api.db, team.id, wf)[0]?.nextFireAt).toBe('2026-12-21T08:00:00.000Z');

    await drive(api);
    const runs = (await api.call('GET', `/app/workflow-runs?workflowId=${wf}`, { token })).json().data;
    expect(runs).toHaveLength(2);
    expect(
      runs.every((r: { status: string; triggerType: string }) => r.status === 'completed' && r.triggerType === 'schedule'),
    ).toBe(true);
    // Deactivated, it stops firing.
    await api.call('POST', `/app/workflows/${wf}/deactivate`, { token });
    expect(listSchedules(api.db, team.id, wf)).toEqual([]);
    expect(fireDueSchedules(api.db, new Date('2027-01-05T12:00:00Z'))).toHaveLength(0);
  });
});
