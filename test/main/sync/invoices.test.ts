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
import { faultProxy } from './fault-proxy';
import {
  chooser,
  expectConflictsOfTwoValues,
  type Remote,
  type Replica,
  remoteReplica,
  replica,
  settleThenQuiet,
  syncOnce,
  triangle,
} from './helpers';

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
  // A unit price with four decimals (BT-146) travels exactly, both ways.
  { name: 'Patch cable', quantity: 12.5, unit: 'm', price: 1.6349, vat: 19 },
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
      // Its PDF (a draft's preview) says no number yet.
      const pdf = await a.api.call('GET', `/v1/invoices/${inv.id}/pdf`, { token: a.token });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-disposition']).toContain('filename="invoice.pdf"');
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

    it('scheduled here (made so, or a draft scheduled later): it arrives scheduled on the remote, at the same time', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const customer = await makeCustomer(a);
      await syncOnce(a, r, kind);
      const at = '2099-03-02T08:00:00.000Z';
      const made = await makeInvoice(a, customer.id, { deliveryType: 'scheduled', scheduledAt: at });
      expect(made.status).toBe('scheduled');
      const draft = await makeInvoice(a, customer.id, { note: 'later' });
      const later = '2099-05-04T07:30:00.000Z';
      const moved = await a.call('PATCH', `/v1/invoices/${draft.id}`, { status: 'scheduled', scheduledAt: later });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const first = await syncOnce(a, r, kind);
      expect(listConflicts(a.api.db, a.teamId)).toEqual([]);
      expect(first.conflicts).toBe(0);
      for (const [id, when] of [
        [made.id, at],
        [draft.id, later],
      ] as const) {
        const { remoteId } = expectSameInvoice(a, r, id);
        const there = (await r.call('GET', `/v1/invoices/${remoteId}`)).body;
        expect(there).toMatchObject({ status: 'scheduled' });
        expect(Date.parse(there.scheduledAt)).toBe(Date.parse(when));
      }
      const quiet = await syncOnce(a, r, kind);
      expect([quiet.pulled, quiet.pushed, quiet.conflicts]).toEqual([0, 0, 0]);
    });

    it('made there, pulled in the state it has there; changed, canceled and deleted there, pulled again', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const customer = await makeCustomer(r);
      const draft = await makeInvoice(r, customer.id);
      const paid = await makeInvoice(r, customer.id, { note: null, discount: 0 });
      await r.call('PATCH', `/v1/invoices/${paid.id}`, { status: 'unpaid' });
      await r.call('PATCH', `/v1/invoices/${paid.id}`, { status: 'paid' });
      await r.call('PATCH', `/v1/invoices/${paid.id}`, { status: 'refunded' });
      await syncOnce(a, r, kind);
      const remote = teamRemote(a.api.db, a.teamId)!;
      const draftHere = localIdOf(a.api.db, remote.id, 'invoice', draft.id)!;
      const paidHere = localIdOf(a.api.db, remote.id, 'invoice', paid.id)!;
      expect(expectSameInvoice(a, r, draftHere).local).toMatchObject({ invoiceNumber: draft.invoiceNumber, status: 'draft' });
      expect(expectSameInvoice(a, r, paidHere).local).toMatchObject({ invoiceNumber: paid.invoiceNumber, status: 'refunded' });
      // Reached move by move here: issued, paid (what was due recorded by hand), refunded; no email queued.
      const refunded = (await a.call('GET', `/v1/invoices/${paidHere}`)).body;
      expect(refunded).toMatchObject({ status: 'refunded', delivery: null });
      expect(refunded.payments.map((p: { kind: string }) => p.kind)).toEqual(['payment', 'refund']);

      await r.call('PATCH', `/v1/invoices/${draft.id}`, {
        customerName: 'Umbrella (EU)',
        lineItems: [{ name: 'Retainer', quantity: 3, unit: 'months', price: 2500.5, vat: 19 }],
        template: { paymentTermsDays: 14, title: 'Rechnung' },
        supplyEndDate: null,
        dueDate: '2099-05-01',
      });
      await syncOnce(a, r, kind);
      expect(expectSameInvoice(a, r, draftHere).local).toMatchObject({ customerName: 'Umbrella (EU)', supplyEndDate: null });
      await r.call('PATCH', `/v1/invoices/${draft.id}`, { status: 'canceled' });
      await syncOnce(a, r, kind);
      expect(expectSameInvoice(a, r, draftHere).local.status).toBe('canceled');
      expect((await r.call('DELETE', `/v1/invoices/${draft.id}`)).status).toBe(200);
      await syncOnce(a, r, kind);
      if (kind === 'hosted') await syncOnce(a, r, kind); // a walk proves a record gone by a 404 on its own read
      expect((await a.call('GET', `/v1/invoices/${draftHere}`)).status).toBe(404);
    });

    it('two replicas offline: each invoice is numbered once, by the remote, in the order pushed; no number twice', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const b = await replica();
      const customer = await makeCustomer(r);
      await syncOnce(a, r, kind);
      await syncOnce(b, r, kind);
      const customerHere = (side: Replica) =>
        localIdOf(side.api.db, teamRemote(side.api.db, side.teamId)!.id, 'customer', customer.id)!;
      const onA = [await makeInvoice(a, customerHere(a)), await makeInvoice(a, customerHere(a), { note: 'second' })];
      const onB = [await makeInvoice(b, customerHere(b), { note: 'from B' })];
      // Issued offline: it still waits for its number, and its email for the remote.
      const sent = (await b.call('POST', `/v1/invoices/${onB[0]!.id}/send`, {})).body;
      expect(sent).toMatchObject({ status: 'unpaid', invoiceNumber: null, delivery: { state: 'awaiting_sync' } });
      await syncOnce(a, r, kind);
      await syncOnce(b, r, kind);
      await syncOnce(a, r, kind);
      const numbers = (side: Replica | Remote) =>
        side
          .call('GET', '/v1/invoices?pageSize=100')
          .then((res) => (res.body.data as { invoiceNumber: string }[]).map((i) => i.invoiceNumber).sort());
      expect(await numbers(r)).toEqual(['INV-0001', 'INV-0002', 'INV-0003']);
      expect(await numbers(a)).toEqual(await numbers(r));
      expect(await numbers(b)).toEqual(await numbers(r));
      for (const inv of onA) expectSameInvoice(a, r, inv.id);
      expect(expectSameInvoice(b, r, onB[0]!.id).local).toMatchObject({ invoiceNumber: 'INV-0003', status: 'unpaid' });
    });

    it('numbers given here before the team synced: a free one is kept, a taken one renumbers a draft and refuses an issued invoice', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const onR = await makeCustomer(r, 'one@r.test');
      const theirs = [await makeInvoice(r, onR.id), await makeInvoice(r, onR.id)];
      expect(theirs.map((i) => i.invoiceNumber)).toEqual(['INV-0001', 'INV-0002']);
      // Made before the team had a remote: numbered here.
      const customer = await makeCustomer(a, 'two@a.test');
      const draft = await makeInvoice(a, customer.id, { note: 'draft here' });
      const issued = await makeInvoice(a, customer.id, { note: 'issued here' });
      const free = await makeInvoice(a, customer.id, { invoiceNumber: 'A-7' });
      await a.call('PATCH', `/v1/invoices/${issued.id}`, { status: 'unpaid' });
      expect([draft.invoiceNumber, issued.invoiceNumber]).toEqual(['INV-0001', 'INV-0002']);

      const round = await syncOnce(a, r, kind);
      expect(round.conflicts).toBeGreaterThanOrEqual(2);
      expect(expectSameInvoice(a, r, free.id).local.invoiceNumber).toBe('A-7');
      // The draft gave its number up and took the remote's next one.
      expect(expectSameInvoice(a, r, draft.id).local.invoiceNumber).toBe('INV-0003');
      // The issued one keeps its number and stays here; the remote's INV-0002 could not come in beside it.
      const remote = teamRemote(a.api.db, a.teamId)!;
      expect(remoteIdOf(a.api.db, remote.id, 'invoice', issued.id)).toBeUndefined();
      expect((await a.call('GET', `/v1/invoices/${issued.id}`)).body.invoiceNumber).toBe('INV-0002');
      expect(localIdOf(a.api.db, remote.id, 'invoice', theirs[0]!.id)).toBeDefined();
      const conflicts = listConflicts(a.api.db, a.teamId);
      expect(conflicts.filter((c) => c.entity === 'invoice' && c.group === 'number').map((c) => c.localId)).toContain(draft.id);
      expect(conflicts.some((c) => c.entity === 'invoice' && c.kind === 'refused')).toBe(true);
      const again = await syncOnce(a, r, kind);
      expect(again.conflicts).toBe(0);
    });

    it("the same field changed on both sides is a conflict with both values; the remote's value stays", async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const customer = await makeCustomer(a);
      const inv = await makeInvoice(a, customer.id);
      await syncOnce(a, r, kind);
      const { remoteId } = expectSameInvoice(a, r, inv.id);
      await a.call('PATCH', `/v1/invoices/${inv.id}`, { note: 'note here', internalNote: 'only here' });
      await r.call('PATCH', `/v1/invoices/${remoteId}`, { note: 'note there' });
      const round = await syncOnce(a, r, kind);
      expect(round.conflicts).toBe(1);
      const [c] = listConflicts(a.api.db, a.teamId).filter((x) => x.entity === 'invoice');
      expect(c).toMatchObject({
        kind: 'fields',
        group: 'note',
        local: { note: 'note here' },
        remote: { note: 'note there' },
        winner: 'remote',
      });
      expect(expectSameInvoice(a, r, inv.id).local).toMatchObject({ note: 'note there', internalNote: 'only here' });

      // Canceled here, issued there: the remote's lifecycle wins; the cancel made here is undone (restored to a
      // draft, then issued like there) and recorded with both states.
      await a.call('PATCH', `/v1/invoices/${inv.id}`, { status: 'canceled' });
      await r.call('PATCH', `/v1/invoices/${remoteId}`, { status: 'unpaid' });
      await syncOnce(a, r, kind);
      expect(expectSameInvoice(a, r, inv.id).local.status).toBe('unpaid');
      const lifecycle = listConflicts(a.api.db, a.teamId).filter((x) => x.entity === 'invoice' && x.group === 'lifecycle');
      expect(lifecycle.map((x) => [x.kind, x.local?.status, x.remote?.status, x.winner])).toEqual([
        ['fields', 'canceled', 'unpaid', 'remote'],
      ]);

      // Its terms changed here while it was paid there meanwhile: a paid invoice takes no edit, so the remote's
      // copy stands, this side follows it, and the refused note is kept in a conflict.
      await a.call('PATCH', `/v1/invoices/${inv.id}`, { note: 'late note' });
      await r.call('PATCH', `/v1/invoices/${remoteId}`, { status: 'paid' });
      await syncOnce(a, r, kind);
      expect(expectSameInvoice(a, r, inv.id).local).toMatchObject({ status: 'paid', note: 'note there' });
      expect(listConflicts(a.api.db, a.teamId).some((x) => x.kind === 'refused' && x.local?.note === 'late note')).toBe(true);
      const quiet = await syncOnce(a, r, kind);
      expect([quiet.pulled, quiet.pushed, quiet.conflicts]).toEqual([0, 0, 0]);
    });

    it('a create whose answer was lost makes one invoice there, numbered once; the next round adopts it', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const proxy = await faultProxy(r.url);
      let lost = 0;
      proxy.plan = (method, path) =>
        method === 'POST' && path.startsWith('/v1/invoices') && lost++ === 0 ? 'lose-answer' : 'pass';
      const customer = await makeCustomer(a);
      const inv = await makeInvoice(a, customer.id);
      const through = { url: proxy.url, token: r.token };
      // Without a key (hosted) the create is not resent blindly: the round stops, and the next one reads it back.
      await syncOnce(a, through, kind).catch(() => undefined);
      await syncOnce(a, through, kind);
      await proxy.close();
      expect(proxy.log.filter((l) => l.fault === 'lose-answer')).toHaveLength(1);
      const there = (await r.call('GET', '/v1/invoices?pageSize=100')).body.data;
      expect(there.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual(['INV-0001']);
      expect(expectSameInvoice(a, r, inv.id).local.invoiceNumber).toBe('INV-0001');
    });
  });
}

