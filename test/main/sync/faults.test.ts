/**
 * @module-tag slow
 *
 * Sync under faults: a proxy between replica A and the remote drops requests, loses answers after the remote
 * committed, repeats requests, delays, answers 429 bursts and 500s, and rounds are cut off (aborted) at random
 * requests, as a killed process would stop them. Afterwards clean rounds converge: the remote and both replicas hold
 * the same records, none twice, no edit lost. Against a full Finops Desk remote and a spec-only one.
 */
import { describe, expect, it } from 'vitest';
import { ensureRemote, type RemoteKind } from '../../../src-main/store/sync/remotes';
import { runRound } from '../../../src-main/sync/round';
import { faultProxy, randomPlan, seeded } from './fault-proxy';
import { type Replica, remoteReplica, replica, syncOnce } from './helpers';

async function roundThrough(local: Replica, url: string, token: string, kind: RemoteKind, abortAfter?: number) {
  const controller = new AbortController();
  let n = 0;
  const remote = ensureRemote(local.api.db, local.teamId, { baseUrl: url, kind });
  return runRound({
    db: local.api.db,
    remote,
    credential: {
      token: async () => {
        if (abortAfter !== undefined && ++n > abortAfter) controller.abort(new Error('killed'));
        return token;
      },
    },
    signal: controller.signal,
    client: { backoffMs: 1, maxBackoffMs: 5, timeoutMs: 5000, attempts: 3 },
  });
}

/** What a replica holds, by content (ids differ between replicas of a hosted-style remote). */
async function content(r: { call: Replica['call'] }) {
  const tags = (await r.call('GET', '/v1/tags')).body.data.map((t: { name: string }) => t.name).sort();
  const customers = (await r.call('GET', '/v1/customers?pageSize=100')).body.data
    .map((c: { name: string; email: string; note: string | null; tags: { name: string }[] }) =>
      [
        c.name,
        c.email,
        c.note,
        c.tags
          .map((t) => t.name)
          .sort()
          .join('+'),
      ].join('|'),
    )
    .sort();
  const tx = (await r.call('GET', '/v1/transactions?pageSize=1000&statuses=posted&statuses=excluded')).body.data
    .map((t: { name: string; amount: number; date: string }) => [t.name, t.amount, t.date].join('|'))
    .sort();
  return { tags, customers, tx };
}

const SEEDS = (process.env.SYNC_FAULT_SEEDS ?? '7,11,23').split(',').map(Number);

for (const kind of ['finops', 'hosted'] as const) {
  describe(`sync under faults, ${kind === 'finops' ? 'full remote' : 'spec-only remote'}`, () => {
    it.each(SEEDS)(
      'seed %i: converges with no duplicate and no lost edit after dropped, lost, repeated and refused requests and killed rounds',
      async (seed) => {
        const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
        const a = await replica();
        const b = await replica();
        const proxy = await faultProxy(r.url);
        const random = seeded(seed);
        const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Cash', currency: 'EUR' })).body;
        const tags = [];
        for (let i = 0; i < 4; i++) tags.push((await a.call('POST', '/v1/tags', { name: `tag-${i}` })).body);
        for (let i = 0; i < 8; i++) {
          await a.call('POST', '/v1/customers', {
            name: `Customer ${i}`,
            email: `c${i}@example.test`,
            tags: [{ id: tags[i % 4].id }],
          });
        }
        for (let i = 0; i < 12; i++) {
          await a.call('POST', '/v1/transactions', {
            name: `Line ${i}`,
            amount: -(i + 1),
            currency: 'EUR',
            date: '2026-03-05',
            bankAccountId: account.id,
          });
        }
        // Two identical lines (same account, day, amount, name): real, and each must exist once on the remote.
        for (let i = 0; i < 2; i++) {
          await a.call('POST', '/v1/transactions', {
            name: 'Coffee',
            amount: -3.2,
            currency: 'EUR',
            date: '2026-03-06',
            bankAccountId: account.id,
          });
        }

        proxy.plan = randomPlan(random, {
          drop: 0.08,
          'lose-answer': 0.12,
          duplicate: 0.08,
          delay: 0.05,
          'rate-limit': 0.08,
          'server-error': 0.08,
        });
        for (let round = 0; round < 12; round++) {
          try {
            await roundThrough(a, proxy.url, r.token, kind, round % 3 === 2 ? Math.floor(random() * 30) : undefined);
          } catch {
            // A failed or killed round: the next one resumes.
          }
          if (round === 5) {
            // Edits while the network misbehaves: a rename, a note, a delete.
            const cs = (await a.call('GET', '/v1/customers?pageSize=100')).body.data;
            await a.call('PATCH', `/v1/customers/${cs[0].id}`, { note: 'edited under faults' });
            await a.call('DELETE', `/v1/customers/${cs[1].id}`);
          }
        }
        expect(proxy.log.filter((l) => l.fault !== 'pass').length).toBeGreaterThan(10);

        proxy.plan = () => 'pass';
        for (let i = 0; i < 3; i++) await roundThrough(a, proxy.url, r.token, kind);
        await syncOnce(b, r, kind);

        const onA = await content(a);
        const onR = await content(r);
        const onB = await content(b);
        expect(onR.customers).toHaveLength(7);
        expect(onR.customers.some((c: string) => c.includes('edited under faults'))).toBe(true);
        expect(onR.tx.filter((t: string) => t.startsWith('Coffee|'))).toHaveLength(2);
        expect(onR.tx).toHaveLength(14);
        expect(onA).toEqual(onR);
        expect(onB).toEqual(onR);
        await proxy.close();
      },
    );
  });
}
