import type { Migration } from './index';

/**
 * Sync (issue 34):
 * - `sync_remotes.kind_source`: whether the remote's kind was chosen (`--kind`, the Sync screen's choice) or found by
 *   a round's probe of its change feed (docs/decisions/0180-remote-kind-probe.md). A found kind is checked again when
 *   the remote answers otherwise; a chosen one is kept. Remotes stored before: `finops` was the default whether
 *   anyone chose it or not (found), `hosted` was always someone's choice (chosen).
 * - `sync_records.held_json`: per record, the groups this side keeps although the remote will not store them (a
 *   hosted remote refusing a category it lacks), with the value the remote holds instead
 *   (docs/decisions/0183-values-a-remote-cannot-take.md). The base holds this side's value for them.
 */
export const syncKindsAndHeldValues: Migration = {
  version: 25,
  name: 'sync-kinds-and-held-values',
  sql: `
ALTER TABLE sync_remotes ADD COLUMN kind_source TEXT NOT NULL DEFAULT 'found' CHECK (kind_source IN ('chosen', 'found'));
UPDATE sync_remotes SET kind_source = 'chosen' WHERE kind = 'hosted';
ALTER TABLE sync_records ADD COLUMN held_json TEXT;
`,
};
