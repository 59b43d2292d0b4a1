/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesSince } from '../../../../src-main/store/changes';
import { type CustomerListOptions as CustomerListQuery, listCustomers } from '../../../../src-main/store/customers/list';
import { customerReadChangesAt, getCustomer } from '../../../../src-main/store/customers/read';
import { deleteCustomer, updateCustomer, upsertCustomer } from '../../../../src-main/store/customers/write';
import { type Db, openDatabaseFile } from '../../../../src-main/store/db';
import { InvalidReference, NotFound } from '../../../../src-main/store/errors';
import { ftsQuery } from '../../../../src-main/store/list/fts';
import { createTag, deleteTag, updateTag } from '../../../../src-main/store/tags/tags';
import { createTeam } from '../../../../src-main/store/teams/teams';
import type { CustomerTab } from '../../../../src-shared/contract/customers';
import { tmpDir } from '../../../helpers/tmp';
import { daysAgo, freshDb, insertInvoice, setCreatedAt } from './customer-fixtures';

const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});
function setup() {
  const f = freshDb();
  dbs.push(f.db);
  return f;
}
const q = (over: Partial<CustomerListQuery> = {}): CustomerListQuery => ({ pageSize: 100, tab: 'all', ...over });
const names = (r: { data: { name: string }[] }) => r.data.map((c) => c.name);

describe('finance summary', () => {
  it('sums invoices in the invoice currency (EUR, JPY, BHD) and counts by status', () => {
    const { db, teamA } = setup();
    const a = upsertCustomer(db, teamA, { name: 'Euro Only' }).customer.id;
    insertInvoice(db, teamA, a, { status: 'paid', currency: 'EUR', amountMinor: 10010, issueDate: '2026-01-05' });
    insertInvoice(db, teamA, a, { status: 'unpaid', currency: 'EUR', amountMinor: 5005, issueDate: '2026-02-01' });
    insertInvoice(db, teamA, a, { status: 'overdue', currency: 'EUR', amountMinor: 2000, issueDate: '2026-01-20' });
    insertInvoice(db, teamA, a, { status: 'draft', currency: 'EUR', amountMinor: 99900, issueDate: '2026-03-01' });
    insertInvoice(db, teamA, a, { status: 'canceled', currency: 'EUR', amountMinor: 1200, issueDate: '2026-03-02' });
    const ca = getCustomer(db, teamA, a);
    expect(ca.finance).toMatchObject({
      currency: 'EUR',
      invoiced: 170.15,
      paid: 100.1,
      outstanding: 70.05,
      overdue: 20,
      invoiceCount: 3,
      paidCount: 1,
      unpaidCount: 2,
      overdueCount: 1,
      draftCount: 1,
      lastInvoiceDate: '2026-02-01',
    });
    expect(ca).toMatchObject({
      invoiceCount: 3,
      totalRevenue: 100.1,
      outstandingAmount: 70.05,
      lastInvoiceDate: '2026-02-01',
      invoiceCurrency: 'EUR',
    });
    expect(ca.activity.lastPaymentAt).toBe('2026-01-05T12:00:00.000Z');

    // The invoice currency is that of the latest issued invoice; other currencies are reported per currency.
    const b = upsertCustomer(db, teamA, { name: 'Yen Later' }).customer.id;
    insertInvoice(db, teamA, b, { status: 'paid', currency: 'EUR', amountMinor: 5000, issueDate: '2026-01-01' });
    insertInvoice(db, teamA, b, { status: 'paid', currency: 'JPY', amountMinor: 1500, issueDate: '2026-02-01' });
    insertInvoice(db, teamA, b, { status: 'unpaid', currency: 'JPY', amountMinor: 250, issueDate: '2026-02-10' });
    const cb = getCustomer(db, teamA, b);
    expect(cb.finance).toMatchObject({ currency: 'JPY', invoiced: 1750, paid: 1500, outstanding: 250, invoiceCount: 3 });
    expect(cb.finance.byCurrency).toEqual([
      { currency: 'EUR', invoiced: 50, paid: 50, outstanding: 0, overdue: 0, invoiceCount: 1 },
      { currency: 'JPY', invoiced: 1750, paid: 1500, outstanding: 250, overdue: 0, invoiceCount: 2 },
    ]);

    const c = upsertCustomer(db, teamA, { name: 'Dinar' }).customer.id;
    insertInvoice(db, teamA, c, { status: 'paid', currency: 'BHD', amountMinor: 1234567, issueDate: '2026-01-01' });
    insertInvoice(db, teamA, c, { status: 'overdue', currency: 'BHD', amountMinor: 1, issueDate: '2026-01-02' });
    const cc = getCustomer(db, teamA, c);
    expect(cc.finance).toMatchObject({ currency: 'BHD', invoiced: 1234.568, paid: 1234.567, outstanding: 0.001, overdue: 0.001 });

    // Sorting by money sorts by the numbers shown: 1750 JPY > 1234.567 BHD > 100.10 EUR.
    const byRevenue = listCustomers(db, teamA, q({ sort: { column: 'total_revenue', direction: 'desc' } }));
    expect(names(byRevenue)).toEqual(['Yen Later', 'Dinar', 'Euro Only']);
    const byOutstanding = listCustomers(db, teamA, q({ sort: { column: 'outstanding', direction: 'asc' } }));
    expect(byOutstanding.data.map((x) => x.outstandingAmount)).toEqual([0.001, 70.05, 250]);
  });

  it('ignores other teams’ invoices and counts tracker projects', () => {
    const { db, teamA, teamB } = setup();
    const a = upsertCustomer(db, teamA, { name: 'Mine' }).customer.id;
    insertInvoice(db, teamB, a, { status: 'paid', currency: 'EUR', amountMinor: 100, issueDate: '2026-01-01' });
    db.prepare(
      `INSERT INTO tracker_projects (id, team_id, name, customer_id, created_at, updated_at, seq) VALUES ('p1', ?, 'P', ?, 'x', 'x', 0)`,
    ).run(teamA, a);
    const c = getCustomer(db, teamA, a);
    expect(c.invoiceCount).toBe(0);
    expect(c.projectCount).toBe(1);
  });
});

