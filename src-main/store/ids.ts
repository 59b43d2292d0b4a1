import { v7 as uuidv7 } from 'uuid';

/**
 * Record ids are UUID v7: time-ordered, so inserts append to the B-tree instead of splitting pages all over it
 * (2x bulk-insert speed measured here, see shared/notes/perf-facts.md), and ids sort by creation time.
 */
export function newId(): string {
  return uuidv7();
}

export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * A FROM clause for the rows of `table` (as `alias`) whose ids come as a JSON array in the first bound parameter.
 * The ids drive the join (CROSS JOIN keeps them the outer loop), so each row is found by its primary key: with
 * `id IN (…)` beside `team_id = ?` the planner may walk the team's index instead and read every row of a large team.
 * Callers still filter on the team.
 */
export function fromIds(table: string, alias: string): string {
  return `json_each(?) AS wanted CROSS JOIN ${table} ${alias} ON ${alias}.id = wanted.value`;
}
