/**
 * Tracker projects, entries and the timer through the real app over a real SQLite file: totals in exact minor units,
 * bulk create all-or-nothing, the hosted grouped range list, the timer's stop-and-discard rules, team isolation, and
 * parallel timer starts over real HTTP on loopback leaving exactly one running timer.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../../src-main/store/users/users';
import { TrackerEntry, TrackerEntryRange, TrackerProject } from '../../../../src-shared/contract/tracker';
import { makeTestApi, type TestApi } from '../../../helpers/api';

async function setup(): Promise<{ api: TestApi; token: string; teamId: string; userId: string }> {
  const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
  const token = api.key('Acme');
  const teamId = api.team('Acme').id;
  const { user } = createUser(api.db, teamId, { email: 'owner@acme.test', passwordHash: 'x', fullName: 'Olga Owner' });
  return { api, token, teamId, userId: user.id };
}

async function project(api: TestApi, token: string, body: Record<string, unknown>): Promise<TrackerProject> {
  const res = await api.call('POST', '/v1/tracker-projects', { token, body });
  expect(res.statusCode, res.body).toBe(200);
  return TrackerProject.parse(res.json());
}

describe('tracker projects', () => {
  it('creates a project with defaults, customer and tags; totals follow entries in exact minor units', async () => {
    const { api, token } = await setup();
    const customer = (await api.call('POST', '/v1/customers', { token, body: { name: 'Client Co' } })).json();
    const tag = (await api.call('POST', '/v1/tags', { token, body: { name: 'design' } })).json();
    const p = await project(api, token, {
      name: 'Website',
      rate: 97.5,
      estimate: 40,
      customerId: customer.id,
      tags: [{ id: tag.id }],
    });
    expect(p).toMatchObject({
      name: 'Website',
      billable: true,
      rate: 97.5,
      currency: 'EUR',
      status: 'in_progress',
      customer: { id: customer.id, name: 'Client Co' },
      tags: [{ id: tag.id, name: 'design' }],
      totalDuration: 0,
      totalAmount: 0,
    });
    // 20 min at 97.50/h = 32.50; 7 s = 0.189583… → 0.19 (half up per entry); 1 h 1 s = 97.527… → 97.53.
    const entries = [
      { start: '2025-03-03T09:00:00Z', stop: '2025-03-03T09:20:00Z' },
      { start: '2025-03-03T10:00:00Z', duration: 7 },
      { start: '2025-03-04T10:00:00Z', duration: 3601 },
    ];
    for (const e of entries) {
      const res = await api.call('POST', '/v1/tracker-entries', { token, body: { projectId: p.id, ...e } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const after = TrackerProject.parse((await api.call('GET', `/v1/tracker-projects/${p.id}`, { token })).json());
    expect(after.totalDuration).toBe(1200 + 7 + 3601);
    expect(after.totalAmount).toBe(130.22); // 32.50 + 0.19 + 97.53: each entry rounded, then summed
  });

  it('validates references and money: unknown customer or tag 422, too many decimals 422, JPY rate whole', async () => {
    const { api, token } = await setup();
    const other = api.key('Other');
    const foreignCustomer = (await api.call('POST', '/v1/customers', { token: other, body: { name: 'Theirs' } })).json();
    for (const body of [
      { name: 'X', customerId: foreignCustomer.id },
      { name: 'X', tags: [{ id: 'nope' }] },
      { name: 'X', rate: 10.555 },
      { name: 'X', rate: 10.5, currency: 'JPY' },
      { name: 'X', currency: 'XXXX' },
      { name: '' },
      { name: 'X', unknown: 1 },
    ]) {
      const res = await api.call('POST', '/v1/tracker-projects', { token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().error).toBe('Unprocessable Entity');
    }
    const yen = await project(api, token, { name: 'Yen', rate: 5000, currency: 'jpy' });
    expect(yen).toMatchObject({ rate: 5000, currency: 'JPY' });
  });

  it('patches only the supplied fields; a currency change keeps the rate figure; tags replace the set', async () => {
    const { api, token } = await setup();
    const t1 = (await api.call('POST', '/v1/tags', { token, body: { name: 'a' } })).json();
    const t2 = (await api.call('POST', '/v1/tags', { token, body: { name: 'b' } })).json();
    const p = await project(api, token, { name: 'P', rate: 80, tags: [{ id: t1.id }] });
    const res = await api.call('PATCH', `/v1/tracker-projects/${p.id}`, {
      token,
      body: { currency: 'USD', tags: [{ id: t2.id }], status: 'completed' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'P', rate: 80, currency: 'USD', status: 'completed', tags: [{ name: 'b' }] });
    const cleared = await api.call('PATCH', `/v1/tracker-projects/${p.id}`, { token, body: { rate: null, billable: false } });
    expect(cleared.json()).toMatchObject({ rate: null, billable: false });
  });

  it('lists with search, filters, sort by time and a keyset cursor; never another team’s', async () => {
    const { api, token } = await setup();
    const other = api.key('Other');
    await project(api, other, { name: 'Alpha elsewhere' });
    const names = ['Alpha launch', 'Beta migration', 'Gamma audit', 'Alpha support'];
    const made: TrackerProject[] = [];
    for (const name of names) made.push(await project(api, token, { name, rate: 100 }));
    // Time: Gamma 3 h, Beta 2 h, others 0.
    const hours = { 'Gamma audit': 3, 'Beta migration': 2 } as Record<string, number>;
    for (const p of made) {
      if (!hours[p.name]) continue;
      await api.call('POST', '/v1/tracker-entries', {
        token,
        body: { projectId: p.id, start: '2025-01-01T08:00:00Z', duration: hours[p.name]! * 3600 },
      });
    }
    const search = (await api.call('GET', '/v1/tracker-projects?q=alph', { token })).json();
    expect(search.data.map((p: TrackerProject) => p.name).sort()).toEqual(['Alpha launch', 'Alpha support']);
    const byTime = (await api.call('GET', '/v1/tracker-projects?sort=time&sort=desc', { token })).json();
    expect(byTime.data.slice(0, 2).map((p: TrackerProject) => [p.name, p.totalAmount])).toEqual([
      ['Gamma audit', 300],
      ['Beta migration', 200],
    ]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: TrackerProject[]; meta: { cursor: string | null } } = (
        await api.call('GET', `/v1/tracker-projects?pageSize=3&sort=name${cursor ? `&cursor=${cursor}` : ''}`, { token })
      ).json();
      seen.push(...page.data.map((p: TrackerProject) => p.name));
      cursor = page.meta.cursor;
    } while (cursor);
    expect(seen).toEqual([...names].sort());
    const foreign = await api.call('GET', `/v1/tracker-projects/${made[0]!.id}`, { token: other });
    expect(foreign.statusCode).toBe(404);
  });

  it('deleting a project deletes its entries, each with a tombstone in the change feed', async () => {
    const { api, token, teamId } = await setup();
    const p = await project(api, token, { name: 'Gone' });
    const e = (
      await api.call('POST', '/v1/tracker-entries', {
        token,
        body: { projectId: p.id, start: '2025-01-01T08:00:00Z', duration: 600 },
      })
    ).json();
    const res = await api.call('DELETE', `/v1/tracker-projects/${p.id}`, { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, totalDuration: 600 });
    const ops = api.db
      .prepare("SELECT entity, op FROM changes WHERE team_id = ? AND entity LIKE 'tracker_%' ORDER BY entity")
      .all(teamId);
    expect(ops).toEqual([
      { entity: 'tracker_entry', op: 'delete' },
      { entity: 'tracker_project', op: 'delete' },
    ]);
    expect((await api.call('GET', `/v1/tracker-entries/${e.id}`, { token })).statusCode).toBe(404);
  });
});

describe('tracker entries', () => {
  it('derives stop, duration and date; assigns the acting user; validates the timing', async () => {
    const { api, token, userId } = await setup();
    api.db.prepare("UPDATE users SET timezone = 'Pacific/Auckland' WHERE id = ?").run(userId);
    const p = await project(api, token, { name: 'P', rate: 60 });
    const res = await api.call('POST', '/v1/tracker-entries', {
      token,
      body: { projectId: p.id, start: '2025-03-03T20:00:00+00:00', duration: 5400, description: 'Review' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const e = TrackerEntry.parse(res.json());
    expect(e).toMatchObject({
      start: '2025-03-03T20:00:00.000Z',
      stop: '2025-03-03T21:30:00.000Z',
      duration: 5400,
      date: '2025-03-04', // 09:00 the next morning in Auckland
      assignedId: userId,
      assigned: { fullName: 'Olga Owner' },
      amount: 90,
      currency: 'EUR',
      running: false,
      billed: false,
    });
    for (const body of [
      { projectId: p.id, start: '2025-03-03T20:00:00Z' },
      { projectId: p.id, start: '2025-03-03T20:00:00Z', stop: '2025-03-03T19:00:00Z' },
      { projectId: p.id, start: '2025-03-03T20:00:00Z', stop: '2025-03-03T20:10:00Z', duration: 3600 },
      { projectId: p.id, start: 'yesterday', duration: 60 },
      { projectId: 'nope', start: '2025-03-03T20:00:00Z', duration: 60 },
      { projectId: p.id, start: '2025-03-03T20:00:00Z', duration: 60, assignedId: 'stranger' },
    ]) {
      const bad = await api.call('POST', '/v1/tracker-entries', { token, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it('bulk creates up to 100 entries, all or nothing', async () => {
    const { api, token, teamId } = await setup();
    const p = await project(api, token, { name: 'Bulk', rate: 10 });
    const ok = Array.from({ length: 100 }, (_, i) => ({
      projectId: p.id,
      start: new Date(Date.UTC(2025, 0, 1 + (i % 10), 8)).toISOString(),
      duration: 1800,
    }));
    const res = await api.call('POST', '/v1/tracker-entries/bulk', { token, body: ok });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(100);
    const tooMany = await api.call('POST', '/v1/tracker-entries/bulk', { token, body: [...ok, ok[0]] });
    expect(tooMany.statusCode).toBe(422);
    const count = () => api.db.prepare('SELECT count(*) FROM tracker_entries WHERE team_id = ?').pluck().get(teamId);
    const broken = [...ok.slice(0, 5), { projectId: 'missing', start: '2025-01-01T08:00:00Z', duration: 60 }];
    const bad = await api.call('POST', '/v1/tracker-entries/bulk', { token, body: { entries: broken } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().description).toContain('[5].projectId');
    expect(count()).toBe(100);
  });

  it('lists a date range grouped by date with totals per day and currency', async () => {
    const { api, token } = await setup();
    const other = api.key('Other');
    const eur = await project(api, token, { name: 'EUR', rate: 100 });
    const usd = await project(api, token, { name: 'USD', rate: 50, currency: 'USD' });
    const theirs = await project(api, other, { name: 'Theirs', rate: 1 });
    const add = (tok: string, projectId: string, start: string, duration: number) =>
      api.call('POST', '/v1/tracker-entries', { token: tok, body: { projectId, start, duration } });
    await add(token, eur.id, '2025-02-01T09:00:00Z', 3600);
    await add(token, eur.id, '2025-02-01T13:00:00Z', 1800);
    await add(token, usd.id, '2025-02-02T09:00:00Z', 7200);
    await add(token, eur.id, '2025-02-10T09:00:00Z', 3600); // outside the range
    await add(other, theirs.id, '2025-02-01T09:00:00Z', 3600);
    const res = await api.call('GET', '/v1/tracker-entries?from=2025-02-01&to=2025-02-07', { token });
    expect(res.statusCode, res.body).toBe(200);
    const range = TrackerEntryRange.parse(res.json());
    expect(Object.keys(range.result)).toEqual(['2025-02-01', '2025-02-02']);
    expect(range.result['2025-02-01']).toHaveLength(2);
    expect(range.meta).toMatchObject({
      from: '2025-02-01',
      to: '2025-02-07',
      totalDuration: 3600 + 1800 + 7200,
      currency: 'EUR',
      totalAmount: 150,
      byCurrency: [
        { currency: 'EUR', amount: 150 },
        { currency: 'USD', amount: 100 },
      ],
    });
    expect(range.totals['2025-02-01']).toEqual({ totalDuration: 5400, byCurrency: [{ currency: 'EUR', amount: 150 }] });
    const onlyUsd = TrackerEntryRange.parse(
      (await api.call('GET', `/v1/tracker-entries?from=2025-02-01&to=2025-02-07&projectId=${usd.id}`, { token })).json(),
    );
    expect(onlyUsd.meta).toMatchObject({ currency: 'USD', totalAmount: 100, totalDuration: 7200 });
    expect((await api.call('GET', '/v1/tracker-entries?from=2025-02-07&to=2025-02-01', { token })).statusCode).toBe(422);
    expect((await api.call('GET', '/v1/tracker-entries?from=2020-01-01&to=2025-02-01', { token })).statusCode).toBe(422);
  });

  it('patches time (duration follows) and deletes; another team’s entry is 404', async () => {
    const { api, token } = await setup();
    const other = api.key('Other');
    const p = await project(api, token, { name: 'P' });
    const e = (
      await api.call('POST', '/v1/tracker-entries', {
        token,
        body: { projectId: p.id, start: '2025-01-01T08:00:00Z', duration: 600 },
      })
    ).json();
    const moved = await api.call('PATCH', `/v1/tracker-entries/${e.id}`, { token, body: { stop: '2025-01-01T09:00:00Z' } });
    expect(moved.json()).toMatchObject({ duration: 3600, stop: '2025-01-01T09:00:00.000Z' });
    const shorter = await api.call('PATCH', `/v1/tracker-entries/${e.id}`, { token, body: { duration: 1200 } });
    expect(shorter.json()).toMatchObject({ duration: 1200, stop: '2025-01-01T08:20:00.000Z' });
    expect(
      (await api.call('PATCH', `/v1/tracker-entries/${e.id}`, { token: other, body: { description: 'x' } })).statusCode,
    ).toBe(404);
    expect((await api.call('DELETE', `/v1/tracker-entries/${e.id}`, { token: other })).statusCode).toBe(404);
    expect((await api.call('DELETE', `/v1/tracker-entries/${e.id}`, { token })).json()).toMatchObject({ id: e.id });
    expect((await api.call('GET', `/v1/tracker-entries/${e.id}`, { token })).statusCode).toBe(404);
  });
});

describe('timer', () => {
  it('starts (201), reports status and current, stops keeping an entry of 60 s or more', async () => {
    const { api, token, userId } = await setup();
    const p = await project(api, token, { name: 'Timer', rate: 120 });
    const idle = (await api.call('GET', '/v1/tracker-entries/timer/status', { token })).json();
    // Wrapped as data, as the hosted service answers it.
    expect(idle).toEqual({ data: { isRunning: false, currentEntry: null, elapsedTime: 0 } });
    expect((await api.call('GET', '/v1/tracker-entries/timer/current', { token })).json()).toEqual({ data: null });
    const start = new Date(Date.now() - 90_000).toISOString();
    const started = await api.call('POST', '/v1/tracker-entries/timer/start', { token, body: { projectId: p.id, start } });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({ running: true, stop: null, assignedId: userId, amount: 0 });
    const status = (await api.call('GET', '/v1/tracker-entries/timer/status', { token })).json().data;
    expect(status.isRunning).toBe(true);
    expect(status.elapsedTime).toBeGreaterThanOrEqual(90);
    expect(status.currentEntry.id).toBe(started.json().id);
    const stopped = await api.call('POST', '/v1/tracker-entries/timer/stop', { token });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ discarded: false, running: false, id: started.json().id });
    expect(stopped.json().duration).toBeGreaterThanOrEqual(90);
    expect((await api.call('GET', `/v1/tracker-entries/${started.json().id}`, { token })).statusCode).toBe(200);
    const none = await api.call('POST', '/v1/tracker-entries/timer/stop', { token, body: {} });
    expect(none.statusCode).toBe(409);
  });

  it('discards an entry stopped under 60 seconds and says so', async () => {
    const { api, token, teamId } = await setup();
    const p = await project(api, token, { name: 'Short' });
    const started = (await api.call('POST', '/v1/tracker-entries/timer/start', { token, body: { projectId: p.id } })).json();
    const stopped = await api.call('POST', '/v1/tracker-entries/timer/stop', { token, body: { entryId: started.id } });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ discarded: true, id: started.id });
    expect(stopped.json().duration).toBeLessThan(60);
    expect(api.db.prepare('SELECT count(*) FROM tracker_entries WHERE team_id = ?').pluck().get(teamId)).toBe(0);
    const change = api.db.prepare('SELECT op FROM changes WHERE team_id = ? AND entity_id = ?').pluck().get(teamId, started.id);
    expect(change).toBe('delete');
  });

  it('a start stops the running timer first', async () => {
    const { api, token } = await setup();
    const a = await project(api, token, { name: 'A' });
    const b = await project(api, token, { name: 'B' });
    const first = (
      await api.call('POST', '/v1/tracker-entries/timer/start', {
        token,
        body: { projectId: a.id, start: new Date(Date.now() - 600_000).toISOString() },
      })
    ).json();
    const second = (await api.call('POST', '/v1/tracker-entries/timer/start', { token, body: { projectId: b.id } })).json();
    const firstNow = (await api.call('GET', `/v1/tracker-entries/${first.id}`, { token })).json();
    expect(firstNow.running).toBe(false);
    expect(firstNow.stop).toBe(second.start);
    expect(firstNow.duration).toBeGreaterThanOrEqual(600);
    expect((await api.call('GET', '/v1/tracker-entries/timer/current', { token })).json().data.id).toBe(second.id);
  });

  it('parallel starts over real HTTP leave exactly one running timer', async () => {
    const { api, token, teamId } = await setup();
    const p = await project(api, token, { name: 'Race' });
    const base = await api.listen();
    const starts = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${base}/v1/tracker-entries/timer/start`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ projectId: p.id }),
        }),
      ),
    );
    expect(starts.map((r) => r.status)).toEqual(Array(12).fill(201));
    const running = api.db.prepare('SELECT id FROM tracker_entries WHERE team_id = ? AND stop IS NULL').pluck().all(teamId);
    expect(running).toHaveLength(1);
    // The 11 that were stopped within a second were each discarded: only the running one is left.
    expect(api.db.prepare('SELECT count(*) FROM tracker_entries WHERE team_id = ?').pluck().get(teamId)).toBe(1);
    const status = (await api.call('GET', '/v1/tracker-entries/timer/status', { token })).json().data;
    expect(status.currentEntry.id).toBe(running[0]);
  });

  it('the schema itself refuses a second running entry for the same assignee', async () => {
    const { api, token, teamId } = await setup();
    const p = await project(api, token, { name: 'Index' });
    await api.call('POST', '/v1/tracker-entries/timer/start', { token, body: { projectId: p.id } });
    const insert = () =>
      api.db
        .prepare(
          `INSERT INTO tracker_entries (id, team_id, project_id, assigned_id, date, start, stop, duration_seconds, created_at, updated_at, seq)
           SELECT 'x', team_id, project_id, assigned_id, date, start, NULL, 0, created_at, updated_at, seq FROM tracker_entries WHERE team_id = ?`,
        )
        .run(teamId);
    expect(insert).toThrow(/UNIQUE/);
  });
});

describe('billed entries', () => {
  it('entries drafted onto an invoice read as billed, are locked, and leave the unbilled totals', async () => {
    const { api, token } = await setup();
    const customer = (
      await api.call('POST', '/v1/customers', { token, body: { name: 'Client', email: 'ap@client.test' } })
    ).json();
    const p = await project(api, token, { name: 'Billable', rate: 100, customerId: customer.id });
    const add = async (start: string) =>
      (await api.call('POST', '/v1/tracker-entries', { token, body: { projectId: p.id, start, duration: 3600 } })).json();
    const first = await add('2025-05-01T09:00:00Z');
    const drafted = await api.call('POST', '/v1/invoices/from-tracker', { token, body: { projectId: p.id } });
    expect(drafted.statusCode, drafted.body).toBe(201);
    const later = await add('2025-05-02T09:00:00Z');

    const billed = (await api.call('GET', `/v1/tracker-entries/${first.id}`, { token })).json();
    expect(billed).toMatchObject({ billed: true, invoiceId: drafted.json().id });
    expect((await api.call('GET', `/v1/tracker-entries/${later.id}`, { token })).json()).toMatchObject({
      billed: false,
      invoiceId: null,
    });
    expect((await api.call('PATCH', `/v1/tracker-entries/${first.id}`, { token, body: { duration: 60 } })).statusCode).toBe(409);
    // The description is not billed time: it may still change.
    expect((await api.call('PATCH', `/v1/tracker-entries/${first.id}`, { token, body: { description: 'x' } })).statusCode).toBe(
      200,
    );
    expect((await api.call('DELETE', `/v1/tracker-entries/${first.id}`, { token })).statusCode).toBe(409);
    expect((await api.call('DELETE', `/v1/tracker-projects/${p.id}`, { token })).statusCode).toBe(409);
    const totals = (await api.call('GET', `/v1/tracker-projects/${p.id}`, { token })).json();
    expect(totals).toMatchObject({ totalDuration: 7200, totalAmount: 200, unbilledDuration: 3600, unbilledAmount: 100 });
  });
});