describe('tabs', () => {
  it('puts each customer in exactly the tabs its definition says, in the list and in engagement.tabs', () => {
    const { db, teamA } = setup();
    const now = new Date();
    const old = daysAgo(60, now).toISOString();
    const day = (n: number) => daysAgo(n, now).toISOString().slice(0, 10);
    const mk = (name: string, createdAt = old) => {
      const id = upsertCustomer(db, teamA, { name }).customer.id;
      setCreatedAt(db, id, createdAt);
      return id;
    };
    mk('none');
    const ft = mk('first-paid');
    insertInvoice(db, teamA, ft, { status: 'paid', currency: 'EUR', amountMinor: 100, issueDate: day(90) });
    const rep = mk('repeat-unpaid');
    insertInvoice(db, teamA, rep, { status: 'paid', currency: 'EUR', amountMinor: 100, issueDate: day(90) });
    insertInvoice(db, teamA, rep, { status: 'overdue', currency: 'EUR', amountMinor: 100, issueDate: day(80) });
    const repPaid = mk('repeat-paid');
    insertInvoice(db, teamA, repPaid, { status: 'paid', currency: 'EUR', amountMinor: 100, issueDate: day(90) });
    insertInvoice(db, teamA, repPaid, { status: 'paid', currency: 'EUR', amountMinor: 100, issueDate: day(70) });
    insertInvoice(db, teamA, repPaid, { status: 'draft', currency: 'EUR', amountMinor: 100, issueDate: day(1) });
    mk('new-customer', now.toISOString());
    const recInv = mk('recent-invoice');
    insertInvoice(db, teamA, recInv, { status: 'unpaid', currency: 'EUR', amountMinor: 100, issueDate: day(5) });
    const drafts = mk('drafts-only');
    insertInvoice(db, teamA, drafts, { status: 'draft', currency: 'EUR', amountMinor: 100, issueDate: day(2) });
    insertInvoice(db, teamA, drafts, { status: 'canceled', currency: 'EUR', amountMinor: 100, issueDate: day(2) });
    const sched = mk('scheduled');
    insertInvoice(db, teamA, sched, { status: 'scheduled', currency: 'EUR', amountMinor: 100, issueDate: day(40) });
    const refund = mk('refunded-and-paid');
    insertInvoice(db, teamA, refund, { status: 'paid', currency: 'EUR', amountMinor: 100, issueDate: day(40) });
    insertInvoice(db, teamA, refund, { status: 'refunded', currency: 'EUR', amountMinor: 100, issueDate: day(45) });

    const expected: Record<CustomerTab, string[]> = {
      all: [
        'none',
        'first-paid',
        'repeat-unpaid',
        'repeat-paid',
        'new-customer',
        'recent-invoice',
        'drafts-only',
        'scheduled',
        'refunded-and-paid',
      ],
      'first-time': ['first-paid', 'recent-invoice', 'scheduled'],
      repeat: ['repeat-unpaid', 'repeat-paid', 'refunded-and-paid'],
      recent: ['new-customer', 'recent-invoice'],
      unpaid: ['repeat-unpaid', 'recent-invoice'],
      paid: ['first-paid', 'repeat-paid'],
    };
    for (const [tab, members] of Object.entries(expected) as [CustomerTab, string[]][]) {
      const page = listCustomers(db, teamA, q({ tab }), now);
      expect(names(page).sort(), tab).toEqual([...members].sort());
      for (const c of listCustomers(db, teamA, q(), now).data) {
        expect(c.engagement.tabs.includes(tab), `${c.name} in ${tab}`).toBe(members.includes(c.name));
      }
    }
  });
});

