import type {
  TrackerCategory,
  TrackerCategoryCreate,
  TrackerCategoryPatch,
} from '../../../src-shared/contract/tracker-categories';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { minorOf } from '../money-input';
import { getTeam } from '../teams/teams';
import { write } from '../write';

/**
 * Tracker categories, the activity types of time entries (docs/decisions/0146-tracker-categories.md). The rate rule
 * that makes a category's rate an entry's rate is src-shared/domain/tracker.ts `effectiveRate` (SQL form:
 * amount-sql.ts); entries embed their category's name and colour, so a change of it records a change for each.
 */

interface Row {
  id: string;
  name: string;
  color: string;
  rate_minor: number | null;
  currency: string;
  billable: number;
  entry_count: number;
  created_at: string;
  updated_at: string;
}

const DEFAULT_COLOR = '#9e9e9e';

const SELECT = `SELECT c.*, (SELECT count(*) FROM tracker_entries e WHERE e.team_id = c.team_id AND e.category_id = c.id)
  AS entry_count FROM tracker_categories c`;

function toCategory(r: Row): TrackerCategory {
  return {
    id: r.id,
    name: r.name,
    color: r.color,
    rate: r.rate_minor === null ? null : toMajor(r.rate_minor, r.currency),
    currency: r.currency,
    billable: r.billable === 1,
    entryCount: r.entry_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function row(db: Db, teamId: string, id: string): Row | undefined {
  return db.prepare(`${SELECT} WHERE c.team_id = ? AND c.id = ?`).get(teamId, id) as Row | undefined;
}

export function getTrackerCategory(db: Db, teamId: string, id: string): TrackerCategory {
  const r = row(db, teamId, id);
  if (!r) throw new NotFound('tracker category', id);
  return toCategory(r);
}

export function listTrackerCategories(db: Db, teamId: string): TrackerCategory[] {
  return (db.prepare(`${SELECT} WHERE c.team_id = ? ORDER BY c.name COLLATE NOCASE, c.id`).all(teamId) as Row[]).map(toCategory);
}

/** An entry's category must be one of the team's (another team's id reads like one that does not exist). */
export function checkCategory(db: Db, teamId: string, categoryId: string, field = 'categoryId'): void {
  if (!db.prepare('SELECT 1 FROM tracker_categories WHERE team_id = ? AND id = ?').get(teamId, categoryId)) {
    throw new InvalidReference(field, `No tracker category with id ${categoryId} in this team`);
  }
}

function checkName(db: Db, teamId: string, name: string, except?: string): void {
  const taken = db
    .prepare('SELECT id FROM tracker_categories WHERE team_id = ? AND name = ? COLLATE NOCASE AND id IS NOT ?')
    .pluck()
    .get(teamId, name, except ?? null);
  if (taken) {
    throw new Conflict(`A tracker category named "${name}" already exists`, 'field: name (unique per team, ignoring case)');
  }
}

export function createTrackerCategory(db: Db, teamId: string, input: TrackerCategoryCreate): TrackerCategory {
  const id = write(db, teamId, (w) => {
    checkName(db, teamId, input.name);
    const currency = input.currency ?? getTeam(db, teamId).baseCurrency;
    return w.insert('tracker_category', {
      id: input.id,
      name: input.name,
      color: input.color ?? DEFAULT_COLOR,
      rate_minor: input.rate === undefined || input.rate === null ? null : minorOf(input.rate, currency, 'rate', 'named'),
      currency,
      billable: input.billable === false ? 0 : 1,
    });
  });
  return getTrackerCategory(db, teamId, id);
}

export function updateTrackerCategory(db: Db, teamId: string, id: string, input: TrackerCategoryPatch): TrackerCategory {
  write(db, teamId, (w) => {
    const current = row(db, teamId, id);
    if (!current) throw new NotFound('tracker category', id);
    if (input.name !== undefined) checkName(db, teamId, input.name, id);
    const currency = input.currency ?? current.currency;
    // A new currency keeps the rate's figure (as a project's does): 90 EUR/h becomes 90 USD/h, in the new minor unit.
    const rate =
      input.rate !== undefined ? input.rate : current.rate_minor === null ? null : toMajor(current.rate_minor, current.currency);
    w.update('tracker_category', id, {
      name: input.name,
      color: input.color,
      currency,
      rate_minor: rate === null ? null : minorOf(rate, currency, 'rate', 'named'),
      billable: input.billable === undefined ? undefined : input.billable ? 1 : 0,
    });
  });
  return getTrackerCategory(db, teamId, id);
}

/** Refused while entries use it: their amounts would change silently (move them to another category first). */
export function deleteTrackerCategory(db: Db, teamId: string, id: string): TrackerCategory {
  return write(db, teamId, (w) => {
    const current = row(db, teamId, id);
    if (!current) throw new NotFound('tracker category', id);
    if (current.entry_count > 0) {
      throw new Conflict(
        `${current.entry_count} tracker entries use the category "${current.name}"`,
        'Give those entries another category (PATCH /v1/tracker-entries/{id} categoryId) first',
      );
    }
    w.remove('tracker_category', id);
    return toCategory(current);
  });
}
