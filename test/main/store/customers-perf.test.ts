import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CustomerListOptions as CustomerListQuery, getCustomer, listCustomers } from '../../../src-main/store/customers';
import type { Db } from '../../../src-main/store/db';
import { newId } from '../../../src-main/store/ids';
import { freshDb, insertInvoice } from './customer-fixtures';

/**
 * List speed over 10k customers and 20k invoices (perf-facts.md: a page of 50 should take a few ms; no N+1).
 * Bounds are loose (shared 2-core machines); the measured medians are printed.
 */
let db: Db;
let teamId: string;
let someId = '';

beforeAll(() => {
  const f = freshDb('file');
  db = f.db;
  teamId = f.teamA;
  const countries = ['DE', 'FR', 'US', 'JP', 'BH', null];
  const statuses = ['paid', 'unpaid', 'overdue', 'draft', 'paid'] as const;
  const insert = db.prepare(
    `INSERT INTO customers (id, team_id, name, email, city, country_code, created_at, updated_at, seq, search_rowid)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < 10_000; i++) {
      const id = newId();
      if (i === 5000) someId = id;
      const created = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
      insert.run(
        id,
        teamId,
        `Customer ${i} ${['Acme', 'Globex', 'Initech', 'Umbrella'][i % 4]}`,
        `c${i}@ex.example`,
        'Berlin',
        countries[i % 6],
        created,
        created,
        i + 1,
      );
      for (let k = 0; k < 2; k++) {
        insertInvoice(db, teamId, id, {
          status: statuses[(i + k) % 5]!,
          currency: i % 3 ? 'EUR' : 'JPY',
          amountMinor: 1000 + i,
          issueDate: `2026-0${(i % 9) + 1}-${String((k % 27) + 1).padStart(2, '0')}`,
        });
      }
    }
  })();
});
afterAll(() => db.close());

function median(fn: () => void, runs = 7): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

describe('customer list speed (10k customers, 20k invoices)', () => {
  const base: CustomerListQuery = { pageSize: 50, tab: 'all' };
  const cases: [string, CustomerListQuery, number][] = [
    ['default page (created_at desc)', base, 25],
    ['name asc', { ...base, sort: { column: 'name', direction: 'asc' } }, 25],
    ['search "acm"', { ...base, q: 'acm' }, 60],
    ['countries DE,FR', { ...base, countries: ['DE', 'FR'] }, 40],
    ['tab unpaid', { ...base, tab: 'unpaid' }, 150],
    ['sort total_revenue desc', { ...base, sort: { column: 'total_revenue', direction: 'desc' } }, 150],
  ];
  it.each(cases)('%s', (_label, query, bound) => {
    const ms = median(() => listCustomers(db, teamId, query));
    console.log(`customers list ${_label}: ${ms.toFixed(2)} ms`);
    expect(listCustomers(db, teamId, query).data).toHaveLength(50);
    expect(ms).toBeLessThan(bound);
  });

  it('second page by cursor and a point read', () => {
    const first = listCustomers(db, teamId, base);
    const ms = median(() => listCustomers(db, teamId, { ...base, cursor: first.meta.cursor! }));
    const point = median(() => getCustomer(db, teamId, someId), 50);
    console.log(`customers list page 2: ${ms.toFixed(2)} ms; get by id: ${point.toFixed(3)} ms`);
    expect(ms).toBeLessThan(25);
    expect(point).toBeLessThan(5);
  });
});
