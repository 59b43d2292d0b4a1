/**
 * The payment-provider routes: offline they say "not connected" with the reason (never a success); with a sync remote
 * each call goes to a second real server on loopback with the team's credential and its answer comes back as it was,
 * the invoice named by the remote's id of it. A payment intent the provider refuses (402, from a loopback stand-in for
 * the hosted service, which cannot run here) tells the team.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { saveBase } from '../../../../src-main/store/sync/records';
import { teamRemote } from '../../../../src-main/store/sync/remotes';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { remoteReplica } from '../../sync/helpers';

async function unpaidInvoice(api: TestApi, token: string, price = 100): Promise<string> {
  const res = await api.call('POST', '/v1/invoices', {
    token,
    body: { customerName: 'Kunde GmbH', issueDate: '2099-01-01', lineItems: [{ name: 'Work', price }] },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  expect((await api.call('PATCH', `/v1/invoices/${id}`, { token, body: { status: 'unpaid' } })).statusCode).toBe(200);
  return id;
}

async function connect(api: TestApi, token: string, baseUrl: string, apiKey: string, kind: 'finops' | 'hosted' = 'finops') {
  expect((await api.call('PUT', '/app/sync/remote', { token, body: { baseUrl, kind } })).statusCode).toBe(200);
  expect((await api.call('PUT', '/app/sync/credential', { token, body: { apiKey } })).statusCode).toBe(200);
}

/** Says the local invoice is the remote's `remoteInvoiceId` (what a synced invoice's id map will hold). */
function mapInvoice(api: TestApi, teamId: string, localId: string, remoteInvoiceId: string): void {
  const remote = teamRemote(api.db, teamId)!;
  saveBase(api.db, {
    teamId,
    remoteId: remote.id,
    entity: 'invoice',
    localId,
    remoteRecordId: remoteInvoiceId,
    base: {},
    baseSeq: 0,
  });
}

const stubs: http.Server[] = [];
afterEach(async () => {
  for (const s of stubs.splice(0)) await new Promise((r) => s.close(r));
});

