import type { TimerStart, TrackerEntry } from '../../../src-shared/contract/tracker';
import { MIN_TIMER_SECONDS } from '../../../src-shared/domain/tracker';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { type Writer, write } from '../write';
import { checkCategory } from './categories';
import {
  checkAssignee,
  checkProject,
  type EntryRow,
  entryRow,
  getTrackerEntry,
  localDate,
  secondsBetween,
  selectEntries,
  toEntry,
} from './entries';

/**
 * The timer (docs/decisions/0081-tracker-timer.md). A running timer is an entry without `stop`. Each assignee has at
 * most one: starting a timer stops the running one in the same IMMEDIATE transaction (so parallel starts serialize
 * and the later one stops the earlier), and the partial unique index tracker_entries_running (migration 009) makes a
 * second running entry impossible regardless. A stopped timer shorter than 60 seconds is discarded (deleted, with
 * its tombstone), as the hosted service does.
 */

function runningRow(db: Db, teamId: string, assignee: string | null): EntryRow | undefined {
  return db
    .prepare(`${selectEntries(db)} WHERE e.team_id = ? AND coalesce(e.assigned_id, '') = ? AND e.stop IS NULL`)
    .get(teamId, assignee ?? '') as EntryRow | undefined;
}

export interface Stopped {
  entry: TrackerEntry;
  discarded: boolean;
}

/** Stops a running entry at `at`: kept with its duration, or discarded (deleted) when shorter than 60 seconds. */
function stopRow(w: Writer, db: Db, row: EntryRow, at: string): Stopped {
  const duration = Math.max(0, secondsBetween(row.start, at));
  if (duration < MIN_TIMER_SECONDS) {
    const entry = toEntry(
      { ...row, stop: at < row.start ? row.start : at, duration_seconds: duration, amount_minor: 0 },
      Date.parse(at),
    );
    w.remove('tracker_entry', row.id);
    return { entry, discarded: true };
  }
  w.update('tracker_entry', row.id, { stop: at, duration_seconds: duration });
  return { entry: toEntry(entryRow(db, w.teamId, row.id)!, Date.parse(at)), discarded: false };
}

export function startTimer(db: Db, teamId: string, input: TimerStart, actingUser: string | null): TrackerEntry {
  const id = write(db, teamId, (w) => {
    checkProject(db, teamId, input.projectId);
    const assignee = input.assignedId === undefined ? actingUser : input.assignedId;
    checkAssignee(db, teamId, assignee);
    if (input.categoryId) checkCategory(db, teamId, input.categoryId);
    const start = input.start ?? w.now;
    const running = runningRow(db, teamId, assignee);
    if (running) stopRow(w, db, running, start < running.start ? running.start : start);
    return w.insert('tracker_entry', {
      project_id: input.projectId,
      category_id: input.categoryId ?? null,
      assigned_id: assignee,
      date: localDate(db, assignee, start),
      start,
      stop: null,
      duration_seconds: 0,
      description: input.description ?? null,
    });
  });
  return getTrackerEntry(db, teamId, id);
}

export function stopTimer(
  db: Db,
  teamId: string,
  input: { entryId?: string; stop?: string },
  actingUser: string | null,
): Stopped {
  return write(db, teamId, (w) => {
    let row: EntryRow | undefined;
    if (input.entryId) {
      row = entryRow(db, teamId, input.entryId);
      if (!row) throw new NotFound('tracker entry', input.entryId);
      if (row.stop !== null) throw new Conflict('The entry is not running', `It stopped at ${row.stop}`);
    } else {
      row = runningRow(db, teamId, actingUser);
      if (!row) throw new Conflict('No timer is running', 'Start one with POST /v1/tracker-entries/timer/start');
    }
    const at = input.stop ?? w.now;
    if (at < row.start) throw new InvalidReference('stop', `stop is before the timer's start (${row.start})`);
    return stopRow(w, db, row, at);
  });
}

export function currentTimer(db: Db, teamId: string, actingUser: string | null, now = Date.now()): TrackerEntry | null {
  const row = runningRow(db, teamId, actingUser);
  return row ? toEntry(row, now) : null;
}

export function timerStatus(
  db: Db,
  teamId: string,
  actingUser: string | null,
  now = Date.now(),
): { isRunning: boolean; currentEntry: TrackerEntry | null; elapsedTime: number } {
  const entry = currentTimer(db, teamId, actingUser, now);
  return { isRunning: entry !== null, currentEntry: entry, elapsedTime: entry ? entry.duration : 0 };
}
