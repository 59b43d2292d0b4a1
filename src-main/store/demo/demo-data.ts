import { defaultCategories } from '../../../src-shared/domain/categories';
import { reviewStateOf } from '../../../src-shared/domain/review-state';
import { isoDay } from '../../demo/calendar';
import { TAG_NAMES } from '../../demo/catalog';
import { stamp } from '../../demo/context';
import { streamTransactions } from '../../demo/ledger';
import type { DemoDataSet, DemoSummary } from '../../demo/seed';
import { ensureDefaultCategories } from '../categories/categories';
import type { Db } from '../db';
import type { EntityName } from '../entities';
import { rebuildLedgerDaily } from '../ledger/maintenance';
import { type Writer, write } from '../write';

/**
 * Writes `finops demo`'s data set (planned by src-main/demo/seed.ts) into one team, through the one write path in
 * bulk: `Writer.inserter` prepares each insert once and records one change per record (origin 'system'), and the
 * writes carry the data set's own clock (`now`), so two runs with the same seed give identical rows and feeds.
 *
 * When everything fits in one batch (the default data set), the whole run is a single transaction: it lands
 * completely or not at all. A larger run commits batch by batch (so a server on the same data dir can write in
 * between); if it fails part-way, what it wrote is deleted again (with tombstones), and a killed run leaves a partial
 * team that `--replace` cleans up.
 */

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

/** Entities the demo writes, children before parents. */
export const DEMO_ENTITIES = [
  'tracker_entry',
  'notification',
  'transaction',
  'invoice',
  'tracker_project',
  'bank_account',
  'customer',
  'tag',
  'transaction_category',
] as const satisfies readonly EntityName[];

export const DEFAULT_BATCH = 100_000;

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
 * Deletes the team's records of every kind the demo writes (credentials and members stay), leaving tombstones so a
 * synced copy learns of the deletes. Returns the records deleted.
 */