describe('search', () => {
  it('finds by prefix over every searchable field, folding case and diacritics', () => {
    const { db, teamA, teamB } = setup();
    upsertCustomer(db, teamA, { name: 'Acme GmbH', email: 'hello@acme.example', city: 'Berlin' });
    upsertCustomer(db, teamA, { name: 'Café Müller', contact: 'Jürgen Weiß', phone: '+49 30 5550100' });
    upsertCustomer(db, teamA, { name: 'Zeta Corp', billingEmail: 'ap@zeta.io', website: 'zeta.io', vatNumber: 'DE999' });
    upsertCustomer(db, teamA, { name: 'Noted', note: 'prefers 中文 invoices' });
    upsertCustomer(db, teamB, { name: 'Acme Other Team' });
    const search = (text: string) => names(listCustomers(db, teamA, q({ q: text }))).sort();
    expect(search('acm')).toEqual(['Acme GmbH']);
    expect(search('ACME gmb')).toEqual(['Acme GmbH']);
    expect(search('cafe')).toEqual(['Café Müller']);
    expect(search('MULLER')).toEqual(['Café Müller']);
    expect(search('jurgen')).toEqual(['Café Müller']);
    expect(search('5550100')).toEqual(['Café Müller']);
    expect(search('zeta.io')).toEqual(['Zeta Corp']);
    expect(search('ap@zeta')).toEqual(['Zeta Corp']);
    expect(search('de999')).toEqual(['Zeta Corp']);
    expect(search('berl')).toEqual(['Acme GmbH']);
    expect(search('中文')).toEqual(['Noted']);
    expect(search('nothing-like-this')).toEqual([]);
  });

  it('keeps the index in step with updates and deletes', () => {
    const { db, teamA } = setup();
    const id = upsertCustomer(db, teamA, { name: 'Old Name' }).customer.id;
    updateCustomer(db, teamA, id, { name: 'Fresh Name' });
    expect(names(listCustomers(db, teamA, q({ q: 'old' })))).toEqual([]);
    expect(names(listCustomers(db, teamA, q({ q: 'fresh' })))).toEqual(['Fresh Name']);
    deleteCustomer(db, teamA, id);
    expect(names(listCustomers(db, teamA, q({ q: 'fresh' })))).toEqual([]);
    expect(db.prepare(`SELECT count(*) FROM customers_fts WHERE customers_fts MATCH '"fresh"*'`).pluck().get()).toBe(0);
  });

  it.each([
    '"',
    '*',
    'AND(',
    'OR',
    'NEAR(a b',
    'name:acme',
    "'; DROP TABLE customers; --",
    '"unterminated',
    '^acme',
    '-acme',
    'a\u0000b',
    '🙂',
    '\u202e',
    '()',
    'x'.repeat(200),
  ])('never fails on hostile input %j', (text) => {
    const { db, teamA } = setup();
    upsertCustomer(db, teamA, { name: 'Acme' });
    expect(() => listCustomers(db, teamA, q({ q: text }))).not.toThrow();
  });

  it('turns words into quoted prefix terms', () => {
    expect(ftsQuery('acm')).toBe('"acm"*');
    expect(ftsQuery('AND( "x')).toBe('"AND"* "x"*');
    expect(ftsQuery('"*')).toBeNull();
    expect(ftsQuery(undefined)).toBeNull();
  });
});

