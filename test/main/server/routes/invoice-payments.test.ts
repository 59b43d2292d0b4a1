/**
 * Payment matching with the real ledger: an incoming transaction of the invoice's amount and currency near its due
 * date is applied (strong and unambiguous) or suggested; applying pays the invoice and marks the transaction
 * fulfilled; unmatching restores both and the pair is never proposed again; /v1/payments lists the money received.
 */
import { describe, expect, it } from 'vitest';
import { runSchedulerOnce } from '../../../../src-main/invoices/scheduler';
import { currentSeq } from '../../../../src-main/store/changes';
import { matchInvoicePayments } from '../../../../src-main/store/invoices/matching';
import { makeTestApi, type TestApi } from '../../../helpers/api';

async function setup(api: TestApi, token: string) {
  const customerId = (
    await api.call('POST', '/v1/customers', { token, body: { name: 'Nordwind Logistik GmbH', email: 'ap@nordwind.example' } })
  ).json().id;
  const account = await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Operating', currency: 'EUR' } });
  expect(account.statusCode, account.body).toBe(200);
  return { customerId, bankAccountId: account.json().id as string };
}

async function issued(api: TestApi, token: string, customerId: string, price: number, number?: string) {
  const res = await api.call('POST', '/v1/invoices', {
    token,
    body: {
      customerId,
      invoiceNumber: number,
      issueDate: '2099-03-01',
      dueDate: '2099-03-31',
      lineItems: [{ name: 'Freight', price }],
    },
  });
  const id = res.json().id as string;
  expect((await api.call('PATCH', `/v1/invoices/${id}`, { token, body: { status: 'unpaid' } })).json().status).toBe('unpaid');
  return { id, invoiceNumber: res.json().invoiceNumber as string };
}

