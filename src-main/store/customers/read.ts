import type { Customer } from '../../../src-shared/contract/customers';
import { engagementOf, type InvoiceGroup, recentUntil, summarizeFinance } from '../../../src-shared/domain/customer-engagement';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { openSql, receivedSql } from '../invoice-status-sql';
import { placeholders } from '../list/keyset';
import type { CustomerRow } from './row';

/**
 * The read of customers with their finance summary and engagement (rules in src-shared/domain/customer-engagement.ts):
 * one statement per page of records. Decisions: docs/decisions/0020…0024.
 */

/** A customer row with its tags, invoice groups and project count, aggregated by SQLite in the same statement. */
interface ReadRow extends CustomerRow {
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
  (SELECT json_group_array(json_array(currency, status, n, total, last_date, latest, last_paid, received)) FROM (
     SELECT currency, status, count(*) AS n, sum(amount_minor) AS total, max(issue_date) AS last_date,
            max(issue_date || ' ' || id) AS latest, max(paid_at) AS last_paid,
            sum(CASE WHEN ${openSql('status')} THEN ${receivedSql('i')} ELSE 0 END) AS received
     FROM invoices i WHERE i.team_id = c.team_id AND i.customer_id = c.id GROUP BY currency, status)) AS invoices_json,
  (SELECT count(*) FROM tracker_projects p WHERE p.team_id = c.team_id AND p.customer_id = c.id) AS project_count`;

type InvoiceTuple = [string, string, number, number, string | null, string | null, string | null, number];

/** The read of one customer: a constant text, so the statement cache finds it without building ~1 KB of SQL. */
const READ_ONE = `SELECT ${READ_COLUMNS} FROM customers c WHERE c.team_id = ? AND c.id = ?`;

export function readRows(db: Db, teamId: string, ids: readonly string[]): ReadRow[] {
  if (ids.length === 0) return [];
  return db
    .prepare(`SELECT ${READ_COLUMNS} FROM customers c WHERE c.team_id = ? AND c.id IN (${placeholders(ids.length)})`)
    .all(teamId, ...ids) as ReadRow[];
}

export function toCustomer(r: ReadRow, now: Date): Customer {
  const tags = (JSON.parse(r.tags_json) as [string, string][]).map(([id, name]) => ({ id, name }));
  const groups = (JSON.parse(r.invoices_json) as InvoiceTuple[]).map(
    ([currency, status, count, totalMinor, lastDate, latestKey, lastPaidAt, receivedMinor]): InvoiceGroup => ({
      currency,
      status,
      count,
      totalMinor,
      lastDate,
      latestKey,
      lastPaidAt,
      receivedMinor,
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
    eInvoiceFormat: r.e_invoice_format as Customer['eInvoiceFormat'],
    buyerReference: r.buyer_reference,
    invoiceLocale: r.invoice_locale,
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

export function getCustomer(db: Db, teamId: string, id: string, now = new Date()): Customer {
  const row = db.prepare(READ_ONE).get(teamId, id) as ReadRow | undefined;
  if (!row) throw new NotFound('customer', id);
  return toCustomer(row, now);
}
