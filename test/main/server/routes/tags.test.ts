import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApi, type TestApi } from '../../../helpers/api';

let api: TestApi;
beforeAll(async () => {
  api = await makeTestApi({ rateLimitPerMinute: 1_000_000 }, 'file');
});

describe('tags', () => {
  it('CRUD with unique names per team (409 on a duplicate, ignoring case)', async () => {
    const t = api.key('tags-crud');
    const created = await api.call('POST', '/v1/tags', { token: t, body: { name: ' Enterprise ' } });
    expect(created.statusCode).toBe(201);
    const tag = created.json();
    expect(tag).toMatchObject({ name: 'Enterprise' });
    const dup = await api.call('POST', '/v1/tags', { token: t, body: { name: 'enterprise' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'Conflict' });
    const other = (await api.call('POST', '/v1/tags', { token: t, body: { name: 'SMB' } })).json();
    expect((await api.call('GET', `/v1/tags/${tag.id}`, { token: t })).json()).toEqual(tag);
    const list = (await api.call('GET', '/v1/tags', { token: t })).json();
    expect(list).toEqual({ data: [tag, other] });
    const renameDup = await api.call('PATCH', `/v1/tags/${other.id}`, { token: t, body: { name: 'ENTERPRISE' } });
    expect(renameDup.statusCode).toBe(409);
    const renamed = await api.call('PATCH', `/v1/tags/${other.id}`, { token: t, body: { name: 'Small business' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: other.id, name: 'Small business' });
    const sameCase = await api.call('PATCH', `/v1/tags/${tag.id}`, { token: t, body: { name: 'ENTERPRISE' } });
    expect(sameCase.statusCode).toBe(200);
    const del = await api.call('DELETE', `/v1/tags/${other.id}`, { token: t });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ id: other.id, name: 'Small business' });
    expect((await api.call('GET', `/v1/tags/${other.id}`, { token: t })).statusCode).toBe(404);
    expect((await api.call('DELETE', `/v1/tags/${other.id}`, { token: t })).statusCode).toBe(404);
    const team = api.team('tags-crud').id;
    const ops = api.db.prepare("SELECT entity_id, op FROM changes WHERE team_id = ? AND entity = 'tag' ORDER BY seq").all(team);
    expect(ops).toEqual([
      { entity_id: tag.id, op: 'upsert' },
      { entity_id: other.id, op: 'delete' },
    ]);
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 3 }, 'name'],
    [{ name: 'ok', color: 'red' }, 'color'],
  ])('POST /v1/tags %j → 422 naming %s', async (body, field) => {
    const res = await api.call('POST', '/v1/tags', { token: api.key('tags-validation'), body });
    expect(res.statusCode).toBe(422);
    expect(res.json().description).toContain(field);
  });

  it('removes a deleted tag from its customers', async () => {
    const t = api.key('tags-cascade');
    const tag = (await api.call('POST', '/v1/tags', { token: t, body: { name: 'doomed' } })).json();
    const c = (await api.call('POST', '/v1/customers', { token: t, body: { name: 'Carrier', tags: [{ id: tag.id }] } })).json();
    expect(c.tags).toEqual([{ id: tag.id, name: 'doomed' }]);
    await api.call('DELETE', `/v1/tags/${tag.id}`, { token: t });
    expect((await api.call('GET', `/v1/customers/${c.id}`, { token: t })).json().tags).toEqual([]);
  });

  it('keeps teams apart: another team’s tag is 404 and never listed; the same name is free in another team', async () => {
    const a = api.key('tags-iso-a');
    const b = api.key('tags-iso-b');
    const tag = (await api.call('POST', '/v1/tags', { token: a, body: { name: 'shared-name' } })).json();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'mine' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api.call(method, `/v1/tags/${tag.id}`, { token: b, body });
      expect(res.statusCode, method).toBe(404);
      expect(res.body).not.toContain('shared-name');
    }
    expect((await api.call('GET', '/v1/tags', { token: b })).json()).toEqual({ data: [] });
    expect((await api.call('POST', '/v1/tags', { token: b, body: { name: 'shared-name' } })).statusCode).toBe(201);
    expect((await api.call('GET', `/v1/tags/${tag.id}`, { token: a })).json().name).toBe('shared-name');
  });

  it('enforces tags.read / tags.write', async () => {
    const readOnly = api.key('tags-scope', ['tags.read']);
    expect((await api.call('GET', '/v1/tags', { token: readOnly })).statusCode).toBe(200);
    const denied = await api.call('POST', '/v1/tags', { token: readOnly, body: { name: 'x' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().description).toContain('tags.write');
    const customersOnly = api.key('tags-scope', ['customers.read']);
    expect((await api.call('GET', '/v1/tags', { token: customersOnly })).statusCode).toBe(403);
  });
});
