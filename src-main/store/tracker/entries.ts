import {
  MAX_ENTRIES_PER_REQUEST,
  type TrackerEntry,
  type TrackerEntryCreate,
  type TrackerEntryPatch,
  type TrackerEntryRange,
  type TrackerEntryRangeQuery,
} from '../../../src-shared/contract/tracker';
import { daysBetween } from '../../../src-shared/domain/invoice-dates';
import { shiftDaysInZone } from '../../../src-shared/domain/tracker';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { placeholders } from '../list/keyset';
import { getTeam } from '../teams/teams';
import { type Writer, write } from '../write';
import { categoryJoin, entryAmountSql, entryBillableSql, entryRateSourceSql, entryRateSql } from './amount-sql';
import { checkCategory } from './categories';
import { invoiceIdSql } from './projects';

/**
 * Tracker entries (docs/decisions/0080-tracker.md): reading them with their project, assignee, amount and invoice,
 * the grouped range list, and writing them. The timer (timer.ts) starts and stops entries through the same rows.
 */

export interface EntryRow {
  id: string;
  project_id: string;
  assigned_id: string | null;
  date: string;
  start: string;
  stop: string | null;
  duration_seconds: number;
  description: string | null;
  created_at: string;
  updated_at: string;
  project_name: string;
  project_billable: number;
  project_rate_minor: number | null;
  project_currency: string | null;
  assigned_name: string | null;
  invoice_id: string | null;
  category_id: string | null;
  category_name: string | null;
  category_color: string | null;
  rate_minor: number | null;
  rate_source: 'project' | 'category' | null;
  billable: number;
  amount_minor: number;
}

export function selectEntries(db: Db): string {
  return `SELECT e.id, e.project_id, e.assigned_id, e.date, e.start, e.stop, e.duration_seconds, e.description,
    e.created_at, e.updated_at, p.name AS project_name, p.billable AS project_billable, p.rate_minor AS project_rate_minor,
    p.currency AS project_currency, u.full_name AS assigned_name, ${invoiceIdSql(db, 'e')} AS invoice_id,
    e.category_id, c.name AS category_name, c.color AS category_color, ${entryRateSql('p', 'c')} AS rate_minor,
    ${entryRateSourceSql('p', 'c')} AS rate_source, ${entryBillableSql('p', 'c')} AS billable,
    ${entryAmountSql('e', 'p', 'c')} AS amount_minor
    FROM tracker_entries e
    JOIN tracker_projects p ON p.team_id = e.team_id AND p.id = e.project_id
    ${categoryJoin('e', 'c')}
    LEFT JOIN users u ON u.id = e.assigned_id`;
}

function elapsedSeconds(start: string, now: number): number {
  return Math.max(0, Math.floor((now - Date.parse(start)) / 1000));
}