describe('sort and cursor', () => {
  function seed(db: Db, teamId: string, count: number) {
    const countries = ['DE', 'FR', 'US', null, 'JP'];
    for (let i = 0; i < count; i++) {
      const n = (i * 37) % count;
      const id = upsertCustomer(db, teamId, {
        name: `${n % 3 === 0 ? 'a' : 'B'}cust ${String(n).padStart(3, '0')}`,
        email: i % 4 === 0 ? null : `c${(i * 13) % count}@x.example`,
        countryCode: countries[i % countries.length] ?? null,
      }).customer.id;
      for (let k = 0; k < i % 4; k++) {
        insertInvoice(db, teamId, id, {
          status: k % 2 ? 'paid' : 'unpaid',
          currency: 'EUR',
          amountMinor: (i + 1) * 100,
          issueDate: `2026-0${(i % 9) + 1}-1${k}`,
        });
      }
    }
  }

  it('orders by every sort column in both directions, ties broken by id', () => {
    const { db, teamA } = setup();
    seed(db, teamA, 40);
    const all = listCustomers(db, teamA, q()).data;
    const key: Record<string, (c: (typeof all)[number]) => string | number> = {
      created_at: (c) => c.createdAt,
      name: (c) => c.name.toLowerCase(),
      email: (c) => (c.email ?? '').toLowerCase(),
      country: (c) => (c.country ?? '').toLowerCase(),
      invoices: (c) => c.invoiceCount,
      projects: (c) => c.projectCount,
      total_revenue: (c) => c.totalRevenue,
      outstanding: (c) => c.outstandingAmount,
      last_invoice: (c) => c.lastInvoiceDate ?? '',
    };
    for (const [column, fn] of Object.entries(key)) {
      for (const direction of ['asc', 'desc'] as const) {
        const got = listCustomers(db, teamA, q({ sort: { column: column as never, direction } })).data.map((c) => c.id);
        const sign = direction === 'asc' ? 1 : -1;
        const want = [...all]
          .sort((x, y) => {
            const a = fn(x);
            const b = fn(y);
            if (a !== b) return (a < b ? -1 : 1) * sign;
            return (x.id < y.id ? -1 : 1) * sign;
          })
          .map((c) => c.id);
        expect(got, `${column} ${direction}`).toEqual(want);
      }
    }
    // Default: created_at desc.
    expect(all.map((c) => c.id)).toEqual(
      [...all]
        .map((c) => c.id)
        .sort()
        .reverse(),
    );
  });

  it('walking all pages gives the full list once, for every sort and filter', () => {
    const { db, teamA } = setup();
    seed(db, teamA, 57);
    const variants: Partial<CustomerListQuery>[] = [
      {},
      { sort: { column: 'name', direction: 'asc' } },
      { sort: { column: 'email', direction: 'desc' } },
      { sort: { column: 'country', direction: 'asc' } },
      { sort: { column: 'invoices', direction: 'desc' } },
      { sort: { column: 'total_revenue', direction: 'asc' } },
      { sort: { column: 'last_invoice', direction: 'desc' } },
      { countries: ['DE', 'FR'] },
      { tab: 'repeat', sort: { column: 'outstanding', direction: 'desc' } },
      { q: 'cust' },
    ];
    for (const v of variants) {
      const full = listCustomers(db, teamA, q(v)).data.map((c) => c.id);
      const walked: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = listCustomers(db, teamA, { ...q(v), pageSize: 7, cursor });
        expect(page.meta.hasPreviousPage).toBe(pages > 0);
        walked.push(...page.data.map((c) => c.id));
        cursor = page.meta.cursor ?? undefined;
        expect(page.meta.hasNextPage).toBe(cursor !== undefined);
        pages++;
      } while (cursor);
      expect(walked, JSON.stringify(v)).toEqual(full);
      expect(pages).toBe(Math.max(1, Math.ceil(full.length / 7)));
    }
  });

  it('refuses a cursor from another query or a forged one', () => {
    const { db, teamA, teamB } = setup();
    seed(db, teamA, 5);
    seed(db, teamB, 5);
    const first = listCustomers(db, teamA, { ...q(), pageSize: 2 });
    const cursor = first.meta.cursor!;
    expect(listCustomers(db, teamA, { ...q(), pageSize: 2, cursor }).data).toHaveLength(2);
    for (const other of [
      { sort: { column: 'name' as const, direction: 'asc' as const } },
      { q: 'x' },
      { tab: 'paid' as const },
      { countries: ['DE'] },
      { tags: ['t'] },
    ]) {
      expect(() => listCustomers(db, teamA, { ...q(other), pageSize: 2, cursor })).toThrow(InvalidReference);
    }
    expect(() => listCustomers(db, teamB, { ...q(), pageSize: 2, cursor })).toThrow(InvalidReference);
    for (const bad of ['x', '!!!', Buffer.from('{"v":1}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
      expect(() => listCustomers(db, teamA, { ...q(), cursor: bad })).toThrow(InvalidReference);
    }
  });
});

describe('writes and the change feed', () => {
  it('records an upsert per write (row seq = feed seq) and a tombstone on delete', () => {
    const { db, teamA } = setup();
    const c = upsertCustomer(db, teamA, { name: 'Feed' }).customer;
    const seqOf = () => db.prepare('SELECT seq FROM customers WHERE id = ?').pluck().get(c.id) as number;
    const s1 = seqOf();
    expect(changesSince(db, teamA, 0)).toEqual([
      expect.objectContaining({ seq: s1, entity: 'customer', entityId: c.id, op: 'upsert' }),
    ]);
    updateCustomer(db, teamA, c.id, { phone: '+1 555 0100' });
    const s2 = seqOf();
    expect(s2).toBeGreaterThan(s1);
    // A patch that changes nothing writes nothing.
    updateCustomer(db, teamA, c.id, { phone: '+1 555 0100', name: 'Feed' });
    expect(seqOf()).toBe(s2);
    deleteCustomer(db, teamA, c.id);
    expect(changesSince(db, teamA, s2)).toEqual([expect.objectContaining({ entity: 'customer', entityId: c.id, op: 'delete' })]);
    expect(() => getCustomer(db, teamA, c.id)).toThrow(NotFound);
  });

  it('renaming or deleting a tag re-sends the customers carrying it; deleting leaves a tag tombstone', () => {
    const { db, teamA } = setup();
    const tag = createTag(db, teamA, { name: 'vip' });
    const c = upsertCustomer(db, teamA, { name: 'Tagged', tags: [{ id: tag.id }] }).customer;
    const before = db.prepare('SELECT seq FROM customers WHERE id = ?').pluck().get(c.id) as number;
    updateTag(db, teamA, tag.id, { name: 'VIP+' });
    expect(getCustomer(db, teamA, c.id).tags).toEqual([{ id: tag.id, name: 'VIP+' }]);
    const afterRename = db.prepare('SELECT seq FROM customers WHERE id = ?').pluck().get(c.id) as number;
    expect(afterRename).toBeGreaterThan(before);
    deleteTag(db, teamA, tag.id);
    const feed = changesSince(db, teamA, afterRename);
    expect(feed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ entity: 'tag', entityId: tag.id, op: 'delete' }),
        expect.objectContaining({ entity: 'customer', entityId: c.id, op: 'upsert' }),
      ]),
    );
    expect(getCustomer(db, teamA, c.id).tags).toEqual([]);
  });

  it('rolls back the whole write when a tag reference is invalid', () => {
    const { db, teamA, teamB } = setup();
    const foreign = createTag(db, teamB, { name: 'theirs' });
    expect(() => upsertCustomer(db, teamA, { name: 'Nope', tags: [{ id: foreign.id }] })).toThrow(InvalidReference);
    expect(db.prepare('SELECT count(*) FROM customers').pluck().get()).toBe(0);
    expect(changesSince(db, teamA, 0)).toEqual([]);
  });
});

