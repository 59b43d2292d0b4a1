/**
 * The product emits `payment_failed` and `customer_segment_entered`: a workflow that declares them runs without a
 * manual start — a bounced payment, a refused payment intent, a customer entering a segment through an invoice's
 * move — once per fact, and never for a change pulled from a sync remote.
 */
import { describe, expect, it } from 'vitest';
import { bounceInvoicePayment, recordPaymentIntentFailure } from '../../../src-main/store/invoices/payment-records';
import { write } from '../../../src-main/store/write';
import { importWorkflow } from '../../../src-main/workflows/catalog';
import { WorkflowRunner } from '../../../src-main/workflows/runner';
import type { WorkflowDefinitionInput } from '../../../src-shared/contract/workflow-definition';
import { makeTestApi, type TestApi } from '../../helpers/api';

function declaring(api: TestApi, teamId: string, name: string, triggers: WorkflowDefinitionInput['triggers']): string {
  return importWorkflow(
    api.db,
    teamId,
    { name, active: true, triggers, nodes: [{ id: 'notify', kind: 'notify', message: `${name}: {{trigger.invoiceId}}` }] },
    { promote: true },
  ).workflowId;
}

function runsOf(api: TestApi, workflowId: string): { status: string; data: Record<string, unknown> }[] {
  return (
    api.db
      .prepare('SELECT status, trigger_data FROM workflow_runs WHERE workflow_id = ? ORDER BY queued_at, id')
      .all(workflowId) as { status: string; trigger_data: string }[]
  ).map((r) => ({ status: r.status, data: JSON.parse(r.trigger_data) }));
}

async function setup() {
  const api = await makeTestApi();
  const token = api.key('Acme');
  const teamId = api.team('Acme').id;
  const customerId = (
    await api.call('POST', '/v1/customers', { token, body: { name: 'Kunde AG', email: 'ap@kunde.example' } })
  ).json().id as string;
  const invoice = async (status?: 'unpaid' | 'paid') => {
    const id = (
      await api.call('POST', '/v1/invoices', {
        token,
        body: { customerId, issueDate: '2099-01-01', dueDate: '2099-01-31', lineItems: [{ name: 'Work', price: 100 }] },
      })
    ).json().id as string;
    if (status) await api.call('PATCH', `/v1/invoices/${id}`, { token, body: { status: 'unpaid' } });
    if (status === 'paid') await api.call('PATCH', `/v1/invoices/${id}`, { token, body: { status: 'paid' } });
    return id;
  };
  return { api, token, teamId, customerId, invoice };
}

describe('triggers the product emits', () => {
  it('payment_failed: a bounced payment and a refused payment intent each start the workflow once, and it runs', async () => {
    const { api, token, teamId, invoice } = await setup();
    const wf = declaring(api, teamId, 'Dunning', [{ type: 'payment_failed' }]);
    const bystander = declaring(api, teamId, 'Manual only', [{ type: 'manual' }]);
    const paid = await invoice('paid');
    const payment = (await api.call('GET', `/v1/invoice-payments?invoiceId=${paid}`, { token })).json().data[0];
    const res = await api.call('POST', `/v1/invoice-payments/${payment.id}/bounce`, { token, body: { reason: 'chargeback' } });
    expect(res.statusCode, res.body).toBe(200);
    recordPaymentIntentFailure(api.db, teamId, paid, 'card declined');

    expect(runsOf(api, wf).map((r) => r.data)).toEqual([
      { invoiceId: paid, paymentId: payment.id, reason: 'chargeback' },
      { invoiceId: paid, reason: 'card declined' },
    ]);
    expect(runsOf(api, bystander)).toEqual([]);
    await new WorkflowRunner(api.db, { schedules: false }).runUntilIdle();
    expect(runsOf(api, wf).map((r) => r.status)).toEqual(['completed', 'completed']);
  });

  it('customer_segment_entered: an invoice’s moves take its customer into segments; a named segment starts only for it', async () => {
    const { api, token, teamId, customerId, invoice } = await setup();
    const any = declaring(api, teamId, 'Any segment', [{ type: 'customer_segment_entered' }]);
    const unpaid = declaring(api, teamId, 'Unpaid', [{ type: 'customer_segment_entered', segment: 'unpaid' }]);
    const repeat = declaring(api, teamId, 'Repeat', [{ type: 'customer_segment_entered', segment: 'repeat' }]);

    const first = await invoice('unpaid'); // new → first-time and unpaid (it is recent already: created just now)
    const segments = () => runsOf(api, any).map((r) => r.data.segment);
    expect(segments().sort()).toEqual(['first-time', 'unpaid']);
    expect(runsOf(api, unpaid).map((r) => r.data)).toEqual([{ customerId, segment: 'unpaid', invoiceId: first }]);
    expect(runsOf(api, repeat)).toEqual([]);

    await api.call('PATCH', `/v1/invoices/${first}`, { token, body: { status: 'paid' } }); // unpaid → paid
    const second = await invoice('unpaid'); // first-time → repeat, paid → unpaid
    expect(segments().sort()).toEqual(['first-time', 'paid', 'repeat', 'unpaid', 'unpaid']);
    expect(runsOf(api, unpaid).map((r) => r.data.invoiceId)).toEqual([first, second]);
    expect(runsOf(api, repeat).map((r) => r.data.invoiceId)).toEqual([second]);
    await new WorkflowRunner(api.db, { schedules: false }).runUntilIdle();
    expect(new Set(runsOf(api, any).map((r) => r.status))).toEqual(new Set(['completed']));
  });

  it('starts nothing for a change pulled from a sync remote', async () => {
    const { api, token, teamId, invoice } = await setup();
    const failed = declaring(api, teamId, 'Dunning', [{ type: 'payment_failed' }]);
    const segment = declaring(api, teamId, 'Segments', [{ type: 'customer_segment_entered' }]);
    const paid = await invoice('paid');
    const before = runsOf(api, segment).length;
    const payment = (await api.call('GET', `/v1/invoice-payments?invoiceId=${paid}`, { token })).json().data[0];
    write(api.db, teamId, () => bounceInvoicePayment(api.db, teamId, payment.id, 'pulled'), { origin: 'sync' });
    expect((await api.call('GET', `/v1/invoices/${paid}`, { token })).json().status).toBe('unpaid');
    expect(runsOf(api, failed)).toEqual([]);
    expect(runsOf(api, segment)).toHaveLength(before);
  });
});
