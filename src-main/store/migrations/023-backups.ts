import type { Migration } from './index';

/**
 * Backups of the data dir (docs/decisions/0185-backups.md):
 * - `backup_settings`: one row for the whole data dir (a backup holds every team): whether the server makes backups
 *   on its own, how often, how many it keeps, and the folder (set by the machine's operator with the CLI; empty =
 *   `<data dir>/backups`).
 * - `backup_runs`: each backup made (scheduled, by hand, before a migration or a restore) with where it went, or why
 *   it failed; the Settings screen shows the last one. Bookkeeping of the installation, not a team's record.
 */
export const backups: Migration = {
  version: 23,
  name: 'backups',
  sql: `
CREATE TABLE backup_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  enabled INTEGER NOT NULL DEFAULT 1,
  interval_hours INTEGER NOT NULL DEFAULT 24 CHECK (interval_hours BETWEEN 1 AND 8760),
  keep INTEGER NOT NULL DEFAULT 7 CHECK (keep BETWEEN 1 AND 1000),
  folder TEXT,
  include_secrets INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
INSERT INTO backup_settings (id, updated_at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

CREATE TABLE backup_runs (
  id TEXT PRIMARY KEY,
  trigger TEXT NOT NULL CHECK (trigger IN ('scheduled', 'manual', 'migration', 'restore', 'cli')),
  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed')),
  started_at TEXT NOT NULL,
  finished_at TEXT,
  path TEXT,
  size INTEGER,
  error TEXT
);
CREATE INDEX backup_runs_started ON backup_runs (started_at);
`,
};
