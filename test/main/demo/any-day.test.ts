/**
 * @module-tag calendar
 *
 * The demo data set, seeded on any day of the year, gives every screen something to show in its default view: a
 * payment to confirm on the invoices screen, an overdue invoice, transactions to review, and runway figures for the
 * default window. Seeded on the awkward days (a month's first day, 29 February, 31 December, the DST changes) and on
 * the test clock's own day.
 */
import { describe, expect, it } from 'vitest';
import { planDemo } from '../../../src-main/demo/seed';
import { writeDemo } from '../../../src-main/demo/write';
import { openDatabase } from '../../../src-main/store/db';
import { matchInvoicePayments } from '../../../src-main/store/invoices/matching';
import { runwayReport } from '../../../src-main/store/reports/reports';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { reviewCounts } from '../../../src-main/store/transactions/review';
import { defaultWindow } from '../../../src-renderer/screens/runway/default-window';
import { testDay } from '../../helpers/clock';
import { tmpDir } from '../../helpers/tmp';

const AWKWARD_DAYS = ['2026-12-01', '2027-01-01', '2028-02-29', '2026-12-31', '2027-03-28', '2026-11-01', '2027-03-14'];

describe('the demo data set on any day', () => {
  for (const day of [...new Set([...AWKWARD_DAYS, testDay()])]) {
    it(`seeded as of ${day}: a payment to confirm, an overdue invoice, transactions to review, runway figures`, () => {
      const db = openDatabase(tmpDir('demo-day-'));
      const team = ensureTeam(db, 'Demo Agency', { baseCurrency: 'EUR', countryCode: 'DE' });
      writeDemo(db, team.id, planDemo({ seed: '1', asOf: day }));

      const at = new Date(`${day}T09:00:00Z`);
      matchInvoicePayments(db, team.id, { now: at });
      const suggested = db
        .prepare(`SELECT count(*) FROM invoice_payments WHERE team_id = ? AND state = 'suggested'`)
        .pluck()
        .get(team.id) as number;
      expect(suggested).toBeGreaterThan(0);

      const byStatus = Object.fromEntries(
        (
          db.prepare('SELECT status, count(*) AS n FROM invoices WHERE team_id = ? GROUP BY status').all(team.id) as {
            status: string;
            n: number;
          }[]
        ).map((r) => [r.status, r.n]),
      );
      expect(byStatus.overdue).toBeGreaterThan(0);
      expect(byStatus.unpaid).toBeGreaterThan(0);
      expect(byStatus.draft).toBeGreaterThan(0);

      expect(reviewCounts(db, team.id, {}).to_review).toBeGreaterThan(10);

      const window = defaultWindow(at);
      const runway = runwayReport(db, team.id, { from: window.from, to: window.to }, day);
      expect(runway.cash).toBeGreaterThan(0);
      expect(runway.averageMonthlyOutflow).toBeGreaterThan(0);
      expect(runway.medianBurn).toBeGreaterThan(0);
      db.close();
    });
  }
});