export function deleteTeamData(db: Db, teamId: string): number {
  return write(db, teamId, (w) => DEMO_ENTITIES.reduce((n, entity) => n + w.removeAll(entity), 0), { origin: 'system' });
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
    if (total <= batchSize) return db.transaction(() => writeAll(db, teamId, data, batchSize, options))();
    try {
      return writeAll(db, teamId, data, batchSize, options);
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

function linkInserter(db: Db, table: string, column: string): (teamId: string, id: string, tagId: string) => void {
  const statement = db.prepare(`INSERT INTO ${table} (team_id, ${column}, tag_id) VALUES (?, ?, ?)`);
  return (teamId, id, tagId) => {
    statement.run(teamId, id, tagId);
  };
}

function writeAll(db: Db, teamId: string, d: DemoDataSet, batchSize: number, options: SeedOptions): DemoSummary {
  const w = d.window;
  const setup = stamp(w, w.first, 8 * 3600);
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
  const tagIds = new Map<string, string>();
  const as = { origin: 'system', now: w.anchorIso } as const;

  write(
    db,
    teamId,
    (wr: Writer) => {
      const categories = ensureDefaultCategories(db, teamId, { countryCode: 'DE', now: setup, makeId: d.makeId });
      summary.categories = categories.size;

      const insTag = wr.inserter('tag', ['id', 'name', 'created_at', 'updated_at']);
      for (const name of TAG_NAMES) {
        const id = d.makeId();
        tagIds.set(name, id);
        insTag([id, name, setup, setup]);
      }
      summary.tags = TAG_NAMES.length;

      const insAccount = wr.inserter('bank_account', [
        'id',
        'name',
        'type',
        'currency',
        'balance_minor',
        'enabled',
        'manual',
        'institution_id',
        'institution_name',
        'connection_id',
        'connection_name',
        'expires_at',
        'created_at',
        'updated_at',
      ]);
      for (const a of d.accounts) {
        insAccount([
          a.id,
          a.name,
          a.type,
          a.currency,
          0,
          1,
          0,
          a.institutionId,
          a.institutionName,
          `demo_conn_${a.institutionId}`,
          a.connectionName,
          isoDay(w.asOf + 120),
          setup,
          setup,
        ]);
      }
      summary.bankAccounts = d.accounts.length;

      const insCustomer = wr.inserter('customer', [
        'id',
        'name',
        'email',
        'billing_email',
        'phone',
        'website',
        'contact',
        'country',
        'country_code',
        'address_line1',
        'address_line2',
        'city',
        'state',
        'zip',
        'vat_number',
        'peppol_id',
        'note',
        'created_at',
        'updated_at',
      ]);
      const insCustomerTag = linkInserter(db, 'customer_tags', 'customer_id');
      for (const c of [...d.customers].sort((a, b) => a.since - b.since)) {
        const at = stamp(w, c.since, 10 * 3600);
        insCustomer([
          c.id,
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
        ]);
        for (const t of c.tagNames) insCustomerTag(teamId, c.id, tagIds.get(t)!);
      }
      summary.customers = d.customers.length;

      const insInvoice = wr.inserter('invoice', [
        'id',
        'customer_id',
        'customer_name',
        'invoice_number',
        'status',
        'currency',
        'subtotal_minor',
        'vat_minor',
        'tax_minor',
        'discount_minor',
        'amount_minor',
        'issue_date',
        'due_date',
        'sent_at',
        'paid_at',
        'line_items',
        'template',
        'note',
        'created_at',
        'updated_at',
      ]);
      for (const inv of d.invoices) {
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
        insInvoice([
          inv.id,
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
        ]);
      }
      summary.invoices = d.invoices.length;

      const insProject = wr.inserter('tracker_project', [
        'id',
        'name',
        'description',
        'estimate_hours',
        'billable',
        'rate_minor',
        'currency',
        'status',
        'customer_id',
        'created_at',
        'updated_at',
      ]);
      const insProjectTag = linkInserter(db, 'tracker_project_tags', 'project_id');
      for (const p of d.projects) {
        const createdAt = stamp(w, p.start, 9 * 3600);
        const updatedAt = p.status === 'completed' ? stamp(w, p.end, 17 * 3600) : createdAt;
        insProject([
          p.id,
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
        ]);
        for (const t of p.tagNames) insProjectTag(teamId, p.id, tagIds.get(t)!);
      }
      summary.trackerProjects = d.projects.length;

      const insEntry = wr.inserter('tracker_entry', [
        'id',
        'project_id',
        'date',
        'start',
        'stop',
        'duration_seconds',
        'description',
        'created_at',
        'updated_at',
      ]);
      for (const e of d.entries) {
        insEntry([e.id, e.project.id, isoDay(e.day), e.start, e.stop, e.durationSeconds, e.description, e.stop, e.stop]);
      }
      summary.trackerEntries = d.entries.length;

      const insNotification = wr.inserter('notification', [
        'id',
        'type',
        'priority',
        'source',
        'status',
        'metadata',
        'last_used_at',
        'created_at',
        'updated_at',
      ]);
      for (const n of d.notifications) {
        insNotification([
          n.id,
          n.type,
          n.priority,
          n.source,
          n.status,
          JSON.stringify(n.metadata),
          n.lastUsedAt,
          n.createdAt,
          n.lastUsedAt ?? n.createdAt,
        ]);
      }
      summary.notifications = d.notifications.length;
    },
    as,
  );

  // The demo's exchange rates (units per USD on each month's first day), which its base amounts were computed with.
  // Rates already in the table (imported by the user) are kept: `finops ledger rebuild` recomputes from the table.
  const insRate = db.prepare(
    "INSERT OR IGNORE INTO fx_rates (currency, day, per_usd, source, imported_at) VALUES ('EUR', ?, ?, 'demo', ?)",
  );
  db.transaction(() => {
    for (const m of w.months) insRate.run(isoDay(m.first), String(d.ledger.fx.get(m.index)!), w.anchorIso);
  })();

  // Transactions, batch by batch, with their derived review state (src-shared/domain/review-state.ts).
  const groupOf = new Map(defaultCategories('DE').map((c) => [c.slug, c.parentSlug ?? c.slug]));
  let searchRowid = (db.prepare('SELECT coalesce(max(search_rowid), 0) FROM transactions').pluck().get() as number) + 1;
  const sums = new Map<string, number>(d.accounts.map((a) => [a.id, 0]));
  const rows = streamTransactions(d.rng.fork('transactions'), w, d.ledger, d.accounts, d.baseCurrency, d.makeId);
  const total = d.ledger.total;
  const insTxTag = linkInserter(db, 'transaction_tags', 'transaction_id');
  const writeBatch = (count: number) =>
    write(
      db,
      teamId,
      (wr) => {
        const insTx = wr.inserter('transaction', [
          'id',
          'internal_id',
          'bank_account_id',
          'name',
          'description',
          'method',
          'amount_minor',
          'currency',
          'balance_minor',
          'base_amount_minor',
          'base_currency',
          'counterparty_name',
          'merchant_name',
          'date',
          'status',
          'internal',
          'recurring',
          'manual',
          'frequency',
          'category_slug',
          'metadata',
          'notified',
          'created_at',
          'updated_at',
          'search_rowid',
          'review_state',
          'is_fulfilled',
        ]);
        for (let i = 0; i < count; i++) {
          const next = rows.next();
          if (next.done) throw new Error(`demo ledger ended after ${summary.transactions + i} of ${total} transactions`);
          const t = next.value;
          insTx([
            t.id,
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
            searchRowid++,
            reviewStateOf({
              status: t.status,
              amountMinor: t.amountMinor,
              internal: t.internal === 1,
              reviewed: false,
              fulfilled: t.status === 'completed',
              categoryGroup: groupOf.get(t.category) ?? null,
            }),
            t.status === 'completed' ? 1 : 0,
          ]);
          for (const tag of t.tags) insTxTag(teamId, t.id, tagIds.get(tag)!);
          sums.set(t.accountId, sums.get(t.accountId)! + t.amountMinor);
        }
      },
      as,
    );
  while (summary.transactions < total) {
    const count = Math.min(batchSize, total - summary.transactions);
    writeBatch(count);
    summary.transactions += count;
    options.onProgress?.(summary.transactions, total);
  }
  if (!rows.next().done) throw new Error('demo ledger produced more transactions than planned');

  rebuildLedgerDaily(db, teamId);
  // The accounts' balances: the sum of their transactions.
  write(
    db,
    teamId,
    (wr) => {
      for (const a of d.accounts) wr.update('bank_account', a.id, { balance_minor: sums.get(a.id)! });
    },
    as,
  );
  return summary;
}
