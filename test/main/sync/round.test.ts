import { describe, expect, it } from 'vitest';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { remoteReplica, replica, syncOnce } from './helpers';

describe('sync round against a Finops Desk remote', () => {
  it('pushes local records with their ids, pulls remote edits, and merges both sides of one record', async () => {
    const r = await remoteReplica();
    const a = await replica();
    const tag = (await a.call('POST', '/v1/tags', { name: 'VIP' })).body;
    const customer = (await a.call('POST', '/v1/customers', { name: 'Globex', email: 'ap@globex.test', tags: [{ id: tag.id }] }))
      .body;
    const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Cash', currency: 'EUR' })).body;
    const tx = (
      await a.call('POST', '/v1/transactions', {
        name: 'Printer paper',
        amount: -23.5,
        currency: 'EUR',
        date: '2026-03-02',
        bankAccountId: account.id,
        tags: [{ id: tag.id }],
      })
    ).body;

    const first = await syncOnce(a, r);
    expect(first.pushed).toBeGreaterThanOrEqual(4);
    expect((await r.call('GET', `/v1/customers/${customer.id}`)).body).toMatchObject({
      name: 'Globex',
      tags: [{ id: tag.id, name: 'VIP' }],
    });
    expect((await r.call('GET', `/v1/transactions/${tx.id}`)).body).toMatchObject({ amount: -23.5, bankAccountId: account.id });

    // Both sides change one customer: different fields merge, nothing is lost.
    await r.call('PATCH', `/v1/customers/${customer.id}`, { phone: '+49 30 1234' });
    await a.call('PATCH', `/v1/customers/${customer.id}`, { note: 'pays by SEPA' });
    const second = await syncOnce(a, r);
    expect(second.conflicts).toBe(0);
    expect((await a.call('GET', `/v1/customers/${customer.id}`)).body).toMatchObject({
      phone: '+49 30 1234',
      note: 'pays by SEPA',
    });
    expect((await r.call('GET', `/v1/customers/${customer.id}`)).body).toMatchObject({
      phone: '+49 30 1234',
      note: 'pays by SEPA',
    });

    // A quiet round moves nothing.
    const quiet = await syncOnce(a, r);
    expect({ pulled: quiet.pulled, pushed: quiet.pushed, conflicts: quiet.conflicts }).toEqual({
      pulled: 0,
      pushed: 0,
      conflicts: 0,
    });
  });

  it('a second replica pulls everything; a same-field edit on both sides is a recorded conflict decided by its rule', async () => {
    const r = await remoteReplica();
    const a = await replica();
    const b = await replica();
    const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Cash', currency: 'EUR' })).body;
    const tx = (
      await a.call('POST', '/v1/transactions', {
        name: 'Taxi',
        amount: -18,
        currency: 'EUR',
        date: '2026-03-03',
        bankAccountId: account.id,
      })
    ).body;
    await syncOnce(a, r);
    await syncOnce(b, r);
    expect((await b.call('GET', `/v1/transactions/${tx.id}`)).body).toMatchObject({ name: 'Taxi', amount: -18 });

    await a.call('PATCH', `/v1/transactions/${tx.id}`, { note: 'client visit' });
    await b.call('PATCH', `/v1/transactions/${tx.id}`, { note: 'airport' });
    await syncOnce(a, r);
    const round = await syncOnce(b, r);
    expect(round.conflicts).toBe(1);
    const [c] = listConflicts(b.api.db, b.teamId);
    expect(c).toMatchObject({
      entity: 'transaction',
      localId: tx.id,
      group: 'note',
      local: { note: 'airport' },
      remote: { note: 'client visit' },
      winner: 'local',
    });
    // Review fields: local wins, and the kept value goes to the remote.
    expect((await r.call('GET', `/v1/transactions/${tx.id}`)).body.note).toBe('airport');
    await syncOnce(a, r);
    expect((await a.call('GET', `/v1/transactions/${tx.id}`)).body.note).toBe('airport');
  });
});

describe('sync round against a spec-only remote (the hosted service’s routes only: list walks, no ids, no keys)', () => {
  it('pushes, pulls edits found by walking the lists, and a second replica converges', async () => {
    const r = await remoteReplica('Acme', { specOnly: true });
    const a = await replica();
    const b = await replica();
    const tag = (await a.call('POST', '/v1/tags', { name: 'Travel' })).body;
    const customer = (
      await a.call('POST', '/v1/customers', { name: 'Initech', email: 'ap@initech.test', tags: [{ id: tag.id }] })
    ).body;
    const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Cash', currency: 'EUR' })).body;
    const tx = (
      await a.call('POST', '/v1/transactions', {
        name: 'Train',
        amount: -42.1,
        currency: 'EUR',
        date: '2026-03-04',
        bankAccountId: account.id,
      })
    ).body;
    const first = await syncOnce(a, r, 'hosted');
    expect(first.conflicts).toBe(0);
    const remoteTx = (await r.call('GET', '/v1/transactions?statuses=posted')).body.data;
    expect(remoteTx).toHaveLength(1);
    expect(remoteTx[0]).toMatchObject({ name: 'Train', amount: -42.1 });
    const remoteCustomer = (await r.call('GET', '/v1/customers')).body.data[0];
    // The hosted service takes a client-chosen id on a customer create (an upsert by id).
    expect(remoteCustomer).toMatchObject({ id: customer.id, name: 'Initech', tags: [{ name: 'Travel' }] });

    await r.call('PATCH', `/v1/transactions/${remoteTx[0].id}`, { name: 'Train to Berlin' });
    await r.call('PATCH', `/v1/customers/${customer.id}`, { city: 'Berlin' });
    const second = await syncOnce(a, r, 'hosted');
    expect(second.pulled).toBeGreaterThanOrEqual(2);
    expect((await a.call('GET', `/v1/transactions/${tx.id}`)).body.name).toBe('Train to Berlin');
    expect((await a.call('GET', `/v1/customers/${customer.id}`)).body.city).toBe('Berlin');
    const quiet = await syncOnce(a, r, 'hosted');
    expect({ pulled: quiet.pulled, pushed: quiet.pushed }).toEqual({ pulled: 0, pushed: 0 });

    await syncOnce(b, r, 'hosted');
    const onB = (await b.call('GET', '/v1/transactions')).body.data;
    expect(onB.map((t: { name: string }) => t.name)).toEqual(['Train to Berlin']);
    expect((await b.call('GET', '/v1/customers')).body.data[0]).toMatchObject({
      name: 'Initech',
      city: 'Berlin',
      tags: [{ name: 'Travel' }],
    });
  });
});