type Side = Replica | Remote;

async function invoiceSnapshot(s: Side): Promise<string[]> {
  const all: {
    id: string;
    invoiceNumber: string | null;
    status: string;
    note: string | null;
    amount: number;
    customerId: string;
  }[] = (await s.call('GET', '/v1/invoices?pageSize=100')).body.data;
  return all
    .map((i) => [i.id, i.invoiceNumber, i.status === 'overdue' ? 'unpaid' : i.status, i.note, i.amount, i.customerId].join('|'))
    .sort();
}

const SEEDS = (process.env.SYNC_CONVERGENCE_SEEDS ?? '3,5').split(',').map(Number);

describe('convergence of invoices A ↔ R ↔ B', () => {
  it.each(SEEDS)(
    'seed %i: random creates, edits, moves and deletes on all three end equal, numbered once each, then quiet',
    async (seed) => {
      const { random, pick } = chooser(seed);
      const { r, a, b } = await triangle();
      const customer = await makeCustomer(r);
      const sides: Side[] = [a, b, r];
      let made = 0;
      for (let step = 0; step < 90; step++) {
        const s = pick(sides);
        const op = random();
        const invoices: { id: string; status: string }[] = (await s.call('GET', '/v1/invoices?pageSize=100')).body.data;
        const inv = invoices.length ? pick(invoices) : undefined;
        if (op < 0.2) {
          await s.call('POST', '/v1/invoices', {
            customerId: customer.id,
            issueDate: '2026-03-02',
            dueDate: '2099-01-01',
            lineItems: [{ name: `Work ${seed}-${made}`, price: 10 + made++ }],
          });
        } else if (op < 0.35 && inv) await s.call('PATCH', `/v1/invoices/${inv.id}`, { note: `note ${made++}` });
        else if (op < 0.45 && inv)
          await s.call('PATCH', `/v1/invoices/${inv.id}`, { lineItems: [{ name: 'Changed', price: made++ }] });
        else if (op < 0.55 && inv) await s.call('PATCH', `/v1/invoices/${inv.id}`, { status: 'unpaid' });
        else if (op < 0.6 && inv) await s.call('PATCH', `/v1/invoices/${inv.id}`, { status: 'paid' });
        else if (op < 0.65 && inv) await s.call('PATCH', `/v1/invoices/${inv.id}`, { status: 'canceled' });
        else if (op < 0.7 && inv) await s.call('DELETE', `/v1/invoices/${inv.id}`);
        else if (s !== r) await syncOnce(s as Replica, r);
      }
      await settleThenQuiet(a, b, r, async () => {
        const onR = await invoiceSnapshot(r);
        expect(await invoiceSnapshot(a)).toEqual(onR);
        expect(await invoiceSnapshot(b)).toEqual(onR);
        const numbers = onR.map((x) => x.split('|')[1]);
        expect(numbers.every((n) => /^INV-\d{4}$/.test(n!))).toBe(true);
        expect(new Set(numbers).size).toBe(numbers.length);
        expectConflictsOfTwoValues(a, b);
      });
    },
  );
});
