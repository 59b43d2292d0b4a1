import type {
  TrackerProject,
  TrackerProjectCreate,
  TrackerProjectListQuery,
  TrackerProjectPatch,
} from '../../../src-shared/contract/tracker';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { listFingerprint } from '../list/cursor';
import { ftsQuery } from '../list/fts';
import { keysetPage, placeholders, type SortColumn } from '../list/keyset';
import { minorOf } from '../money-input';
import { resolveTagRefs } from '../tags/tags';
import { getTeam } from '../teams/teams';
import { type Values, write } from '../write';
import { categoryJoin, entryAmountSql } from './amount-sql';

/**
 * Tracker projects of a team with their totals (docs/decisions/0080-tracker.md). Totals are computed in the read
 * from the entries in minor units (src-shared/domain/tracker.ts), so they can never drift from the entries.
 */

interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  estimate_hours: number | null;
  billable: number;
  rate_minor: number | null;
  currency: string | null;
  status: 'in_progress' | 'completed';
  customer_id: string | null;
  customer_name: string | null;
  tags_json: string;
  totals_json: string;
  created_at: string;
  updated_at: string;
}

const billedColumns = new WeakMap<Db, boolean>();

/**
 * Whether `tracker_entries.invoice_id` exists (the invoices migration adds it: an entry on an invoice is billed).
 * Checked once per connection; the schema only changes when a database is opened.
 */
export function hasBilledColumn(db: Db): boolean {
  let has = billedColumns.get(db);
  if (has === undefined) {
    has = db.prepare("SELECT 1 FROM pragma_table_info('tracker_entries') WHERE name = 'invoice_id'").get() !== undefined;
    billedColumns.set(db, has);
  }
  return has;
}

/** `e.invoice_id`, or NULL before the invoices migration adds it. */
export const invoiceIdSql = (db: Db, e: string) => (hasBilledColumn(db) ? `${e}.invoice_id` : 'NULL');

function readColumns(db: Db): string {
  const amount = entryAmountSql('e', 'p', 'ec');
  const invoice = invoiceIdSql(db, 'e');
  return `p.*, c.name AS customer_name,
  (SELECT json_group_array(json_array(id, name)) FROM (
     SELECT t.id, t.name FROM tracker_project_tags pt JOIN tags t ON t.id = pt.tag_id
     WHERE pt.team_id = p.team_id AND pt.project_id = p.id ORDER BY t.name COLLATE NOCASE, t.id)) AS tags_json,
  (SELECT json_array(coalesce(sum(e.duration_seconds), 0), coalesce(sum(${amount}), 0),
                     coalesce(sum(CASE WHEN ${invoice} IS NULL THEN e.duration_seconds ELSE 0 END), 0),
                     coalesce(sum(CASE WHEN ${invoice} IS NULL THEN ${amount} ELSE 0 END), 0))
     FROM tracker_entries e ${categoryJoin('e', 'ec')}
     WHERE e.team_id = p.team_id AND e.project_id = p.id AND e.stop IS NOT NULL) AS totals_json`;
}

