import { CUSTOMER_FIELDS, type SyncEntity } from '../../../src-shared/domain/sync/fields';
import type { Json, Projection } from '../../../src-shared/domain/sync/merge';
import type { Db } from '../db';
import { fromIds } from '../ids';
import { type InvoiceRow, invoiceTemplate, storedLines } from '../invoices/read';

/**
 * Reads records as sync projections (src-shared/domain/sync/fields.ts): the writable fields only, normalised, with
 * references as local ids. Derived data (balances, base amounts, review states, totals, field sources, embedded
 * names) is never read here, so a change of it alone never makes a record look changed. One query per entity for a
 * batch of ids; a missing id is simply absent from the answer.
 */
type Row = Record<string, unknown>;

const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : v === 1 || v === true);
const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function json(v: unknown): Json {
  if (typeof v !== 'string') return null;
  try {
    return JSON.parse(v) as Json;
  } catch {
    return null;
  }
}

/** Tag ids per record from a link table, sorted (a set). */
function tagSets(db: Db, teamId: string, link: string, column: string, ids: readonly string[]): Map<string, string[]> {
  const rows = db
    .prepare(
      `SELECT l.${column} AS id, l.tag_id AS tag FROM json_each(?) AS wanted
       CROSS JOIN ${link} l ON l.${column} = wanted.value AND l.team_id = ? ORDER BY l.${column}, l.tag_id`,
    )
    .all(JSON.stringify(ids), teamId) as { id: string; tag: string }[];
  const out = new Map<string, string[]>();
  for (const r of rows) {
    let set = out.get(r.id);
    if (!set) {
      set = [];
      out.set(r.id, set);
    }
    set.push(r.tag);
  }
  return out;
}

function rowsOf(db: Db, teamId: string, table: string, columns: string, ids: readonly string[]): Row[] {
  return db
    .prepare(`SELECT ${columns} FROM ${fromIds(table, 'r')} WHERE r.team_id = ?`)
    .all(JSON.stringify(ids), teamId) as Row[];
}

type Reader = (db: Db, teamId: string, ids: readonly string[]) => Map<string, Projection>;

/**
 * An invoice as synced (docs/decisions/0143-invoice-sync.md): its number ('' = not given yet: null), content with
 * money in minor units, the template as it resolves (its currency and time zone are fields of their own), and the
 * lifecycle with overdue read as unpaid (each side marks overdue by its own clock).
 */
function invoiceProjection(r: InvoiceRow & { live_customer_id: string | null }): Projection {
  const { currency: _c, timezone: _z, ...template } = invoiceTemplate(r);
  return {
    invoiceNumber: r.invoice_number || null,
    customerId: r.live_customer_id,
    customerName: r.customer_name,
    currency: r.currency,
    lineItems: storedLines(r).map((l) => ({
      name: l.name,
      quantity: l.quantity,
      unit: l.unit ?? null,
      priceMinor: l.priceMinor,
      // Only where the price has decimals beyond the currency's: other lines project as before.
      ...(l.priceScale ? { priceScale: l.priceScale } : {}),
      vatRate: l.vatRate ?? null,
      taxRate: l.taxRate ?? null,
    })),
    discountMinor: r.discount_minor,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    supplyDate: r.supply_date,
    supplyEndDate: r.supply_end_date,
    timezone: r.timezone ?? 'UTC',
    template: template as Json,
    note: r.note,
    internalNote: r.internal_note,
    status: r.status === 'overdue' ? 'unpaid' : r.status,
    scheduledAt: r.scheduled_at,
  };
}

