/**
 * @module-tag slow
 *
 * Sync that never loses an edit (issue 34), each case between real servers on loopback and on both kinds of remote
 * (a Finops Desk server with its change feed; a `--spec-only` one walked as the hosted service): a push frozen in a
 * failed round is merged again with what the remote holds before it is sent; the base after a push is what was
 * sent, not the answer; an edit made while a push waits is pushed; customers sharing an email stay two; a conflict's
 * kept side is what the record holds and both choices work; a parent deleted offline survives another replica's new
 * child; one change the remote always fails on never blocks the rounds.
 */
import { describe, expect, it } from 'vitest';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { pendingPushCount } from '../../../src-main/store/sync/outbox';
import { remoteIdOf } from '../../../src-main/store/sync/records';
import { removeRemote, teamRemote } from '../../../src-main/store/sync/remotes';
import { resolveConflict } from '../../../src-main/sync/resolve';
import { importWorkflow } from '../../../src-main/workflows/catalog';
import type { SyncEntity } from '../../../src-shared/domain/sync/fields';
import { type FaultProxy, faultProxy } from './fault-proxy';
import { type Remote, type Replica, remoteReplica, replica, syncOnce } from './helpers';

type Kind = 'finops' | 'hosted';

/** A remote of the kind, a replica, and a proxy between them every round of the replica goes through. */
async function world(kind: Kind) {
  const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
  const a = await replica();
  const proxy = await faultProxy(r.url);
  const through = { url: proxy.url, token: r.token };
  const sync = (s: Replica = a) => syncOnce(s, through, kind);
  return { r, a, proxy, sync, kind };
}

/** The remote's id of a replica's record (ids differ on a hosted-style remote for most entities). */
function there(a: Replica, entity: SyncEntity, localId: string): string {
  const id = remoteIdOf(a.api.db, teamRemote(a.api.db, a.teamId)!.id, entity, localId);
  expect(id, `${entity} ${localId} has no remote id`).toBeDefined();
  return id!;
}

/** A workflow that starts whenever a customer enters a segment (an invoice's move), and how often it was started. */
function segmentWorkflow(side: Replica | Remote): () => number {
  const id = importWorkflow(
    side.api.db,
    side.teamId,
    {
      name: 'Welcome',
      active: true,
      triggers: [{ type: 'customer_segment_entered' }],
      nodes: [{ id: 'n', kind: 'notify', message: 'hello' }],
    },
    { promote: true },
  ).workflowId;
  return () => side.api.db.prepare('SELECT count(*) FROM workflow_runs WHERE workflow_id = ?').pluck().get(id) as number;
}

const failing = (proxy: FaultProxy, method: string, prefix: string) => {
  proxy.plan = (m, path) => (m === method && path.startsWith(prefix) ? 'server-error' : 'pass');
};

