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
