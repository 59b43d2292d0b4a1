/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { insertInvoice } from '../../store/customers/customer-fixtures';

let api: TestApi;
let token: string;
let tagId: string;

beforeAll(async () => {
  api = await makeTestApi({ rateLimitPerMinute: 1_000_000 }, 'file');
  token = api.key('validation-team');
  tagId = (await api.call('POST', '/v1/tags', { token, body: { name: 'vip' } })).json().id;
});

const long = (n: number) => 'x'.repeat(n);

/** [field, value, accepted] — every customer field with valid and invalid values. */
const CASES: [string, unknown, boolean][] = [
  ['name', 'A', true],
  ['name', '  Trimmed  ', true],
  ['name', '', false],
  ['name', '   ', false],
  ['name', long(201), false],
  ['name', 42, false],
  ['name', null, false],
  ['email', 'jane@example.com', true],
  ['email', null, true],
  ['email', '', true],
  ['email', 'not-an-email', false],
  ['email', 'jane@example', false],
  ['email', `${long(250)}@example.com`, false],
  ['email', 7, false],
  ['billingEmail', 'ap@example.co.uk', true],
  ['billingEmail', null, true],
  ['billingEmail', 'ap at example.com', false],
  ['billingEmail', ['ap@example.com'], false],
  ['phone', '+49 30 1234567', true],
  ['phone', '(555) 123-4567 ext. 12', true],
  ['phone', null, true],
  ['phone', 'call me maybe', false],
  ['phone', `+${'1'.repeat(60)}`, false],
  ['website', 'acme.com', true],
  ['website', 'https://acme.com/about?x=1', true],
  ['website', null, true],
  ['website', 'not a url', false],
  ['website', 'localhost', false],
  ['website', `https://${long(2050)}.com`, false],
  ['contact', 'Jane Doe', true],
  ['contact', null, true],
  ['contact', long(201), false],
  ['contact', { first: 'Jane' }, false],
  ['country', 'Germany', true],
  ['country', long(101), false],
  ['countryCode', 'DE', true],
  ['countryCode', 'de', true],
  ['countryCode', null, true],
  ['countryCode', 'XX', false],
  ['countryCode', 'XK', false],
  ['countryCode', 'DEU', false],
  ['countryCode', 'D', false],
  ['countryCode', 49, false],
  ['addressLine1', 'Hauptstraße 1', true],
  ['addressLine1', long(201), false],
  ['addressLine2', 'Hinterhaus', true],
  ['addressLine2', long(201), false],
  ['city', 'Berlin', true],
  ['city', long(101), false],
  ['state', 'Berlin', true],
  ['state', long(101), false],
  ['zip', '10115', true],
  ['zip', long(21), false],
  ['zip', 10115, false],
  ['vatNumber', 'DE123456789', true],
  ['vatNumber', 'BE 0123.456.789', true],
  ['vatNumber', 'DE#123', false],
  ['vatNumber', long(41), false],
  ['peppolId', '0088:4000001000005', true],
  ['peppolId', '0088:5790000435968', true],
  // Identifiers whose check digits Peppol checks (PEPPOL-COMMON-R040…R050): a wrong one is refused here already.
  ['peppolId', '0088:1234567890123', false],
  ['peppolId', '0088:4000001000006', false],
  ['peppolId', '0192:745707328', false],
  ['peppolId', '0192:74570732', false],
  ['peppolId', '0208:0123456789', false],
  ['peppolId', '0208:403019261', false],
  ['peppolId', '0007:2120000788', false],
  ['peppolId', '0184:DK1234567', false],
  ['peppolId', '0184:DK12345678', true],
  ['peppolId', '0151:51824753556', true],
  ['peppolId', '0151:51824753557', false],
  ['peppolId', '0192:745707327', true],
  ['peppolId', '9925:BE0123456789', true],
  ['peppolId', '0204:991-01234-12', true],
  ['peppolId', '9930:DE123456789', true],
  ['peppolId', '0007:2120000787', true],
  ['peppolId', '0009:78430177200025', true],
  ['peppolId', '0060:812810734', true],
  ['peppolId', '0208:0403019261', true],
  ['peppolId', '9909:NO990399123MVA', true],
  ['peppolId', null, true],
  ['peppolId', '0037:003712345678', false],
  ['peppolId', '9958:123', false],
  ['peppolId', '1234:abc', false],
  ['peppolId', '088:123', false],
  ['peppolId', 'GLN:1234567890123', false],
  ['peppolId', '0088', false],
  ['peppolId', '0088:', false],
  ['peppolId', '0088:has space', false],
  ['peppolId', `0088:${long(51)}`, false],
  ['note', 'Pays on time', true],
  ['note', long(10_000), true],
  ['note', long(10_001), false],
  ['tags', [], true],
  ['tags', ['vip'], false],
  ['tags', [{ name: 'vip' }], false],
  ['tags', [{ id: '01900000-0000-7000-8000-000000000000' }], false],
  ['tags', 'vip', false],
  ['externalId', 'ext-1', false],
  ['metadata', { a: 1 }, false],
];