for (const kind of ['finops', 'hosted'] as Kind[]) {
  describe(`issue 34, ${kind === 'finops' ? 'full remote' : 'spec-only remote (hosted kind)'}`, () => {
    it('2: a frozen update answered 500 meets the remote’s edit of the same field in a merge: a conflict, not an overwrite', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const c = (await a.call('POST', '/v1/customers', { name: 'Globex', email: 'ap@globex.test', city: 'Berlin' })).body;
      await sync();
      await a.call('PATCH', `/v1/customers/${c.id}`, { city: 'Hamburg' });
      failing(proxy, 'PATCH', '/v1/customers');
      // The remote fails on that one change: it waits for the next round, the round itself goes on.
      expect((await sync()).failed).toBe(1);
      proxy.plan = () => 'pass';
      await r.call('PATCH', `/v1/customers/${there(a, 'customer', c.id)}`, { city: 'Munich' });
      await sync();
      // Customers: remote wins a same-field conflict, and the conflict says so with both values.
      expect((await r.call('GET', `/v1/customers/${there(a, 'customer', c.id)}`)).body.city).toBe('Munich');
      expect((await a.call('GET', `/v1/customers/${c.id}`)).body.city).toBe('Munich');
      const conflicts = listConflicts(a.api.db, a.teamId);
      expect(conflicts.map((x) => [x.kind, x.group, x.local, x.remote, x.winner])).toEqual([
        ['fields', 'city', { city: 'Hamburg' }, { city: 'Munich' }, 'remote'],
      ]);
      await proxy.close();
    });

    it('2: a frozen delete answered 500 against a remote edit: the edit survives on both sides, with a conflict', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const c = (await a.call('POST', '/v1/customers', { name: 'Initech', email: 'ap@initech.test' })).body;
      await sync();
      await a.call('DELETE', `/v1/customers/${c.id}`);
      failing(proxy, 'DELETE', '/v1/customers');
      expect((await sync()).failed).toBe(1);
      proxy.plan = () => 'pass';
      await r.call('PATCH', `/v1/customers/${there(a, 'customer', c.id)}`, { note: 'renewed for a year' });
      await sync();
      await sync();
      const remote = (await r.call('GET', '/v1/customers')).body.data;
      expect(remote.map((x: { note: string }) => x.note)).toEqual(['renewed for a year']);
      const local = (await a.call('GET', '/v1/customers')).body.data;
      expect(local.map((x: { note: string }) => x.note)).toEqual(['renewed for a year']);
      expect(listConflicts(a.api.db, a.teamId).map((x) => x.kind)).toEqual(['delete']);
      await proxy.close();
    });

    it('3: a field the remote changed while a push was in flight reaches this side and is not reverted', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const c = (await a.call('POST', '/v1/customers', { name: 'Hooli', email: 'ap@hooli.test' })).body;
      await sync();
      const remoteId = there(a, 'customer', c.id);
      await a.call('PATCH', `/v1/customers/${c.id}`, { note: 'net 30' });
      let edited = false;
      proxy.before = async (method, path) => {
        if (method === 'PATCH' && path.startsWith('/v1/customers') && !edited) {
          edited = true;
          await r.call('PATCH', `/v1/customers/${remoteId}`, { phone: '+49 30 999' });
        }
      };
      await sync();
      proxy.before = undefined;
      await sync();
      await sync();
      for (const side of [r, a]) {
        const id = side === r ? remoteId : c.id;
        expect((await side.call('GET', `/v1/customers/${id}`)).body).toMatchObject({ note: 'net 30', phone: '+49 30 999' });
      }
      await proxy.close();
    });

    it('4: an edit made while a push waits for its lost answer is pushed, with a second field edited meanwhile', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const c = (await a.call('POST', '/v1/customers', { name: 'Vandelay', email: 'ap@vandelay.test', city: 'C0' })).body;
      await sync();
      await a.call('PATCH', `/v1/customers/${c.id}`, { city: 'C1' });
      // Every answer to the PATCH is lost this round (the remote applies each try): the round ends without one.
      proxy.plan = (method, path) => (method === 'PATCH' && path.startsWith('/v1/customers') ? 'lose-answer' : 'pass');
      await expect(sync()).rejects.toThrow();
      proxy.plan = () => 'pass';
      await a.call('PATCH', `/v1/customers/${c.id}`, { city: 'C2', note: 'meanwhile' });
      await sync();
      await sync();
      expect((await r.call('GET', `/v1/customers/${there(a, 'customer', c.id)}`)).body).toMatchObject({
        city: 'C2',
        note: 'meanwhile',
      });
      expect(listConflicts(a.api.db, a.teamId)).toEqual([]);
      await proxy.close();
    });

    it('5: customers sharing an email stay two records on both sides, and rounds keep succeeding', async () => {
      const { r, a, proxy, sync } = await world(kind);
      // Email is not unique (decision 0021): PATCH gives a second customer the first one's.
      const sameEmail = async (side: Replica | Remote, name: string) => {
        const made = (await side.call('POST', '/v1/customers', { name, email: `${name.replace(' ', '.')}@acme.test` })).body;
        await side.call('PATCH', `/v1/customers/${made.id}`, { email: 'billing@acme.test' });
      };
      await sameEmail(a, 'Acme North');
      await sameEmail(a, 'Acme South');
      await sync();
      await sync();
      const names = async (s: Replica | Remote) =>
        (await s.call('GET', '/v1/customers')).body.data.map((x: { name: string }) => x.name).sort();
      expect(await names(r)).toEqual(['Acme North', 'Acme South']);
      // Two there with one email: both arrive, and a quiet round pulls nothing again.
      await sameEmail(r, 'Acme West');
      await sync();
      expect(await names(a)).toEqual(['Acme North', 'Acme South', 'Acme West']);
      const quiet = await sync();
      expect([quiet.pulled, quiet.pushed, quiet.conflicts]).toEqual([0, 0, 0]);
      await proxy.close();
    });

    it('9: a refused push takes the remote’s values and says so; “take local” writes the local value back', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const customer = (await a.call('POST', '/v1/customers', { name: 'Umbrella', email: 'ap@umbrella.test' })).body;
      const inv = (
        await a.call('POST', '/v1/invoices', {
          customerId: customer.id,
          issueDate: '2026-03-02',
          dueDate: '2099-04-01',
          lineItems: [{ name: 'Workshop', quantity: 1, price: 1000 }],
        })
      ).body;
      await sync();
      const remoteId = there(a, 'invoice', inv.id);
      await r.call('PATCH', `/v1/invoices/${remoteId}`, { status: 'unpaid' });
      await sync();
      // Paid there while its note changed here: a paid invoice takes no edit.
      await a.call('PATCH', `/v1/invoices/${inv.id}`, { note: 'late note' });
      await r.call('PATCH', `/v1/invoices/${remoteId}`, { status: 'paid' });
      await sync();
      const refused = listConflicts(a.api.db, a.teamId).find((x) => x.kind === 'refused');
      expect(refused).toBeDefined();
      expect((await a.call('GET', `/v1/invoices/${inv.id}`)).body.note).toBeNull();
      // The kept side is what the record holds now: the remote's.
      expect(refused!.winner).toBe('remote');
      resolveConflict(a.api.db, a.teamId, refused!.id, 'local');
      expect((await a.call('GET', `/v1/invoices/${inv.id}`)).body.note).toBe('late note');
      await proxy.close();
    });

    it('10: a tracker project deleted here while another replica adds an entry survives with the entry, and a conflict here', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const b = await replica();
      const project = (await a.call('POST', '/v1/tracker-projects', { name: 'Website' })).body;
      await a.call('POST', '/v1/tracker-entries', {
        projectId: project.id,
        date: '2026-03-02',
        start: '2026-03-02T09:00:00Z',
        stop: '2026-03-02T10:00:00Z',
        duration: 3600,
        description: 'kick-off',
      });
      await sync();
      await sync(b);
      const projectOnB = (await b.call('GET', '/v1/tracker-projects')).body.data[0];
      await a.call('DELETE', `/v1/tracker-projects/${project.id}`);
      await b.call('POST', '/v1/tracker-entries', {
        projectId: projectOnB.id,
        date: '2026-03-03',
        start: '2026-03-03T09:00:00Z',
        stop: '2026-03-03T11:00:00Z',
        duration: 7200,
        description: 'design review',
      });
      await sync(b);
      await sync();
      await sync(b);
      await sync();
      const entries = async (s: Replica | Remote) => {
        const res = (await s.call('GET', '/v1/tracker-entries?from=2026-03-01&to=2026-03-31')).body;
        return Object.values(res.result as Record<string, { description: string }[]>)
          .flat()
          .map((e) => e.description)
          .sort();
      };
      for (const side of [r, a, b]) {
        expect((await side.call('GET', '/v1/tracker-projects')).body.data.map((p: { name: string }) => p.name)).toEqual([
          'Website',
        ]);
        expect(await entries(side)).toEqual(['design review', 'kick-off']);
      }
      expect(listConflicts(a.api.db, a.teamId).some((x) => x.entity === 'tracker_project' && x.kind === 'delete')).toBe(true);
      await proxy.close();
    });

    it('10: a bank account deleted here while another replica books a line on it converges: the account survives', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const b = await replica();
      const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Petty cash', currency: 'EUR' })).body;
      await a.call('POST', '/v1/transactions', {
        name: 'Stamps',
        amount: -7.5,
        currency: 'EUR',
        date: '2026-03-02',
        bankAccountId: account.id,
      });
      await sync();
      await sync(b);
      const accountOnB = (await b.call('GET', '/v1/bank-accounts')).body.data[0];
      await a.call('DELETE', `/v1/bank-accounts/${account.id}?cascade=true`);
      await b.call('POST', '/v1/transactions', {
        name: 'Coffee beans',
        amount: -12,
        currency: 'EUR',
        date: '2026-03-03',
        bankAccountId: accountOnB.id,
      });
      await sync(b);
      await sync();
      await sync(b);
      await sync();
      for (const side of [r, a, b]) {
        expect((await side.call('GET', '/v1/bank-accounts')).body.data.map((x: { name: string }) => x.name)).toEqual([
          'Petty cash',
        ]);
        const lines = (await side.call('GET', '/v1/transactions?pageSize=100')).body.data.map((t: { name: string }) => t.name);
        expect(lines.sort()).toEqual(['Coffee beans', 'Stamps']);
      }
      expect(listConflicts(a.api.db, a.teamId).some((x) => x.entity === 'bank_account' && x.kind === 'delete')).toBe(true);
      await proxy.close();
    });

    it('6: creates whose answers were lost (an account, a project, an entry) are one record each on both sides', async () => {
      const { r, a, proxy, sync } = await world(kind);
      await a.call('POST', '/v1/bank-accounts', { name: 'Savings', currency: 'EUR' });
      const project = (await a.call('POST', '/v1/tracker-projects', { name: 'Audit' })).body;
      await a.call('POST', '/v1/tracker-entries', {
        projectId: project.id,
        date: '2026-03-04',
        start: '2026-03-04T09:00:00Z',
        stop: '2026-03-04T09:45:00Z',
        duration: 2700,
        description: 'interviews',
      });
      // Every create's answer is lost this round: each was made there, and none came back.
      proxy.plan = (method, path) =>
        method === 'POST' && /^\/v1\/(bank-accounts|tracker-projects|tracker-entries)/.test(path) ? 'lose-answer' : 'pass';
      await sync().catch(() => undefined);
      await sync().catch(() => undefined);
      proxy.plan = () => 'pass';
      await sync();
      await sync();
      for (const side of [r, a] as const) {
        expect((await side.call('GET', '/v1/bank-accounts')).body.data.map((x: { name: string }) => x.name)).toEqual(['Savings']);
        expect((await side.call('GET', '/v1/tracker-projects')).body.data.map((x: { name: string }) => x.name)).toEqual([
          'Audit',
        ]);
        const entries = (await side.call('GET', '/v1/tracker-entries?from=2026-03-01&to=2026-03-31')).body.result;
        expect(Object.values(entries).flat()).toHaveLength(1);
      }
      expect(pendingPushCount(a.api.db, teamRemote(a.api.db, a.teamId)!.id)).toBe(0);
      await proxy.close();
    });

    it('6: an identical line made there while our answer was lost: two lines on each side, not three here', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Card', currency: 'EUR' })).body;
      await sync();
      const line = { name: 'Coffee', amount: -3.2, currency: 'EUR', date: '2026-03-06' };
      await a.call('POST', '/v1/transactions', { ...line, bankAccountId: account.id });
      proxy.plan = (method, path) => (method === 'POST' && path.startsWith('/v1/transactions') ? 'lose-answer' : 'pass');
      await sync().catch(() => undefined);
      proxy.plan = () => 'pass';
      await r.call('POST', '/v1/transactions', { ...line, bankAccountId: there(a, 'bank_account', account.id) });
      await sync();
      await sync();
      for (const side of [r, a] as const) {
        const names = (await side.call('GET', '/v1/transactions?pageSize=100')).body.data.map((t: { name: string }) => t.name);
        expect(names).toEqual(['Coffee', 'Coffee']);
      }
      await proxy.close();
    });

    it('7: tracker entries dated far from today stay on both sides, and those made there arrive', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const project = (await a.call('POST', '/v1/tracker-projects', { name: 'Archive' })).body;
      const entry = (projectId: string, date: string, description: string) => ({
        projectId,
        date,
        start: `${date}T09:00:00Z`,
        stop: `${date}T10:00:00Z`,
        duration: 3600,
        description,
      });
      await a.call('POST', '/v1/tracker-entries', entry(project.id, '2015-03-01', 'old, made here'));
      await a.call('POST', '/v1/tracker-entries', entry(project.id, '2029-06-01', 'ahead, made here'));
      await sync();
      const projectThere = there(a, 'tracker_project', project.id);
      await r.call('POST', '/v1/tracker-entries', entry(projectThere, '2015-03-02', 'old, made there'));
      await r.call('POST', '/v1/tracker-entries', entry(projectThere, '2029-06-02', 'ahead, made there'));
      for (let i = 0; i < 4; i++) await sync();
      const far = async (s: Replica | Remote) => {
        const out: string[] = [];
        for (const year of ['2015', '2029']) {
          const res = (await s.call('GET', `/v1/tracker-entries?from=${year}-01-01&to=${year}-12-31`)).body;
          out.push(
            ...Object.values(res.result as Record<string, { description: string }[]>)
              .flat()
              .map((e) => e.description),
          );
        }
        return out.sort();
      };
      const all = ['ahead, made here', 'ahead, made there', 'old, made here', 'old, made there'];
      expect(await far(r)).toEqual(all);
      expect(await far(a)).toEqual(all);
      const quiet = await sync();
      expect([quiet.pulled, quiet.pushed]).toEqual([0, 0]);
      await proxy.close();
    });

    it('8: disconnect, then connect again: what is there is matched, nothing doubled, no remote value lost', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Operating', currency: 'EUR' })).body;
      await a.call('POST', '/v1/bank-accounts', { name: 'Reserve', currency: 'EUR' });
      const lines = [];
      for (const [name, amount] of [
        ['Rent', -1200],
        ['Office chairs', -349.9],
        ['Client payment', 4800],
      ] as const) {
        lines.push(
          (
            await a.call('POST', '/v1/transactions', {
              name,
              amount,
              currency: 'EUR',
              date: '2026-04-01',
              bankAccountId: account.id,
            })
          ).body,
        );
      }
      await a.call('POST', '/v1/tracker-projects', { name: 'Website' });
      await a.call('POST', '/v1/tracker-projects', { name: 'Audit' });
      await a.call('POST', '/v1/customers', { name: 'Northwind', email: 'ap@northwind.test' });
      await sync();
      const rentThere = there(a, 'transaction', lines[0].id);
      // Disconnected; meanwhile a note is written on the remote and a line added here.
      const remote = teamRemote(a.api.db, a.teamId)!;
      removeRemote(a.api.db, a.teamId, remote.id);
      await r.call('PATCH', `/v1/transactions/${rentThere}`, { note: 'April, paid by standing order' });
      await a.call('POST', '/v1/transactions', {
        name: 'Bank fee',
        amount: -9,
        currency: 'EUR',
        date: '2026-04-02',
        bankAccountId: account.id,
      });
      await sync();
      await sync();
      // The line is linked to the very record it was linked to before, and its note (written there) is on both sides.
      expect(there(a, 'transaction', lines[0].id)).toBe(rentThere);
      for (const [side, rent] of [
        [r, rentThere],
        [a, lines[0].id],
      ] as const) {
        const accounts = (await side.call('GET', '/v1/bank-accounts')).body.data.map((x: { name: string }) => x.name);
        expect(accounts.sort()).toEqual(['Operating', 'Reserve']);
        const txs = (await side.call('GET', '/v1/transactions?pageSize=100')).body.data;
        expect(txs.map((t: { name: string }) => t.name).sort()).toEqual(['Bank fee', 'Client payment', 'Office chairs', 'Rent']);
        // A list item carries no note: the record itself does.
        expect((await side.call('GET', `/v1/transactions/${rent}`)).body.note).toBe('April, paid by standing order');
        const projects = (await side.call('GET', '/v1/tracker-projects')).body.data.map((x: { name: string }) => x.name);
        expect(projects.sort()).toEqual(['Audit', 'Website']);
        expect((await side.call('GET', '/v1/customers')).body.data).toHaveLength(1);
      }
      expect(listConflicts(a.api.db, a.teamId)).toEqual([]);
      await proxy.close();
    });

    it('11: a category of this team’s own stays here: the line’s other edits arrive there, the category is never reverted', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const own = (await a.call('POST', '/v1/transaction-categories', { name: 'Team lunches', color: '#aa3300' })).body;
      const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Operating', currency: 'EUR' })).body;
      const line = (
        await a.call('POST', '/v1/transactions', {
          name: 'Pizza',
          amount: -86.5,
          currency: 'EUR',
          date: '2026-04-03',
          bankAccountId: account.id,
        })
      ).body;
      await sync();
      await a.call('PATCH', `/v1/transactions/${line.id}`, { categorySlug: own.slug, note: 'sprint review' });
      // A new line booked on it at once: it is created there, with everything but that category.
      const fresh = (
        await a.call('POST', '/v1/transactions', {
          name: 'Bagels',
          amount: -24,
          currency: 'EUR',
          date: '2026-04-04',
          bankAccountId: account.id,
          categorySlug: own.slug,
        })
      ).body;
      await sync();
      await sync();
      for (const id of [line.id, fresh.id]) {
        expect((await a.call('GET', `/v1/transactions/${id}`)).body.category?.slug).toBe(own.slug);
      }
      expect((await r.call('GET', `/v1/transactions/${there(a, 'transaction', line.id)}`)).body.note).toBe('sprint review');
      const theirs = (await r.call('GET', '/v1/transactions?pageSize=100')).body.data.map((t: { name: string }) => t.name);
      expect(theirs.sort()).toEqual(['Bagels', 'Pizza']);
      if (kind === 'finops') {
        // A Finops Desk remote holds categories of its own too: it takes this one.
        expect((await r.call('GET', `/v1/transactions/${there(a, 'transaction', line.id)}`)).body.category?.slug).toBe(own.slug);
      }
      expect(listConflicts(a.api.db, a.teamId)).toEqual([]);
      expect(pendingPushCount(a.api.db, teamRemote(a.api.db, a.teamId)!.id)).toBe(0);
      await proxy.close();
    });

    it('13: a pushed change starts no workflow on the remote: it started where it was made', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const here = segmentWorkflow(a);
      const onRemote = segmentWorkflow(r);
      const customer = (await a.call('POST', '/v1/customers', { name: 'Kunde AG', email: 'ap@kunde.example' })).body;
      const inv = (
        await a.call('POST', '/v1/invoices', {
          customerId: customer.id,
          issueDate: '2026-03-02',
          dueDate: '2099-04-01',
          lineItems: [{ name: 'Work', quantity: 1, price: 100 }],
        })
      ).body;
      await a.call('PATCH', `/v1/invoices/${inv.id}`, { status: 'unpaid' });
      expect(here()).toBeGreaterThan(0);
      await sync();
      expect((await r.call('GET', `/v1/invoices/${there(a, 'invoice', inv.id)}`)).body.status).toBe('unpaid');
      expect(onRemote()).toBe(0);
      await proxy.close();
    });

    it('13: one change the remote always fails on is capped and reported; pulls and other pushes go on from the first round', async () => {
      const { r, a, proxy, sync } = await world(kind);
      const bad = (await a.call('POST', '/v1/customers', { name: 'Poison', email: 'poison@example.test' })).body;
      proxy.plan = (method, path, _n, body) =>
        method === 'POST' && path.startsWith('/v1/customers') && body.includes('Poison') ? 'server-error' : 'pass';
      await r.call('POST', '/v1/tags', { name: 'From the remote' });
      const first = await sync();
      expect(first.pulled).toBeGreaterThanOrEqual(1);
      expect((await a.call('GET', '/v1/tags')).body.data.map((t: { name: string }) => t.name)).toEqual(['From the remote']);
      await a.call('POST', '/v1/tags', { name: 'From here' });
      for (let i = 0; i < 12; i++) await sync();
      expect((await r.call('GET', '/v1/tags')).body.data.map((t: { name: string }) => t.name).sort()).toEqual([
        'From here',
        'From the remote',
      ]);
      const remote = teamRemote(a.api.db, a.teamId)!;
      expect(pendingPushCount(a.api.db, remote.id)).toBe(0);
      const reported = listConflicts(a.api.db, a.teamId).filter((x) => x.localId === bad.id);
      expect(reported).toHaveLength(1);
      expect(reported[0]!.rule).toMatch(/500/);
      await proxy.close();
    });
  });
}
