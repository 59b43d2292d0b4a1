/**
 * The cases the sync issue names, each between real servers on loopback: a local edit stays dirty through pulled
 * changes that touch the same record; a feed in reverse dependency order applies; an excluded transaction is never
 * deleted by a walk; an edit against a reconciled transaction is a recorded conflict, not a failed round.
 */
import { describe, expect, it } from 'vitest';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { remoteReplica, replica, syncOnce } from './helpers';

describe('sync: what must not be lost', () => {
  it('a local edit followed by a pulled tag rename, and by a pulled transaction on the same account, is still pushed', async () => {
    const r = await remoteReplica();
    const a = await replica();
    const tag = (await a.call('POST', '/v1/tags', { name: 'Key account' })).body;
    const customer = (await a.call('POST', '/v1/customers', { name: 'Soylent', tags: [{ id: tag.id }] })).body;
    const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Main', currency: 'EUR' })).body;
    const tx = (
      await a.call('POST', '/v1/transactions', {
        name: 'Rent',
        amount: -900,
        currency: 'EUR',
        date: '2026-03-01',
        bankAccountId: account.id,
      })
    ).body;
    await syncOnce(a, r);

    await a.call('PATCH', `/v1/customers/${customer.id}`, { note: 'renewal in May' });
    await a.call('PATCH', `/v1/transactions/${tx.id}`, { note: 'March rent' });
    // On the remote: the tag is renamed (which touches every customer that carries it) and a new line lands on the
    // account (which moves the running balances of the account's lines).
    await r.call('PATCH', `/v1/tags/${tag.id}`, { name: 'Key accounts' });
    await r.call('POST', '/v1/transactions', {
      name: 'Deposit',
      amount: 2500,
      currency: 'EUR',
      date: '2026-02-28',
      bankAccountId: account.id,
    });
    await syncOnce(a, r);

    expect((await r.call('GET', `/v1/customers/${customer.id}`)).body).toMatchObject({
      note: 'renewal in May',
      tags: [{ name: 'Key accounts' }],
    });
    expect((await r.call('GET', `/v1/transactions/${tx.id}`)).body.note).toBe('March rent');
    expect((await a.call('GET', `/v1/customers/${customer.id}`)).body.tags).toEqual([{ id: tag.id, name: 'Key accounts' }]);
  });

  it('a feed in reverse dependency order applies, references fetched across pages', async () => {
    const r = await remoteReplica();
    const a = await replica();
    // On the remote: an account renamed after a line was booked on it (the feed lists the line before its account),
    // and tags and a customer (with two records a page, most references sit in another page than their referrer).
    const tag = (await r.call('POST', '/v1/tags', { name: 'Early' })).body;
    const account = (await r.call('POST', '/v1/bank-accounts', { name: 'Cash', currency: 'EUR' })).body;
    const tx = (
      await r.call('POST', '/v1/transactions', {
        name: 'Stamps',
        amount: -7.5,
        currency: 'EUR',
        date: '2026-03-02',
        bankAccountId: account.id,
        tags: [{ id: tag.id }],
      })
    ).body;
    const customer = (await r.call('POST', '/v1/customers', { name: 'Cyberdyne', tags: [{ id: tag.id }] })).body;
    await r.call('PATCH', `/v1/tags/${tag.id}`, { name: 'Late' });
    await r.call('PATCH', `/v1/bank-accounts/${account.id}`, { name: 'Petty cash' });
    const feed = (await r.call('GET', '/v1/sync/changes?since=0')).body.data.map((c: { entity: string }) => c.entity);
    expect(feed.indexOf('transaction')).toBeLessThan(feed.indexOf('bank_account'));

    // Two records a page: most references are in a later page.
    await syncOnce(a, r, 'finops', 2);
    expect((await a.call('GET', `/v1/customers/${customer.id}`)).body.tags).toEqual([{ id: tag.id, name: 'Late' }]);
    expect((await a.call('GET', `/v1/transactions/${tx.id}`)).body).toMatchObject({
      account: { id: account.id, name: 'Petty cash' },
      tags: [{ id: tag.id, name: 'Late' }],
    });
    const quiet = await syncOnce(a, r, 'finops', 2);
    expect([quiet.pulled, quiet.pushed, quiet.conflicts]).toEqual([0, 0, 0]);
  });

  it('an excluded transaction is never deleted by a walk of a spec-only remote', async () => {
    const r = await remoteReplica('Acme', { specOnly: true });
    const a = await replica();
    const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Cash', currency: 'EUR' })).body;
    const tx = (
      await a.call('POST', '/v1/transactions', {
        name: 'Duplicate fee',
        amount: -2,
        currency: 'EUR',
        date: '2026-03-03',
        bankAccountId: account.id,
      })
    ).body;
    await syncOnce(a, r, 'hosted');
    const remoteId = (await r.call('GET', '/v1/transactions')).body.data[0].id;
    await r.call('PATCH', `/v1/transactions/${remoteId}`, { status: 'excluded' });
    // Two complete walks: a row the default list hides is still walked, so it is never taken for gone.
    await syncOnce(a, r, 'hosted');
    await syncOnce(a, r, 'hosted');
    await syncOnce(a, r, 'hosted');
    expect((await a.call('GET', `/v1/transactions/${tx.id}`)).body.status).toBe('excluded');
  });

  it('an edit from the remote against a reconciled transaction is a recorded conflict; the round succeeds and the local line stands', async () => {
    const r = await remoteReplica();
    const a = await replica();
    const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Bank', currency: 'EUR' })).body;
    const tx = (
      await a.call('POST', '/v1/transactions', {
        name: 'Invoice 17 paid',
        amount: 1200,
        currency: 'EUR',
        date: '2026-03-04',
        bankAccountId: account.id,
      })
    ).body;
    await syncOnce(a, r);
    const rec = await a.call('POST', '/v1/reconciliations', {
      bankAccountId: account.id,
      statementDate: '2026-03-31',
      closingBalance: 1200,
    });
    expect(rec.status).toBe(201);
    await r.call('PATCH', `/v1/transactions/${tx.id}`, { amount: 1250 });
    const round = await syncOnce(a, r);
    expect(round.conflicts).toBe(1);
    const [c] = listConflicts(a.api.db, a.teamId);
    expect(c).toMatchObject({
      kind: 'refused',
      entity: 'transaction',
      localId: tx.id,
      local: { amountMinor: 120000 },
      remote: { amountMinor: 125000 },
    });
    expect((await a.call('GET', `/v1/transactions/${tx.id}`)).body.amount).toBe(1200);
    // The reconciled amount goes back to the remote: the books agree again.
    expect((await r.call('GET', `/v1/transactions/${tx.id}`)).body.amount).toBe(1200);
  });
});
