/**
 * Each business rule has one TypeScript form (src-shared/domain) and the SQL forms the store filters with
 * (src-main/store/customers/engagement-sql.ts): this table test evaluates both on the same realistic cases and holds them equal.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerStatsCte, TABS_BY_STATS, TABS_CORRELATED } from '../../../../src-main/store/customers/engagement-sql';
import { getCustomer } from '../../../../src-main/store/customers/read';
import { upsertCustomer } from '../../../../src-main/store/customers/write';
import type { Db } from '../../../../src-main/store/db';
import { issuedSql, openSql } from '../../../../src-main/store/invoice-status-sql';
import { CUSTOMER_TABS, recentWindow } from '../../../../src-shared/domain/customer-engagement';
import { INVOICE_STATUSES, isIssued, isOpen } from '../../../../src-shared/domain/invoice-status';
import { daysAgo, freshDb, insertInvoice, setCreatedAt } from './customer-fixtures';

type Inv = { status: (typeof INVOICE_STATUSES)[number]; issuedDaysAgo: number; currency?: string };

/** Customers whose invoices exercise every tab boundary: counts 0/1/2, open vs paid vs refunded, the recent edge. */
const CASES: Record<string, { createdDaysAgo: number; invoices: Inv[] }> = {
  'new, old, no invoices': { createdDaysAgo: 400, invoices: [] },
  'new, created yesterday': { createdDaysAgo: 1, invoices: [] },
  'only drafts and canceled': {
    createdDaysAgo: 400,
    invoices: [
      { status: 'draft', issuedDaysAgo: 2 },
      { status: 'canceled', issuedDaysAgo: 3 },
    ],
  },
  'first-time, paid long ago': { createdDaysAgo: 400, invoices: [{ status: 'paid', issuedDaysAgo: 200 }] },
  'first-time, unpaid recently': { createdDaysAgo: 400, invoices: [{ status: 'unpaid', issuedDaysAgo: 5 }] },
  'invoice exactly 30 days ago': { createdDaysAgo: 400, invoices: [{ status: 'paid', issuedDaysAgo: 30 }] },
  'invoice 31 days ago': { createdDaysAgo: 400, invoices: [{ status: 'paid', issuedDaysAgo: 31 }] },
  'repeat, all paid': {
    createdDaysAgo: 400,
    invoices: [
      { status: 'paid', issuedDaysAgo: 100 },
      { status: 'paid', issuedDaysAgo: 60, currency: 'USD' },
    ],
  },
  'repeat, one overdue': {
    createdDaysAgo: 400,
    invoices: [
      { status: 'paid', issuedDaysAgo: 100 },
      { status: 'overdue', issuedDaysAgo: 45 },
    ],
  },
  'paid and refunded': {
    createdDaysAgo: 400,
    invoices: [
      { status: 'paid', issuedDaysAgo: 100 },
      { status: 'refunded', issuedDaysAgo: 90 },
    ],
  },
  'scheduled only': { createdDaysAgo: 400, invoices: [{ status: 'scheduled', issuedDaysAgo: -3 }] },
};

let db: Db;
let team: string;
const ids = new Map<string, string>();
const now = new Date();

beforeAll(() => {
  const f = freshDb('file');
  db = f.db;
  team = f.teamA;
  for (const [label, c] of Object.entries(CASES)) {
    const id = upsertCustomer(db, team, { name: label }).customer.id;
    setCreatedAt(db, id, daysAgo(c.createdDaysAgo, now).toISOString());
    for (const inv of c.invoices) {
      insertInvoice(db, team, id, {
        status: inv.status,
        currency: inv.currency ?? 'EUR',
        amountMinor: 1000,
        issueDate: daysAgo(inv.issuedDaysAgo, now).toISOString().slice(0, 10),
      });
    }
    ids.set(label, id);
  }
});
afterAll(() => db.close());

function matching(condition: string, stats: boolean): Set<string> {
  const sql = `${stats ? customerStatsCte(() => '100.0') : ''}
    SELECT c.id FROM customers c ${stats ? 'LEFT JOIN s ON s.cid = c.id' : ''} WHERE c.team_id = @team AND ${condition}`;
  return new Set(
    db
      .prepare(sql)
      .pluck()
      .all({ team, ...recentWindow(now) }) as string[],
  );
}

describe('invoice status rules', () => {
  it.each(INVOICE_STATUSES)('issued and open agree in SQL and TypeScript for %s', (status) => {
    const row = db.prepare(`SELECT ${issuedSql('@s')} AS issued, ${openSql('@s')} AS open`).get({ s: status }) as {
      issued: number;
      open: number;
    };
    expect(Boolean(row.issued)).toBe(isIssued(status));
    expect(Boolean(row.open)).toBe(isOpen(status));
  });
});

describe('customer tab rules', () => {
  it.each(CUSTOMER_TABS.filter((t) => t !== 'all'))(
    'tab %s: both SQL forms select exactly the customers the TypeScript rule puts there',
    (tab) => {
      const expected = new Set([...ids.values()].filter((id) => getCustomer(db, team, id, now).engagement.tabs.includes(tab)));
      expect(matching(TABS_CORRELATED[tab]!, false)).toEqual(expected);
      expect(matching(TABS_BY_STATS[tab]!, true)).toEqual(expected);
    },
  );

  it('the cases cover every tab both ways', () => {
    for (const tab of CUSTOMER_TABS.filter((t) => t !== 'all')) {
      const inTab = [...ids.values()].filter((id) => getCustomer(db, team, id, now).engagement.tabs.includes(tab));
      expect(inTab.length, tab).toBeGreaterThan(0);
      expect(inTab.length, tab).toBeLessThan(ids.size);
    }
  });
});
