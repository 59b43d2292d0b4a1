/**
 * @module-tag slow
 *
 * Every synced entity round-trips through create and update unchanged, on both kinds of remote: made on the replica
 * and pushed, made on the remote and pulled, then changed on either side. "Unchanged" is checked on the sync
 * projections of both databases (references mapped through the replica's id map), so no field is lost or bent on
 * the way — amounts to the minor unit, days, tag sets, split parts, tax overrides, review flags.
 */
import { describe, expect, it } from 'vitest';
import { createNotification } from '../../../src-main/store/notifications/notifications';
import { readProjection } from '../../../src-main/store/sync/projections';
import { localIdOf, remoteIdOf } from '../../../src-main/store/sync/records';
import { teamRemote } from '../../../src-main/store/sync/remotes';
import { toLocalIds } from '../../../src-main/sync/refs';
import type { SyncEntity } from '../../../src-shared/domain/sync/fields';
import { type Remote, type Replica, remoteReplica, replica, syncOnce } from './helpers';

type Kind = 'finops' | 'hosted';

/** The remote's record as the replica's projection (its references mapped to the replica's ids). */
function remoteAsLocal(a: Replica, r: Remote, entity: SyncEntity, localId: string) {
  const remote = teamRemote(a.api.db, a.teamId)!;
  const remoteId = remoteIdOf(a.api.db, remote.id, entity, localId);
  expect(remoteId, `${entity} ${localId} has no remote id`).toBeDefined();
  const p = readProjection(r.api.db, r.teamId, entity, remoteId!);
  expect(p, `${entity} ${remoteId} is not on the remote`).toBeDefined();
  return toLocalIds(a.api.db, remote.id, entity, p!).projection;
}

function expectSame(a: Replica, r: Remote, entity: SyncEntity, localId: string) {
  const local = readProjection(a.api.db, a.teamId, entity, localId)!;
  const remote = remoteAsLocal(a, r, entity, localId);
  // createOnly facts a hosted remote cannot take (a bank line's flag) are compared where both hold them.
  expect(remote, entity).toEqual(local);
}

const customerFields = {
  name: 'Umbrella Corp',
  email: 'billing@umbrella.test',
  billingEmail: 'ap@umbrella.test',
  phone: '+49 30 555 0100',
  website: 'umbrella.test',
  contact: 'Ada Wong',
  countryCode: 'DE',
  addressLine1: 'Hauptstraße 1',
  addressLine2: '2. OG',
  city: 'Berlin',
  state: 'Berlin',
  zip: '10115',
  vatNumber: 'DE123456789',
  peppolId: '9930:de123456789',
  note: 'net 14',
};

async function makeAll(side: Replica | Remote, withCategory: boolean) {
  const tag = (await side.call('POST', '/v1/tags', { name: 'Enterprise' })).body;
  const tag2 = (await side.call('POST', '/v1/tags', { name: 'Priority' })).body;
  let category: { id: string; slug: string } | undefined;
  if (withCategory) {
    const parent = (await side.call('GET', '/v1/transaction-categories')).body.data.find(
      (c: { slug: string }) => c.slug === 'operations',
    );
    category = (
      await side.call('POST', '/v1/transaction-categories', {
        name: 'Coworking',
        slug: 'coworking',
        color: '#336699',
        description: 'desks by the day',
        taxRate: 19,
        taxType: 'vat',
        taxReportingCode: 'K-4210',
        excluded: false,
        parentId: parent.id,
      })
    ).body;
  }
  const account = (await side.call('POST', '/v1/bank-accounts', { name: 'Operating', currency: 'EUR', type: 'depository' })).body;
  const customer = (await side.call('POST', '/v1/customers', { ...customerFields, tags: [{ id: tag.id }, { id: tag2.id }] }))
    .body;
  const project = (
    await side.call('POST', '/v1/tracker-projects', {
      name: 'Migration',
      description: 'move to the new ERP',
      estimate: 120,
      billable: true,
      rate: 95.5,
      currency: 'EUR',
      customerId: customer.id,
      tags: [{ id: tag.id }],
    })
  ).body;
  const entry = (
    await side.call('POST', '/v1/tracker-entries', {
      projectId: project.id,
      start: '2026-03-02T09:00:00.000Z',
      stop: '2026-03-02T11:30:00.000Z',
      date: '2026-03-02',
      description: 'workshop',
    })
  ).body;
  const tx = (
    await side.call('POST', '/v1/transactions', {
      name: 'Conference tickets',
      amount: -1234.56,
      currency: 'EUR',
      date: '2026-03-03',
      bankAccountId: account.id,
      categorySlug: category?.slug ?? 'travel',
      description: 'two seats',
      counterpartyName: 'EventCo',
      method: 'card_purchase',
      note: 'team offsite',
      tags: [{ id: tag2.id }],
      splits: [
        { amount: -1000, categorySlug: 'travel', note: 'tickets' },
        { amount: -234.56, categorySlug: category?.slug ?? 'meals', taxRate: 7, taxType: 'vat', note: 'dinner' },
      ],
    })
  ).body;
  await side.call('PATCH', `/v1/transactions/${tx.id}`, {
    taxRate: 7,
    taxType: 'vat',
    recurring: true,
    frequency: 'monthly',
    reviewed: true,
    internal: false,
  });
  return { tag, tag2, category, account, customer, project, entry, tx };
}

