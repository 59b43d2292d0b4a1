/**
 * The customers store under a realistic team: 10,000 customers and 20,000 invoices, a page of 50 for each list
 * shape the UI uses (docs/decisions/0023), the next page by cursor, and a point read. Each is printed as a multiple
 * of a bare read on the same file: the page as `SELECT * … ORDER BY created_at DESC LIMIT 50`, the point read as
 * `SELECT * … WHERE id = ?`. Those are the cheapest reads SQLite can do for the same rows; the multiple is what
 * search, filters, tabs, tags, invoice summaries and the cursor cost on top.
 *
 * This machine's speed drifts within seconds, so each run times the bare read and the read under test back to back
 * (each as the mean of a batch of calls long enough for the clock), and the multiple is the median of the runs'
 * multiples; the milliseconds printed are medians too.
 *
 *   node --import tsx bench/customer-list.ts [--runs 15]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDataDir as openDatabase } from '../src-main/runtime/data-dir';
import { type CustomerListOptions, listCustomers } from '../src-main/store/customers/list';
import { getCustomer } from '../src-main/store/customers/read';
import { newId, nowIso } from '../src-main/store/ids';
import { createTeam } from '../src-main/store/teams/teams';
import { paired } from './stats';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 15;
const CUSTOMERS = 10_000;

/** Calls per timed batch: enough that a batch lasts well over the timer's resolution. */
const BATCH_MS = 5;
const TIMING = { runs: RUNS, batchMs: BATCH_MS };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-list-'));
const db = openDatabase(dir);
try {
  const teamId = createTeam(db, { name: 'Bench' }).id;
  const t0 = performance.now();
  let someId = '';
  const insertCustomer = db.prepare(
    `INSERT INTO customers (id, team_id, name, email, city, country_code, created_at, updated_at, seq, search_rowid)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
  );
  const insertInvoice = db.prepare(
    `INSERT INTO invoices (id, team_id, customer_id, invoice_number, status, currency, amount_minor, issue_date,
       due_date, paid_at, created_at, updated_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
  );
  const countries = ['DE', 'FR', 'US', 'JP', 'BH', null];
  const statuses = ['paid', 'unpaid', 'overdue', 'draft', 'paid'];
  db.transaction(() => {
    const now = nowIso();
    for (let i = 0; i < CUSTOMERS; i++) {
      const id = newId();
      if (i === CUSTOMERS / 2) someId = id;
      const created = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
      const name = `Customer ${i} ${['Acme', 'Globex', 'Initech', 'Umbrella'][i % 4]}`;
      insertCustomer.run(id, teamId, name, `c${i}@ex.example`, 'Berlin', countries[i % 6], created, created, i + 1);
      for (let k = 0; k < 2; k++) {
        const status = statuses[(i + k) % 5] ?? 'paid';
        const issued = `2026-0${(i % 9) + 1}-${String(k + 1).padStart(2, '0')}`;
        const paidAt = status === 'paid' ? `${issued}T12:00:00.000Z` : null;
        const currency = i % 3 ? 'EUR' : 'JPY';
        insertInvoice.run(newId(), teamId, id, `INV-${i}-${k}`, status, currency, 1000 + i, issued, issued, paidAt, now, now);
      }
    }
  })();
  process.stderr.write(
    `seeded ${CUSTOMERS} customers, ${CUSTOMERS * 2} invoices in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );
  db.pragma('optimize');

  const barePage = db.prepare('SELECT * FROM customers WHERE team_id = ? ORDER BY created_at DESC, id DESC LIMIT 50');
  const barePoint = db.prepare('SELECT * FROM customers WHERE team_id = ? AND id = ?');
  const pageBaseline = () => barePage.all(teamId);
  const pointBaseline = () => barePoint.get(teamId, someId);

  const base: CustomerListOptions = { pageSize: 50, tab: 'all' };
  const cases: [string, CustomerListOptions][] = [
    ['default page (created_at desc)', base],
    ['name asc', { ...base, sort: { column: 'name', direction: 'asc' } }],
    ['search "acm"', { ...base, q: 'acm' }],
    ['countries DE,FR', { ...base, countries: ['DE', 'FR'] }],
    ['tab unpaid', { ...base, tab: 'unpaid' }],
    ['sort total_revenue desc', { ...base, sort: { column: 'total_revenue', direction: 'desc' } }],
    ['next page by cursor', { ...base, cursor: listCustomers(db, teamId, base).meta.cursor ?? undefined }],
  ];

  console.log(`\ncustomers store, ${CUSTOMERS} customers / ${CUSTOMERS * 2} invoices, medians of ${RUNS} paired runs`);
  console.log(`${'read'.padEnd(34)}${'ms'.padStart(10)}${'bare ms'.padStart(10)}${'× bare'.padStart(10)}`);
  const line = (label: string, r: { ms: number; bareMs: number; multiple: number }) =>
    console.log(
      `${label.padEnd(34)}${r.ms.toFixed(3).padStart(10)}${r.bareMs.toFixed(3).padStart(10)}${r.multiple.toFixed(1).padStart(10)}`,
    );
  for (const [label, query] of cases) {
    const rows = listCustomers(db, teamId, query).data.length;
    if (rows !== 50) throw new Error(`${label}: expected a page of 50, got ${rows}`);
    line(
      label,
      paired(() => listCustomers(db, teamId, query), pageBaseline, TIMING),
    );
  }
  line(
    'get by id',
    paired(() => getCustomer(db, teamId, someId), pointBaseline, TIMING),
  );
} finally {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
