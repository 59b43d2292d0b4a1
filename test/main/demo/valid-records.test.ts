/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 *
 * The demo's records keep the product's own write rules (issue 34, item 12: a remote refused the demo's time entries,
 * `duration is longer than stop − start (0 s)`): every tracker entry, read back as the API shows it, is a create body
 * the contract takes and the store writes; every scheduled invoice has the time it goes out, ahead of the as-of day.
 * The as-of day is a working day, so the demo makes entries up to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planDemo } from '../../../src-main/demo/seed';
import { writeDemo } from '../../../src-main/demo/write';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { getInvoice } from '../../../src-main/store/invoices/read';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { createTrackerEntries, getTrackerEntry } from '../../../src-main/store/tracker/entries';
import { TrackerEntryCreate } from '../../../src-shared/contract/tracker';
import { tmpDir } from '../../helpers/tmp';

/** A Tuesday. */
const AS_OF = '2026-11-24';

class RolledBack extends Error {}

let db: Db;
let teamId: string;
beforeAll(() => {
  db = openDatabase(tmpDir('finops-demo-valid-', 'file'));
  teamId = ensureTeam(db, 'Demo Agency', { baseCurrency: 'EUR', countryCode: 'DE' }).id;
  writeDemo(db, teamId, planDemo({ asOf: AS_OF }));
});
afterAll(() => db.close());

describe("the demo's records keep the product's write rules", () => {
  it('every tracker entry, as the API shows it, is a create the contract and the store take', () => {
    const ids = db.prepare('SELECT id FROM tracker_entries WHERE team_id = ? ORDER BY id').pluck().all(teamId) as string[];
    expect(ids.length).toBeGreaterThan(500);
    const bodies = ids.map((id) => {
      const e = getTrackerEntry(db, teamId, id);
      return {
        id,
        body: {
          projectId: e.projectId,
          start: e.start,
          stop: e.stop ?? undefined,
          duration: e.duration,
          date: e.date,
          description: e.description ?? undefined,
        },
      };
    });
    const refused: string[] = [];
    for (const { id, body } of bodies) {
      const parsed = TrackerEntryCreate.safeParse(body);
      if (!parsed.success) refused.push(`${id}: ${parsed.error.message}`);
    }
    // Written again by the store (batches of the bulk route's 100), then rolled back: the data set stays as seeded.
    for (let i = 0; i < bodies.length; i += 100) {
      const batch = bodies.slice(i, i + 100);
      try {
        db.transaction(() => {
          createTrackerEntries(
            db,
            teamId,
            batch.map((b) => TrackerEntryCreate.parse(b.body)),
            null,
          );
          throw new RolledBack();
        })();
      } catch (err) {
        if (!(err instanceof RolledBack)) refused.push(`batch ${i / 100}: ${(err as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
    // Entries up to the day before the as-of day (the as-of day's would end where they start).
    const last = db.prepare('SELECT max(date) FROM tracker_entries WHERE team_id = ?').pluck().get(teamId);
    expect(last).toBe('2026-11-23');
  });

  it('every scheduled invoice goes out at a time ahead of the as-of day', () => {
    const ids = db.prepare(`SELECT id FROM invoices WHERE team_id = ? AND status = 'scheduled'`).pluck().all(teamId) as string[];
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const inv = getInvoice(db, teamId, id);
      expect(inv.scheduledAt, id).not.toBeNull();
      expect(inv.scheduledAt!.slice(0, 10) > AS_OF, id).toBe(true);
    }
  });
});
