/**
 * @module-tag slow
 *
 * Invoice emails waiting for sync go out through the remote (docs/decisions/0143-invoice-sync.md): a replica without
 * an SMTP server — or whose invoice the remote numbers — hands each email to the remote's send route once the invoice
 * is there; the remote sends it through a real SMTP server started by the test, exactly once (the relay key fixed at
 * freeze), and the replica shows the remote's delivery state. Pulled invoices never send anything.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { drainDeliveries } from '../../../src-main/invoices/sender';
import { setSmtpSettings } from '../../../src-main/store/invoices/smtp';
import { remoteIdOf } from '../../../src-main/store/sync/records';
import { ensureRemote, teamRemote } from '../../../src-main/store/sync/remotes';
import { startTestSmtp, type TestSmtp } from '../../helpers/smtp';
import { faultProxy } from './fault-proxy';
import { type Remote, type Replica, remoteReplica, replica, syncOnce } from './helpers';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function smtpFor(side: Replica | Remote): Promise<TestSmtp> {
  const smtp = await startTestSmtp();
  closers.push(() => smtp.close());
  setSmtpSettings(side.api.db, side.teamId, {
    host: '127.0.0.1',
    port: smtp.port,
    security: 'none',
    username: null,
    fromAddress: 'billing@acme.test',
    fromName: 'Acme Billing',
  });
  return smtp;
}

/**
 * A replica's invoice (of a team that syncs with `r`), issued and sent offline: it waits for its number, and its
 * email for sync.
 */
async function sentOffline(a: Replica, r: { url: string }, kind: 'finops' | 'hosted' = 'finops') {
  ensureRemote(a.api.db, a.teamId, { baseUrl: r.url, kind });
  const customer = (await a.call('POST', '/v1/customers', { name: 'Umbrella Corp', email: 'ap@umbrella.test' })).body;
  const inv = (
    await a.call('POST', '/v1/invoices', {
      customerId: customer.id,
      issueDate: '2026-03-02',
      dueDate: '2099-04-01',
      lineItems: [{ name: 'Workshop', price: 1200 }],
    })
  ).body;
  const sent = (await a.call('POST', `/v1/invoices/${inv.id}/send`, {})).body;
  expect(sent).toMatchObject({ status: 'unpaid', invoiceNumber: null, delivery: { state: 'awaiting_sync' } });
  return inv.id as string;
}

const delivery = async (side: Replica | Remote, id: string) => (await side.call('GET', `/v1/invoices/${id}`)).body.delivery;

