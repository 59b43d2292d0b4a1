/** Query keys carry the entity; invalidating an entity marks its own queries and those that embed it, nothing else. */
import { describe, expect, it } from 'vitest';
import { entityOf, keyShows, queryKey } from '../../../src-renderer/data/entities';
import { createQueryClient, invalidateEntities } from '../../../src-renderer/data/query-client';
import { customerRoutes } from '../../../src-shared/contract/customers';
import { healthRoutes } from '../../../src-shared/contract/health';
import { paymentRoutes } from '../../../src-shared/contract/invoice-payments';
import { invoiceRoutes } from '../../../src-shared/contract/invoices';
import { searchRoutes } from '../../../src-shared/contract/search';
import { tagRoutes } from '../../../src-shared/contract/tags';
import { trackerRoutes } from '../../../src-shared/contract/tracker';

describe('entity query keys', () => {
  it('start with the entity of the route’s area', () => {
    expect(entityOf(customerRoutes.list)).toBe('customer');
    expect(entityOf(customerRoutes.update)).toBe('customer');
    expect(entityOf(tagRoutes.create)).toBe('tag');
    expect(queryKey(customerRoutes.get, 'record', { id: 'c1' })).toEqual(['customer', 'record', '/customers/:id', { id: 'c1' }]);
  });

  it('refuse a route whose area has no entity, so a new screen must register its own', () => {
    expect(() => entityOf(healthRoutes.get)).toThrow(/no entity is registered for the API area/);
  });

  it('say which queries show an entity: their own, and embedded tags in customers', () => {
    const customers = queryKey(customerRoutes.list, 'list', { q: 'acme' });
    const tags = queryKey(tagRoutes.list, 'list', undefined);
    expect(keyShows(customers, 'customer')).toBe(true);
    expect(keyShows(customers, 'tag')).toBe(true);
    expect(keyShows(tags, 'tag')).toBe(true);
    expect(keyShows(tags, 'customer')).toBe(false);
    expect(keyShows(customers, 'transaction')).toBe(false);
  });

  it('refresh customers, projects and search with the invoices their figures come from', () => {
    const customer = queryKey(customerRoutes.get, 'record', { id: 'c1' });
    const invoices = queryKey(invoiceRoutes.list, 'list', { statuses: ['overdue'] });
    const payments = queryKey(paymentRoutes.list, 'list', { states: ['suggested'] });
    const projects = queryKey(trackerRoutes.listProjects, 'list', {});
    const found = queryKey(searchRoutes.search, 'list', { query: { searchTerm: 'INV' } });
    expect(keyShows(customer, 'invoice')).toBe(true);
    expect(keyShows(invoices, 'invoice_payment')).toBe(true);
    expect(keyShows(payments, 'invoice')).toBe(true);
    expect(keyShows(projects, 'tracker_entry')).toBe(true);
    expect(keyShows(projects, 'invoice')).toBe(true);
    expect(keyShows(found, 'transaction')).toBe(true);
    expect(keyShows(invoices, 'tracker_entry')).toBe(false);
  });
});

describe('invalidateEntities', () => {
  function seeded() {
    const client = createQueryClient();
    const keys = {
      customerList: queryKey(customerRoutes.list, 'list', { tab: 'all' }),
      customer: queryKey(customerRoutes.get, 'record', { id: 'c1' }),
      tags: queryKey(tagRoutes.list, 'list', undefined),
      other: ['bank_account', 'list', '/bank-accounts', null],
    };
    for (const key of Object.values(keys)) client.setQueryData(key, { data: [] });
    const invalidated = () =>
      Object.entries(keys)
        .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
        .map(([name]) => name);
    return { client, invalidated };
  }

  it('marks a customer change on customer lists and records only', async () => {
    const { client, invalidated } = seeded();
    await invalidateEntities(client, ['customer']);
    expect(invalidated()).toEqual(['customerList', 'customer']);
  });

  it('marks a tag change on tag lists and on the customers that embed tags', async () => {
    const { client, invalidated } = seeded();
    await invalidateEntities(client, ['tag', 'tag']);
    expect(invalidated()).toEqual(['customerList', 'customer', 'tags']);
  });

  it('marks nothing for no entities or an entity nothing shows', async () => {
    const { client, invalidated } = seeded();
    await invalidateEntities(client, []);
    await invalidateEntities(client, ['rule']);
    expect(invalidated()).toEqual([]);
  });
});
