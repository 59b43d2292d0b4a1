import { codes as currencyCodes } from 'currency-codes';
import type {
  Customer,
  CustomerCreate,
  CustomerPatch,
  CustomerSort,
  CustomerSortColumn,
  CustomerTab,
} from '../../../src-shared/contract/customers';
import {
  engagementOf,
  type InvoiceGroup,
  recentUntil,
  recentWindow,
  summarizeFinance,
} from '../../../src-shared/domain/customer-engagement';
import { currencyExponent } from '../../../src-shared/money';
import { countryName } from '../../../src-shared/validation/countries';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { listFingerprint } from '../list/cursor';
import { ftsQuery } from '../list/fts';
import { keysetPage, placeholders, type SortColumn } from '../list/keyset';
import { resolveTagRefs } from '../tags/tags';
import { type SqlValue, type Writer, write } from '../write';
import { customerStatsCte, TABS_BY_STATS, TABS_CORRELATED } from './engagement-sql';

/**
 * Customers of a team: CRUD with the upsert rule, the read with its finance summary and engagement (rules in
 * src-shared/domain/customer-engagement.ts), and the list (FTS5 search, filters, tabs, keyset cursor). Decisions:
 * docs/decisions/0020…0024.
 */

/** API field → column, for every plain field a client may write (country is derived separately). */
const FIELDS = [
  ['name', 'name'],
  ['email', 'email'],
  ['billingEmail', 'billing_email'],
  ['phone', 'phone'],
  ['website', 'website'],
  ['contact', 'contact'],
  ['countryCode', 'country_code'],
  ['addressLine1', 'address_line1'],
  ['addressLine2', 'address_line2'],
  ['city', 'city'],
  ['state', 'state'],
  ['zip', 'zip'],
  ['vatNumber', 'vat_number'],
  ['peppolId', 'peppol_id'],
  ['note', 'note'],
  ['description', 'description'],
  ['industry', 'industry'],
  ['companyType', 'company_type'],
  ['employeeCount', 'employee_count'],
  ['foundedYear', 'founded_year'],
  ['estimatedRevenue', 'estimated_revenue'],
  ['fundingStage', 'funding_stage'],
  ['totalFunding', 'total_funding'],
  ['headquartersLocation', 'headquarters_location'],
  ['timezone', 'timezone'],
  ['linkedinUrl', 'linkedin_url'],
  ['twitterUrl', 'twitter_url'],
  ['instagramUrl', 'instagram_url'],
  ['facebookUrl', 'facebook_url'],
  ['logoUrl', 'logo_url'],
  ['ceoName', 'ceo_name'],
  ['financeContact', 'finance_contact'],
  ['financeContactEmail', 'finance_contact_email'],
  ['primaryLanguage', 'primary_language'],
  ['fiscalYearEnd', 'fiscal_year_end'],
] as const satisfies readonly (readonly [keyof CustomerPatch, string])[];

type Column = (typeof FIELDS)[number][1] | 'country';

type Row = Record<Column | 'enrichment_status' | 'enriched_at', string | null> & {
  id: string;
  team_id: string;
  name: string;
  founded_year: number | null;
  created_at: string;
  updated_at: string;
  seq: number;
};

// ---------------------------------------------------------------------------------------------------------------
// Reading: one statement per page of records.

/** A customer row with its tags, invoice groups and project count, aggregated by SQLite in the same statement. */
interface ReadRow extends Row {
  tags_json: string;
  invoices_json: string;
  project_count: number;
}

/**
 * Everything a customer read returns, in one statement: correlated subqueries aggregate the tags and the invoice
 * groups (per currency and status) into JSON. One statement is one read snapshot, and it measured ~7 µs against
 * ~90 µs for the row plus three batched queries (each of which paid for a temporary B-tree).
 */
const READ_COLUMNS = `c.*,
  (SELECT json_group_array(json_array(id, name)) FROM (
     SELECT t.id, t.name FROM customer_tags ct JOIN tags t ON t.id = ct.tag_id
     WHERE ct.team_id = c.team_id AND ct.customer_id = c.id ORDER BY t.name COLLATE NOCASE, t.id)) AS tags_json,
  (SELECT json_group_array(json_array(currency, status, n, total, last_date, latest, last_paid)) FROM (
     SELECT currency, status, count(*) AS n, sum(amount_minor) AS total, max(issue_date) AS last_date,
            max(issue_date || ' ' || id) AS latest, max(paid_at) AS last_paid
     FROM invoices i WHERE i.team_id = c.team_id AND i.customer_id = c.id GROUP BY currency, status)) AS invoices_json,
  (SELECT count(*) FROM tracker_projects p WHERE p.team_id = c.team_id AND p.customer_id = c.id) AS project_count`;

