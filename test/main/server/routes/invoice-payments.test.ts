/**
 * Payment matching with the real ledger: an incoming transaction of the invoice's amount and currency near its due
 * date is applied (strong and unambiguous) or suggested; applying pays the invoice and marks the transaction
 * fulfilled; unmatching restores both and the pair is never proposed again; /v1/payments lists the money received.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
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

describe('partial payments, refunds and bounces', () => {
  async function payments(api: TestApi, token: string) {
    const { customerId, bankAccountId } = await setup(api, token);
    const inv = await issued(api, token, customerId, 1000);
    const get = async () => (await api.call('GET', `/v1/invoices/${inv.id}`, { token })).json();
    const record = (body: Record<string, unknown>) =>
      api.call('POST', '/v1/invoice-payments', { token, body: { invoiceId: inv.id, ...body } });
    return { inv, customerId, bankAccountId, get, record };
  }

  it('several payments pay an invoice once they cover it; the matcher looks for what is still due', async () => {
    const api = await makeTestApi();
    const token = api.key('Parts');
    const { inv, customerId, bankAccountId, get, record } = await payments(api, token);

    const first = await record({ amount: 300, date: '2099-03-05' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      kind: 'payment',
      state: 'applied',
      amount: 300,
      matchedBy: 'manual',
      transactionId: null,
    });
    expect(await get()).toMatchObject({ status: 'unpaid', paidAmount: 300, amountDue: 700, paidAt: null });
    const summary = (await api.call('GET', '/v1/invoices/summary', { token })).json().data[0];
    expect(summary).toMatchObject({ totalAmount: 1000, outstanding: 700, paid: 0 });
    // The customer owes what is still due, on its page, in the list and in the list's sort by what is owed.
    const customer = (await api.call('GET', `/v1/customers/${customerId}`, { token })).json();
    expect(customer).toMatchObject({ outstandingAmount: 700, totalRevenue: 0 });
    expect(customer.finance).toMatchObject({ invoiced: 1000, outstanding: 700, unpaidCount: 1 });
    const bySort = await api.call('GET', '/v1/customers?sort=outstanding&sort=desc', { token });
    expect(bySort.statusCode, bySort.body).toBe(200);
    expect(bySort.json().data.find((c: { id: string }) => c.id === customerId)).toMatchObject({ outstandingAmount: 700 });
    // More than is still due is refused; so is a refund of an invoice that is not paid.
    expect((await record({ amount: 700.01 })).statusCode).toBe(422);
    expect((await record({ kind: 'refund', amount: 10 })).statusCode).toBe(409);

    // A transaction of the rest is found by the matcher and applied (exact rest, invoice number in the text).
    const txId = await income(api, token, bankAccountId, 700, `Rest ${inv.invoiceNumber} Nordwind Logistik`);
    const run = runSchedulerOnce(api.db, new Date('2099-03-21T00:00:00Z'));
    expect(run?.matched).toEqual([{ invoiceId: inv.id, transactionId: txId, confidence: 1 }]);
    const paid = await get();
    expect(paid).toMatchObject({ status: 'paid', paidAmount: 1000, amountDue: 0, paidAt: '2099-03-20T12:00:00.000Z' });
    expect(paid.payments.map((p: { amount: number; kind: string }) => [p.kind, p.amount])).toEqual([
      ['payment', 300],
      ['payment', 700],
    ]);
    expect(paid.payment).toMatchObject({ transactionId: txId, amount: 700 });
    expect((await api.call('GET', '/v1/payments', { token })).json().data).toHaveLength(2);

    // Unmatching one part reopens the invoice with that part due again.
    const del = await api.call('DELETE', `/v1/invoice-payments/${paid.payment.id}`, { token });
    expect(del.statusCode, del.body).toBe(200);
    expect(await get()).toMatchObject({ status: 'unpaid', paidAmount: 300, amountDue: 700, paidAt: null });
    // An invoice that received money cannot be canceled.
    const cancel = await api.call('PATCH', `/v1/invoices/${inv.id}`, { token, body: { status: 'canceled' } });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toContain('received money');
    // Marking it paid by hand records the rest.
    const marked = (
      await api.call('PATCH', `/v1/invoices/${inv.id}`, { token, body: { status: 'paid', paidAt: '2099-03-25T10:00:00Z' } })
    ).json();
    expect(marked).toMatchObject({ status: 'paid', paidAmount: 1000, amountDue: 0 });
    expect(marked.payments.at(-1)).toMatchObject({ amount: 700, matchedBy: 'manual', date: '2099-03-25' });
  });

  it('refunds give money back on a paid invoice: a part keeps it paid, all of it makes it refunded', async () => {
    const api = await makeTestApi();
    const token = api.key('Refunds');
    const { bankAccountId, get, record } = await payments(api, token);
    await record({ amount: 1000 });
    expect((await get()).status).toBe('paid');

    // A refund through an outgoing transaction of the ledger, then the rest by hand.
    const out = await api.call('POST', '/v1/transactions', {
      token,
      body: { name: 'Refund Nordwind', amount: -250, currency: 'EUR', date: '2099-04-02', bankAccountId },
    });
    const wrongWay = await record({
      transactionId: await income(api, token, bankAccountId, 250, 'not a refund'),
      kind: 'refund',
    });
    expect(wrongWay.statusCode).toBe(422);
    const part = await record({ transactionId: out.json().id, kind: 'refund' });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json()).toMatchObject({ kind: 'refund', amount: 250, date: '2099-04-02' });
    expect(await get()).toMatchObject({ status: 'paid', paidAmount: 1000, refundedAmount: 250, refundedAt: null });
    expect((await record({ kind: 'refund', amount: 800 })).statusCode).toBe(422);
    // A payment of an invoice with refunds stays; the partial refund itself can be undone.
    const payment = (await get()).payments.find((p: { kind: string }) => p.kind === 'payment');
    expect((await api.call('DELETE', `/v1/invoice-payments/${payment.id}`, { token })).statusCode).toBe(409);
    expect((await api.call('DELETE', `/v1/invoice-payments/${part.json().id}`, { token })).statusCode).toBe(200);
    expect(await get()).toMatchObject({ status: 'paid', refundedAmount: 0 });

    const all = await record({ kind: 'refund' });
    expect(all.statusCode, all.body).toBe(201);
    expect(all.json().amount).toBe(1000);
    const refunded = await get();
    expect(refunded).toMatchObject({ status: 'refunded', paidAmount: 1000, refundedAmount: 1000 });
    expect(refunded.refundedAt).not.toBeNull();
    expect((await api.call('DELETE', `/v1/invoice-payments/${all.json().id}`, { token })).statusCode).toBe(409);
  });

  it('a bounced payment stops counting, reopens the invoice, tells the team and restores its transaction', async () => {
    const api = await makeTestApi();
    const token = api.key('Bounces');
    const { inv, bankAccountId, get, record } = await payments(api, token);
    const txId = await income(api, token, bankAccountId, 1000, 'SEPA debit Nordwind');
    const applied = await record({ transactionId: txId });
    expect(applied.statusCode, applied.body).toBe(201);
    expect((await get()).status).toBe('paid');
    expect((await api.call('GET', `/v1/transactions/${txId}`, { token })).json().isFulfilled).toBe(true);

    const bounced = await api.call('POST', `/v1/invoice-payments/${applied.json().id}/bounce`, {
      token,
      body: { reason: 'direct debit returned: account closed' },
    });
    expect(bounced.statusCode, bounced.body).toBe(200);
    expect(bounced.json()).toMatchObject({ state: 'bounced', failureReason: 'direct debit returned: account closed' });
    expect(await get()).toMatchObject({ status: 'unpaid', paidAmount: 0, amountDue: 1000, payments: [] });
    expect((await api.call('GET', `/v1/transactions/${txId}`, { token })).json().isFulfilled).toBe(false);
    const notes = (await api.call('GET', '/v1/notifications', { token })).json().data;
    expect(notes.find((n: { type: string }) => n.type === 'payment_failed')?.metadata).toMatchObject({
      invoiceId: inv.id,
      reason: 'direct debit returned: account closed',
    });
    // Bouncing again, or bouncing a manual refund, is a conflict; another team's payment is not found.
    expect((await api.call('POST', `/v1/invoice-payments/${applied.json().id}/bounce`, { token })).statusCode).toBe(409);
    const other = api.key('Other Team');
    expect((await api.call('POST', `/v1/invoice-payments/${applied.json().id}/bounce`, { token: other })).statusCode).toBe(404);
    expect(
      (await api.call('POST', '/v1/invoice-payments', { token: other, body: { invoiceId: inv.id, amount: 5 } })).statusCode,
    ).toBe(422);
  });

  it('suggests a part payment that names the invoice, hand-entered or a bank line, and lists candidates from either side', async () => {
    const api = await makeTestApi();
    const token = api.key('Parts');
    const teamId = api.team('Parts').id;
    const { customerId, bankAccountId } = await setup(api, token);
    const inv = await issued(api, token, customerId, 1000);
    const other = await issued(api, token, customerId, 250);
    // Entered by hand by the bookkeeper: a part of the invoice, named by its number.
    const part = await income(api, token, bankAccountId, 400, `${inv.invoiceNumber} Teilzahlung`);
    const unrelated = await income(api, token, bankAccountId, 120, 'Kiosk am Hafen');
    const exact = await income(api, token, bankAccountId, 250, 'NORDWIND LOGISTIK');

    matchInvoicePayments(api.db, teamId, { now: new Date('2099-03-21T00:00:00Z') });
    const suggested = (await api.call('GET', `/v1/invoice-payments?invoiceId=${inv.id}&states=suggested`, { token })).json();
    expect(suggested.data.map((p: { transactionId: string; amount: number }) => [p.transactionId, p.amount])).toEqual([
      [part, 400],
    ]);
    expect(suggested.data[0].confidence).toBeLessThan(0.9);
    expect((await api.call('GET', `/v1/invoices/${inv.id}`, { token })).json().status).toBe('unpaid');

    // The exact amount from the named customer paid the other invoice by itself (0.9, unambiguous).
    expect((await api.call('GET', `/v1/invoices/${other.id}`, { token })).json().status).toBe('paid');
    // The dialog's list for the invoice: the part payment first, a smaller unrelated one after; what paid another
    // invoice is not offered.
    const forInvoice = (await api.call('GET', `/v1/invoice-payments/candidates?invoiceId=${inv.id}`, { token })).json().data;
    expect(forInvoice.map((c: { transactionId: string }) => c.transactionId)).toEqual([part, unrelated]);
    expect(forInvoice[0]).toMatchObject({ part: true, manual: true, amountDue: 1000, invoiceNumber: inv.invoiceNumber });
    const narrowed = (await api.call('GET', `/v1/invoice-payments/candidates?invoiceId=${inv.id}&q=Kiosk`, { token })).json();
    expect(narrowed.data.map((c: { transactionId: string }) => c.transactionId)).toEqual([unrelated]);
    // From the transaction's side: the open invoices it could pay.
    const forTx = (await api.call('GET', `/v1/invoice-payments/candidates?transactionId=${unrelated}`, { token })).json().data;
    expect(forTx.map((c: { invoiceId: string; part: boolean }) => [c.invoiceId, c.part])).toEqual([[inv.id, true]]);
    expect((await api.call('GET', `/v1/invoice-payments/candidates?transactionId=${exact}`, { token })).json().data).toEqual([]);
    expect((await api.call('GET', '/v1/invoice-payments/candidates', { token })).statusCode).toBe(422);

    // Applied: 600 still due, the part payment no longer a candidate.
    await api.call('POST', '/v1/invoice-payments', { token, body: { invoiceId: inv.id, transactionId: part } });
    const after = (await api.call('GET', `/v1/invoices/${inv.id}`, { token })).json();
    expect([after.status, after.amountDue]).toEqual(['unpaid', 600]);
    const left = (await api.call('GET', `/v1/invoice-payments/candidates?invoiceId=${inv.id}`, { token })).json().data;
    expect(left.map((c: { transactionId: string }) => c.transactionId)).not.toContain(part);
    expect((await api.call('GET', '/v1/invoice-payments/candidates?invoiceId=nope', { token })).json().data).toEqual([]);

    // Another team sees neither side: no candidates for the invoice, the transaction not found.
    const stranger = api.key('Stranger');
    const foreign = await api.call('GET', `/v1/invoice-payments/candidates?invoiceId=${inv.id}`, { token: stranger });
    expect(foreign.json().data).toEqual([]);
    const foreignTx = await api.call('GET', `/v1/invoice-payments/candidates?transactionId=${unrelated}`, { token: stranger });
    expect(foreignTx.statusCode).toBe(404);
    expect(foreignTx.body).not.toContain('Kiosk');
  });
});