describe('payment provider routes', () => {
  it('offline: the status says not connected and why; the other calls are 409 with the reason', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const status = await api.call('GET', '/v1/invoice-payments/stripe-status', { token });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ provider: 'stripe', connected: false });
    expect(status.json().reason).toContain('no sync remote');
    for (const [method, url] of [
      ['GET', '/v1/invoice-payments/connect-stripe'],
      ['GET', '/v1/invoice-payments/connect-stripe/callback?code=abc'],
      ['POST', '/v1/invoice-payments/disconnect-stripe'],
    ] as const) {
      const res = await api.call(method, url, { token });
      expect(res.statusCode, url).toBe(409);
      expect(res.json()).toMatchObject({ message: 'Not connected to a payment provider' });
      expect(res.json().description).toContain('no sync remote');
    }
    const invoiceId = await unpaidInvoice(api, token);
    const intent = await api.call('POST', `/v1/invoices/${invoiceId}/payment-intent`, { token });
    expect(intent.statusCode).toBe(409);
    expect(intent.json().description).toContain('no sync remote');
    const hosted = await api.call('POST', '/v1/invoice-payments/payment-intent', { token, body: { invoiceId } });
    expect(hosted.statusCode).toBe(409);
    // The invoice is checked first: another team's is not found, a paid one has nothing due.
    const other = api.key('Other Team');
    expect((await api.call('POST', `/v1/invoices/${invoiceId}/payment-intent`, { token: other })).statusCode).toBe(404);
    expect(
      (await api.call('POST', '/v1/invoice-payments/payment-intent', { token: other, body: { invoiceId } })).statusCode,
    ).toBe(422);
    await api.call('PATCH', `/v1/invoices/${invoiceId}`, { token, body: { status: 'paid' } });
    const paid = await api.call('POST', `/v1/invoices/${invoiceId}/payment-intent`, { token });
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toContain('nothing is due');
  });

  it('with a remote: relayed with the team’s credential, answered as the remote answered', async () => {
    const remote = await remoteReplica();
    const api = await makeTestApi();
    const token = api.key('Acme');
    const teamId = api.team('Acme').id;
    await connect(api, token, remote.url, remote.token);

    // The remote (a Finops Desk server without a remote of its own) is not connected either: its answer comes back.
    const status = await api.call('GET', '/v1/invoice-payments/stripe-status', { token });
    expect(status.statusCode).toBe(200);
    expect(status.headers['x-finops-relayed-to']).toBe(remote.url);
    expect(status.json()).toMatchObject({ provider: 'stripe', connected: false });
    const connectCall = await api.call('GET', '/v1/invoice-payments/connect-stripe', { token });
    expect(connectCall.statusCode).toBe(409);
    expect(connectCall.headers['x-finops-relayed-to']).toBe(remote.url);
    expect(connectCall.json().requestId).toMatch(/^req_/);

    // An invoice the remote has no copy of cannot be paid there.
    const invoiceId = await unpaidInvoice(api, token);
    const unsynced = await api.call('POST', `/v1/invoices/${invoiceId}/payment-intent`, { token });
    expect(unsynced.statusCode).toBe(409);
    expect(unsynced.json().description).toContain('not on the remote');
    // With the id map, the remote is asked about its own copy: it finds it (not 404) and answers for it.
    const remoteInvoice = await unpaidInvoice(remote.api, remote.token);
    mapInvoice(api, teamId, invoiceId, remoteInvoice);
    for (const [url, body] of [
      [`/v1/invoices/${invoiceId}/payment-intent`, undefined],
      ['/v1/invoice-payments/payment-intent', { invoiceId }],
    ] as const) {
      const relayed = await api.call('POST', url, { token, body });
      expect(relayed.statusCode, relayed.body).toBe(409);
      expect(relayed.headers['x-finops-relayed-to']).toBe(remote.url);
      expect(relayed.json().description).toContain('no sync remote');
    }
    await remote.call('PATCH', `/v1/invoices/${remoteInvoice}`, { status: 'paid' });
    const paidThere = await api.call('POST', `/v1/invoices/${invoiceId}/payment-intent`, { token });
    expect(paidThere.json().message).toContain('nothing is due');

    // A credential the remote refuses, and a remote that is gone: not connected, with the reason.
    await api.call('PUT', '/app/sync/credential', { token, body: { apiKey: 'fd_wrong_key_0000000000' } });
    const refused = (await api.call('GET', '/v1/invoice-payments/stripe-status', { token })).json();
    expect(refused).toMatchObject({ connected: false });
    expect(refused.reason).toContain('refused the credential');
    await api.call('PUT', '/app/sync/credential', { token, body: { apiKey: remote.token } });
    await remote.api.app.close();
    const gone = (await api.call('GET', '/v1/invoice-payments/stripe-status', { token })).json();
    expect(gone).toMatchObject({ connected: false });
    expect(gone.reason).toContain('did not answer');
  });

  it('a payment intent the provider refuses (402) is answered as such and the team is told', async () => {
    const seen: { auth?: string; path?: string }[] = [];
    const stub = http.createServer((req, res) => {
      seen.push({ auth: req.headers.authorization, path: req.url });
      res.writeHead(402, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Payment Required', message: 'card declined: insufficient funds' }));
    });
    stubs.push(stub);
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
    const api = await makeTestApi();
    const token = api.key('Acme');
    await connect(api, token, url, 'hosted-key-123', 'hosted');
    const invoiceId = await unpaidInvoice(api, token);
    mapInvoice(api, api.team('Acme').id, invoiceId, 'hosted-invoice-7');

    const res = await api.call('POST', `/v1/invoices/${invoiceId}/payment-intent`, {
      token,
      headers: { 'idempotency-key': 'pi-1' },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe('card declined: insufficient funds');
    expect(seen).toEqual([{ auth: 'Bearer hosted-key-123', path: '/v1/invoices/hosted-invoice-7/payment-intent' }]);
    const notes = (await api.call('GET', '/v1/notifications', { token })).json().data;
    expect(notes[0]).toMatchObject({
      type: 'payment_failed',
      metadata: { invoiceId, reason: 'card declined: insufficient funds' },
    });
    // The provider's return is handed on with its parameters; a 402 there is no payment of an invoice.
    const back = await api.call('GET', '/v1/invoice-payments/connect-stripe/callback?code=ac_1&state=s-9', { token });
    expect(back.statusCode).toBe(402);
    expect(seen.at(-1)?.path).toBe('/v1/invoice-payments/connect-stripe/callback?code=ac_1&state=s-9');
    expect((await api.call('GET', '/v1/notifications', { token })).json().data).toHaveLength(1);
  });
});
