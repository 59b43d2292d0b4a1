import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationKey } from '../../../src-shared/contract/origins';
import { makeTestApi, type TestApi } from '../../helpers/api';
import { ROOT } from '../../helpers/cli';

/**
 * What clients written for the hosted service expect (docs/decisions/0142-hosted-success-codes.md): its success
 * codes where the spec is silent, its wrappers, and days sent as date-times.
 */

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown>; 'x-finops-origin': string }>> };

/** The decision record's table: operation key → [origin, success code]. */
function decidedCodes(): Map<string, [string, number]> {
  const text = fs.readFileSync(path.join(ROOT, 'docs/decisions/0142-hosted-success-codes.md'), 'utf8');
  const rows = [...text.matchAll(/^\| `(\w+) (\S+)` \| (spec|hosted) \| (\d{3}) \|/gm)];
  return new Map(rows.map((m) => [operationKey(m[1]!, m[2]!), [m[3]!, Number(m[4])]]));
}

describe('success codes', () => {
  it('every spec and hosted operation answers the success code decision 0142 lists for it, and only those are listed', async () => {
    const api = await makeTestApi();
    const doc = (await api.call('GET', '/v1/openapi.json')).json() as Doc;
    const decided = decidedCodes();
    expect(decided.size).toBeGreaterThan(80);
    const served = new Map<string, [string, number]>();
    for (const [p, operations] of Object.entries(doc.paths)) {
      if (!p.startsWith('/v1/')) continue;
      for (const [method, op] of Object.entries(operations)) {
        if (op['x-finops-origin'] === 'extension') continue;
        const success = Object.keys(op.responses)
          .map(Number)
          .filter((s) => s >= 200 && s < 300);
        served.set(operationKey(method, p.slice(3)), [op['x-finops-origin'], success[0]!]);
      }
    }
    expect(Object.fromEntries(served)).toEqual(Object.fromEntries(decided));
  });

  async function hostedSetup(): Promise<{ api: TestApi; token: string; accountId: string; projectId: string }> {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const account = await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Main', currency: 'EUR', manual: true } });
    expect(account.statusCode, account.body).toBe(200);
    const project = await api.call('POST', '/v1/tracker-projects', { token, body: { name: 'Setup', billable: true, rate: 90 } });
    expect(project.statusCode, project.body).toBe(200);
    return { api, token, accountId: account.json().id, projectId: project.json().id };
  }

  it('answers the creates the hosted service answers with 200 with 200, and its 201s with 201', async () => {
    const { api, token, accountId, projectId } = await hostedSetup();
    const tx = { name: 'Coffee', amount: -3.5, currency: 'EUR', date: '2026-03-02', bankAccountId: accountId };
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const ok: [string, string, unknown][] = [
      ['POST', '/v1/transactions', tx],
      ['POST', '/v1/transactions/bulk', [tx, { ...tx, name: 'Tea' }]],
      ['POST', '/v1/tracker-entries', { projectId, start, duration: 600 }],
      ['POST', '/v1/tracker-entries/bulk', [{ projectId, start, duration: 900 }]],
    ];
    for (const [method, url, body] of ok) {
      const res = await api.call(method, url, { token, body });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    const created: [string, unknown][] = [
      ['/v1/customers', { name: 'Kunde' }],
      ['/v1/tags', { name: 'vip' }],
      ['/v1/invoices', {}],
      ['/v1/tracker-entries/timer/start', { projectId }],
    ];
    for (const [url, body] of created) {
      const res = await api.call('POST', url, { token, body });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    }
  });

  it('wraps the timer status in data, as the hosted service does', async () => {
    const { api, token, projectId } = await hostedSetup();
    const idle = await api.call('GET', '/v1/tracker-entries/timer/status', { token });
    expect(idle.json()).toEqual({ data: { isRunning: false, currentEntry: null, elapsedTime: 0 } });
    const started = (await api.call('POST', '/v1/tracker-entries/timer/start', { token, body: { projectId } })).json();
    const running = (await api.call('GET', '/v1/tracker-entries/timer/status', { token })).json();
    expect(running.data).toMatchObject({ isRunning: true, currentEntry: { id: started.id } });
  });
});

describe('days sent as date-times', () => {
  async function teamIn(timeZone: string | null): Promise<{ api: TestApi; token: string; accountId: string }> {
    const api = await makeTestApi();
    const token = api.key('Acme');
    if (timeZone) {
      const { createUser } = await import('../../../src-main/store/users/users');
      createUser(api.db, api.team('Acme').id, { email: 'owner@example.com', passwordHash: 'x' });
      const zone = await api.call('PATCH', '/v1/users/me', { token, body: { timezone: timeZone } });
      expect(zone.statusCode, zone.body).toBe(200);
    }
    const account = await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Main', currency: 'EUR' } });
    return { api, token, accountId: account.json().id };
  }

  const dayOf = (transaction: { date: string }) => transaction.date.slice(0, 10);

  it("books a transaction sent with an instant on that instant's day in the team's time zone", async () => {
    const tx = (accountId: string, date: string) => ({
      name: 'Late',
      amount: -1,
      currency: 'EUR',
      date,
      bankAccountId: accountId,
    });
    // 12:30 UTC on 31 March is already 1 April in Auckland (UTC+13).
    const auckland = await teamIn('Pacific/Auckland');
    const one = await auckland.api.call('POST', '/v1/transactions', {
      token: auckland.token,
      body: tx(auckland.accountId, '2026-03-31T12:30:00.000Z'),
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(dayOf(one.json())).toBe('2026-04-01');
    const bulk = await auckland.api.call('POST', '/v1/transactions/bulk', {
      token: auckland.token,
      body: [
        tx(auckland.accountId, '2026-03-31T09:00:00-05:00'),
        tx(auckland.accountId, '2026-03-31T23:59:59'),
        tx(auckland.accountId, '2026-03-31'),
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    // 14:00 UTC is 03:00 on 1 April in Auckland; a wall-clock time and a date name their own day.
    expect(bulk.json().data.map(dayOf)).toEqual(['2026-04-01', '2026-03-31', '2026-03-31']);
    // A team without members counts in UTC.
    const plain = await teamIn(null);
    const utc = await plain.api.call('POST', '/v1/transactions', {
      token: plain.token,
      body: tx(plain.accountId, '2026-03-31T12:30:00Z'),
    });
    expect(dayOf(utc.json())).toBe('2026-03-31');
  });

  it("takes an invoice's date-times on their day in the invoice's time zone", async () => {
    const { api, token } = await teamIn(null);
    const utc = await api.call('POST', '/v1/invoices', {
      token,
      body: { issueDate: '2026-04-01T02:00:00Z', dueDate: '2026-04-30T23:00:00.000Z' },
    });
    expect(utc.statusCode, utc.body).toBe(201);
    expect(utc.json()).toMatchObject({ issueDate: '2026-04-01', dueDate: '2026-04-30' });
    const newYork = await api.call('POST', '/v1/invoices', {
      token,
      body: { timezone: 'America/New_York', issueDate: '2026-04-01T02:00:00Z' },
    });
    expect(newYork.json()).toMatchObject({ issueDate: '2026-03-31', dueDate: '2026-04-30' });
    const moved = await api.call('PUT', `/v1/invoices/${newYork.json().id}`, {
      token,
      body: { dueDate: '2026-05-15T03:00:00Z' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().dueDate).toBe('2026-05-14');
  });

  it.each(['31.03.2026', '2026-02-30', '2026-02-30T10:00:00Z', '2026-03-31 10:00', '2026-03-31T10:00:00+0200', 'tomorrow', ''])(
    'still refuses %j as a date, naming the field',
    async (value) => {
      const { api, token, accountId } = await teamIn(null);
      const tx = await api.call('POST', '/v1/transactions', {
        token,
        body: { name: 'X', amount: -1, currency: 'EUR', date: value, bankAccountId: accountId },
      });
      expect(tx.statusCode).toBe(422);
      expect(tx.json().fields).toEqual([{ location: 'body', path: 'date', message: expect.stringMatching(/must be a date/) }]);
      const invoice = await api.call('POST', '/v1/invoices', { token, body: { dueDate: value } });
      expect(invoice.statusCode).toBe(422);
      expect(invoice.json().fields[0]).toMatchObject({ location: 'body', path: 'dueDate' });
      expect((await api.call('GET', '/v1/transactions', { token })).json().data).toEqual([]);
    },
  );
});
