import type { Migration } from './index';

/**
 * A transaction's attachments become records of their own in the change feed, so that their metadata syncs
 * (docs/decisions/0151-document-sync.md): `updated_at` and `seq` as every entity has, and one change row for each
 * attachment made before, numbered after the team's latest change, so a team's first round with a remote sends them.
 */
export const attachmentSync: Migration = {
  version: 21,
  name: 'attachment-sync',
  sql: `
ALTER TABLE transaction_attachments ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
ALTER TABLE transaction_attachments ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE transaction_attachments SET updated_at = created_at;
INSERT INTO changes (team_id, seq, entity, entity_id, op, changed_at, origin)
  SELECT a.team_id, t.change_seq + row_number() OVER (PARTITION BY a.team_id ORDER BY a.created_at, a.id),
         'transaction_attachment', a.id, 'upsert', a.created_at, 'local'
  FROM transaction_attachments a JOIN teams t ON t.id = a.team_id;
UPDATE transaction_attachments SET seq = (
  SELECT c.seq FROM changes c
  WHERE c.team_id = transaction_attachments.team_id AND c.entity = 'transaction_attachment' AND c.entity_id = transaction_attachments.id);
UPDATE teams SET change_seq = (SELECT max(c.seq) FROM changes c WHERE c.team_id = teams.id)
  WHERE EXISTS (SELECT 1 FROM transaction_attachments a WHERE a.team_id = teams.id);
`,
};