describe('migration 002 and the FTS triggers', () => {
  it('indexes customers that existed before the migration and rows written by plain SQL', () => {
    const dir = tmpDir('finops-mig-');
    const old = openDatabaseFile(path.join(dir, 'f.sqlite'), { targetVersion: 1 });
    const team = createTeam(old, { name: 'T' }).id;
    old
      .prepare(
        `INSERT INTO customers (id, team_id, name, email, created_at, updated_at, seq) VALUES ('c1', ?, 'Legacy Lumber', 'l@x.example', 'a', 'a', 0)`,
      )
      .run(team);
    old.close();
    const db = openDatabaseFile(path.join(dir, 'f.sqlite'));
    dbs.push(db);
    expect(names(listCustomers(db, team, q({ q: 'lumb' })))).toEqual(['Legacy Lumber']);
    // A plain INSERT without search_rowid gets one from the trigger and is indexed; plain UPDATE and DELETE follow.
    db.prepare(
      `INSERT INTO customers (id, team_id, name, created_at, updated_at, seq) VALUES ('c2', ?, 'Raw Rivet', 'b', 'b', 0)`,
    ).run(team);
    expect(names(listCustomers(db, team, q({ q: 'rivet' })))).toEqual(['Raw Rivet']);
    db.prepare(`UPDATE customers SET name = 'Raw Bolt' WHERE id = 'c2'`).run();
    expect(names(listCustomers(db, team, q({ q: 'rivet' })))).toEqual([]);
    expect(names(listCustomers(db, team, q({ q: 'bolt' })))).toEqual(['Raw Bolt']);
    db.prepare(`DELETE FROM customers WHERE id = 'c1'`).run();
    expect(names(listCustomers(db, team, q({ q: 'lumb' })))).toEqual([]);
    // FTS5's own check that the index matches the content table.
    expect(() => db.prepare(`INSERT INTO customers_fts(customers_fts) VALUES ('integrity-check')`).run()).not.toThrow();
    expect(db.prepare('SELECT count(DISTINCT search_rowid) FROM customers').pluck().get()).toBe(1);
  });
});

