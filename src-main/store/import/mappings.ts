import { type CsvMapping, CsvMapping as CsvMappingSchema } from '../../../src-shared/contract/import-mapping';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { write } from '../write';

/**
 * Named CSV mappings per account (docs/decisions/0061): saved from a preview or a commit, reused on the account's
 * next file — by name when one is asked for, else the one used last.
 */
export interface SavedMapping {
  id: string;
  bankAccountId: string;
  name: string;
  format: 'csv';
  mapping: CsvMapping;
  lastUsedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  bank_account_id: string;
  name: string;
  config: string;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

const toMapping = (r: Row): SavedMapping => ({
  id: r.id,
  bankAccountId: r.bank_account_id,
  name: r.name,
  format: 'csv',
  mapping: CsvMappingSchema.parse(JSON.parse(r.config)),
  lastUsedAt: r.last_used_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function getImportMapping(db: Db, teamId: string, id: string): SavedMapping {
  const r = db.prepare('SELECT * FROM import_mappings WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
  if (!r) throw new NotFound('import mapping', id);
  return toMapping(r);
}

export function findImportMapping(db: Db, teamId: string, accountId: string, name?: string | null): SavedMapping | null {
  const r = (
    name
      ? db
          .prepare('SELECT * FROM import_mappings WHERE team_id = ? AND bank_account_id = ? AND name = ?')
          .get(teamId, accountId, name)
      : db
          .prepare(
            `SELECT * FROM import_mappings WHERE team_id = ? AND bank_account_id = ?
             ORDER BY coalesce(last_used_at, updated_at) DESC, id DESC LIMIT 1`,
          )
          .get(teamId, accountId)
  ) as Row | undefined;
  return r ? toMapping(r) : null;
}

export function listImportMappings(db: Db, teamId: string, accountId?: string): SavedMapping[] {
  return (
    db
      .prepare(
        `SELECT * FROM import_mappings WHERE team_id = @team AND (@account IS NULL OR bank_account_id = @account)
         ORDER BY bank_account_id, name`,
      )
      .all({ team: teamId, account: accountId ?? null }) as Row[]
  ).map(toMapping);
}

/** Saves (creates or replaces) a named mapping of an account; marks it used now. */
export function saveImportMapping(db: Db, teamId: string, accountId: string, name: string, mapping: CsvMapping): SavedMapping {
  return write(db, teamId, (w) => {
    const existing = db
      .prepare('SELECT id FROM import_mappings WHERE team_id = ? AND bank_account_id = ? AND name = ?')
      .pluck()
      .get(teamId, accountId, name) as string | undefined;
    const config = JSON.stringify(CsvMappingSchema.parse(mapping));
    const id =
      existing ?? w.insert('import_mapping', { bank_account_id: accountId, name, format: 'csv', config, last_used_at: w.now });
    if (existing) w.update('import_mapping', existing, { config, last_used_at: w.now });
    return getImportMapping(db, teamId, id);
  });
}

export function touchImportMapping(db: Db, teamId: string, id: string): void {
  write(db, teamId, (w) => {
    w.update('import_mapping', id, { last_used_at: w.now });
  });
}

export function deleteImportMapping(db: Db, teamId: string, id: string): void {
  write(db, teamId, (w) => {
    getImportMapping(db, teamId, id);
    w.remove('import_mapping', id);
  });
}