type InvoiceTuple = [string, string, number, number, string | null, string | null, string | null];

/** The read of one customer: a constant text, so the statement cache finds it without building ~1 KB of SQL. */
const READ_ONE = `SELECT ${READ_COLUMNS} FROM customers c WHERE c.team_id = ? AND c.id = ?`;

function readRows(db: Db, teamId: string, ids: readonly string[]): ReadRow[] {
  if (ids.length === 0) return [];
  return db
    .prepare(`SELECT ${READ_COLUMNS} FROM customers c WHERE c.team_id = ? AND c.id IN (${placeholders(ids.length)})`)
    .all(teamId, ...ids) as ReadRow[];
}

function toCustomer(r: ReadRow, now: Date): Customer {
  const tags = (JSON.parse(r.tags_json) as [string, string][]).map(([id, name]) => ({ id, name }));
  const groups = (JSON.parse(r.invoices_json) as InvoiceTuple[]).map(
    ([currency, status, count, totalMinor, lastDate, latestKey, lastPaidAt]): InvoiceGroup => ({
      currency,
      status,
      count,
      totalMinor,
      lastDate,
      latestKey,
      lastPaidAt,
    }),
  );
  const { finance, lastPaymentAt } = summarizeFinance(groups);
  let lastActivityAt = r.updated_at;
  for (const d of [finance.lastInvoiceDate, lastPaymentAt]) if (d && d > lastActivityAt) lastActivityAt = d;
  // One object literal: V8 allocates it at its final shape at once. Filling an object field by field from FIELDS
  // (or by fromEntries or a spread) grew it step by step and made a point read allocate ~5 times as much, which
  // showed as garbage collection under load (docs/decisions/0006).
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    billingEmail: r.billing_email,
    phone: r.phone,
    website: r.website,
    contact: r.contact,
    country: r.country,
    countryCode: r.country_code,
    addressLine1: r.address_line1,
    addressLine2: r.address_line2,
    city: r.city,
    state: r.state,
    zip: r.zip,
    vatNumber: r.vat_number,
    peppolId: r.peppol_id,
    note: r.note,
    tags,
    description: r.description,
    industry: r.industry,
    companyType: r.company_type,
    employeeCount: r.employee_count,
    foundedYear: r.founded_year,
    estimatedRevenue: r.estimated_revenue,
    fundingStage: r.funding_stage,
    totalFunding: r.total_funding,
    headquartersLocation: r.headquarters_location,
    timezone: r.timezone,
    linkedinUrl: r.linkedin_url,
    twitterUrl: r.twitter_url,
    instagramUrl: r.instagram_url,
    facebookUrl: r.facebook_url,
    logoUrl: r.logo_url,
    ceoName: r.ceo_name,
    financeContact: r.finance_contact,
    financeContactEmail: r.finance_contact_email,
    primaryLanguage: r.primary_language,
    fiscalYearEnd: r.fiscal_year_end,
    enrichmentStatus: r.enrichment_status as Customer['enrichmentStatus'],
    enrichedAt: r.enriched_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    invoiceCount: finance.invoiceCount,
    projectCount: r.project_count,
    totalRevenue: finance.paid,
    outstandingAmount: finance.outstanding,
    lastInvoiceDate: finance.lastInvoiceDate,
    invoiceCurrency: finance.currency,
    finance,
    activity: {
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      lastInvoiceDate: finance.lastInvoiceDate,
      lastPaymentAt,
      lastActivityAt,
    },
    engagement: engagementOf(finance, r.created_at, now),
  };
}

/**
 * The first instant (epoch ms) at which reading this customer could answer differently without any write: when it
 * leaves the "recent" tab by the clock alone. Nothing else in a read depends on the clock. Response caches use it.
 */
export function customerReadChangesAt(customer: Customer): number {
  return recentUntil(customer.createdAt, customer.lastInvoiceDate, customer.engagement.recent);
}

