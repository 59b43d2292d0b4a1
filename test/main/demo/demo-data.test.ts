/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import countries from 'i18n-iso-countries';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MONTHS } from '../../../src-main/demo/context';
import { INVOICE_STATUSES } from '../../../src-main/demo/invoices';
import { planDemo } from '../../../src-main/demo/seed';
import { writeDemo } from '../../../src-main/demo/write';
import { currentSeq } from '../../../src-main/store/changes';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { type DEMO_ENTITIES, DEMO_TABLES, deleteTeamData, teamHasData } from '../../../src-main/store/demo/demo-data';
import { teamContentHash, teamTables } from '../../../src-main/store/teams/content';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { tmpDir } from '../../helpers/tmp';

const AS_OF = '2026-11-22';
const HASHED = [...DEMO_TABLES, 'changes'];

function seed(db: Db, team: string, seedValue = '1', transactions?: number) {
  const t = ensureTeam(db, team, { baseCurrency: 'EUR', countryCode: 'DE' });
  const summary = writeDemo(db, t.id, planDemo({ seed: seedValue, asOf: AS_OF, transactions }));
  return { teamId: t.id, summary };
}

type Row = Record<string, unknown>;

// One database holding two demo teams, shared by the read-only invariant tests below (each seeding takes ~0.5 s).
let db: Db;
let a: ReturnType<typeof seed>;
let b: ReturnType<typeof seed>;
beforeAll(() => {
  // Not tmpDir(): its folders are removed after each test, and this one lives for the whole file.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-demo-'));
  db = openDatabase(dir);
  a = seed(db, 'Demo Agency');
  b = seed(db, 'Second Agency', '2');
  return () => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
});