describe('customer field validation', () => {
  it.each(CASES)('POST %s = %j → accepted: %s', async (field, value, ok) => {
    const body = { name: 'Valid Name', [field]: value };
    const res = await api.call('POST', '/v1/customers', { token, body });
    if (ok) {
      expect(res.statusCode, res.body).toBe(201);
    } else {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().description).toContain(field);
    }
  });

  it.each(CASES.filter(([, , ok]) => !ok))('PATCH %s = %j → 422 naming the field', async (field, value) => {
    const id = (await api.call('POST', '/v1/customers', { token, body: { name: 'Patch Target' } })).json().id;
    const res = await api.call('PATCH', `/v1/customers/${id}`, { token, body: { [field]: value } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().description).toContain(field);
    expect(res.json()).toMatchObject({ error: 'Unprocessable Entity', requestId: res.headers['x-request-id'] });
  });

  it('accepts the team’s tag and stores the canonical name; normalises text and country', async () => {
    const res = await api.call('POST', '/v1/customers', {
      token,
      body: { name: '  Acme  ', countryCode: 'fr', tags: [{ id: tagId, name: 'whatever' }, { id: tagId }], email: '' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Acme',
      countryCode: 'FR',
      country: 'France',
      email: null,
      tags: [{ id: tagId, name: 'vip' }],
    });
  });

  it('answers malformed JSON with 400 and a missing body with an error, never 500', async () => {
    const bad = await api.call('POST', '/v1/customers', { token, body: '{"name": "x",' });
    expect(bad.statusCode).toBe(400);
    const empty = await api.call('POST', '/v1/customers', { token, body: {} });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().description).toContain('name');
  });
});

describe('list query validation', () => {
  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
    ['pageSize=abc', 'pageSize'],
    ['sort=nope', 'sort'],
    ['sort=name&sort=up', 'sort'],
    ['sort=name&sort=asc&sort=x', 'sort'],
    ['tab=vip', 'tab'],
    ['countries=XX', 'countries'],
    ['countries=DE&countries=nope', 'countries'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['cursor=garbage', 'cursor'],
  ])('GET /v1/customers?%s → 422 naming %s', async (qs, field) => {
    const res = await api.call('GET', `/v1/customers?${qs}`, { token });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().description).toContain(field);
  });

  it.each(['q=%22', 'q=*', 'q=AND(', 'q=%E2%80%AE%F0%9F%99%82', 'q=NEAR(x', "q=';--", 'q=%00'])(
    'hostile search %s → 200',
    async (qs) => {
      const res = await api.call('GET', `/v1/customers?${qs}`, { token });
      expect(res.statusCode, res.body).toBe(200);
    },
  );
});

