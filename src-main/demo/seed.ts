/**
 * `finops demo`'s engine: generates the demo data set (see the generator modules' headers and
 * docs/decisions/0003-demo-data.md) and writes it into one team.
 *
 * Writing follows the store's rules (docs/CONVENTIONS.md) in bulk: every team-owned row carries team_id,
 * created_at/updated_at and the team's change sequence number; each batch takes a block of sequence numbers with
 * `reserveSeq` and inserts one `changes` row per record in the same transaction as the records. Prepared statements
 * with positional parameters, one transaction per batch of `batchSize` transactions (default 100,000) and
 * time-ordered ids make a million transactions a matter of seconds. When everything fits in one batch (the default
 * data set), the whole run is a single transaction: it lands completely or not at all. A larger run commits batch by
 * batch (so a server on the same data dir can write in between); if it fails part-way, what it wrote is deleted again
 * (with tombstones), and a killed run leaves a partial team that `--replace` cleans up.
 */

import { ensureDefaultCategories } from '../store/categories';
import { reserveSeq } from '../store/changes';
import type { Db } from '../store/db';
import { nowIso } from '../store/ids';
import { type DemoAccount, type Employee, generateAccounts, generateEmployees, revenueCapacity } from './accounts';
import { type EpochDay, isoDay, parseDay, todayUtc } from './calendar';
import { TAG_NAMES } from './catalog';
import { type DemoWindow, demoWindow, type MakeId, stamp } from './context';
import { type DemoCustomer, generateCustomers } from './customers';
import { bulkIdMaker } from './ids';
import { type DemoInvoice, generateInvoices } from './invoices';
import { type LedgerPlan, planLedger, streamTransactions } from './ledger';
import { type DemoNotification, generateNotifications } from './notifications';
import { Prng } from './prng';
import { type DemoEntry, type DemoProject, generateEntries, generateProjects } from './tracker';

export const DEFAULT_SEED = '1';
export const DEFAULT_BATCH = 100_000;

export interface DemoOptions {
  seed?: string;
  /** YYYY-MM-DD: the last day of the data set (default today, UTC). */
  asOf?: string;
  /** Exact number of transactions; default: the natural count (~3,000). */
  transactions?: number;
  makeId?: MakeId;
}

/** Everything except the transactions themselves, which are streamed from the plan while writing. */
export interface DemoDataSet {
  seed: string;
  window: DemoWindow;
  baseCurrency: string;
  rng: Prng;
  makeId: MakeId;
  accounts: DemoAccount[];
  employees: Employee[];
  customers: DemoCustomer[];
  invoices: DemoInvoice[];
  projects: DemoProject[];
  entries: DemoEntry[];
  notifications: DemoNotification[];
  ledger: LedgerPlan;
}

export interface DemoSummary {
  categories: number;
  tags: number;
  bankAccounts: number;
  customers: number;
  transactions: number;
  invoices: number;
  trackerProjects: number;
  trackerEntries: number;
  notifications: number;
}

/** Builds the data set in memory (cheap: no transactions yet). Throws LedgerTooSmall when N is below the skeleton. */
export function planDemo(options: DemoOptions & { baseCurrency?: string } = {}): DemoDataSet {
  const seed = options.seed ?? DEFAULT_SEED;
  const makeId = options.makeId ?? bulkIdMaker();
  const rng = new Prng(seed);
  const window = demoWindow(parseDay(options.asOf ?? todayUtc()));
  const accounts = generateAccounts(rng.fork('accounts'), makeId);
  const employees = generateEmployees(rng.fork('employees'), window);
  const customers = generateCustomers(rng.fork('customers'), window, makeId);
  const invoices = generateInvoices(rng.fork('invoices'), window, customers, (m) => revenueCapacity(employees, m), makeId);
  const projects = generateProjects(rng.fork('projects'), window, invoices, makeId);
  const entries = generateEntries(rng.fork('entries'), window, projects, employees, makeId);
  const notifications = generateNotifications(rng.fork('notifications'), window, invoices, customers, entries, makeId);
  const ledger = planLedger(rng.fork('ledger'), window, accounts, employees, invoices, options.transactions);
  return {
    seed,
    window,
    baseCurrency: options.baseCurrency ?? 'EUR',
    rng,
    makeId,
    accounts,
    employees,
    customers,
    invoices,
    projects,
    entries,
    notifications,
    ledger,
  };
}

