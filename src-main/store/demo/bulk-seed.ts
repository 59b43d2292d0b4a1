import { ensureDefaultCategories } from '../categories/categories';
import type { Db } from '../db';
import { rebuildLedgerDaily } from '../ledger/maintenance';
import { type Writer, write } from '../write';
import { deleteTeamData } from './demo-data';
import type { SeedRecords, SeedSummary } from './seed-records';

/**
 * Writes a whole data set of already-formed records into one team (what `finops demo` plans: src-main/demo/write.ts
 * shapes it), through the one write path in bulk: `Writer.inserter` prepares each insert once and records one change
 * per record (origin 'system'), and the writes carry the data set's own clock (`now`), so the same records give
 * identical rows and feeds. Records are inserted in the order given (their change sequence follows it).
 *
 * When every transaction fits in one batch, the whole run is a single transaction: it lands completely or not at
 * all. A larger run commits batch by batch (so a server on the same data dir can write in between); if it fails
 * part-way, what it wrote is deleted again (with tombstones), and a killed run leaves a partial team that
 * `finops demo --replace` cleans up.
 */

export interface SeedOptions {
  batchSize?: number;
  onProgress?: (written: number, total: number) => void;
}

export const DEFAULT_BATCH = 100_000;

/** Seeds the team. The team must exist and hold no demo-table rows (see teamHasData). */
export function seedTeam(db: Db, teamId: string, records: SeedRecords, options: SeedOptions = {}): SeedSummary {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  // A 64 MiB page cache for the load (default 2 MiB): a 100k-row batch dirties ~90 MB of pages, and a small cache
  // spills them to the WAL mid-transaction.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -65536');
  try {
    if (records.transactions.total <= batchSize) {
      return db.transaction(() => writeAll(db, teamId, records, batchSize, options))();
    }
    try {
      return writeAll(db, teamId, records, batchSize, options);
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

const flag = (b: boolean) => (b ? 1 : 0);

function writeAll(db: Db, teamId: string, r: SeedRecords, batchSize: number, options: SeedOptions): SeedSummary {
  const as = { origin: 'system', now: r.now } as const;
  const summary: SeedSummary = {
    categories: 0,
    tags: r.tags.length,
    bankAccounts: r.bankAccounts.length,
    customers: r.customers.length,
    transactions: 0,
    invoices: r.invoices.length,
    trackerProjects: r.projects.length,
    trackerEntries: r.entries.length,
    notifications: r.notifications.length,
  };

  write(db, teamId, (w) => writeRecords(w, r, summary), as);

  const insRate = db.prepare(
    'INSERT OR IGNORE INTO fx_rates (currency, day, per_usd, source, imported_at) VALUES (?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const rate of r.rates.rows) insRate.run(rate.currency, rate.day, rate.perUsd, r.rates.source, r.now);
  })();

  const balances = writeTransactions(db, teamId, r, summary, batchSize, options);

  rebuildLedgerDaily(db, teamId);
  // The accounts' balances: the sum of their transactions.
  write(
    db,
    teamId,
    (w) => {
      for (const a of r.bankAccounts) w.update('bank_account', a.id, { balance_minor: balances.get(a.id)! });
    },
    as,
  );
  return summary;
}

/** Everything but the transactions and rates, in one write. */
function writeRecords(w: Writer, r: SeedRecords, summary: SeedSummary): void {
  const { db, teamId } = w;
  const { countryCode, createdAt, makeId } = r.categories;
  summary.categories = ensureDefaultCategories(db, teamId, { countryCode, now: createdAt, makeId }).size;

  const insTag = w.inserter('tag', ['id', 'name', 'created_at', 'updated_at']);
  for (const t of r.tags) insTag([t.id, t.name, t.createdAt, t.createdAt]);

  const insAccount = w.inserter('bank_account', [
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
    'iban',
    'created_at',
    'updated_at',
  ]);
  for (const a of r.bankAccounts) {
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
      a.connectionId,
      a.connectionName,
      a.expiresAt,
      a.iban ?? null,
      a.createdAt,
      a.createdAt,
    ]);
  }

  const insCustomer = w.inserter('customer', [
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
  for (const c of r.customers) {
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
      c.createdAt,
      c.createdAt,
    ]);
    for (const tagId of c.tagIds) insCustomerTag(teamId, c.id, tagId);
  }

  const insInvoice = w.inserter('invoice', [
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
    'scheduled_at',
    'line_items',
    'template',
    'note',
    'created_at',
    'updated_at',
  ]);
  for (const inv of r.invoices) {
    insInvoice([
      inv.id,
      inv.customerId,
      inv.customerName,
      inv.invoiceNumber,
      inv.status,
      inv.currency,
      inv.subtotalMinor,
      inv.vatMinor,
      inv.taxMinor,
      inv.discountMinor,
      inv.amountMinor,
      inv.issueDate,
      inv.dueDate,
      inv.sentAt,
      inv.paidAt,
      inv.scheduledAt,
      inv.lineItems,
      inv.template,
      inv.note,
      inv.createdAt,
      inv.updatedAt,
    ]);
  }

  const insProject = w.inserter('tracker_project', [
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
  for (const p of r.projects) {
    insProject([
      p.id,
      p.name,
      p.description,
      p.estimateHours,
      flag(p.billable),
      p.rateMinor,
      p.currency,
      p.status,
      p.customerId,
      p.createdAt,
      p.updatedAt,
    ]);
    for (const tagId of p.tagIds) insProjectTag(teamId, p.id, tagId);
  }

  const insEntry = w.inserter('tracker_entry', [
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
  for (const e of r.entries) {
    insEntry([e.id, e.projectId, e.date, e.start, e.stop, e.durationSeconds, e.description, e.createdAt, e.updatedAt]);
  }

  const insNotification = w.inserter('notification', [
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
  for (const n of r.notifications) {
    insNotification([n.id, n.type, n.priority, n.source, n.status, n.metadata, n.lastUsedAt, n.createdAt, n.updatedAt]);
  }
}

/** The transactions, batch by batch (one write each). Returns each account's sum of amounts. */
function writeTransactions(
  db: Db,
  teamId: string,
  r: SeedRecords,
  summary: SeedSummary,
  batchSize: number,
  options: SeedOptions,
): Map<string, number> {
  const { total } = r.transactions;
  const rows = r.transactions.rows[Symbol.iterator]();
  const sums = new Map<string, number>(r.bankAccounts.map((a) => [a.id, 0]));
  let searchRowid = (db.prepare('SELECT coalesce(max(search_rowid), 0) FROM transactions').pluck().get() as number) + 1;
  const insTxTag = linkInserter(db, 'transaction_tags', 'transaction_id');
  const writeBatch = (count: number) =>
    write(
      db,
      teamId,
      (w) => {
        const insTx = w.inserter('transaction', [
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
          if (next.done) throw new Error(`the transactions ended after ${summary.transactions + i} of ${total}`);
          const t = next.value;
          insTx([
            t.id,
            t.internalId,
            t.bankAccountId,
            t.name,
            t.description,
            t.method,
            t.amountMinor,
            t.currency,
            t.balanceMinor,
            t.baseAmountMinor,
            t.baseCurrency,
            t.counterpartyName,
            t.merchantName,
            t.date,
            t.status,
            flag(t.internal),
            flag(t.recurring),
            flag(t.manual),
            t.frequency,
            t.categorySlug,
            t.metadata,
            flag(t.notified),
            t.createdAt,
            t.updatedAt,
            searchRowid++,
            t.reviewState,
            flag(t.fulfilled),
          ]);
          for (const tagId of t.tagIds) insTxTag(teamId, t.id, tagId);
          sums.set(t.bankAccountId, sums.get(t.bankAccountId)! + t.amountMinor);
        }
      },
      { origin: 'system', now: r.now },
    );
  while (summary.transactions < total) {
    const count = Math.min(batchSize, total - summary.transactions);
    writeBatch(count);
    summary.transactions += count;
    options.onProgress?.(summary.transactions, total);
  }
  if (!rows.next().done) throw new Error(`there were more transactions than the ${total} announced`);
  return sums;
}
