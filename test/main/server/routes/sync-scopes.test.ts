import { describe, expect, it } from 'vitest';
import { createNotification } from '../../../../src-main/store/notifications/notifications';
import { createUser } from '../../../../src-main/store/users/users';
import type { Scope } from '../../../../src-shared/contract/scopes';
import { makeTestApi } from '../../../helpers/api';
import { cafePdf } from '../../../helpers/mail';

/**
 * The change feed (`/v1/sync/changes`, `/v1/sync/records`) carries only what the credential could read through the
 * resources' own routes: a key with the seven feed read scopes sees no invoice and no document there either, and
 * no credential sees another member's notifications.
 */
const FEED_SCOPES: Scope[] = [
  'tags.read',
  'transactions.read',
  'bank-accounts.read',
  'customers.read',
  'tracker-projects.read',
  'tracker-entries.read',
  'notifications.read',
];

describe('the change feed honours scopes', () => {
  it('a key with the seven feed scopes gets neither invoices nor documents, and no other member’s notification', async () => {
    const api = await makeTestApi({ documents: { runner: false } });
    const owner = api.key('Acme');
    const teamId = api.team('Acme').id;
    const alice = createUser(api.db, teamId, { email: 'alice@acme.test', passwordHash: 'x', role: 'owner' }).user;
    const bob = createUser(api.db, teamId, { email: 'bob@acme.test', passwordHash: 'x', role: 'member' }).user;
    const customerId = (await api.call('POST', '/v1/customers', { token: owner, body: { name: 'Kunde' } })).json().id;
    const invoice = await api.call('POST', '/v1/invoices', {
      token: owner,
      body: { customerId, issueDate: '2099-01-01', lineItems: [{ name: 'Work', quantity: 1, price: 10 }] },
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const pdf = await cafePdf();
    expect(
      (await api.call('POST', '/v1/documents', { token: owner, body: { fileName: 'r.pdf', content: pdf.toString('base64') } }))
        .statusCode,
    ).toBe(201);
    const forBob = createNotification(api.db, teamId, {
      type: 'private',
      priority: 2,
      userId: bob.id,
      metadata: { secret: 'bob' },
    });
    const forAll = createNotification(api.db, teamId, { type: 'team', priority: 2, metadata: {} });
    const forAlice = createNotification(api.db, teamId, { type: 'mine', priority: 2, userId: alice.id, metadata: {} });

    const feedKey = api.key('Acme', FEED_SCOPES);
    expect((await api.call('GET', '/v1/invoices', { token: feedKey })).statusCode).toBe(403);
    const changes = await api.call('GET', '/v1/sync/changes?since=0&limit=5000', { token: feedKey });
    expect(changes.statusCode, changes.body).toBe(200);
    const entities = new Set(changes.json().data.map((c: { entity: string }) => c.entity));
    expect(entities.has('customer')).toBe(true);
    expect(entities.has('invoice')).toBe(false);
    expect(entities.has('document')).toBe(false);
    const notes = changes
      .json()
      .data.filter((c: { entity: string }) => c.entity === 'notification')
      .map((c: { id: string }) => c.id);
    // A key of no person acts for the team's owner (alice): the team's and hers, never bob's.
    expect(notes.sort()).toEqual([forAll.id, forAlice.id].sort());
    expect(changes.body).not.toContain(forBob.id);

    const records = await api.call('GET', `/v1/sync/records?entity=invoice&ids=${invoice.json().id}`, { token: feedKey });
    expect(records.statusCode).toBe(403);
    expect((await api.call('GET', `/v1/sync/records?entity=document&ids=x`, { token: feedKey })).statusCode).toBe(403);
    const bobs = await api.call('GET', `/v1/sync/records?entity=notification&ids=${forBob.id}`, { token: feedKey });
    expect(bobs.statusCode).toBe(200);
    expect(bobs.json().data).toEqual([]);

    // The owner's full key still gets every entity (a replica of the whole team), but bob's notification stays his.
    const all = (await api.call('GET', '/v1/sync/changes?since=0&limit=5000', { token: owner })).json().data;
    expect(new Set(all.map((c: { entity: string }) => c.entity))).toEqual(
      new Set(['customer', 'invoice', 'document', 'notification']),
    );
    expect(JSON.stringify(all)).not.toContain(forBob.id);
  });
});