function getRow(db: Db, teamId: string, id: string): Row | undefined {
  return db.prepare('SELECT * FROM customers WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
}

export function getCustomer(db: Db, teamId: string, id: string, now = new Date()): Customer {
  const row = db.prepare(READ_ONE).get(teamId, id) as ReadRow | undefined;
  if (!row) throw new NotFound('customer', id);
  return toCustomer(row, now);
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

type Values = Partial<Record<Column, SqlValue>>;

/** The column values an input sets. `country` follows countryCode (its English name) whenever a code is set. */
function valuesOf(input: CustomerPatch, current: Row | undefined): Values {
  const values: Values = {};
  for (const [field, column] of FIELDS) {
    const v = input[field];
    if (v !== undefined) values[column] = v;
  }
  const code = 'country_code' in values ? (values.country_code as string | null) : (current?.country_code ?? null);
  if (code) values.country = countryName(code) ?? code;
  else if (input.country !== undefined) values.country = input.country;
  else if ('country_code' in values) values.country = null;
  return values;
}

function currentTagIds(db: Db, teamId: string, customerId: string): string[] {
  return db
    .prepare('SELECT tag_id FROM customer_tags WHERE team_id = ? AND customer_id = ? ORDER BY tag_id')
    .pluck()
    .all(teamId, customerId) as string[];
}

/** Replaces the customer's tag links when they differ; returns whether they did. */
function writeTags(w: Writer, customerId: string, tags: CustomerPatch['tags']): boolean {
  if (!tags) return false;
  const { db, teamId } = w;
  const wanted = resolveTagRefs(
    db,
    teamId,
    tags.map((t) => t.id),
  ).map((t) => t.id);
  if (currentTagIds(db, teamId, customerId).join(',') === [...wanted].sort().join(',')) return false;
  db.prepare('DELETE FROM customer_tags WHERE team_id = ? AND customer_id = ?').run(teamId, customerId);
  const insert = db.prepare('INSERT INTO customer_tags (team_id, customer_id, tag_id) VALUES (?, ?, ?)');
  for (const tagId of wanted) insert.run(teamId, customerId, tagId);
  return true;
}

function insertCustomer(w: Writer, input: CustomerPatch & { name: string }): string {
  const id = w.insert('customer', {
    ...valuesOf(input, undefined),
    search_rowid: w.db.prepare('SELECT coalesce(max(search_rowid), 0) + 1 FROM customers').pluck().get() as number,
  });
  writeTags(w, id, input.tags);
  return id;
}

/** Applies the supplied fields; writes (and records a change) only when something actually changes. */
function updateRow(w: Writer, current: Row, input: CustomerPatch): void {
  const changed = w.update('customer', current.id, valuesOf(input, current));
  if (writeTags(w, current.id, input.tags) && !changed) w.touch('customer', current.id);
}

/**
 * POST: create, or update the matching customer (docs/decisions/0021-customers-upsert.md): the body's `id` when it
 * names a customer of this team; otherwise the team's earliest customer whose email equals the body's email,
 * ignoring case; otherwise a new customer with a service-assigned id. An update changes only supplied fields.
 */
export function upsertCustomer(
  db: Db,
  teamId: string,
  input: CustomerCreate,
  now = new Date(),
): { customer: Customer; created: boolean } {
  const result = write(db, teamId, (w) => {
    const { id: wantedId, ...fields } = input;
    let match = wantedId ? getRow(db, teamId, wantedId) : undefined;
    if (!match && fields.email) {
      match = db
        // INDEXED BY: without statistics the planner walks the team's created_at index instead, reading every
        // customer of the team (2.6 ms per create at 10k customers, against 47 µs through the email index).
        .prepare(
          'SELECT * FROM customers INDEXED BY customers_team_email WHERE team_id = ? AND email = ? COLLATE NOCASE ORDER BY created_at, id LIMIT 1',
        )
        .get(teamId, fields.email) as Row | undefined;
    }
    if (match) {
      updateRow(w, match, fields);
      return { id: match.id, created: false };
    }
    return { id: insertCustomer(w, fields), created: true };
  });
  return { customer: getCustomer(db, teamId, result.id, now), created: result.created };
}

export function createCustomer(db: Db, teamId: string, input: CustomerCreate): Customer {
  return upsertCustomer(db, teamId, input).customer;
}

export function updateCustomer(db: Db, teamId: string, id: string, patch: CustomerPatch, now = new Date()): Customer {
  write(db, teamId, (w) => {
    const current = getRow(db, teamId, id);
    if (!current) throw new NotFound('customer', id);
    updateRow(w, current, patch);
  });
  return getCustomer(db, teamId, id, now);
}

/** Deletes the customer (its tag links go with it; its invoices stay) and returns it as it was. */
export function deleteCustomer(db: Db, teamId: string, id: string, now = new Date()): Customer {
  return write(db, teamId, (w) => {
    const customer = getCustomer(db, teamId, id, now);
    w.remove('customer', id);
    return customer;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The list: search, filters, tabs, sort and keyset cursor (docs/decisions/0022 and 0023).

/** `sum_minor / 10^exponent` in SQL, so sorting by money sorts by the same numbers the API shows. */
const DIVISOR_SQL = (() => {
  const cases = currencyCodes()
    .filter((c) => /^[A-Z]{3}$/.test(c))
    .map((c) => [c, currencyExponent(c)] as const)
    .filter(([, e]) => e !== 2)
    .map(([c, e]) => `WHEN '${c}' THEN ${10 ** e}.0`);
  return (col: string) => `(CASE ${col} ${cases.join(' ')} ELSE 100.0 END)`;
})();

const STATS_CTE = customerStatsCte(DIVISOR_SQL);

/** Sort columns; `stats` ones read the per-customer invoice aggregates (STATS_CTE joined as `s`). */
const SORTS: Record<CustomerSortColumn, SortColumn & { stats: boolean }> = {
  created_at: { sql: 'c.created_at', kind: 'text', stats: false },
  name: { sql: 'c.name COLLATE NOCASE', kind: 'text', stats: false },
  email: { sql: "coalesce(c.email, '') COLLATE NOCASE", kind: 'text', stats: false },
  country: { sql: "coalesce(c.country, '') COLLATE NOCASE", kind: 'text', stats: false },
  invoices: { sql: 'coalesce(s.issued, 0)', kind: 'number', stats: true },
  projects: {
    sql: '(SELECT count(*) FROM tracker_projects p WHERE p.team_id = c.team_id AND p.customer_id = c.id)',
    kind: 'number',
    stats: false,
  },
  total_revenue: { sql: 'coalesce(s.revenue, 0)', kind: 'number', stats: true },
  outstanding: { sql: 'coalesce(s.outstanding, 0)', kind: 'number', stats: true },
  last_invoice: { sql: "coalesce(substr(s.latest, 1, instr(s.latest, ' ') - 1), '')", kind: 'text', stats: true },
};

export interface CustomerPageResult {
  data: Customer[];
  meta: { cursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
}

/** The list's inputs: the parsed query (CustomerListQuery) with every field optional. */
export interface CustomerListOptions {
  q?: string;
  sort?: CustomerSort;
  cursor?: string;
  pageSize?: number;
  tags?: string[];
  countries?: string[];
  tab?: CustomerTab;
}

export function listCustomers(db: Db, teamId: string, query: CustomerListOptions, now = new Date()): CustomerPageResult {
  // One read transaction: the page's keys and rows come from the same snapshot.
  return db.transaction(() => listInSnapshot(db, teamId, query, now))();
}

function listInSnapshot(db: Db, teamId: string, query: CustomerListOptions, now: Date): CustomerPageResult {
  const column = query.sort?.column ?? 'created_at';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const sort = SORTS[column];
  const tab = query.tab ?? 'all';
  const tabSql = (sort.stats ? TABS_BY_STATS : TABS_CORRELATED)[tab];
  const match = ftsQuery(query.q);

  const params: Record<string, unknown> = { team: teamId };
  const where = ['c.team_id = @team'];
  if (match) {
    where.push('c.search_rowid IN (SELECT rowid FROM customers_fts WHERE customers_fts MATCH @match)');
    params.match = match;
  }
  if (query.tags && query.tags.length > 0) {
    where.push(
      'EXISTS (SELECT 1 FROM customer_tags ct WHERE ct.team_id = c.team_id AND ct.customer_id = c.id AND ct.tag_id IN (SELECT value FROM json_each(@tags)))',
    );
    params.tags = JSON.stringify(query.tags);
  }
  if (query.countries && query.countries.length > 0) {
    where.push('c.country_code IN (SELECT value FROM json_each(@countries))');
    params.countries = JSON.stringify(query.countries);
  }
  if (tabSql) {
    where.push(tabSql);
    if (tab === 'recent') Object.assign(params, recentWindow(now));
  }
  const page = keysetPage(db, {
    with: sort.stats ? STATS_CTE : undefined,
    from: `customers c${sort.stats ? ' LEFT JOIN s ON s.cid = c.id' : ''}`,
    id: 'c.id',
    where,
    params,
    sort,
    direction,
    pageSize: query.pageSize ?? 50,
    fingerprint: listFingerprint([
      teamId,
      column,
      direction,
      match,
      [...new Set(query.tags ?? [])].sort(),
      [...new Set(query.countries ?? [])].sort(),
      tab,
    ]),
    cursor: query.cursor,
  });
  const byId = new Map(readRows(db, teamId, page.ids).map((r) => [r.id, r]));
  return {
    data: page.ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toCustomer(row, now)] : [];
    }),
    meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
  };
}