describe('demo data set', () => {
  it('has the promised shape: 3 accounts in 2 currencies, ~150 customers, 42 months of transactions, tracker, notifications', () => {
    const s = a.summary;
    expect(s.bankAccounts).toBe(3);
    expect(s.customers).toBe(150);
    expect(s.transactions).toBeGreaterThan(2000);
    expect(s.trackerProjects).toBeGreaterThan(20);
    expect(s.trackerEntries).toBeGreaterThan(500);
    expect(s.notifications).toBeGreaterThan(30);
    const currencies = db.prepare('SELECT DISTINCT currency FROM bank_accounts WHERE team_id = ?').pluck().all(a.teamId);
    expect(currencies.sort()).toEqual(['EUR', 'USD']);
    const months = db
      .prepare('SELECT COUNT(DISTINCT substr(date, 1, 7)) FROM transactions WHERE team_id = ?')
      .pluck()
      .get(a.teamId);
    expect(months).toBe(DEMO_MONTHS);
    const last = db.prepare('SELECT MAX(date) FROM transactions WHERE team_id = ?').pluck().get(a.teamId) as string;
    expect(last.slice(0, 7)).toBe(AS_OF.slice(0, 7));
    const notificationTypes = db.prepare('SELECT DISTINCT type FROM notifications WHERE team_id = ?').pluck().all(a.teamId);
    expect(notificationTypes).toEqual(
      expect.arrayContaining(['invoice_paid', 'invoice_overdue', 'transactions_created', 'customer_created']),
    );
  });

  it("each account's balance is the sum of its transactions, and each transaction's balance the running sum", () => {
    const accounts = db.prepare('SELECT id, currency, balance_minor FROM bank_accounts WHERE team_id = ?').all(a.teamId) as Row[];
    for (const acc of accounts) {
      const rows = db
        .prepare(
          'SELECT amount_minor, balance_minor, currency FROM transactions WHERE team_id = ? AND bank_account_id = ? ORDER BY date, id',
        )
        .all(a.teamId, acc.id) as { amount_minor: number; balance_minor: number; currency: string }[];
      let running = 0;
      for (const r of rows) {
        running += r.amount_minor;
        expect(r.balance_minor).toBe(running);
        expect(r.currency).toBe(acc.currency);
      }
      expect(acc.balance_minor).toBe(running);
      expect(Number.isInteger(running)).toBe(true);
    }
  });

  it('every row of every team-owned table belongs to its team, and references never cross teams', () => {
    const tables = teamTables(db);
    for (const t of DEMO_TABLES) expect(tables).toContain(t);
    for (const t of tables) {
      // Declared foreign keys: the referenced row, when team-owned, has the same team.
      const fks = db.prepare('SELECT "table" AS target, "from" AS col, "to" AS ref FROM pragma_foreign_key_list(?)').all(t) as {
        target: string;
        col: string;
        ref: string;
      }[];
      for (const fk of fks) {
        if (fk.target === 'teams' || !tables.includes(fk.target)) continue;
        const crossing = db
          .prepare(`SELECT COUNT(*) FROM ${t} x JOIN ${fk.target} y ON y.${fk.ref} = x.${fk.col} WHERE x.team_id != y.team_id`)
          .pluck()
          .get();
        expect(crossing, `${t}.${fk.col} → ${fk.target}`).toBe(0);
      }
    }
    // Undeclared references and ids inside JSON.
    const plain: [string, string, string][] = [
      ['invoices', 'customer_id', 'customers'],
      ['tracker_projects', 'customer_id', 'customers'],
      ['changes', 'entity_id', 'transactions'],
    ];
    for (const [t, col, target] of plain) {
      const crossing = db
        .prepare(`SELECT COUNT(*) FROM ${t} x JOIN ${target} y ON y.id = x.${col} WHERE x.team_id != y.team_id`)
        .pluck()
        .get();
      expect(crossing, `${t}.${col}`).toBe(0);
    }
    for (const key of ['invoiceId', 'transferPairId']) {
      const crossing = db
        .prepare(
          `SELECT COUNT(*) FROM transactions x WHERE json_extract(x.metadata, '$.${key}') IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM ${key === 'invoiceId' ? 'invoices' : 'transactions'} y WHERE y.id = json_extract(x.metadata, '$.${key}') AND y.team_id = x.team_id)`,
        )
        .pluck()
        .get();
      expect(crossing, key).toBe(0);
    }
    // Both teams are complete and disjoint.
    for (const t of DEMO_TABLES.filter((x) => !x.endsWith('_tags'))) {
      const perTeam = db.prepare(`SELECT team_id, COUNT(*) AS n FROM ${t} GROUP BY team_id`).all() as {
        team_id: string;
        n: number;
      }[];
      expect(perTeam.map((r) => r.team_id).sort(), t).toEqual([a.teamId, b.teamId].sort());
    }
  });

  it('has invoices in every status, with totals = subtotal + vat + tax − discount', () => {
    const statuses = db.prepare('SELECT DISTINCT status FROM invoices WHERE team_id = ?').pluck().all(a.teamId);
    expect([...statuses].sort()).toEqual([...INVOICE_STATUSES].sort());
    const invoices = db.prepare('SELECT * FROM invoices WHERE team_id = ?').all(a.teamId) as Row[];
    for (const inv of invoices) {
      const items = JSON.parse(inv.line_items as string) as { quantity: number; priceMinor: number }[];
      const template = JSON.parse(inv.template as string) as { vatRate: number };
      expect(items.length).toBeGreaterThan(0);
      const subtotal = items.reduce((s, li) => s + Math.round(li.priceMinor * li.quantity), 0);
      expect(inv.subtotal_minor).toBe(subtotal);
      expect(inv.vat_minor).toBe(Math.round((subtotal * template.vatRate) / 100));
      expect(inv.amount_minor).toBe(
        (inv.subtotal_minor as number) + (inv.vat_minor as number) + (inv.tax_minor as number) - (inv.discount_minor as number),
      );
      expect(inv.invoice_number).toMatch(/^INV-\d{4}$/);
      if (inv.status === 'overdue') expect((inv.due_date as string) < AS_OF).toBe(true);
      if (inv.status === 'unpaid') expect((inv.due_date as string) >= AS_OF).toBe(true);
      if (inv.status === 'scheduled') expect((inv.issue_date as string) > AS_OF).toBe(true);
    }
  });

  it("keeps the product's own rules: a scheduled invoice has its time, an entry lasts no longer than stop − start", () => {
    const scheduled = db
      .prepare(`SELECT issue_date, scheduled_at FROM invoices WHERE team_id = ? AND status = 'scheduled'`)
      .all(a.teamId) as { issue_date: string; scheduled_at: string | null }[];
    expect(scheduled.length).toBeGreaterThan(0);
    for (const inv of scheduled) expect(inv.scheduled_at?.slice(0, 10)).toBe(inv.issue_date);
    const tooLong = db
      .prepare(
        `SELECT count(*) FROM tracker_entries WHERE team_id = ? AND stop IS NOT NULL
         AND duration_seconds > round((julianday(stop) - julianday(start)) * 86400)`,
      )
      .pluck()
      .get(a.teamId);
    expect(tooLong).toBe(0);
  });

  it('each paid or refunded invoice has exactly one matching client payment (amount, currency, day of payment)', () => {
    const invoices = db
      .prepare(
        "SELECT id, status, amount_minor, currency, paid_at FROM invoices WHERE team_id = ? AND status IN ('paid', 'refunded')",
      )
      .all(a.teamId) as Row[];
    expect(invoices.length).toBeGreaterThan(100);
    const payments = db.prepare(
      "SELECT amount_minor, currency, date FROM transactions WHERE team_id = ? AND json_extract(metadata, '$.invoiceId') = ? AND amount_minor > 0",
    );
    const refunds = db.prepare(
      "SELECT COUNT(*) FROM transactions WHERE team_id = ? AND json_extract(metadata, '$.invoiceId') = ? AND amount_minor < 0 AND category_slug = 'customer-refunds'",
    );
    for (const inv of invoices) {
      const found = payments.all(a.teamId, inv.id) as Row[];
      expect(found).toEqual([
        { amount_minor: inv.amount_minor, currency: inv.currency, date: (inv.paid_at as string).slice(0, 10) },
      ]);
      expect(refunds.pluck().get(a.teamId, inv.id)).toBe(inv.status === 'refunded' ? 1 : 0);
    }
    const unpaidWithPayment = db
      .prepare(
        `SELECT COUNT(*) FROM invoices i JOIN transactions t ON json_extract(t.metadata, '$.invoiceId') = i.id
         WHERE i.team_id = ? AND i.status NOT IN ('paid', 'refunded')`,
      )
      .pluck()
      .get(a.teamId);
    expect(unpaidWithPayment).toBe(0);
  });

  it('internal transfers come in balanced pairs between two of the team’s accounts on the same day', () => {
    const legs = db
      .prepare(
        'SELECT id, bank_account_id, amount_minor, currency, base_amount_minor, date, metadata, category_slug FROM transactions WHERE team_id = ? AND internal = 1',
      )
      .all(a.teamId) as Row[];
    expect(legs.length).toBeGreaterThan(40);
    expect(legs.length % 2).toBe(0);
    const byId = new Map(legs.map((l) => [l.id, l]));
    let crossCurrency = 0;
    for (const l of legs) {
      const pairId = JSON.parse(l.metadata as string).transferPairId as string;
      const other = byId.get(pairId)!;
      expect(other, `partner of ${l.id}`).toBeDefined();
      expect(JSON.parse(other.metadata as string).transferPairId).toBe(l.id);
      expect(other.bank_account_id).not.toBe(l.bank_account_id);
      expect(other.date).toBe(l.date);
      expect(l.category_slug).toBe('internal-transfer');
      expect((l.base_amount_minor as number) + (other.base_amount_minor as number)).toBe(0);
      if (l.currency === other.currency) expect((l.amount_minor as number) + (other.amount_minor as number)).toBe(0);
      else crossCurrency++;
    }
    expect(crossCurrency).toBeGreaterThan(0);
  });

  it('the change feed has one row per record, with distinct seqs matching the rows and the team counter', () => {
    const tables: Record<(typeof DEMO_ENTITIES)[number], string> = {
      bank_account: 'bank_accounts',
      customer: 'customers',
      tag: 'tags',
      transaction: 'transactions',
      invoice: 'invoices',
      tracker_project: 'tracker_projects',
      tracker_entry: 'tracker_entries',
      notification: 'notifications',
      transaction_category: 'transaction_categories',
    };
    let records = 0;
    for (const [entity, table] of Object.entries(tables)) {
      const n = db.prepare(`SELECT COUNT(*) FROM ${table} WHERE team_id = ?`).pluck().get(a.teamId) as number;
      records += n;
      const matched = db
        .prepare(
          `SELECT COUNT(*) FROM ${table} r JOIN changes c ON c.team_id = r.team_id AND c.entity = ? AND c.entity_id = r.id AND c.seq = r.seq AND c.op = 'upsert'
           WHERE r.team_id = ?`,
        )
        .pluck()
        .get(entity, a.teamId);
      expect(matched, entity).toBe(n);
    }
    const changes = db
      .prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT seq) AS d, MAX(seq) AS max FROM changes WHERE team_id = ?')
      .get(a.teamId) as Row;
    expect(changes.n).toBe(records);
    expect(changes.d).toBe(records);
    expect(changes.max).toBe(currentSeq(db, a.teamId));
  });

  it('customers have valid ISO country codes, reserved-domain e-mails, addresses, tags and VAT numbers', () => {
    const customers = db.prepare('SELECT * FROM customers WHERE team_id = ?').all(a.teamId) as Row[];
    for (const c of customers) {
      expect(countries.isValid(c.country_code as string), c.country_code as string).toBe(true);
      expect(c.email).toMatch(/^[a-z0-9.-]+@[a-z0-9-]+\.example$/);
      expect(c.address_line1).toBeTruthy();
      expect(c.zip).toBeTruthy();
    }
    const withVat = customers.filter((c) => c.vat_number).length;
    expect(withVat).toBeGreaterThan(100);
    expect(new Set(customers.map((c) => c.country_code)).size).toBeGreaterThan(5);
    const tagged = db
      .prepare('SELECT COUNT(DISTINCT customer_id) FROM customer_tags WHERE team_id = ?')
      .pluck()
      .get(a.teamId) as number;
    expect(tagged).toBeGreaterThan(50);
  });

  it('transactions use the default taxonomy: every category slug exists, with colour and tax', () => {
    const unknown = db
      .prepare(
        `SELECT DISTINCT t.category_slug FROM transactions t LEFT JOIN transaction_categories c ON c.team_id = t.team_id AND c.slug = t.category_slug
         WHERE t.team_id = ? AND c.id IS NULL`,
      )
      .pluck()
      .all(a.teamId);
    expect(unknown).toEqual([]);
    const software = db
      .prepare("SELECT color, tax_type, tax_rate FROM transaction_categories WHERE team_id = ? AND slug = 'software'")
      .get(a.teamId);
    expect(software).toEqual({ color: expect.stringMatching(/^#[0-9a-f]{6}$/), tax_type: 'vat', tax_rate: 19 });
  });
});

describe('demo determinism and replacement', () => {
  // Four demo books seeded in one test: seconds each alone, far longer beside a load.
  it('the same seed gives the same content, another seed different content; --transactions leaves the rest alone', {
    timeout: 120_000,
  }, () => {
    const one = openDatabase(tmpDir());
    const two = openDatabase(tmpDir());
    try {
      const x = seed(one, 'Demo Agency', '42');
      const y = seed(two, 'Demo Agency', '42');
      const z = seed(two, 'Other', '43');
      expect(teamContentHash(one, x.teamId, HASHED)).toBe(teamContentHash(two, y.teamId, HASHED));
      expect(teamContentHash(two, z.teamId, HASHED)).not.toBe(teamContentHash(two, y.teamId, HASHED));
      const names = (d: Db, t: string) => d.prepare('SELECT name FROM customers WHERE team_id = ? ORDER BY id').pluck().all(t);
      const w = seed(one, 'Scaled', '42', 5000);
      expect(w.summary.transactions).toBe(5000);
      expect(names(one, w.teamId)).toEqual(names(one, x.teamId));
    } finally {
      one.close();
      two.close();
    }
  });

  it('deleteTeamData empties the team and leaves tombstones with fresh seqs; the other team is untouched', () => {
    const d = openDatabase(tmpDir());
    try {
      const x = seed(d, 'Demo Agency', '5');
      const y = seed(d, 'Neighbour', '6');
      const before = currentSeq(d, x.teamId);
      const records = d.prepare('SELECT COUNT(*) FROM changes WHERE team_id = ?').pluck().get(x.teamId) as number;
      const yHash = teamContentHash(d, y.teamId, HASHED);
      expect(teamHasData(d, x.teamId)).toBe(true);
      expect(deleteTeamData(d, x.teamId)).toBe(records);
      expect(teamHasData(d, x.teamId)).toBe(false);
      for (const t of DEMO_TABLES)
        expect(d.prepare(`SELECT COUNT(*) FROM ${t} WHERE team_id = ?`).pluck().get(x.teamId), t).toBe(0);
      const tomb = d
        .prepare("SELECT COUNT(*) AS n, MIN(seq) AS lo, MAX(seq) AS hi FROM changes WHERE team_id = ? AND op = 'delete'")
        .get(x.teamId) as Row;
      expect(tomb).toEqual({ n: records, lo: before + 1, hi: before + records });
      expect(teamContentHash(d, y.teamId, HASHED)).toBe(yHash);
      // And the team can be seeded again.
      const again = writeDemo(d, x.teamId, planDemo({ seed: '5', asOf: AS_OF }));
      expect(again.transactions).toBeGreaterThan(2000);
    } finally {
      d.close();
    }
  });
});
