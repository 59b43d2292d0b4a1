/**
 * @module-tag slow
 *
 * A first round against a new remote (issue 34, item 12), between real servers on loopback, on both kinds of remote:
 * a value nobody chose never beats one a person set (a default category of a remote team without a country does
 * not take a German team's VAT rates), real disagreements are shown as conflicts, and a record the local store
 * refuses can be taken once the cause is gone — "take remote" makes it, or says why it cannot.
 */
import { describe, expect, it } from 'vitest';
import { planDemo } from '../../../src-main/demo/seed';
import { writeDemo } from '../../../src-main/demo/write';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { write } from '../../../src-main/store/write';
import { resolveConflict } from '../../../src-main/sync/resolve';
import { testDay } from '../../helpers/clock';
import { type Remote, type Replica, remoteReplica, replica, syncOnce } from './helpers';

type Kind = 'finops' | 'hosted';

async function categories(side: Replica | Remote): Promise<Map<string, { id: string; name: string; taxRate: number | null }>> {
  const all = (await side.call('GET', '/v1/transaction-categories')).body.data as {
    id: string;
    slug: string;
    name: string;
    taxRate: number | null;
  }[];
  return new Map(all.map((c) => [c.slug, c]));
}

for (const kind of ['finops', 'hosted'] as Kind[]) {
  describe(`a first round, ${kind === 'finops' ? 'full remote' : 'spec-only remote (hosted kind)'}`, () => {
    it("a remote's untouched default categories never take this team's tax rates; a real disagreement is a conflict", async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      // This team is German (its defaults carry 19 % VAT); the remote team has no country yet (no rates).
      await a.call('PATCH', `/v1/teams/${a.teamId}`, { countryCode: 'DE' });
      const here = await categories(a);
      expect(here.get('income')!.taxRate).toBe(19);
      await a.call('PATCH', `/v1/transaction-categories/${here.get('subcontractors')!.id}`, { taxRate: 7 });
      if (kind === 'finops') {
        // (A spec-only remote serves no category routes.)
        const there = await categories(r);
        expect(there.get('income')!.taxRate).toBeNull();
        // Set by people: both sides give subcontractors a rate (they disagree); the remote renames inventory.
        await r.call('PATCH', `/v1/transaction-categories/${there.get('subcontractors')!.id}`, { taxRate: 10 });
        await r.call('PATCH', `/v1/transaction-categories/${there.get('inventory')!.id}`, { name: 'Stock' });
      }

      await syncOnce(a, r, kind);
      await syncOnce(a, r, kind);
      const after = await categories(a);
      expect(after.get('income')!.taxRate).toBe(19);
      const conflicts = listConflicts(a.api.db, a.teamId).filter((c) => c.entity === 'transaction_category');
      if (kind === 'hosted') {
        // Categories stay local against a hosted remote: nothing of them is touched.
        expect(after.get('subcontractors')!.taxRate).toBe(7);
        expect(conflicts).toEqual([]);
        return;
      }
      const remoteAfter = await categories(r);
      expect(remoteAfter.get('income')!.taxRate).toBe(19);
      expect(after.get('inventory')!.name).toBe('Stock');
      expect(conflicts.map((c) => [c.group, c.local?.taxRate, c.remote?.taxRate])).toEqual([['tax', 7, 10]]);
    });

    it("the demo team's first round against an empty remote: every tracker entry and scheduled invoice arrives, nothing refused", {
      timeout: 600_000,
    }, async () => {
      // (The remote's rate limit lifted: the round's requests are what is tested, not its pace.)
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted', rateLimitPerMinute: 1_000_000 });
      const a = await replica();
      await a.call('PATCH', `/v1/teams/${a.teamId}`, { countryCode: 'DE' });
      writeDemo(a.api.db, a.teamId, planDemo({ asOf: testDay() }));
      const count = (side: Replica, sql: string) => side.api.db.prepare(sql).pluck().get(side.teamId) as number;
      const entries = 'SELECT count(*) FROM tracker_entries WHERE team_id = ?';
      const scheduled = `SELECT count(*) FROM invoices WHERE team_id = ? AND status = 'scheduled' AND scheduled_at IS NOT NULL`;
      expect(count(a, entries)).toBeGreaterThan(500);
      expect(count(a, scheduled)).toBeGreaterThan(0);

      await syncOnce(a, r, kind);
      const refused = listConflicts(a.api.db, a.teamId)
        .filter((c) => c.entity === 'tracker_entry' || c.entity === 'invoice')
        .map((c) => `${c.entity} ${c.kind}: ${c.rule}`);
      expect(refused).toEqual([]);
      expect(count(r, entries)).toBe(count(a, entries));
      expect(count(r, scheduled)).toBe(count(a, scheduled));
    });

    it('a remote record the local store refuses is a conflict; “take remote” says why it cannot, and makes it once it can', async () => {
      const r = await remoteReplica('Acme', { specOnly: kind === 'hosted' });
      const a = await replica();
      const project = (await r.call('POST', '/v1/tracker-projects', { name: 'Rebrand' })).body;
      const entry = (
        await r.call('POST', '/v1/tracker-entries', {
          projectId: project.id,
          date: '2026-03-02',
          start: '2026-03-02T09:00:00Z',
          stop: '2026-03-02T10:00:00Z',
          duration: 3600,
          description: 'workshop',
        })
      ).body;
      const entryId = (entry.data?.[0] ?? entry).id as string;
      // The remote holds an entry that breaks this store's rule (a duration longer than stop − start), as an older
      // version's demo data did.
      write(r.api.db, r.teamId, (w) => {
        w.update('tracker_entry', entryId, { stop: '2026-03-02T09:00:00.000Z' });
      });
      await syncOnce(a, r, kind);
      const [refused] = listConflicts(a.api.db, a.teamId).filter((c) => c.entity === 'tracker_entry');
      expect(refused).toMatchObject({ kind: 'refused', local: null, winner: 'local' });
      expect(() => resolveConflict(a.api.db, a.teamId, refused!.id, 'remote')).toThrow(/duration/);
      expect(listConflicts(a.api.db, a.teamId).some((c) => c.id === refused!.id)).toBe(true);
      // Fixed there: the next round takes it, and the conflict is settled by it.
      write(r.api.db, r.teamId, (w) => {
        w.update('tracker_entry', entryId, { stop: '2026-03-02T10:00:00.000Z' });
      });
      await syncOnce(a, r, kind);
      const here = (await a.call('GET', '/v1/tracker-entries?from=2026-03-01&to=2026-03-31')).body.result;
      expect(Object.values(here).flat()).toHaveLength(1);
      expect(listConflicts(a.api.db, a.teamId).filter((c) => c.entity === 'tracker_entry')).toEqual([]);
    });
  });
}