describe('customerReadChangesAt', () => {
  it('is the first instant the "recent" tab ends by creation date: recent 1 ms before, not at it', () => {
    const { db, teamA } = setup();
    const created = '2026-03-01T10:00:00.000Z';
    const id = upsertCustomer(db, teamA, { name: 'Fresh' }).customer.id;
    setCreatedAt(db, id, created);
    const at = customerReadChangesAt(getCustomer(db, teamA, id, new Date('2026-03-05T00:00:00.000Z')));
    expect(at).toBe(Date.parse(created) + 30 * 86_400_000 + 1);
    expect(getCustomer(db, teamA, id, new Date(at - 1)).engagement.recent).toBe(true);
    expect(getCustomer(db, teamA, id, new Date(at)).engagement.recent).toBe(false);
  });

  it('follows the last invoice day when that keeps the customer recent longer', () => {
    const { db, teamA } = setup();
    const id = upsertCustomer(db, teamA, { name: 'Invoiced' }).customer.id;
    setCreatedAt(db, id, '2025-01-01T00:00:00.000Z');
    insertInvoice(db, teamA, id, { status: 'unpaid', currency: 'EUR', amountMinor: 1000, issueDate: '2026-03-10' });
    const at = customerReadChangesAt(getCustomer(db, teamA, id, new Date('2026-03-20T00:00:00.000Z')));
    expect(new Date(at).toISOString()).toBe('2026-04-10T00:00:00.000Z');
    expect(getCustomer(db, teamA, id, new Date(at - 1)).engagement.recent).toBe(true);
    expect(getCustomer(db, teamA, id, new Date(at)).engagement.recent).toBe(false);
  });

  it('is never for a customer that is not recent: only a write can change its read', () => {
    const { db, teamA } = setup();
    const id = upsertCustomer(db, teamA, { name: 'Old' }).customer.id;
    setCreatedAt(db, id, '2020-01-01T00:00:00.000Z');
    expect(customerReadChangesAt(getCustomer(db, teamA, id))).toBe(Number.POSITIVE_INFINITY);
  });
});