async function income(api: TestApi, token: string, bankAccountId: string, amount: number, name: string, date = '2099-03-20') {
  const res = await api.call('POST', '/v1/transactions', { token, body: { name, amount, currency: 'EUR', date, bankAccountId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

describe('invoice payments', () => {
  it('applies a strong unambiguous match, and unmatching restores the invoice and the transaction', async () => {
    const api = await makeTestApi();
    const token = api.key('Payments');
    const teamId = api.team('Payments').id;
    const { customerId, bankAccountId } = await setup(api, token);
    const inv = await issued(api, token, customerId, 1234.5);
    const txId = await income(api, token, bankAccountId, 1234.5, `NORDWIND LOGISTIK ${inv.invoiceNumber}`);
    const txBefore = (await api.call('GET', `/v1/transactions/${txId}`, { token })).json();
    expect(txBefore.isFulfilled).toBe(false);

    const run = runSchedulerOnce(api.db, new Date('2099-03-21T00:00:00Z'));
    expect(run?.matched).toEqual([{ invoiceId: inv.id, transactionId: txId, confidence: 1 }]);
    const paid = (await api.call('GET', `/v1/invoices/${inv.id}`, { token })).json();
    expect(paid.status).toBe('paid');
    expect(paid.paidAt).toBe('2099-03-20T12:00:00.000Z');
    expect(paid.payment).toMatchObject({
      transactionId: txId,
      amount: 1234.5,
      currency: 'EUR',
      date: '2099-03-20',
      matchedBy: 'auto',
      confidence: 1,
    });
    expect((await api.call('GET', `/v1/transactions/${txId}`, { token })).json()).toMatchObject({
      isFulfilled: true,
      status: 'completed',
    });
    const payments = (await api.call('GET', '/v1/payments', { token })).json();
    expect(payments.data).toHaveLength(1);
    expect(payments.data[0]).toMatchObject({ invoiceId: inv.id, invoiceNumber: inv.invoiceNumber, state: 'applied' });

    // Unmatch: both restored; the pair is remembered as dismissed and not applied again.
    const del = await api.call('DELETE', `/v1/invoice-payments/${paid.payment.id}`, { token });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().state).toBe('dismissed');
    const reopened = (await api.call('GET', `/v1/invoices/${inv.id}`, { token })).json();
    expect(reopened).toMatchObject({ status: 'unpaid', paidAt: null, payment: null });
    expect((await api.call('GET', `/v1/transactions/${txId}`, { token })).json()).toMatchObject({
      isFulfilled: false,
      status: txBefore.status,
    });
    expect(matchInvoicePayments(api.db, teamId, { now: new Date('2099-03-22T00:00:00Z') })).toEqual({
      suggested: 0,
      applied: [],
    });
    expect((await api.call('GET', '/v1/payments', { token })).json().data).toEqual([]);
  });

  it('only suggests what is weak or ambiguous; a person confirms a suggestion', async () => {
    const api = await makeTestApi();
    const token = api.key('Payments');
    const teamId = api.team('Payments').id;
    const { customerId, bankAccountId } = await setup(api, token);
    // Two open invoices of the same amount: a payment naming the customer fits both.
    const a = await issued(api, token, customerId, 500);
    const b = await issued(api, token, customerId, 500);
    const tx1 = await income(api, token, bankAccountId, 500, 'Nordwind Logistik');
    // A third invoice and an anonymous payment of its amount: a suggestion only (0.7).
    const c = await issued(api, token, customerId, 77.7);
    const tx2 = await income(api, token, bankAccountId, 77.7, 'SEPA credit');
    // Noise that must never match: money out, another amount.
    await income(api, token, bankAccountId, -500, 'Refund Nordwind');
    await income(api, token, bankAccountId, 500.01, 'Nordwind Logistik');

    const result = matchInvoicePayments(api.db, teamId, { now: new Date('2099-03-21T00:00:00Z') });
    expect(result.applied).toEqual([]);
    expect(result.suggested).toBe(3);
    const suggestions = (await api.call('GET', '/v1/invoice-payments?states=suggested', { token })).json().data as {
      id: string;
      invoiceId: string;
      transactionId: string;
      confidence: number;
    }[];
    expect(suggestions.map((s) => [s.invoiceId, s.transactionId, s.confidence]).sort()).toEqual(
      [
        [a.id, tx1, 0.9],
        [b.id, tx1, 0.9],
        [c.id, tx2, 0.7],
      ].sort(),
    );
    for (const id of [a.id, b.id, c.id])
      expect((await api.call('GET', `/v1/invoices/${id}`, { token })).json().status).toBe('unpaid');
    // Running again changes nothing, and writes nothing (no write lock taken, no change recorded).
    const seq = currentSeq(api.db, teamId);
    const totalChanges = api.db.prepare('SELECT total_changes()').pluck().get();
    expect(matchInvoicePayments(api.db, teamId, { now: new Date('2099-03-21T00:00:00Z') }).suggested).toBe(0);
    expect(currentSeq(api.db, teamId)).toBe(seq);
    expect(api.db.prepare('SELECT total_changes()').pluck().get()).toBe(totalChanges);

    // A person confirms tx1 for invoice b: b is paid; a's suggestion of tx1 goes away.
    const confirm = await api.call('POST', '/v1/invoice-payments', { token, body: { invoiceId: b.id, transactionId: tx1 } });
    expect(confirm.statusCode, confirm.body).toBe(201);
    expect(confirm.json()).toMatchObject({ state: 'applied', matchedBy: 'user', invoiceId: b.id, transactionId: tx1 });
    expect((await api.call('GET', `/v1/invoices/${b.id}`, { token })).json().status).toBe('paid');
    const left = (await api.call('GET', '/v1/invoice-payments?states=suggested', { token })).json().data;
    expect(left.map((s: { invoiceId: string }) => s.invoiceId)).toEqual([c.id]);
    // The same transaction cannot pay a second invoice.
    const twice = await api.call('POST', '/v1/invoice-payments', { token, body: { invoiceId: a.id, transactionId: tx1 } });
    expect(twice.statusCode).toBe(409);
    // Dismissing c's suggestion keeps it from coming back.
    const sug = left[0] as { id: string };
    expect((await api.call('DELETE', `/v1/invoice-payments/${sug.id}`, { token })).json().state).toBe('dismissed');
    expect(matchInvoicePayments(api.db, teamId, { now: new Date('2099-03-21T00:00:00Z') })).toEqual({
      suggested: 0,
      applied: [],
    });
  });

  it('refuses links that cannot be payments', async () => {
    const api = await makeTestApi();
    const token = api.key('Payments');
    const { customerId, bankAccountId } = await setup(api, token);
    const inv = await issued(api, token, customerId, 10);
    const out = await income(api, token, bankAccountId, -10, 'Card payment');
    const usdAccount = (await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'USD', currency: 'USD' } })).json().id;
    const usd = (
      await api.call('POST', '/v1/transactions', {
        token,
        body: { name: 'USD in', amount: 10, currency: 'USD', date: '2099-03-20', bankAccountId: usdAccount },
      })
    ).json().id;
    const post = (body: unknown) => api.call('POST', '/v1/invoice-payments', { token, body });
    expect((await post({ invoiceId: inv.id, transactionId: out })).statusCode).toBe(422);
    expect((await post({ invoiceId: inv.id, transactionId: usd })).json().message).toContain('USD');
    expect((await post({ invoiceId: inv.id, transactionId: 'nope' })).statusCode).toBe(422);
    const draft = (await api.call('POST', '/v1/invoices', { token, body: { lineItems: [{ name: 'x', price: 10 }] } })).json().id;
    const tx = await income(api, token, bankAccountId, 10, 'In');
    const refused = await post({ invoiceId: draft, transactionId: tx });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('The invoice is draft');
    // Another team's records are not found.
    const other = api.key('Other');
    expect(
      (await api.call('POST', '/v1/invoice-payments', { token: other, body: { invoiceId: inv.id, transactionId: tx } }))
        .statusCode,
    ).toBe(422);
  });

  it('a transaction that pays an invoice is not removed until unmatched; its suggestions go with it', async () => {
    const api = await makeTestApi();
    const token = api.key('Payments');
    const teamId = api.team('Payments').id;
    const { customerId, bankAccountId } = await setup(api, token);
    const inv = await issued(api, token, customerId, 250, 'INV-HOLD-1');
    const paying = await income(api, token, bankAccountId, 250, `Nordwind Logistik ${inv.invoiceNumber}`);
    const applied = await api.call('POST', '/v1/invoice-payments', { token, body: { invoiceId: inv.id, transactionId: paying } });
    expect(applied.statusCode, applied.body).toBe(201);
    // A second invoice of another amount with an open suggestion on another transaction.
    const other = await issued(api, token, customerId, 40);
    const suggestedTx = await income(api, token, bankAccountId, 40, 'SEPA credit');
    expect(matchInvoicePayments(api.db, teamId, { now: new Date('2099-03-21T00:00:00Z') }).suggested).toBe(1);

    // The paying transaction: deleting it alone, or its account with cascade, is refused, naming the invoice.
    const del = await api.call('DELETE', `/v1/transactions/${paying}`, { token });
    expect(del.statusCode, del.body).toBe(409);
    expect(del.json().description).toContain('invoice INV-HOLD-1');
    expect(del.json().description).toContain(`DELETE /v1/invoice-payments/${applied.json().id}`);
    const cascade = await api.call('DELETE', `/v1/bank-accounts/${bankAccountId}?cascade=true`, { token });
    expect(cascade.statusCode, cascade.body).toBe(409);
    expect((await api.call('GET', `/v1/transactions/${paying}`, { token })).statusCode).toBe(200);
    expect((await api.call('GET', `/v1/invoices/${inv.id}`, { token })).json().status).toBe('paid');

    // The merely suggested transaction can go, and takes its suggestion along (no payment points at nothing).
    const gone = await api.call('DELETE', `/v1/transactions/${suggestedTx}`, { token });
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await api.call('GET', '/v1/invoice-payments?states=suggested', { token })).json().data).toEqual([]);
    expect((await api.call('GET', `/v1/invoices/${other.id}`, { token })).json().status).toBe('unpaid');

    // Unmatched, the transaction is free: the invoice is open again and the transaction is deleted.
    expect((await api.call('DELETE', `/v1/invoice-payments/${applied.json().id}`, { token })).statusCode).toBe(200);
    expect((await api.call('DELETE', `/v1/transactions/${paying}`, { token })).statusCode).toBe(200);
    expect((await api.call('GET', `/v1/invoices/${inv.id}`, { token })).json().status).toBe('unpaid');
    const dangling = api.db
      .prepare(
        'SELECT count(*) FROM invoice_payments p WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = p.transaction_id)',
      )
      .pluck()
      .get();
    expect(dangling).toBe(0);
  });
});
