import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/server/app';
import { makeTestApi } from '../../helpers/api';

describe('compiled response serializers', () => {
  it('write the same bodies as the validating zod serializer, and nothing the contract does not declare', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const tag = (await api.call('POST', '/v1/tags', { token, body: { name: 'VIP' } })).json();
    const customer = (
      await api.call('POST', '/v1/customers', {
        token,
        body: {
          name: 'Zoë GmbH',
          email: 'z@example.com',
          countryCode: 'DE',
          tags: [{ id: tag.id, name: 'VIP' }],
          note: 'say "hi"\n',
        },
      })
    ).json();
    api.db
      .prepare(
        `INSERT INTO invoices (id, team_id, customer_id, invoice_number, status, currency, amount_minor, issue_date, due_date, created_at, updated_at, seq)
         VALUES ('inv1', ?, ?, 'INV-1', 'unpaid', 'BHD', 12345, '2026-01-01', '2026-01-31', '2026-01-01', '2026-01-01', 999)`,
      )
      .run(api.team('Acme').id, customer.id);

    const fast = await buildApp({ db: api.db, logLevel: 'silent', validateResponses: false });
    try {
      for (const url of [
        `/v1/customers/${customer.id}`,
        '/v1/customers?pageSize=5',
        '/v1/tags',
        `/v1/tags/${tag.id}`,
        '/v1/nope',
        '/v1/health',
      ]) {
        const headers = { authorization: `Bearer ${token}`, 'x-request-id': 'same-id' };
        const slow = await api.app.inject({ url, headers });
        const quick = await fast.inject({ url, headers });
        expect(quick.statusCode, url).toBe(slow.statusCode);
        if (url === '/v1/health') expect({ ...quick.json(), time: 0 }).toEqual({ ...slow.json(), time: 0 });
        else expect(quick.body, url).toBe(slow.body);
      }
      const one = (
        await fast.inject({ url: `/v1/customers/${customer.id}`, headers: { authorization: `Bearer ${token}` } })
      ).json();
      expect(one.finance).toMatchObject({ currency: 'BHD', outstanding: 12.345 });
      expect(one).not.toHaveProperty('team_id');
      expect(one).not.toHaveProperty('search_rowid');
    } finally {
      await fast.close();
    }
  });
});
