/**
 * A fingerprint of one team's data that ignores what legitimately differs between two runs with the same seed:
 * the team's own id and the records' ids (fresh UUID v7 each run, so two teams — or two devices — never share an id).
 *
 * Every id of the team's records is replaced by its rank among them (ids are time-ordered and handed out in the
 * generators' deterministic order, so the ranks match across runs), wherever it appears: primary keys, references,
 * ids inside JSON metadata. Rows are serialised, sorted and hashed with SHA-256. Sequence numbers are kept, so two
 * teams compare equal only if both started from the same change_seq (e.g. both fresh).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Team-owned tables (those with a team_id column), in a stable order. */
export function teamTables(db: Db): string[] {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  return tables.filter((t) =>
    (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(t) as string[]).includes('team_id'),
  );
}

export function teamContentHash(db: Db, teamId: string, tables: readonly string[] = teamTables(db)): string {
  const rowsByTable = new Map<string, Record<string, unknown>[]>();
  const ids: string[] = [];
  for (const t of tables) {
    const rows = db.prepare(`SELECT * FROM ${t} WHERE team_id = ?`).all(teamId) as Record<string, unknown>[];
    rowsByTable.set(t, rows);
    for (const r of rows) if (typeof r.id === 'string') ids.push(r.id);
  }
  ids.sort();
  const rank = new Map(ids.map((id, i) => [id, `#${i}`]));
  const hash = createHash('sha256');
  for (const t of tables) {
    const lines = rowsByTable
      .get(t)!
      .map((r) =>
        JSON.stringify(
          Object.entries(r).map(([k, v]) =>
            k === 'team_id' ? [k, 'TEAM'] : [k, typeof v === 'string' ? v.replace(UUID, (u) => rank.get(u) ?? u) : v],
          ),
        ),
      );
    lines.sort();
    hash.update(`${t}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}
