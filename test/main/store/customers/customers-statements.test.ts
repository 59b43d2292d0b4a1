import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CustomerListOptions, listCustomers } from '../../../../src-main/store/customers/list';
import { getCustomer } from '../../../../src-main/store/customers/read';
import { upsertCustomer } from '../../../../src-main/store/customers/write';
import type { Db } from '../../../../src-main/store/db';
import { createTag } from '../../../../src-main/store/tags/tags';
import { freshDb, insertInvoice } from './customer-fixtures';

/**
 * A page of customers costs the same number of statements whatever its size: no query per row (N+1). How long a
 * page takes is measured by `npm run bench -- customer-list`, not here.
 */
let db: Db;
let teamId: string;
let statements = 0;
let tagId = '';

beforeAll(() => {
  const f = freshDb('file');
  db = f.db;
  teamId = f.teamA;
  const tag = createTag(db, teamId, { name: 'vip' });
  tagId = tag.id;
  db.transaction(() => {
    for (let i = 0; i < 120; i++) {
      const id = upsertCustomer(db, teamId, {
        name: `Customer ${i} ${['Acme', 'Globex'][i % 2]}`,
        countryCode: ['DE', 'FR', 'US'][i % 3],
        tags: i % 2 ? [{ id: tag.id, name: tag.name }] : [],
      }).customer.id;
      insertInvoice(db, teamId, id, {
        status: i % 2 ? 'paid' : 'unpaid',
        currency: 'EUR',
        amountMinor: 1000 + i,
        issueDate: '2026-05-01',
      });
      insertInvoice(db, teamId, id, { status: 'paid', currency: 'JPY', amountMinor: 500, issueDate: '2026-06-01' });
    }
  })();
  countExecutions(db);
});

/** What runs a statement; everything else a statement has (pluck, raw, bind, columns…) only configures it. */
const EXECUTIONS = new Set<string | symbol>(['run', 'get', 'all', 'iterate']);

/**
 * Counts statement executions, not prepares: each statement db.prepare hands out is wrapped so that every run, get,
 * all or iterate adds one, however the statement was obtained or reused (a statement prepared once and run per row
 * is N executions). Configuring calls that return the statement (`.pluck()`) hand back the wrapper.
 */
function countExecutions(target: Db): void {
  const prepare = target.prepare.bind(target);
  const wrapped = new WeakMap<object, object>();
  target.prepare = ((source: string) => {
    const statement = prepare(source);
    let proxy = wrapped.get(statement);
    if (!proxy) {
      const p: object = new Proxy(statement, {
        get(obj, prop) {
          const value = Reflect.get(obj, prop, obj);
          if (typeof value !== 'function') return value;
          if (EXECUTIONS.has(prop)) {
            return (...args: unknown[]) => {
              statements++;
              return value.apply(obj, args);
            };
          }
          return (...args: unknown[]) => {
            const out = value.apply(obj, args);
            return out === obj ? p : out;
          };
        },
      });
      proxy = p;
      wrapped.set(statement, proxy);
    }
    return proxy;
  }) as typeof target.prepare;
}

describe('the execution counter', () => {
  it('counts runs, not prepares: one statement run three times is three; prepared and not run is none', () => {
    const statement = db.prepare('SELECT count(*) FROM customers WHERE team_id = ?');
    expect(statementsFor(() => db.prepare('SELECT 1'))).toBe(0);
    expect(
      statementsFor(() => {
        for (let i = 0; i < 3; i++) statement.pluck().get(teamId);
      }),
    ).toBe(3);
  });
});
afterAll(() => db.close());

function statementsFor(fn: () => unknown): number {
  const before = statements;
  fn();
  return statements - before;
}

describe('customer reads issue a fixed number of statements', () => {
  // Functions: the tag's id exists only once beforeAll has run.
  const shapes: [string, () => CustomerListOptions][] = [
    ['default order', () => ({})],
    ['name asc', () => ({ sort: { column: 'name', direction: 'asc' } })],
    ['search', () => ({ q: 'acm' })],
    ['countries', () => ({ countries: ['DE', 'FR'] })],
    ['tags', () => ({ tags: [tagId] })],
    ['tab unpaid', () => ({ tab: 'unpaid' })],
    ['sort total_revenue', () => ({ sort: { column: 'total_revenue', direction: 'desc' } })],
  ];
  it.each(shapes)('%s: a page of 50 costs what a page of 2 costs, at most 2 statements', (_label, shape) => {
    const query = shape();
    const small = statementsFor(() => listCustomers(db, teamId, { ...query, pageSize: 2 }));
    let rows = 0;
    const large = statementsFor(() => {
      rows = listCustomers(db, teamId, { ...query, pageSize: 50 }).data.length;
    });
    expect(rows).toBeGreaterThan(2);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(2);
  });

  it('the next page by cursor too, and a point read is one statement', () => {
    const first = listCustomers(db, teamId, { pageSize: 50 });
    expect(first.meta.cursor).not.toBeNull();
    expect(statementsFor(() => listCustomers(db, teamId, { pageSize: 50, cursor: first.meta.cursor ?? '' }))).toBeLessThanOrEqual(
      2,
    );
    expect(statementsFor(() => getCustomer(db, teamId, first.data[0]?.id ?? ''))).toBe(1);
  });
});