/** Tables the demo fills, children before parents (the order deletes run in). */
export const DEMO_TABLES = [
  'transaction_tags',
  'customer_tags',
  'tracker_project_tags',
  'tracker_entries',
  'notifications',
  'transactions',
  'invoices',
  'tracker_projects',
  'bank_accounts',
  'customers',
  'tags',
  'transaction_categories',
] as const;

/** Entity names in `changes` of the records the demo writes. */
export const DEMO_ENTITIES = [
  'bank_account',
  'customer',
  'tag',
  'transaction',
  'invoice',
  'tracker_project',
  'tracker_entry',
  'notification',
  'transaction_category',
] as const;

/**
 * Whether the team already holds records the demo would mix with. Categories do not count: every team may start
 * with the default taxonomy, which the demo reuses.
 */
export function teamHasData(db: Db, teamId: string): boolean {
  return DEMO_TABLES.filter((t) => t !== 'transaction_categories' && !t.endsWith('_tags')).some(
    (t) => db.prepare(`SELECT 1 FROM ${t} WHERE team_id = ? LIMIT 1`).get(teamId) !== undefined,
  );
}

/**
 * Deletes the team's rows from every table the demo fills (credentials and members stay) and turns their change-feed
 * rows into tombstones with fresh sequence numbers, so a synced copy learns of the deletes. Returns the records deleted.
 */
export function deleteTeamData(db: Db, teamId: string): number {
  return db.transaction(() => {
    const now = nowIso();
    const entities = DEMO_ENTITIES.map(() => '?').join(', ');
    const doomed = (
      db
        .prepare(`SELECT COUNT(*) AS n FROM changes WHERE team_id = ? AND op = 'upsert' AND entity IN (${entities})`)
        .get(teamId, ...DEMO_ENTITIES) as {
        n: number;
      }
    ).n;
    if (doomed > 0) {
      const first = reserveSeq(db, teamId, doomed);
      db.prepare(
        `WITH doomed AS (
           SELECT entity, entity_id, row_number() OVER (ORDER BY seq) - 1 AS k FROM changes
           WHERE team_id = ? AND op = 'upsert' AND entity IN (${entities}))
         UPDATE changes SET seq = ? + doomed.k, op = 'delete', changed_at = ?
         FROM doomed WHERE changes.team_id = ? AND changes.entity = doomed.entity AND changes.entity_id = doomed.entity_id`,
      ).run(teamId, ...DEMO_ENTITIES, first, now, teamId);
    }
    let deleted = 0;
    for (const t of DEMO_TABLES) {
      const r = db.prepare(`DELETE FROM ${t} WHERE team_id = ?`).run(teamId);
      if (!t.endsWith('_tags')) deleted += r.changes;
    }
    return deleted;
  })();
}

export interface SeedOptions {
  batchSize?: number;
  onProgress?: (written: number, total: number) => void;
}

/** Writes a planned data set into the team. The team must exist and hold no demo-table rows (see teamHasData). */
export function writeDemo(db: Db, teamId: string, data: DemoDataSet, options: SeedOptions = {}): DemoSummary {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const total = data.ledger.total;
  // A 64 MiB page cache for the load (default 2 MiB): a 100k-row batch dirties ~90 MB of pages, and a small cache
  // spills them to the WAL mid-transaction.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -65536');
  try {
    if (total <= batchSize) return db.transaction(() => write(db, teamId, data, batchSize, options))();
    try {
      return write(db, teamId, data, batchSize, options);
    } catch (err) {
      try {
        deleteTeamData(db, teamId);
      } catch {
        // The original failure is the one to report; `--replace` can still clean up.
      }
      throw err;
    }
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
  }
}