describe('upsert, patch, delete', () => {
  it('POST updates the customer with the same id, else the same email (any case), else creates; always 201', async () => {
    const t = api.key('upsert-team');
    const first = (
      await api.call('POST', '/v1/customers', { token: t, body: { name: 'First', email: 'Boss@Acme.example', city: 'Rome' } })
    ).json();
    const byEmail = await api.call('POST', '/v1/customers', {
      token: t,
      body: { name: 'First Renamed', email: 'boss@acme.EXAMPLE' },
    });
    expect(byEmail.statusCode).toBe(201);
    expect(byEmail.json()).toMatchObject({ id: first.id, name: 'First Renamed', email: 'boss@acme.EXAMPLE', city: 'Rome' });
    const byId = await api.call('POST', '/v1/customers', {
      token: t,
      body: { id: first.id, name: 'By Id', email: 'new@acme.example' },
    });
    expect(byId.statusCode).toBe(201);
    expect(byId.json()).toMatchObject({ id: first.id, name: 'By Id', email: 'new@acme.example', city: 'Rome' });
    // An id no record holds: created with that id (the hosted service's upsert by id; sync replicas rely on it).
    const unknownId = await api.call('POST', '/v1/customers', { token: t, body: { id: 'client-chosen-1', name: 'Other' } });
    expect(unknownId.statusCode).toBe(201);
    expect(unknownId.json().id).toBe('client-chosen-1');
    // An id that is no usable id (too short), or another team's customer's: a new service-assigned id.
    const tooShort = await api.call('POST', '/v1/customers', { token: t, body: { id: 'x1', name: 'Short' } });
    expect(tooShort.json().id).not.toBe('x1');
    const theirs = (await api.call('POST', '/v1/customers', { token: api.key('Other team'), body: { name: 'Theirs' } })).json()
      .id;
    const notTheirs = await api.call('POST', '/v1/customers', { token: t, body: { id: theirs, name: 'Mine' } });
    expect(notTheirs.json().id).not.toBe(theirs);
    expect((await api.call('GET', `/v1/customers/${theirs}`, { token: api.key('Other team') })).json().name).toBe('Theirs');
    const noEmail = await api.call('POST', '/v1/customers', { token: t, body: { name: 'By Id' } });
    expect(noEmail.json().id).not.toBe(first.id);
    const list = (await api.call('GET', '/v1/customers', { token: t })).json();
    // first, 'Other' (the chosen id), 'Short', 'Mine', and the one without an email.
    expect(list.data).toHaveLength(5);
  });

  it('PATCH changes only supplied fields; null clears; tags replace when supplied and stay when omitted', async () => {
    const t = api.key('patch-team');
    const tagA = (await api.call('POST', '/v1/tags', { token: t, body: { name: 'a' } })).json().id;
    const tagB = (await api.call('POST', '/v1/tags', { token: t, body: { name: 'b' } })).json().id;
    const c = (
      await api.call('POST', '/v1/customers', {
        token: t,
        body: { name: 'Patchy', email: 'p@x.example', phone: '+1 555 0100', countryCode: 'DE', tags: [{ id: tagA }] },
      })
    ).json();
    const p1 = await api.call('PATCH', `/v1/customers/${c.id}`, { token: t, body: { phone: '+1 555 0199' } });
    expect(p1.statusCode).toBe(200);
    expect(p1.json()).toMatchObject({
      name: 'Patchy',
      email: 'p@x.example',
      phone: '+1 555 0199',
      country: 'Germany',
      tags: [{ id: tagA, name: 'a' }],
    });
    const p2 = (
      await api.call('PATCH', `/v1/customers/${c.id}`, { token: t, body: { email: null, tags: [{ id: tagB }, { id: tagA }] } })
    ).json();
    expect(p2.email).toBeNull();
    expect(p2.tags).toEqual([
      { id: tagA, name: 'a' },
      { id: tagB, name: 'b' },
    ]);
    const p3 = (
      await api.call('PATCH', `/v1/customers/${c.id}`, { token: t, body: { tags: [{ id: tagB }], countryCode: 'JP' } })
    ).json();
    expect(p3.tags).toEqual([{ id: tagB, name: 'b' }]);
    expect(p3).toMatchObject({ countryCode: 'JP', country: 'Japan', phone: '+1 555 0199' });
    const p4 = (await api.call('PATCH', `/v1/customers/${c.id}`, { token: t, body: { tags: [], countryCode: null } })).json();
    expect(p4).toMatchObject({ tags: [], countryCode: null, country: null });
    const p5 = (await api.call('PATCH', `/v1/customers/${c.id}`, { token: t, body: { country: 'Atlantis' } })).json();
    expect(p5).toMatchObject({ country: 'Atlantis', countryCode: null });
    const noop = await api.call('PATCH', `/v1/customers/${c.id}`, { token: t, body: {} });
    expect(noop.statusCode).toBe(200);
    expect(noop.json().updatedAt).toBe(p5.updatedAt);
    const nameNull = await api.call('PATCH', `/v1/customers/${c.id}`, { token: t, body: { name: null } });
    expect(nameNull.statusCode).toBe(422);
  });

  it('DELETE returns the deleted customer and keeps its invoices', async () => {
    const t = api.key('delete-team');
    const team = api.team('delete-team').id;
    const c = (await api.call('POST', '/v1/customers', { token: t, body: { name: 'Leaving' } })).json();
    const invoiceId = insertInvoice(api.db, team, c.id, {
      status: 'paid',
      currency: 'EUR',
      amountMinor: 4200,
      issueDate: '2026-01-01',
    });
    const del = await api.call('DELETE', `/v1/customers/${c.id}`, { token: t });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ id: c.id, name: 'Leaving', totalRevenue: 42, invoiceCount: 1 });
    expect(api.db.prepare('SELECT customer_id FROM invoices WHERE id = ?').pluck().get(invoiceId)).toBe(c.id);
    expect((await api.call('GET', `/v1/customers/${c.id}`, { token: t })).statusCode).toBe(404);
    expect((await api.call('DELETE', `/v1/customers/${c.id}`, { token: t })).statusCode).toBe(404);
    expect((await api.call('PATCH', `/v1/customers/${c.id}`, { token: t, body: { name: 'x' } })).statusCode).toBe(404);
    const tomb = api.db
      .prepare("SELECT op FROM changes WHERE team_id = ? AND entity = 'customer' AND entity_id = ?")
      .pluck()
      .get(team, c.id);
    expect(tomb).toBe('delete');
  });
});