export function toEntry(r: EntryRow, now: number): TrackerEntry {
  const running = r.stop === null;
  const currency = r.project_currency;
  return {
    id: r.id,
    projectId: r.project_id,
    project: {
      id: r.project_id,
      name: r.project_name,
      billable: r.project_billable === 1,
      rate: r.project_rate_minor !== null && currency ? toMajor(r.project_rate_minor, currency) : null,
      currency,
    },
    assignedId: r.assigned_id,
    assigned: r.assigned_id && r.assigned_name !== null ? { id: r.assigned_id, fullName: r.assigned_name } : null,
    categoryId: r.category_id,
    category:
      r.category_id && r.category_name !== null
        ? { id: r.category_id, name: r.category_name, color: r.category_color ?? '' }
        : null,
    rate: r.rate_minor !== null && currency ? toMajor(r.rate_minor, currency) : null,
    rateSource: r.rate_source,
    billable: r.billable === 1,
    date: r.date,
    start: r.start,
    stop: r.stop,
    duration: running ? elapsedSeconds(r.start, now) : r.duration_seconds,
    description: r.description,
    running,
    billed: r.invoice_id !== null,
    invoiceId: r.invoice_id,
    amount: currency ? toMajor(r.amount_minor, currency) : 0,
    currency,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function entryRow(db: Db, teamId: string, id: string): EntryRow | undefined {
  return db.prepare(`${selectEntries(db)} WHERE e.team_id = ? AND e.id = ?`).get(teamId, id) as EntryRow | undefined;
}

export function getTrackerEntry(db: Db, teamId: string, id: string, now = Date.now()): TrackerEntry {
  const row = entryRow(db, teamId, id);
  if (!row) throw new NotFound('tracker entry', id);
  return toEntry(row, now);
}

function readEntries(db: Db, teamId: string, ids: readonly string[], now = Date.now()): TrackerEntry[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`${selectEntries(db)} WHERE e.team_id = ? AND e.id IN (${placeholders(ids.length)})`)
    .all(teamId, ...ids) as EntryRow[];
  const byId = new Map(rows.map((r) => [r.id, toEntry(r, now)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ---------------------------------------------------------------------------------------------------------------
// The grouped range list.

const DAY_MS = 86_400_000;
export const MAX_RANGE_DAYS = 366;

export function listTrackerEntries(db: Db, teamId: string, query: TrackerEntryRangeQuery, now = Date.now()): TrackerEntryRange {
  const to = query.to ?? new Date(now).toISOString().slice(0, 10);
  const from = query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 30 * DAY_MS).toISOString().slice(0, 10);
  if (from > to) throw new InvalidReference('from', '`from` must not be after `to`');
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_RANGE_DAYS) throw new InvalidReference('to', `The range is ${days} days; at most ${MAX_RANGE_DAYS}`);
  const where = ['e.team_id = @team', 'e.date BETWEEN @from AND @to'];
  const params: Record<string, unknown> = { team: teamId, from, to };
  if (query.projectId) {
    where.push('e.project_id = @project');
    params.project = query.projectId;
  }
  if (query.assignedId) {
    where.push('e.assigned_id = @assigned');
    params.assigned = query.assignedId;
  }
  const rows = db
    .prepare(`${selectEntries(db)} WHERE ${where.join(' AND ')} ORDER BY e.date, e.start, e.id`)
    .all(params) as EntryRow[];

  const result: Record<string, TrackerEntry[]> = {};
  const dayTotals = new Map<string, { duration: number; minor: Map<string, number> }>();
  const allMinor = new Map<string, number>();
  let totalDuration = 0;
  for (const r of rows) {
    const list = result[r.date] ?? [];
    list.push(toEntry(r, now));
    result[r.date] = list;
    if (r.stop === null) continue;
    const day = dayTotals.get(r.date) ?? { duration: 0, minor: new Map<string, number>() };
    day.duration += r.duration_seconds;
    totalDuration += r.duration_seconds;
    if (r.project_currency && r.amount_minor !== 0) {
      day.minor.set(r.project_currency, (day.minor.get(r.project_currency) ?? 0) + r.amount_minor);
      allMinor.set(r.project_currency, (allMinor.get(r.project_currency) ?? 0) + r.amount_minor);
    }
    dayTotals.set(r.date, day);
  }
  const byCurrency = (m: Map<string, number>) =>
    [...m.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, minor]) => ({ currency, amount: toMajor(minor, currency) }));
  const currencies = [...allMinor.keys()];
  const currency = currencies.length === 1 ? currencies[0]! : getTeam(db, teamId).baseCurrency;
  const totals: TrackerEntryRange['totals'] = {};
  for (const [date, t] of dayTotals) totals[date] = { totalDuration: t.duration, byCurrency: byCurrency(t.minor) };
  return {
    meta: {
      from,
      to,
      totalDuration,
      totalAmount: toMajor(allMinor.get(currency) ?? 0, currency),
      currency,
      byCurrency: byCurrency(allMinor),
    },
    result,
    totals,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

export function checkProject(db: Db, teamId: string, projectId: string, field = 'projectId'): void {
  if (!db.prepare('SELECT 1 FROM tracker_projects WHERE team_id = ? AND id = ?').get(teamId, projectId)) {
    throw new InvalidReference(field, `No tracker project with id ${projectId} in this team`);
  }
}

export function checkAssignee(db: Db, teamId: string, userId: string | null, field = 'assignedId'): void {
  if (userId && !db.prepare('SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(teamId, userId)) {
    throw new InvalidReference(field, `No member with id ${userId} in this team`);
  }
}

/** The user's time zone (UTC for no user). */
export function userTimeZone(db: Db, userId: string | null): string {
  return userId
    ? ((db.prepare('SELECT timezone FROM users WHERE id = ?').pluck().get(userId) as string | undefined) ?? 'UTC')
    : 'UTC';
}

/** The calendar date of an instant in the user's time zone (UTC for no user). */
export function localDate(db: Db, userId: string | null, instant: string): string {
  const tz = userTimeZone(db, userId);
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(instant),
    );
  } catch {
    return instant.slice(0, 10);
  }
}

export const secondsBetween = (from: string, to: string) => Math.floor((Date.parse(to) - Date.parse(from)) / 1000);

/** stop/duration from what was given: both (duration may be shorter: breaks), one of them, or neither (422). */
function timing(
  start: string,
  stop: string | undefined,
  duration: number | undefined,
  prefix: string,
): { stop: string; duration: number } {
  if (stop !== undefined) {
    const span = secondsBetween(start, stop);
    if (span < 0) throw new InvalidReference(`${prefix}stop`, `${prefix}stop is before ${prefix}start`);
    if (span > 7 * 86_400) throw new InvalidReference(`${prefix}stop`, 'an entry spans at most 7 days');
    if (duration !== undefined && duration > span) {
      throw new InvalidReference(`${prefix}duration`, `${prefix}duration is longer than stop − start (${span} s)`);
    }
    return { stop, duration: duration ?? span };
  }
  if (duration !== undefined) return { stop: new Date(Date.parse(start) + duration * 1000).toISOString(), duration };
  throw new InvalidReference(
    `${prefix}stop`,
    `give ${prefix}stop or ${prefix}duration (a running entry is started with the timer)`,
  );
}

function insertEntry(
  w: Writer,
  db: Db,
  teamId: string,
  input: Omit<TrackerEntryCreate, 'dates'>,
  actingUser: string | null,
  prefix = '',
): string {
  checkProject(db, teamId, input.projectId, `${prefix}projectId`);
  const assigned = input.assignedId === undefined ? actingUser : input.assignedId;
  checkAssignee(db, teamId, assigned, `${prefix}assignedId`);
  if (input.categoryId) checkCategory(db, teamId, input.categoryId, `${prefix}categoryId`);
  const t = timing(input.start, input.stop, input.duration, prefix);
  return w.insert('tracker_entry', {
    id: input.id,
    project_id: input.projectId,
    category_id: input.categoryId ?? null,
    assigned_id: assigned,
    date: input.date ?? localDate(db, assigned, input.start),
    start: input.start,
    stop: t.stop,
    duration_seconds: t.duration,
    description: input.description ?? null,
  });
}

/**
 * A hosted-shaped entry (`dates`, docs/decisions/0163) as the entries it stands for: one on each listed day, at the
 * wall-clock times of `start` and `stop` in the assignee's time zone, moved to that day (an entry of 09:00–17:00 on
 * 1 December listed for 1 and 2 December is 09:00–17:00 on each). Without `dates`: the entry itself.
 */
export function entriesOfDays(
  db: Db,
  input: TrackerEntryCreate,
  actingUser: string | null,
  prefix = '',
): Omit<TrackerEntryCreate, 'dates'>[] {
  const { dates, ...entry } = input;
  if (!dates) return [entry];
  if (entry.date !== undefined) throw new InvalidReference(`${prefix}date`, `${prefix}date and ${prefix}dates: send one of them`);
  if (entry.id !== undefined && dates.length > 1) {
    throw new InvalidReference(`${prefix}id`, `${prefix}id names one entry: leave it out when dates names several days`);
  }
  const assigned = entry.assignedId === undefined ? actingUser : entry.assignedId;
  const tz = userTimeZone(db, assigned);
  const first = localDate(db, assigned, entry.start);
  return dates.map((day) => {
    const n = daysBetween(first, day);
    return {
      ...entry,
      date: day,
      start: shiftDaysInZone(entry.start, n, tz),
      ...(entry.stop !== undefined ? { stop: shiftDaysInZone(entry.stop, n, tz) } : {}),
    };
  });
}

/** The entries a create body stands for, each with the field prefix its errors name; refused beyond the limit. */
function expanded(db: Db, inputs: readonly TrackerEntryCreate[], actingUser: string | null, bulk: boolean) {
  const out = inputs.flatMap((input, i) => {
    const prefix = bulk ? `[${i}].` : '';
    return entriesOfDays(db, input, actingUser, prefix).map((entry) => ({ entry, prefix }));
  });
  if (out.length > MAX_ENTRIES_PER_REQUEST) {
    throw new InvalidReference(
      bulk ? 'entries' : 'dates',
      `The request stands for ${out.length} entries; at most ${MAX_ENTRIES_PER_REQUEST} are created at once`,
    );
  }
  return out;
}

/** POST /tracker-entries in the hosted shape: every entry of `dates`, all or nothing. */
export function createTrackerEntriesOfDays(
  db: Db,
  teamId: string,
  input: TrackerEntryCreate,
  actingUser: string | null,
): TrackerEntry[] {
  const items = expanded(db, [input], actingUser, false);
  const ids = write(db, teamId, (w) => items.map(({ entry, prefix }) => insertEntry(w, db, teamId, entry, actingUser, prefix)));
  return readEntries(db, teamId, ids);
}

export function createTrackerEntry(db: Db, teamId: string, input: TrackerEntryCreate, actingUser: string | null): TrackerEntry {
  const id = write(db, teamId, (w) => insertEntry(w, db, teamId, input, actingUser));
  return getTrackerEntry(db, teamId, id);
}

/** All or nothing: one transaction; the first invalid entry rolls everything back and is named by its index. */
export function createTrackerEntries(
  db: Db,
  teamId: string,
  inputs: readonly TrackerEntryCreate[],
  actingUser: string | null,
): TrackerEntry[] {
  const items = expanded(db, inputs, actingUser, true);
  const ids = write(db, teamId, (w) => items.map(({ entry, prefix }) => insertEntry(w, db, teamId, entry, actingUser, prefix)));
  return readEntries(db, teamId, ids);
}

function assertNotBilled(row: EntryRow, what: string): void {
  if (row.invoice_id !== null) {
    throw new Conflict(
      `The entry is on invoice ${row.invoice_id}: its ${what} cannot change`,
      'Billed time is locked; cancel the invoice draft to free its entries',
    );
  }
}

export function updateTrackerEntry(db: Db, teamId: string, id: string, input: TrackerEntryPatch): TrackerEntry {
  write(db, teamId, (w) => {
    const row = entryRow(db, teamId, id);
    if (!row) throw new NotFound('tracker entry', id);
    const timeChanges = input.start !== undefined || input.stop !== undefined || input.duration !== undefined;
    const projectChanges = input.projectId !== undefined && input.projectId !== row.project_id;
    // A billed entry's amount is on an invoice: what sets it (time, project, category) is locked.
    const categoryChanges = input.categoryId !== undefined && input.categoryId !== row.category_id;
    if (timeChanges || projectChanges || categoryChanges) {
      assertNotBilled(row, timeChanges ? 'time' : projectChanges ? 'project' : 'category');
    }
    if (input.projectId !== undefined) checkProject(db, teamId, input.projectId);
    if (input.assignedId !== undefined) checkAssignee(db, teamId, input.assignedId);
    if (input.categoryId) checkCategory(db, teamId, input.categoryId);
    const values: Record<string, string | number | null | undefined> = {
      project_id: input.projectId,
      category_id: input.categoryId,
      assigned_id: input.assignedId,
      description: input.description,
      date: input.date,
    };
    if (timeChanges) {
      const start = input.start ?? row.start;
      const stillRunning = row.stop === null && input.stop === undefined && input.duration === undefined;
      if (!stillRunning) {
        // A new start or stop recomputes the duration unless it is given; a new duration alone moves the stop.
        const stop = input.stop ?? (input.duration !== undefined ? undefined : (row.stop ?? undefined));
        const t = timing(start, stop, input.duration, '');
        values.stop = t.stop;
        values.duration_seconds = t.duration;
      }
      values.start = start;
      if (input.date === undefined && input.start !== undefined) {
        values.date = localDate(db, input.assignedId === undefined ? row.assigned_id : input.assignedId, start);
      }
    }
    w.update('tracker_entry', id, values);
  });
  return getTrackerEntry(db, teamId, id);
}

export function deleteTrackerEntry(db: Db, teamId: string, id: string): TrackerEntry {
  return write(db, teamId, (w) => {
    const row = entryRow(db, teamId, id);
    if (!row) throw new NotFound('tracker entry', id);
    assertNotBilled(row, 'existence');
    const entry = toEntry(row, Date.parse(w.now));
    w.remove('tracker_entry', id);
    return entry;
  });
}