function write(db: Db, teamId: string, d: DemoDataSet, batchSize: number, options: SeedOptions): DemoSummary {
  const w = d.window;
  const setup = stamp(w, w.first, 8 * 3600);
  const change = db.prepare(
    `INSERT INTO changes (team_id, seq, entity, entity_id, op, changed_at) VALUES (?, ?, ?, ?, 'upsert', ?)`,
  );
  const summary: DemoSummary = {
    categories: 0,
    tags: 0,
    bankAccounts: 0,
    customers: 0,
    transactions: 0,
    invoices: 0,
    trackerProjects: 0,
    trackerEntries: 0,
    notifications: 0,
  };

  /** Inserts one kind of record with a reserved block of sequence numbers and its change rows. */
  function insertAll<T>(
    entity: string,
    items: readonly T[],
    insert: (item: T, seq: number) => { id: string; updatedAt: string },
  ): number {
    if (!items.length) return 0;
    let seq = reserveSeq(db, teamId, items.length);
    for (const item of items) {
      const { id, updatedAt } = insert(item, seq);
      change.run(teamId, seq, entity, id, updatedAt);
      seq++;
    }
    return items.length;
  }

  const tagIds = new Map<string, string>();
  db.transaction(() => {
    const categories = ensureDefaultCategories(db, teamId, { countryCode: 'DE', now: setup, makeId: d.makeId });
    summary.categories = categories.size;

    const insTag = db.prepare('INSERT INTO tags (id, team_id, name, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?)');
    summary.tags = insertAll('tag', TAG_NAMES, (name, seq) => {
      const id = d.makeId();
      tagIds.set(name, id);
      insTag.run(id, teamId, name, setup, setup, seq);
      return { id, updatedAt: setup };
    });

    const insAccount = db.prepare(
      `INSERT INTO bank_accounts (id, team_id, name, type, currency, balance_minor, enabled, manual, institution_id, institution_name,
         institution_logo, connection_id, connection_name, enrollment_id, resource_id, expires_at, created_at, updated_at, seq)
       VALUES (?, ?, ?, ?, ?, 0, 1, 0, ?, ?, NULL, ?, ?, NULL, NULL, ?, ?, ?, ?)`,
    );
    summary.bankAccounts = insertAll('bank_account', d.accounts, (a, seq) => {
      insAccount.run(
        a.id,
        teamId,
        a.name,
        a.type,
        a.currency,
        a.institutionId,
        a.institutionName,
        `demo_conn_${a.institutionId}`,
        a.connectionName,
        isoDay(w.asOf + 120),
        setup,
        setup,
        seq,
      );
      return { id: a.id, updatedAt: setup };
    });

    const insCustomer = db.prepare(
      `INSERT INTO customers (id, team_id, name, email, billing_email, phone, website, contact, country, country_code, address_line1,
         address_line2, city, state, zip, vat_number, peppol_id, note, created_at, updated_at, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insCustomerTag = db.prepare('INSERT INTO customer_tags (team_id, customer_id, tag_id) VALUES (?, ?, ?)');
    const customers = [...d.customers].sort((a, b) => a.since - b.since);
    summary.customers = insertAll('customer', customers, (c, seq) => {
      const at = stamp(w, c.since, 10 * 3600);
      insCustomer.run(
        c.id,
        teamId,
        c.name,
        c.email,
        c.billingEmail,
        c.phone,
        c.website,
        c.contact,
        c.country,
        c.countryCode,
        c.addressLine1,
        c.addressLine2,
        c.city,
        c.state,
        c.zip,
        c.vatNumber,
        c.peppolId,
        c.note,
        at,
        at,
        seq,
      );
      for (const t of c.tagNames) insCustomerTag.run(teamId, c.id, tagIds.get(t)!);
      return { id: c.id, updatedAt: at };
    });

    const insInvoice = db.prepare(
      `INSERT INTO invoices (id, team_id, customer_id, customer_name, invoice_number, status, currency, subtotal_minor, vat_minor, tax_minor,
         discount_minor, amount_minor, issue_date, due_date, sent_at, paid_at, line_items, template, note, created_at, updated_at, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    summary.invoices = insertAll('invoice', d.invoices, (inv, seq) => {
      const createdAt = stamp(w, Math.min(inv.issueDay, w.asOf) - (inv.status === 'scheduled' ? 1 : 0), 9 * 3600);
      const sentAt = inv.sent ? stamp(w, inv.issueDay, 9 * 3600 + 600) : null;
      const paidAt = inv.paidDay !== null ? stamp(w, inv.paidDay, 10 * 3600) : null;
      const last = [
        createdAt,
        sentAt,
        paidAt,
        ...[inv.refundDay, inv.canceledDay].map((x) => (x === null ? null : stamp(w, x, 11 * 3600))),
      ]
        .filter((x): x is string => x !== null)
        .sort();
      const us = inv.currency === 'USD';
      const template = {
        currency: inv.currency,
        locale: us ? 'en-US' : 'en-GB',
        dateFormat: us ? 'MM/dd/yyyy' : 'dd.MM.yyyy',
        paymentTermsDays: inv.paymentTermsDays,
        includeVat: inv.vatRate > 0,
        includeTax: false,
        includeDiscount: inv.discountMinor > 0,
        vatRate: inv.vatRate,
        taxRate: 0,
        size: us ? 'letter' : 'a4',
        deliveryType: inv.status === 'scheduled' ? 'scheduled' : inv.sent ? 'create_and_send' : 'create',
      };
      insInvoice.run(
        inv.id,
        teamId,
        inv.customer.id,
        inv.customer.name,
        inv.number,
        inv.status,
        inv.currency,
        inv.subtotalMinor,
        inv.vatMinor,
        inv.taxMinor,
        inv.discountMinor,
        inv.amountMinor,
        isoDay(inv.issueDay),
        isoDay(inv.dueDay),
        sentAt,
        paidAt,
        JSON.stringify(inv.lineItems),
        JSON.stringify(template),
        inv.note,
        createdAt,
        last[last.length - 1]!,
        seq,
      );
      return { id: inv.id, updatedAt: last[last.length - 1]! };
    });

    const insProject = db.prepare(
      `INSERT INTO tracker_projects (id, team_id, name, description, estimate_hours, billable, rate_minor, currency, status, customer_id,
         created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insProjectTag = db.prepare('INSERT INTO tracker_project_tags (team_id, project_id, tag_id) VALUES (?, ?, ?)');
    summary.trackerProjects = insertAll('tracker_project', d.projects, (p, seq) => {
      const createdAt = stamp(w, p.start, 9 * 3600);
      const updatedAt = p.status === 'completed' ? stamp(w, p.end, 17 * 3600) : createdAt;
      insProject.run(
        p.id,
        teamId,
        p.name,
        p.description,
        p.estimateHours,
        p.billable ? 1 : 0,
        p.rateMinor,
        p.currency,
        p.status,
        p.customer?.id ?? null,
        createdAt,
        updatedAt,
        seq,
      );
      for (const t of p.tagNames) insProjectTag.run(teamId, p.id, tagIds.get(t)!);
      return { id: p.id, updatedAt };
    });

    const insEntry = db.prepare(
      `INSERT INTO tracker_entries (id, team_id, project_id, assigned_id, date, start, stop, duration_seconds, description, created_at,
         updated_at, seq) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    summary.trackerEntries = insertAll('tracker_entry', d.entries, (e, seq) => {
      insEntry.run(
        e.id,
        teamId,
        e.project.id,
        isoDay(e.day),
        e.start,
        e.stop,
        e.durationSeconds,
        e.description,
        e.stop,
        e.stop,
        seq,
      );
      return { id: e.id, updatedAt: e.stop };
    });

    const insNotification = db.prepare(
      `INSERT INTO notifications (id, team_id, user_id, type, priority, source, status, metadata, last_used_at, created_at, updated_at, seq)
       VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    summary.notifications = insertAll('notification', d.notifications, (n, seq) => {
      const updatedAt = n.lastUsedAt ?? n.createdAt;
      insNotification.run(
        n.id,
        teamId,
        n.type,
        n.priority,
        n.source,
        n.status,
        JSON.stringify(n.metadata),
        n.lastUsedAt,
        n.createdAt,
        updatedAt,
        seq,
      );
      return { id: n.id, updatedAt };
    });
  })();

  // Transactions, batch by batch.
  const insTx = db.prepare(
    `INSERT INTO transactions (id, team_id, internal_id, bank_account_id, name, description, method, amount_minor, currency, balance_minor,
       base_amount_minor, base_currency, tax_amount_minor, tax_rate, tax_type, counterparty_name, merchant_name, date, status, internal,
       recurring, manual, frequency, note, category_slug, assigned_id, metadata, notified, created_at, updated_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, ?, ?, ?, ?, ?)`,
  );
  const insTxTag = db.prepare('INSERT INTO transaction_tags (team_id, transaction_id, tag_id) VALUES (?, ?, ?)');
  const sums = new Map<string, number>(d.accounts.map((a) => [a.id, 0]));
  const rows = streamTransactions(d.rng.fork('transactions'), w, d.ledger, d.accounts, d.baseCurrency, d.makeId);
  const total = d.ledger.total;
  const writeBatch = db.transaction((count: number) => {
    let seq = reserveSeq(db, teamId, count);
    for (let i = 0; i < count; i++) {
      const next = rows.next();
      if (next.done) throw new Error(`demo ledger ended after ${summary.transactions + i} of ${total} transactions`);
      const t = next.value;
      insTx.run(
        t.id,
        teamId,
        t.internalId,
        t.accountId,
        t.name,
        t.description,
        t.method,
        t.amountMinor,
        t.currency,
        t.balanceMinor,
        t.baseAmountMinor,
        t.baseCurrency,
        t.counterparty,
        t.merchant,
        t.date,
        t.status,
        t.internal,
        t.recurring,
        t.manual,
        t.frequency,
        t.category,
        t.metadata,
        t.notified,
        t.createdAt,
        t.updatedAt,
        seq,
      );
      change.run(teamId, seq, 'transaction', t.id, t.updatedAt);
      for (const tag of t.tags) insTxTag.run(teamId, t.id, tagIds.get(tag)!);
      sums.set(t.accountId, sums.get(t.accountId)! + t.amountMinor);
      seq++;
    }
  });
  while (summary.transactions < total) {
    const count = Math.min(batchSize, total - summary.transactions);
    writeBatch(count);
    summary.transactions += count;
    options.onProgress?.(summary.transactions, total);
  }
  if (!rows.next().done) throw new Error('demo ledger produced more transactions than planned');

  // The accounts' balances: the sum of their transactions.
  db.transaction(() => {
    const update = db.prepare('UPDATE bank_accounts SET balance_minor = ?, updated_at = ?, seq = ? WHERE id = ? AND team_id = ?');
    const upsert = db.prepare(
      `INSERT INTO changes (team_id, seq, entity, entity_id, op, changed_at) VALUES (?, ?, 'bank_account', ?, 'upsert', ?)
       ON CONFLICT (team_id, entity, entity_id) DO UPDATE SET seq = excluded.seq, op = excluded.op, changed_at = excluded.changed_at`,
    );
    let seq = reserveSeq(db, teamId, d.accounts.length);
    for (const a of d.accounts) {
      update.run(sums.get(a.id)!, w.anchorIso, seq, a.id, teamId);
      upsert.run(teamId, seq, a.id, w.anchorIso);
      seq++;
    }
  })();
  return summary;
}

export function formatSummary(team: string, s: DemoSummary, seed: string, asOf: EpochDay): string {
  return (
    `${team}: ${s.bankAccounts} bank accounts, ${s.customers} customers, ${s.tags} tags, ${s.categories} categories, ` +
    `${s.transactions} transactions, ${s.invoices} invoices, ${s.trackerProjects} tracker projects, ${s.trackerEntries} tracker entries, ` +
    `${s.notifications} notifications (seed ${JSON.stringify(seed)}, as of ${isoDay(asOf)})`
  );
}
