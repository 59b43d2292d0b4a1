/**
 * @module-tag slow
 *
 * Invoices in sync (docs/decisions/0143-invoice-sync.md), over real HTTP between real servers, with both kinds of
 * remote (a full Finops Desk server with its change feed, and a `--spec-only` one walked like the hosted service):
 * round trips of content and lifecycle, numbers given by the remote only, collisions of numbers given offline,
 * conflicts recorded with both values.
 */
import { describe, expect, it } from 'vitest';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { readProjection } from '../../../src-main/store/sync/projections';
import { localIdOf, remoteIdOf } from '../../../src-main/store/sync/records';
import { teamRemote } from '../../../src-main/store/sync/remotes';
import { toLocalIds } from '../../../src-main/sync/refs';
import { type Remote, type Replica, remoteReplica, replica, syncOnce } from './helpers';

type Kind = 'finops' | 'hosted';

/** The replica's invoice and the remote's copy, both as the replica's projection: they must be equal. */
function expectSameInvoice(a: Replica, r: Remote, localId: string) {
  const remote = teamRemote(a.api.db, a.teamId)!;
  const remoteId = remoteIdOf(a.api.db, remote.id, 'invoice', localId);
  expect(remoteId, `invoice ${localId} has no remote id`).toBeDefined();
  const there = readProjection(r.api.db, r.teamId, 'invoice', remoteId!);
  expect(there, `invoice ${remoteId} is not on the remote`).toBeDefined();
  const local = readProjection(a.api.db, a.teamId, 'invoice', localId);
  expect(toLocalIds(a.api.db, remote.id, 'invoice', there!).projection).toEqual(local);
  return { remoteId: remoteId!, local: local! };
}

const lines = [
  { name: 'Design workshop', quantity: 2, unit: 'days', price: 1200, vat: 19 },
  { name: 'Travel', quantity: 1, price: 312.45, vat: 7 },
];

async function makeInvoice(side: Replica | Remote, customerId: string, extra: Record<string, unknown> = {}) {
  const res = await side.call('POST', '/v1/invoices', {
    customerId,
    issueDate: '2026-03-02',
    dueDate: '2099-04-01',
    supplyDate: '2026-02-01',
    supplyEndDate: '2026-02-28',
    timezone: 'Europe/Berlin',
    template: { vatRate: 19, includeVat: true, locale: 'de-DE', paymentDetails: 'IBAN DE00 1234' },
    lineItems: lines,
    discount: 50,
    note: 'Thank you',
    internalNote: 'first project',
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; invoiceNumber: string | null; status: string };
}

async function makeCustomer(side: Replica | Remote, email = 'ap@umbrella.test') {
  return (await side.call('POST', '/v1/customers', { name: 'Umbrella Corp', email })).body as { id: string };
}

for (const kind of ['finops', 'hosted'] as Kind[]) {
  describe(`invoices sync, ${kind === 'finops' ? 'full remote' : 'spec-only remote'}`, () => {
    it('made here without a number, pushed: the remote numbers it and this copy takes the number; edits and the lifecycle follow', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const customer = await makeCustomer(a);
      await syncOnce(a, r, kind);
      const inv = await makeInvoice(a, customer.id);
      expect(inv.invoiceNumber).toBeNull();
      const first = await syncOnce(a, r, kind);
      expect(first.conflicts).toBe(0);
      const { remoteId, local } = expectSameInvoice(a, r, inv.id);
      expect(local.invoiceNumber).toBe('INV-0001');
      expect((await a.call('GET', `/v1/invoices/${inv.id}`)).body.invoiceNumber).toBe('INV-0001');

      // Content edited here, then issued here: both reach the remote; paid there: comes back.
      await a.call('PATCH', `/v1/invoices/${inv.id}`, { note: 'Danke', lineItems: [{ name: 'Workshop', price: 99.99 }] });
      await a.call('PATCH', `/v1/invoices/${inv.id}`, { status: 'unpaid' });
      expect((await syncOnce(a, r, kind)).conflicts).toBe(0);
      expectSameInvoice(a, r, inv.id);
      expect((await r.call('GET', `/v1/invoices/${remoteId}`)).body).toMatchObject({ status: 'unpaid', amount: 118.99 - 50 });

      await r.call('PATCH', `/v1/invoices/${remoteId}`, { status: 'paid' });
      await syncOnce(a, r, kind);
      expectSameInvoice(a, r, inv.id);
      expect((await a.call('GET', `/v1/invoices/${inv.id}`)).body).toMatchObject({ status: 'paid', amountDue: 0 });
      const quiet = await syncOnce(a, r, kind);
      expect([quiet.pulled, quiet.pushed]).toEqual([0, 0]);
    });
  });
}