function toProject(r: ProjectRow): TrackerProject {
  const [totalDuration, totalMinor, unbilledDuration, unbilledMinor] = JSON.parse(r.totals_json) as number[];
  const money = (minor: number | undefined) => (r.currency ? toMajor(minor ?? 0, r.currency) : 0);
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    estimate: r.estimate_hours,
    billable: r.billable === 1,
    rate: r.rate_minor !== null && r.currency ? toMajor(r.rate_minor, r.currency) : null,
    currency: r.currency,
    status: r.status,
    customerId: r.customer_id,
    customer: r.customer_id && r.customer_name !== null ? { id: r.customer_id, name: r.customer_name } : null,
    tags: (JSON.parse(r.tags_json) as [string, string][]).map(([id, name]) => ({ id, name })),
    totalDuration: totalDuration ?? 0,
    totalAmount: money(totalMinor),
    unbilledDuration: unbilledDuration ?? 0,
    unbilledAmount: money(unbilledMinor),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const FROM = 'tracker_projects p LEFT JOIN customers c ON c.team_id = p.team_id AND c.id = p.customer_id';

function readProjects(db: Db, teamId: string, ids: readonly string[]): TrackerProject[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${readColumns(db)} FROM ${FROM} WHERE p.team_id = ? AND p.id IN (${placeholders(ids.length)})`)
    .all(teamId, ...ids) as ProjectRow[];
  const byId = new Map(rows.map((r) => [r.id, toProject(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function getTrackerProject(db: Db, teamId: string, id: string): TrackerProject {
  const [project] = readProjects(db, teamId, [id]);
  if (!project) throw new NotFound('tracker project', id);
  return project;
}

// ---------------------------------------------------------------------------------------------------------------
// The list.

function sortColumns(): Record<string, SortColumn> {
  const amount = entryAmountSql('e', 'p', 'ec');
  return {
    created_at: { sql: 'p.created_at', kind: 'text' },
    name: { sql: 'lower(p.name)', kind: 'text' },
    status: { sql: 'p.status', kind: 'text' },
    customer: { sql: "coalesce(lower(c.name), '')", kind: 'text' },
    time: {
      sql: `(SELECT coalesce(sum(e.duration_seconds), 0) FROM tracker_entries e
             WHERE e.team_id = p.team_id AND e.project_id = p.id AND e.stop IS NOT NULL)`,
      kind: 'number',
    },
    amount: {
      sql: `(SELECT coalesce(sum(${amount}), 0) FROM tracker_entries e ${categoryJoin('e', 'ec')}
             WHERE e.team_id = p.team_id AND e.project_id = p.id AND e.stop IS NOT NULL)`,
      kind: 'number',
    },
  };
}

export function listTrackerProjects(
  db: Db,
  teamId: string,
  query: TrackerProjectListQuery,
): { data: TrackerProject[]; meta: { cursor: string | null; hasPreviousPage: boolean; hasNextPage: boolean } } {
  const where = ['p.team_id = @team'];
  const params: Record<string, unknown> = { team: teamId };
  const match = ftsQuery(query.q);
  if (match) {
    where.push('p.search_rowid IN (SELECT rowid FROM tracker_projects_fts WHERE tracker_projects_fts MATCH @match)');
    params.match = match;
  }
  if (query.status) {
    where.push('p.status = @status');
    params.status = query.status;
  }
  if (query.billable !== undefined) {
    where.push('p.billable = @billable');
    params.billable = query.billable ? 1 : 0;
  }
  if (query.customers?.length) {
    where.push('p.customer_id IN (SELECT value FROM json_each(@customers))');
    params.customers = JSON.stringify(query.customers);
  }
  if (query.tags?.length) {
    where.push(
      'EXISTS (SELECT 1 FROM tracker_project_tags pt WHERE pt.team_id = p.team_id AND pt.project_id = p.id AND pt.tag_id IN (SELECT value FROM json_each(@tags)))',
    );
    params.tags = JSON.stringify(query.tags);
  }
  const column = query.sort?.column ?? 'created_at';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const page = keysetPage(db, {
    from: FROM,
    id: 'p.id',
    where,
    params,
    sort: sortColumns()[column]!,
    direction,
    pageSize: query.pageSize,
    cursor: query.cursor,
    fingerprint: listFingerprint([
      'tracker_projects',
      teamId,
      column,
      direction,
      match,
      query.status ?? null,
      query.billable ?? null,
      [...(query.customers ?? [])].sort(),
      [...(query.tags ?? [])].sort(),
    ]),
  });
  return {
    data: readProjects(db, teamId, page.ids),
    meta: { cursor: page.cursor, hasPreviousPage: page.hasPreviousPage, hasNextPage: page.hasNextPage },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

interface StoredProject {
  id: string;
  rate_minor: number | null;
  currency: string | null;
  customer_id: string | null;
}

function storedProject(db: Db, teamId: string, id: string): StoredProject {
  const row = db
    .prepare('SELECT id, rate_minor, currency, customer_id FROM tracker_projects WHERE team_id = ? AND id = ?')
    .get(teamId, id) as StoredProject | undefined;
  if (!row) throw new NotFound('tracker project', id);
  return row;
}

function checkCustomer(db: Db, teamId: string, customerId: string | null | undefined): void {
  if (!customerId) return;
  if (!db.prepare('SELECT 1 FROM customers WHERE team_id = ? AND id = ?').get(teamId, customerId)) {
    throw new InvalidReference('customerId', `No customer with id ${customerId} in this team`);
  }
}

/** Column values of a create or patch; `current` is the stored project for a patch. */
function projectValues(
  db: Db,
  teamId: string,
  input: TrackerProjectPatch,
  current: StoredProject | undefined,
): Values & { currency?: string | null } {
  checkCustomer(db, teamId, input.customerId);
  const values: Record<string, string | number | null | undefined> = {
    name: input.name,
    description: input.description,
    estimate_hours: input.estimate,
    billable: input.billable === undefined ? undefined : input.billable ? 1 : 0,
    status: input.status,
    customer_id: input.customerId,
  };
  const oldCurrency = current?.currency ?? null;
  let currency = input.currency === undefined ? oldCurrency : input.currency;
  const rateGiven = input.rate !== undefined && input.rate !== null;
  if (rateGiven && !currency) currency = getTeam(db, teamId).baseCurrency;
  if (!current && currency === null) currency = getTeam(db, teamId).baseCurrency;
  if (currency !== oldCurrency || !current) values.currency = currency;
  if (input.rate === null) values.rate_minor = null;
  else if (rateGiven) values.rate_minor = minorOf(input.rate as number, currency as string, 'rate', 'named');
  else if (current && current.rate_minor !== null && currency !== oldCurrency) {
    // The same rate in the new currency's minor unit (1.5 EUR/h becomes 1.5 USD/h, not 150 JPY).
    if (!currency) values.rate_minor = null;
    else values.rate_minor = minorOf(toMajor(current.rate_minor, oldCurrency as string), currency, 'rate', 'named');
  }
  return values;
}

function writeProjectTags(db: Db, teamId: string, projectId: string, tagIds: readonly string[]): boolean {
  const before = (
    db
      .prepare('SELECT tag_id FROM tracker_project_tags WHERE team_id = ? AND project_id = ? ORDER BY tag_id')
      .pluck()
      .all(teamId, projectId) as string[]
  ).join(',');
  if (before === [...tagIds].sort().join(',')) return false;
  db.prepare('DELETE FROM tracker_project_tags WHERE team_id = ? AND project_id = ?').run(teamId, projectId);
  const insert = db.prepare('INSERT INTO tracker_project_tags (team_id, project_id, tag_id) VALUES (?, ?, ?)');
  for (const tagId of tagIds) insert.run(teamId, projectId, tagId);
  return true;
}

export function createTrackerProject(db: Db, teamId: string, input: TrackerProjectCreate): TrackerProject {
  const id = write(db, teamId, (w) => {
    const tags = resolveTagRefs(
      db,
      teamId,
      (input.tags ?? []).map((t) => t.id),
    );
    const values = projectValues(db, teamId, input, undefined);
    const projectId = w.insert('tracker_project', { ...values, id: input.id });
    writeProjectTags(
      db,
      teamId,
      projectId,
      tags.map((t) => t.id),
    );
    return projectId;
  });
  return getTrackerProject(db, teamId, id);
}

export function updateTrackerProject(db: Db, teamId: string, id: string, input: TrackerProjectPatch): TrackerProject {
  write(db, teamId, (w) => {
    const current = storedProject(db, teamId, id);
    const values = projectValues(db, teamId, input, current);
    const changed = w.update('tracker_project', id, values);
    if (input.tags) {
      const tags = resolveTagRefs(
        db,
        teamId,
        input.tags.map((t) => t.id),
      );
      if (
        writeProjectTags(
          db,
          teamId,
          id,
          tags.map((t) => t.id),
        ) &&
        !changed
      ) {
        w.touch('tracker_project', id);
      }
    }
  });
  return getTrackerProject(db, teamId, id);
}

/** Deletes the project and its entries (each leaves a tombstone); refused while an entry is on an invoice. */
export function deleteTrackerProject(db: Db, teamId: string, id: string): TrackerProject {
  return write(db, teamId, (w) => {
    const project = getTrackerProject(db, teamId, id);
    const billed = db
      .prepare(
        `SELECT count(*) FROM tracker_entries e WHERE e.team_id = ? AND e.project_id = ? AND ${invoiceIdSql(db, 'e')} IS NOT NULL`,
      )
      .pluck()
      .get(teamId, id) as number;
    if (billed > 0) {
      throw new Conflict(
        `The project has ${billed} billed entr${billed === 1 ? 'y' : 'ies'}`,
        'Entries on an invoice cannot be deleted; cancel and delete the invoice first, or mark the project completed',
      );
    }
    const entries = db
      .prepare('SELECT id FROM tracker_entries WHERE team_id = ? AND project_id = ?')
      .pluck()
      .all(teamId, id) as string[];
    for (const entryId of entries) w.remove('tracker_entry', entryId);
    w.remove('tracker_project', id);
    return project;
  });
}