describe('invoice emails relayed through a full remote', () => {
  it('waits for sync, goes out once through the remote numbered by it, and shows the remote state here', async () => {
    const r = await remoteReplica();
    const a = await replica();
    const b = await replica();
    const smtp = await smtpFor(r);
    // The replica has an SMTP server too: an invoice the remote numbers is still sent by the remote only.
    const localSmtp = await smtpFor(a);
    const id = await sentOffline(a, r);
    expect(await drainDeliveries(a.api.db, { dataDir: a.api.dataDir })).toMatchObject({ sent: 0 });

    await syncOnce(a, r);
    const remoteId = remoteIdOf(a.api.db, teamRemote(a.api.db, a.teamId)!.id, 'invoice', id)!;
    expect(await delivery(a, id)).toMatchObject({ state: 'sending', recipient: 'ap@umbrella.test' });
    expect(await delivery(r, remoteId)).toMatchObject({ state: 'queued', recipient: 'ap@umbrella.test' });
    expect(await drainDeliveries(r.api.db, { dataDir: r.api.dataDir })).toMatchObject({ sent: 1 });
    expect(smtp.received.map((m) => [m.to, m.subject])).toEqual([[['ap@umbrella.test'], 'Invoice INV-0001 from Acme']]);

    await syncOnce(a, r);
    const here = await delivery(a, id);
    expect(here).toMatchObject({ state: 'sent', lastError: null });
    expect(here.sentAt).toBe((await delivery(r, remoteId)).sentAt);
    expect((await a.call('GET', `/v1/invoices/${id}`)).body).toMatchObject({ invoiceNumber: 'INV-0001', status: 'unpaid' });

    // Nothing goes out twice, and a replica that pulls the invoice sends nothing.
    await syncOnce(a, r);
    await syncOnce(b, r);
    expect(await drainDeliveries(r.api.db, { dataDir: r.api.dataDir })).toMatchObject({ sent: 0 });
    expect(await drainDeliveries(a.api.db, { dataDir: a.api.dataDir })).toMatchObject({ sent: 0 });
    expect(await drainDeliveries(b.api.db, { dataDir: b.api.dataDir })).toMatchObject({ sent: 0 });
    expect(await delivery(b, remoteId)).toBeNull();
    expect(smtp.received).toHaveLength(1);
    expect(localSmtp.received).toHaveLength(0);
  });

  it('an answer lost after the remote queued the email: the retry with the same key queues nothing more', async () => {
    const r = await remoteReplica();
    const a = await replica();
    const smtp = await smtpFor(r);
    const proxy = await faultProxy(r.url);
    closers.push(() => proxy.close());
    const id = await sentOffline(a, proxy);
    let lost = 0;
    proxy.plan = (method, path) => (method === 'POST' && path.endsWith('/send') && lost++ < 2 ? 'lose-answer' : 'pass');
    await syncOnce(a, { url: proxy.url, token: r.token });
    expect(proxy.log.filter((l) => l.fault === 'lose-answer')).toHaveLength(2);
    expect(await delivery(a, id)).toMatchObject({ state: 'sending' });
    expect(await drainDeliveries(r.api.db, { dataDir: r.api.dataDir })).toMatchObject({ sent: 1 });
    await syncOnce(a, { url: proxy.url, token: r.token });
    expect(await delivery(a, id)).toMatchObject({ state: 'sent' });
    expect(smtp.received).toHaveLength(1);
  });

  it('a reminder waiting for sync is relayed too; a remote without SMTP shows it is waiting there', async () => {
    const r = await remoteReplica();
    const a = await replica();
    const id = await sentOffline(a, r);
    await syncOnce(a, r);
    expect(await delivery(a, id)).toMatchObject({
      state: 'sending',
      lastError: 'the remote has no SMTP server either: it goes out through its own remote',
    });
    const smtp = await smtpFor(r);
    expect(await drainDeliveries(r.api.db, { dataDir: r.api.dataDir })).toMatchObject({ sent: 1 });
    await a.call('POST', `/v1/invoices/${id}/remind`, {});
    expect(await delivery(a, id)).toMatchObject({ kind: 'reminder', state: 'awaiting_sync' });
    await syncOnce(a, r);
    expect(await drainDeliveries(r.api.db, { dataDir: r.api.dataDir })).toMatchObject({ sent: 1 });
    await syncOnce(a, r);
    expect(await delivery(a, id)).toMatchObject({ kind: 'reminder', state: 'sent' });
    const deliveries = (await a.call('GET', `/v1/invoices/${id}/deliveries`)).body.data;
    expect(deliveries.map((d: { kind: string; state: string }) => `${d.kind}:${d.state}`)).toEqual([
      'invoice:sent',
      'reminder:sent',
    ]);
    expect(smtp.received.map((m) => m.subject)).toEqual([
      'Invoice INV-0001 from Acme',
      'Reminder: invoice INV-0001 is due on 01/04/2099',
    ]);
  });
});

describe('invoice emails relayed through a spec-only remote (walked like the hosted service)', () => {
  it('taken by its send route is sent; a lost answer is never sent again (no key there); reminders stay here, failed', async () => {
    const r = await remoteReplica('Acme', { specOnly: true });
    const a = await replica();
    const smtp = await smtpFor(r);
    const proxy = await faultProxy(r.url);
    closers.push(() => proxy.close());
    const through = { url: proxy.url, token: r.token };
    const id = await sentOffline(a, proxy, 'hosted');
    await syncOnce(a, through, 'hosted');
    expect(await delivery(a, id)).toMatchObject({ state: 'sent' });
    expect(await drainDeliveries(r.api.db, { dataDir: r.api.dataDir })).toMatchObject({ sent: 1 });

    await a.call('POST', `/v1/invoices/${id}/remind`, {});
    const second = await sentOffline(a, proxy, 'hosted');
    proxy.plan = (method, path) => (method === 'POST' && path.endsWith('/send') ? 'lose-answer' : 'pass');
    await syncOnce(a, through, 'hosted').catch(() => undefined);
    proxy.plan = () => 'pass';
    await syncOnce(a, through, 'hosted');
    expect(proxy.log.filter((l) => l.fault === 'lose-answer')).toHaveLength(1);
    expect((await delivery(a, second)).state).toBe('failed');
    expect((await delivery(a, second)).lastError).toMatch(/not sent again/);
    expect((await delivery(a, id)).state).toBe('failed');
    expect((await delivery(a, id)).lastError).toMatch(/no payment reminders/);
    // The one request that reached the remote queued one email; none was queued twice.
    expect(await drainDeliveries(r.api.db, { dataDir: r.api.dataDir })).toMatchObject({ sent: 1 });
    expect(smtp.received.map((m) => m.subject)).toEqual(['Invoice INV-0001 from Acme', 'Invoice INV-0002 from Acme']);
  });
});