const READERS: { readonly [E in SyncEntity]: Reader } = {
  tag: (db, teamId, ids) =>
    new Map(rowsOf(db, teamId, 'tags', 'r.id, r.name', ids).map((r) => [r.id as string, { name: r.name as string }])),

  transaction_category: (db, teamId, ids) =>
    new Map(
      rowsOf(
        db,
        teamId,
        'transaction_categories',
        `r.id, r.slug, r.name, r.color, r.description, r.tax_rate, r.tax_type, r.tax_reporting_code, r.excluded,
         (SELECT p.slug FROM transaction_categories p WHERE p.id = r.parent_id AND p.team_id = r.team_id) AS parent_slug`,
        ids,
      ).map((r) => [
        r.id as string,
        {
          slug: r.slug as string,
          name: r.name as string,
          color: r.color as string,
          description: (r.description as string | null) ?? null,
          taxRate: (r.tax_rate as number | null) ?? null,
          taxType: (r.tax_type as string | null) ?? null,
          taxReportingCode: (r.tax_reporting_code as string | null) ?? null,
          excluded: bool(r.excluded) ?? false,
          parentSlug: (r.parent_slug as string | null) ?? null,
        },
      ]),
    ),

  bank_account: (db, teamId, ids) =>
    new Map(
      rowsOf(db, teamId, 'bank_accounts', 'r.id, r.name, r.type, r.currency, r.enabled, r.manual', ids).map((r) => [
        r.id as string,
        {
          name: r.name as string,
          type: r.type as string,
          currency: r.currency as string,
          enabled: bool(r.enabled) ?? true,
          manual: bool(r.manual) ?? true,
        },
      ]),
    ),

  customer: (db, teamId, ids) => {
    const tags = tagSets(db, teamId, 'customer_tags', 'customer_id', ids);
    const columns = ['r.id', ...CUSTOMER_FIELDS.map((f) => `r.${snake(f)} AS ${f}`)].join(', ');
    return new Map(
      rowsOf(db, teamId, 'customers', columns, ids).map((r) => {
        const p: Record<string, Json> = {};
        for (const f of CUSTOMER_FIELDS) p[f] = (r[f] as Json | undefined) ?? null;
        p.tags = tags.get(r.id as string) ?? [];
        return [r.id as string, p];
      }),
    );
  },

  invoice: (db, teamId, ids) =>
    new Map(
      rowsOf(
        db,
        teamId,
        'invoices',
        // A customer deleted since (invoices keep their customer's id and name) is no reference to send.
        `r.*, (SELECT c.id FROM customers c WHERE c.id = r.customer_id AND c.team_id = r.team_id) AS live_customer_id`,
        ids,
      ).map((r) => [r.id as string, invoiceProjection(r as unknown as InvoiceRow & { live_customer_id: string | null })]),
    ),

  tracker_project: (db, teamId, ids) => {
    const tags = tagSets(db, teamId, 'tracker_project_tags', 'project_id', ids);
    return new Map(
      rowsOf(
        db,
        teamId,
        'tracker_projects',
        'r.id, r.name, r.description, r.estimate_hours, r.billable, r.rate_minor, r.currency, r.status, r.customer_id',
        ids,
      ).map((r) => [
        r.id as string,
        {
          name: r.name as string,
          description: (r.description as string | null) ?? null,
          estimate: (r.estimate_hours as number | null) ?? null,
          billable: bool(r.billable) ?? false,
          rateMinor: (r.rate_minor as number | null) ?? null,
          currency: (r.currency as string | null) ?? null,
          status: r.status as string,
          customerId: (r.customer_id as string | null) ?? null,
          tags: tags.get(r.id as string) ?? [],
        },
      ]),
    );
  },

  tracker_entry: (db, teamId, ids) =>
    new Map(
      rowsOf(
        db,
        teamId,
        'tracker_entries',
        'r.id, r.project_id, r.date, r.start, r.stop, r.duration_seconds, r.description',
        ids,
      ).map((r) => [
        r.id as string,
        {
          projectId: r.project_id as string,
          date: r.date as string,
          start: r.start as string,
          stop: (r.stop as string | null) ?? null,
          durationSeconds: r.duration_seconds as number,
          description: (r.description as string | null) ?? null,
        },
      ]),
    ),

  transaction: (db, teamId, ids) => {
    const tags = tagSets(db, teamId, 'transaction_tags', 'transaction_id', ids);
    const splits = new Map<string, Json[]>();
    const splitRows = db
      .prepare(
        `SELECT s.transaction_id AS id, s.amount_minor, s.category_slug, s.tax_rate, s.tax_type, s.note
         FROM json_each(?) AS wanted CROSS JOIN transaction_splits s ON s.transaction_id = wanted.value AND s.team_id = ?
         ORDER BY s.transaction_id, s.position`,
      )
      .all(JSON.stringify(ids), teamId) as Row[];
    for (const s of splitRows) {
      let list = splits.get(s.id as string);
      if (!list) {
        list = [];
        splits.set(s.id as string, list);
      }
      list.push({
        amountMinor: s.amount_minor as number,
        categorySlug: (s.category_slug as string | null) ?? null,
        taxRate: (s.tax_rate as number | null) ?? null,
        taxType: (s.tax_type as string | null) ?? null,
        note: (s.note as string | null) ?? null,
      });
    }
    return new Map(
      rowsOf(
        db,
        teamId,
        'transactions',
        `r.id, r.bank_account_id, r.currency, r.manual, r.method, r.name, r.date, r.description, r.counterparty_name,
         r.amount_minor, r.category_slug, r.tax_rate, r.tax_type, r.status, r.note, r.internal, r.recurring, r.frequency,
         r.reviewed_at`,
        ids,
      ).map((r) => [
        r.id as string,
        {
          bankAccountId: r.bank_account_id as string,
          currency: r.currency as string,
          manual: bool(r.manual) ?? false,
          method: r.method as string,
          name: r.name as string,
          date: r.date as string,
          description: (r.description as string | null) ?? null,
          counterpartyName: (r.counterparty_name as string | null) ?? null,
          amountMinor: r.amount_minor as number,
          splits: splits.get(r.id as string) ?? [],
          categorySlug: (r.category_slug as string | null) ?? null,
          taxRate: (r.tax_rate as number | null) ?? null,
          taxType: (r.tax_type as string | null) ?? null,
          status: r.status as string,
          note: (r.note as string | null) ?? null,
          internal: bool(r.internal) ?? false,
          recurring: bool(r.recurring) ?? false,
          frequency: (r.frequency as string | null) ?? null,
          reviewed: r.reviewed_at !== null && r.reviewed_at !== undefined,
          tags: tags.get(r.id as string) ?? [],
        },
      ]),
    );
  },

  transaction_attachment: (db, teamId, ids) =>
    new Map(
      rowsOf(db, teamId, 'transaction_attachments', 'r.id, r.transaction_id, r.sha256, r.size, r.mime_type, r.filename', ids).map(
        (r) => [
          r.id as string,
          {
            transactionId: r.transaction_id as string,
            sha256: r.sha256 as string,
            size: r.size as number,
            mimetype: r.mime_type as string,
            fileName: (r.filename as string | null) ?? null,
          },
        ],
      ),
    ),

  document: (db, teamId, ids) =>
    new Map(
      rowsOf(
        db,
        teamId,
        'documents',
        'r.id, r.sha256, r.size, r.mimetype, r.file_name, r.path_tokens, r.title, r.date, r.summary',
        ids,
      ).map((r) => [
        r.id as string,
        {
          sha256: r.sha256 as string,
          size: r.size as number,
          mimetype: r.mimetype as string,
          fileName: r.file_name as string,
          pathTokens: json(r.path_tokens) ?? [],
          title: r.title as string,
          date: (r.date as string | null) ?? null,
          summary: (r.summary as string | null) ?? null,
        },
      ]),
    ),

  notification: (db, teamId, ids) =>
    new Map(
      rowsOf(db, teamId, 'notifications', 'r.id, r.type, r.priority, r.source, r.metadata, r.status', ids).map((r) => [
        r.id as string,
        {
          type: r.type as string,
          priority: r.priority as number,
          source: r.source as string,
          metadata: json(r.metadata) ?? {},
          status: r.status as string,
        },
      ]),
    ),
};

/** The sync projections of the records with these ids (absent ids are left out). */
export function readProjections(db: Db, teamId: string, entity: SyncEntity, ids: readonly string[]): Map<string, Projection> {
  if (ids.length === 0) return new Map();
  return READERS[entity](db, teamId, ids);
}

export function readProjection(db: Db, teamId: string, entity: SyncEntity, id: string): Projection | undefined {
  return readProjections(db, teamId, entity, [id]).get(id);
}

/** The record's current change sequence (its `seq` column), or undefined when it does not exist. */
export function recordSeq(db: Db, teamId: string, table: string, id: string): number | undefined {
  return db.prepare(`SELECT seq FROM ${table} WHERE team_id = ? AND id = ?`).pluck().get(teamId, id) as number | undefined;
}