describe('team isolation', () => {
  it('another team’s customer is 404 everywhere and never listed or searched', async () => {
    const mine = api.key('iso-a');
    const theirs = api.key('iso-b');
    const secretTag = (await api.call('POST', '/v1/tags', { token: mine, body: { name: 'secret-tag' } })).json().id;
    const c = (
      await api.call('POST', '/v1/customers', {
        token: mine,
        body: { name: 'Zyxwv Secret', email: 'secret@a.example', tags: [{ id: secretTag }] },
      })
    ).json();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'hijack' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api.call(method, `/v1/customers/${c.id}`, { token: theirs, body });
      expect(res.statusCode, method).toBe(404);
      expect(res.body).not.toContain('Zyxwv');
    }
    const list = (await api.call('GET', '/v1/customers', { token: theirs })).json();
    expect(list.data.map((x: { id: string }) => x.id)).not.toContain(c.id);
    const search = (await api.call('GET', '/v1/customers?q=zyxwv', { token: theirs })).json();
    expect(search.data).toEqual([]);
    const byTag = (await api.call('GET', `/v1/customers?tags=${secretTag}`, { token: theirs })).json();
    expect(byTag.data).toEqual([]);
    // Upsert by their id or email creates their own record; it never touches mine.
    const viaId = (await api.call('POST', '/v1/customers', { token: theirs, body: { id: c.id, name: 'Mine Now?' } })).json();
    expect(viaId.id).not.toBe(c.id);
    const viaEmail = (
      await api.call('POST', '/v1/customers', { token: theirs, body: { name: 'Also?', email: 'secret@a.example' } })
    ).json();
    expect(viaEmail.id).not.toBe(c.id);
    // My tag is not theirs to use.
    const withTag = await api.call('POST', '/v1/customers', {
      token: theirs,
      body: { name: 'Tagged', tags: [{ id: secretTag }] },
    });
    expect(withTag.statusCode).toBe(422);
    expect(withTag.json().description).toContain('tags');
    expect((await api.call('GET', `/v1/customers/${c.id}`, { token: mine })).json()).toMatchObject({ name: 'Zyxwv Secret' });
  });

  it('enforces customers.read / customers.write', async () => {
    const readOnly = api.key('scope-team', ['customers.read']);
    expect((await api.call('GET', '/v1/customers', { token: readOnly })).statusCode).toBe(200);
    const denied = await api.call('POST', '/v1/customers', { token: readOnly, body: { name: 'x' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().description).toContain('customers.write');
    expect((await api.call('GET', '/v1/customers')).statusCode).toBe(401);
    expect((await api.call('GET', '/v1/customers', { token: 'finops_nope' })).statusCode).toBe(401);
  });
});

describe('list over HTTP', () => {
  it('accepts the hosted sort form, repeated or single filters, and returns the page wrapper', async () => {
    const t = api.key('list-team');
    const tag = (await api.call('POST', '/v1/tags', { token: t, body: { name: 'gold' } })).json().id;
    for (const [name, countryCode, tags] of [
      ['Bravo', 'DE', [{ id: tag }]],
      ['alpha', 'FR', []],
      ['Charlie', 'US', [{ id: tag }]],
    ] as const) {
      await api.call('POST', '/v1/customers', { token: t, body: { name, countryCode, tags } });
    }
    const sorted = (await api.call('GET', '/v1/customers?sort=name&sort=asc', { token: t })).json();
    expect(sorted.data.map((c: { name: string }) => c.name)).toEqual(['alpha', 'Bravo', 'Charlie']);
    expect(sorted.meta).toEqual({ cursor: null, hasNextPage: false, hasPreviousPage: false });
    expect(Object.keys(sorted).sort()).toEqual(['data', 'meta']); // no total count: a keyset page never counts
    const desc = (await api.call('GET', '/v1/customers?sort=name&sort=desc', { token: t })).json();
    expect(desc.data.map((c: { name: string }) => c.name)).toEqual(['Charlie', 'Bravo', 'alpha']);
    const single = (await api.call('GET', '/v1/customers?countries=de&sort=name', { token: t })).json();
    expect(single.data.map((c: { name: string }) => c.name)).toEqual(['Bravo']);
    const multi = (await api.call('GET', '/v1/customers?countries=DE&countries=FR&sort=name', { token: t })).json();
    expect(multi.data.map((c: { name: string }) => c.name)).toEqual(['alpha', 'Bravo']);
    const byTag = (await api.call('GET', `/v1/customers?tags=${tag}&sort=name`, { token: t })).json();
    expect(byTag.data.map((c: { name: string }) => c.name)).toEqual(['Bravo', 'Charlie']);
    const page = (await api.call('GET', '/v1/customers?pageSize=2&sort=name', { token: t })).json();
    expect(page.data).toHaveLength(2);
    expect(page.meta.hasNextPage).toBe(true);
    const next = (await api.call('GET', `/v1/customers?pageSize=2&sort=name&cursor=${page.meta.cursor}`, { token: t })).json();
    expect(next.data.map((c: { name: string }) => c.name)).toEqual(['Charlie']);
    expect(next.meta).toEqual({ cursor: null, hasNextPage: false, hasPreviousPage: true });
    const wrongQuery = await api.call('GET', `/v1/customers?pageSize=2&sort=created_at&cursor=${page.meta.cursor}`, { token: t });
    expect(wrongQuery.statusCode).toBe(422);
    expect(wrongQuery.json().description).toContain('cursor');
  });

  it('a walk over real HTTP while another client inserts and deletes never skips or repeats a surviving row', async () => {
    const t = api.key('walk-team');
    const other = api.key('walk-team');
    const base = await api.listen();
    const http = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res.json();
    };
    const initial: string[] = [];
    for (let i = 0; i < 60; i++)
      initial.push((await http('POST', '/v1/customers', t, { name: `walker ${String(i).padStart(2, '0')}` })).id);

    for (const sort of ['', '&sort=name&sort=asc', '&sort=name&sort=desc']) {
      const deleted = new Set<string>();
      const alive = initial.filter((id) => api.db.prepare('SELECT 1 FROM customers WHERE id = ?').get(id));
      const seen: string[] = [];
      let cursor: string | null = null;
      let step = 0;
      do {
        const pagePromise = http('GET', `/v1/customers?pageSize=7${sort}${cursor ? `&cursor=${cursor}` : ''}`, t);
        // The other client writes concurrently with the page request: one insert, one delete of a random survivor.
        const writes = (async () => {
          await http('POST', '/v1/customers', other, { name: `walker new ${step} ${sort.length}` });
          const victims = alive.filter((id) => !deleted.has(id));
          const victim = victims[(step * 7919) % victims.length];
          if (victim && step % 2 === 0) {
            deleted.add(victim);
            await http('DELETE', `/v1/customers/${victim}`, other);
          }
        })();
        const [page] = await Promise.all([pagePromise, writes]);
        seen.push(...page.data.map((c: { id: string }) => c.id));
        cursor = page.meta.cursor;
        step++;
      } while (cursor);
      expect(new Set(seen).size, `no repeats ${sort}`).toBe(seen.length);
      const survivors = alive.filter((id) => !deleted.has(id));
      for (const id of survivors) expect(seen, `survivor ${id} ${sort}`).toContain(id);
    }
  });
});
