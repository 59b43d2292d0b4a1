/**
 * @module-tag slow
 *
 * Convergence: two replicas and their remote (A ↔ R ↔ B) take seeded random interleavings of creates, edits and
 * deletes of tags, customers and transactions, with rounds between, over real HTTP. After the last rounds all three
 * hold the same records (same ids, same fields), none twice; each same-field edit met by a merge is recorded as a
 * conflict with two different values; and a quiet round then pushes and pulls nothing (no ping-pong).
 */
import { describe, expect, it } from 'vitest';
import { chooser, expectConflictsOfTwoValues, type Remote, type Replica, settleThenQuiet, syncOnce, triangle } from './helpers';

type Side = Replica | Remote;
type Rec = { id: string };

async function snapshot(s: Side): Promise<{ tags: string[]; customers: string[]; transactions: string[] }> {
  const tags: string[] = (await s.call('GET', '/v1/tags')).body.data
    .map((t: { id: string; name: string }) => `${t.id}:${t.name}`)
    .sort();
  const customers: string[] = (await s.call('GET', '/v1/customers?pageSize=100')).body.data
    .map((c: { id: string; name: string; note: string | null; city: string | null; tags: { id: string }[] }) =>
      [
        c.id,
        c.name,
        c.note,
        c.city,
        c.tags
          .map((t) => t.id)
          .sort()
          .join('+'),
      ].join('|'),
    )
    .sort();
  const tx = (await s.call('GET', '/v1/transactions?pageSize=1000&statuses=posted&statuses=excluded')).body.data.map(
    (t: { id: string }) => t.id,
  );
  const details = [];
  for (const id of tx.sort()) {
    const t = (await s.call('GET', `/v1/transactions/${id}`)).body;
    details.push(
      [
        t.id,
        t.name,
        t.amount,
        t.note,
        t.category?.slug ?? null,
        t.tags
          .map((g: { id: string }) => g.id)
          .sort()
          .join('+'),
      ].join('|'),
    );
  }
  return { tags, customers, transactions: details };
}

const SEEDS = (process.env.SYNC_CONVERGENCE_SEEDS ?? '3,5').split(',').map(Number);

describe('convergence of A ↔ R ↔ B', () => {
  it.each(SEEDS)(
    'seed %i: random creates, edits and deletes on all three end equal, conflicts recorded, then quiet',
    async (seed) => {
      const { random, pick } = chooser(seed);
      const { r, a, b } = await triangle();
      const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Main', currency: 'EUR' })).body;
      await syncOnce(a, r);
      await syncOnce(b, r);
      const slugs = ['travel', 'software', 'office-supplies', 'meals', 'rent'];
      const sides: Side[] = [a, b, r];
      let made = 0;
      for (let step = 0; step < 150; step++) {
        const s = pick(sides);
        const op = random();
        const tags: Rec[] = (await s.call('GET', '/v1/tags')).body.data;
        const customers: Rec[] = (await s.call('GET', '/v1/customers?pageSize=100')).body.data;
        const txs: Rec[] = (await s.call('GET', '/v1/transactions?pageSize=1000')).body.data;
        if (op < 0.1) await s.call('POST', '/v1/tags', { name: `tag ${seed}-${made++}` });
        else if (op < 0.15 && tags.length)
          await s.call('PATCH', `/v1/tags/${pick(tags).id}`, { name: `renamed ${seed}-${made++}` });
        else if (op < 0.18 && tags.length) await s.call('DELETE', `/v1/tags/${pick(tags).id}`);
        else if (op < 0.3) {
          const withTags = tags.length ? [{ id: pick(tags).id }] : [];
          await s.call('POST', '/v1/customers', { name: `Customer ${seed}-${made++}`, tags: withTags });
        } else if (op < 0.42 && customers.length) {
          const c = pick(customers);
          await s.call(
            'PATCH',
            `/v1/customers/${c.id}`,
            random() < 0.5 ? { note: `note ${made++}` } : { city: pick(['Berlin', 'Lyon', 'Graz']) },
          );
        } else if (op < 0.46 && customers.length) await s.call('DELETE', `/v1/customers/${pick(customers).id}`);
        else if (op < 0.6) {
          await s.call('POST', '/v1/transactions', {
            name: `Line ${seed}-${made++}`,
            amount: -Math.round(random() * 10_000) / 100 - 0.01,
            currency: 'EUR',
            date: '2026-03-10',
            bankAccountId: account.id,
          });
        } else if (op < 0.75 && txs.length) {
          const t = pick(txs);
          await s.call(
            'PATCH',
            `/v1/transactions/${t.id}`,
            random() < 0.5 ? { note: `why ${made++}` } : { categorySlug: pick(slugs) },
          );
        } else if (op < 0.8 && txs.length) await s.call('DELETE', `/v1/transactions/${t(txs)}`);
        else if (s !== r) await syncOnce(s as Replica, r);
        function t(list: Rec[]) {
          return pick(list).id;
        }
      }
      await settleThenQuiet(a, b, r, async () => {
        const onR = await snapshot(r);
        expect(await snapshot(a)).toEqual(onR);
        expect(await snapshot(b)).toEqual(onR);
        // No record twice: every created name is unique by construction.
        const names = onR.customers.map((c) => c.split('|')[1]);
        expect(new Set(names).size).toBe(names.length);
        expectConflictsOfTwoValues(a, b);
      });
    },
  );
});
