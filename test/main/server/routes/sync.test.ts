import { describe, expect, it } from 'vitest';
import { makeTestApi } from '../../../helpers/api';

describe('GET /v1/sync/changes and /v1/sync/records (extension)', () => {
  it("serves the team's changes as projections in commit order with tombstones, and nothing of another team", async () => {
    const api = await makeTestApi();
    const t = api.key('Acme');
    const other = api.key('Other');
    const tag = (await api.call('POST', '/v1/tags', { token: t, body: { name: 'One' } })).json();
    const customer = (
      await api.call('POST', '/v1/customers', { token: t, body: { name: 'Acme GmbH', tags: [{ id: tag.id }] } })
    ).json();
    await api.call('POST', '/v1/tags', { token: other, body: { name: 'Theirs' } });
    await api.call('DELETE', `/v1/tags/${tag.id}`, { token: t });
    const page = (await api.call('GET', '/v1/sync/changes?since=0', { token: t })).json();
    expect(page.hasMore).toBe(false);
    const seqs = page.data.map((c: { seq: number }) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // One row per record, with its latest state: the tag is a tombstone; the customer lost the tag.
    expect(page.data).toEqual(
      [
        expect.objectContaining({ entity: 'tag', id: tag.id, op: 'delete', record: null }),
        expect.objectContaining({
          entity: 'customer',
          id: customer.id,
          op: 'upsert',
          record: expect.objectContaining({ name: 'Acme GmbH', tags: [] }),
        }),
      ]
        .sort((a, b) => (a.entity === 'tag' ? 1 : -1) - (b.entity === 'tag' ? 1 : -1))
        .reverse(),
    );
    // Derived fields never travel.
    expect(Object.keys(page.data.find((c: { entity: string }) => c.entity === 'customer').record)).not.toContain('invoiceCount');
    const theirs = (await api.call('GET', '/v1/sync/changes?since=0', { token: other })).json();
    expect(theirs.data.map((c: { entity: string; record: { name?: string } }) => c.record?.name)).toEqual(['Theirs']);
    const next = (await api.call('GET', `/v1/sync/changes?since=${page.cursor}`, { token: t })).json();
    expect(next.data).toEqual([]);
    const byId = (await api.call('GET', `/v1/sync/records?entity=customer&ids=${customer.id}`, { token: t })).json();
    expect(byId.data).toEqual([
      expect.objectContaining({ id: customer.id, record: expect.objectContaining({ name: 'Acme GmbH' }) }),
    ]);
    const leak = (await api.call('GET', `/v1/sync/records?entity=customer&ids=${customer.id}`, { token: other })).json();
    expect(leak.data).toEqual([]);
    expect((await api.call('GET', '/v1/sync/records?entity=nothing&ids=x', { token: t })).statusCode).toBe(422);
  });
});