async function changeAll(side: Replica | Remote, ids: Awaited<ReturnType<typeof makeAll>>) {
  await side.call('PATCH', `/v1/tags/${ids.tag.id}`, { name: 'Enterprise accounts' });
  if (ids.category)
    await side.call('PATCH', `/v1/transaction-categories/${ids.category.id}`, {
      color: '#aa3300',
      taxRate: 7,
      description: null,
    });
  await side.call('PATCH', `/v1/bank-accounts/${ids.account.id}`, { name: 'Operating (old)', enabled: false });
  await side.call('PATCH', `/v1/customers/${ids.customer.id}`, {
    city: 'Hamburg',
    zip: '20095',
    note: null,
    tags: [{ id: ids.tag2.id }],
  });
  await side.call('PATCH', `/v1/tracker-projects/${ids.project.id}`, { rate: 110, status: 'completed', tags: [] });
  await side.call('PATCH', `/v1/tracker-entries/${ids.entry.id}`, {
    stop: '2026-03-02T12:00:00.000Z',
    description: 'workshop, part 1',
  });
  await side.call('PATCH', `/v1/transactions/${ids.tx.id}`, {
    note: 'offsite, Q1',
    status: 'excluded',
    categorySlug: 'software',
    splits: null,
    tags: [{ id: ids.tag.id }, { id: ids.tag2.id }],
    reviewed: false,
  });
}

function idsOnLocal(a: Replica, ids: Awaited<ReturnType<typeof makeAll>>) {
  const remote = teamRemote(a.api.db, a.teamId)!;
  const map = (entity: SyncEntity, id: string) => localIdOf(a.api.db, remote.id, entity, id)!;
  return {
    tag: map('tag', ids.tag.id),
    tag2: map('tag', ids.tag2.id),
    category: ids.category ? map('transaction_category', ids.category.id) : undefined,
    account: map('bank_account', ids.account.id),
    customer: map('customer', ids.customer.id),
    project: map('tracker_project', ids.project.id),
    entry: map('tracker_entry', ids.entry.id),
    tx: map('transaction', ids.tx.id),
  };
}

function expectAllSame(a: Replica, r: Remote, local: ReturnType<typeof idsOnLocal> | Record<string, string | undefined>) {
  expectSame(a, r, 'tag', local.tag!);
  expectSame(a, r, 'tag', local.tag2!);
  if (local.category) expectSame(a, r, 'transaction_category', local.category);
  expectSame(a, r, 'bank_account', local.account!);
  expectSame(a, r, 'customer', local.customer!);
  expectSame(a, r, 'tracker_project', local.project!);
  expectSame(a, r, 'tracker_entry', local.entry!);
  expectSame(a, r, 'transaction', local.tx!);
}

for (const kind of ['finops', 'hosted'] as Kind[]) {
  describe(`every synced entity round-trips unchanged, ${kind === 'finops' ? 'full remote' : 'spec-only remote'}`, () => {
    it('made here, pushed, changed here, pushed again', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const made = await makeAll(a, kind === 'finops');
      await syncOnce(a, r, kind);
      const local = { ...Object.fromEntries(Object.entries(made).map(([k, v]) => [k, v?.id])) };
      expectAllSame(a, r, local);
      await changeAll(a, made);
      const round = await syncOnce(a, r, kind);
      expect(round.conflicts).toBe(0);
      expectAllSame(a, r, local);
    });

    it('made there, pulled, changed there, pulled again; a notification made there is read here and the status goes back', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const made = await makeAll(r, kind === 'finops');
      const note = createNotification(r.api.db, r.teamId, {
        type: 'invoice_overdue',
        priority: 2,
        metadata: { invoiceId: 'x1' },
      });
      await syncOnce(a, r, kind);
      const local = idsOnLocal(a, made);
      expectAllSame(a, r, local);
      await changeAll(r, made);
      await syncOnce(a, r, kind);
      expectAllSame(a, r, local);

      const remote = teamRemote(a.api.db, a.teamId)!;
      const localNote = localIdOf(a.api.db, remote.id, 'notification', note.id)!;
      expect(readProjection(a.api.db, a.teamId, 'notification', localNote)).toMatchObject({
        type: 'invoice_overdue',
        status: 'unread',
      });
      await a.call('PATCH', `/v1/notifications/${localNote}/status`, { status: 'read' });
      await syncOnce(a, r, kind);
      expect(readProjection(r.api.db, r.teamId, 'notification', note.id)).toMatchObject({ status: 'read' });
    });
  });
}
