/**
 * A change the remote carried out but could not answer: its process stopped between the commit and the stored
 * answer, and the retry under the same Idempotency-Key is told 409 "carried out" (docs/decisions/0189). The change
 * is made there, so the round takes it as done — never as a refusal shown as a conflict, never with this side's
 * values replaced by the remote's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { type FaultProxy, faultProxy } from './fault-proxy';
import { remoteReplica, replica, syncOnce } from './helpers';

let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** On the remote: an answer is never stored (as when its process dies after the commit). */
const LOSE_STORED_ANSWERS = `CREATE TRIGGER lost_answer BEFORE UPDATE OF state ON idempotency_keys WHEN NEW.state = 'done'
  BEGIN SELECT RAISE(ABORT, 'killed before the answer was stored'); END`;

describe('a change carried out on the remote whose answer was lost with its process', () => {
  for (const op of ['update', 'delete'] as const) {
    it(`${op === 'update' ? 'an update' : 'a delete'} is taken as done: no conflict, both sides agree, the next round is quiet`, async () => {
      const r = await remoteReplica();
      const a = await replica();
      proxy = await faultProxy(r.url);
      const through = { url: proxy.url, token: r.token };
      const made = await a.call('POST', '/v1/customers', { name: 'Kurz GmbH', billingEmail: 'ap@kurz.example' });
      await syncOnce(a, through);
      const id = made.body.id as string;
      expect((await r.call('GET', `/v1/customers/${id}`)).status).toBe(200);

      const method = op === 'update' ? 'PATCH' : 'DELETE';
      let sent = 0;
      // The first send is carried out and its answer lost on the way; before the retry the remote "restarted" (the
      // key's lease is gone with its process).
      proxy.plan = (m) => (m === method && sent++ === 0 ? 'lose-answer' : 'pass');
      proxy.before = async (m) => {
        if (m === method && sent > 1) r.api.db.exec("UPDATE idempotency_keys SET lease_expires_at = '2000-01-01T00:00:00.000Z'");
      };
      r.api.db.exec(LOSE_STORED_ANSWERS);
      if (op === 'update') expect((await a.call('PATCH', `/v1/customers/${id}`, { city: 'Leipzig' })).status).toBe(200);
      else expect((await a.call('DELETE', `/v1/customers/${id}`)).status).toBeLessThan(300);

      await syncOnce(a, through);
      const retried = proxy.log.filter((l) => l.method === method);
      expect(retried.map((l) => l.fault)).toEqual(['lose-answer', 'pass']);
      expect(listConflicts(a.api.db, a.teamId)).toEqual([]);
      const there = await r.call('GET', `/v1/customers/${id}`);
      const here = await a.call('GET', `/v1/customers/${id}`);
      if (op === 'update') {
        expect(there.body.city).toBe('Leipzig');
        expect(here.body.city).toBe('Leipzig');
      } else {
        expect(there.status).toBe(404);
        expect(here.status).toBe(404);
      }
      r.api.db.exec('DROP TRIGGER lost_answer');
      const quiet = await syncOnce(a, through);
      expect([quiet.pushed, quiet.conflicts]).toEqual([0, 0]);
    });
  }
});
