import type { Db } from '../db';
import type { LedgerWrite } from '../ledger/derived-data';
import type { Origin } from '../write';

/**
 * Field provenance (docs/decisions/0050-ledger-data-model.md): who last set each field of a transaction. A field a person set is locked
 * against rules and imports, which skip it and say so.
 */

/**
 * Who sets a field: recorded per field. Fields a person set ('user') or that came from a sync remote ('sync': a
 * person's edit on another replica, or what that replica's own rules decided) are locked against local rules and
 * imports.
 */
export type FieldSourceKind = 'user' | 'import' | 'rule' | 'workflow' | 'sync' | 'system';

export interface WriteSource {
  source: FieldSourceKind;
  /** The rule, import batch or user behind the write. */
  sourceId?: string | null;
  /** Skip fields whose last source was a person (imports and rules must); the skipped ones are returned. */
  respectLocks?: boolean;
}

const ORIGIN_OF: Record<FieldSourceKind, Origin> = {
  user: 'local',
  import: 'import',
  rule: 'rule',
  workflow: 'workflow',
  sync: 'sync',
  system: 'system',
};

/** The change feed's origin of a write from this source. */
export function originOf(source: WriteSource): Origin {
  return ORIGIN_OF[source.source];
}

export function recordSources(lw: LedgerWrite, transactionId: string, fields: readonly string[], s: WriteSource): void {
  if (fields.length === 0) return;
  const upsert = lw.db.prepare(
    `INSERT INTO transaction_field_sources (team_id, transaction_id, field, source, source_id, set_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (transaction_id, field) DO UPDATE SET source = excluded.source, source_id = excluded.source_id, set_at = excluded.set_at`,
  );
  for (const f of fields) upsert.run(lw.teamId, transactionId, f, s.source, s.sourceId ?? null, lw.w.now);
}

function lockedFields(db: Db, teamId: string, transactionId: string): Set<string> {
  return new Set(
    db
      .prepare(
        "SELECT field FROM transaction_field_sources WHERE team_id = ? AND transaction_id = ? AND source IN ('user', 'sync')",
      )
      .pluck()
      .all(teamId, transactionId) as string[],
  );
}

/** The provenance field a change's key sets, where the two names differ. */
const FIELD_OF: Readonly<Record<string, string>> = {
  categorySlug: 'category',
  tagIds: 'tags',
  addTagIds: 'tags',
  amountMinor: 'amount',
};

/** Drops from `change` (in place) the keys that would set a locked field; returns the skipped fields. */
export function dropLockedFields(db: Db, teamId: string, transactionId: string, change: object): string[] {
  const locked = lockedFields(db, teamId, transactionId);
  const keys = change as Record<string, unknown>;
  const skipped: string[] = [];
  for (const key of Object.keys(keys)) {
    const field = FIELD_OF[key] ?? key;
    if (keys[key] !== undefined && locked.has(field)) {
      delete keys[key];
      skipped.push(field);
    }
  }
  return skipped;
}
