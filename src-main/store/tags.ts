import { recordChange } from './changes';
import type { Db } from './db';
import { Conflict, InvalidReference, NotFound } from './errors';
import { newId, nowIso } from './ids';

/**
 * Tags of a team. Names are unique per team, case-insensitively (index tags_team_name). Customers, transactions
 * and tracker projects refer to tags through their link tables (ON DELETE CASCADE), so deleting a tag removes it
 * everywhere. Customers embed their tags' names, so renaming or deleting a tag also records a change for every
 * customer that carried it (the change feed then re-sends those customers).
 */
export interface Tag {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

const SELECT = 'SELECT id, name, created_at AS createdAt, updated_at AS updatedAt FROM tags';

export function listTags(db: Db, teamId: string): Tag[] {
  return db.prepare(`${SELECT} WHERE team_id = ? ORDER BY name COLLATE NOCASE, id`).all(teamId) as Tag[];
}

export function getTag(db: Db, teamId: string, id: string): Tag {
  const tag = db.prepare(`${SELECT} WHERE team_id = ? AND id = ?`).get(teamId, id) as Tag | undefined;
  if (!tag) throw new NotFound('tag', id);
  return tag;
}

function assertNameFree(db: Db, teamId: string, name: string, exceptId?: string): void {
  const other = db.prepare('SELECT id FROM tags WHERE team_id = ? AND name = ? COLLATE NOCASE').get(teamId, name) as
    | { id: string }
    | undefined;
  if (other && other.id !== exceptId) {
    throw new Conflict(`A tag named "${name}" already exists`, 'field: name (tag names are unique per team, ignoring case)');
  }
}

export function createTag(db: Db, teamId: string, input: { name: string }): Tag {
  return db
    .transaction(() => {
      assertNameFree(db, teamId, input.name);
      const id = newId();
      const now = nowIso();
      const seq = recordChange(db, teamId, 'tag', id, 'upsert');
      db.prepare('INSERT INTO tags (id, team_id, name, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?)').run(
        id,
        teamId,
        input.name,
        now,
        now,
        seq,
      );
      return getTag(db, teamId, id);
    })
    .immediate();
}

/** Records an upsert for every customer carrying the tag: their embedded tag list changed. */
function touchCustomersOfTag(db: Db, teamId: string, tagId: string, now: string): void {
  const ids = db
    .prepare('SELECT customer_id FROM customer_tags WHERE team_id = ? AND tag_id = ?')
    .pluck()
    .all(teamId, tagId) as string[];
  const update = db.prepare('UPDATE customers SET seq = ?, updated_at = ? WHERE team_id = ? AND id = ?');
  for (const customerId of ids) {
    update.run(recordChange(db, teamId, 'customer', customerId, 'upsert'), now, teamId, customerId);
  }
}

export function updateTag(db: Db, teamId: string, id: string, patch: { name?: string }): Tag {
  return db
    .transaction(() => {
      const current = getTag(db, teamId, id);
      if (patch.name === undefined || patch.name === current.name) return current;
      assertNameFree(db, teamId, patch.name, id);
      const now = nowIso();
      const seq = recordChange(db, teamId, 'tag', id, 'upsert');
      db.prepare('UPDATE tags SET name = ?, updated_at = ?, seq = ? WHERE team_id = ? AND id = ?').run(
        patch.name,
        now,
        seq,
        teamId,
        id,
      );
      touchCustomersOfTag(db, teamId, id, now);
      return getTag(db, teamId, id);
    })
    .immediate();
}

export function deleteTag(db: Db, teamId: string, id: string): Tag {
  return db
    .transaction(() => {
      const current = getTag(db, teamId, id);
      touchCustomersOfTag(db, teamId, id, nowIso());
      recordChange(db, teamId, 'tag', id, 'delete');
      db.prepare('DELETE FROM tags WHERE team_id = ? AND id = ?').run(teamId, id);
      return current;
    })
    .immediate();
}

/**
 * Resolves tag references of a write to the team's tags, deduplicated, in the order given. An id that is not one
 * of the team's tags (another team's, or none at all) is an InvalidReference naming `field`.
 */
export function resolveTagRefs(db: Db, teamId: string, ids: readonly string[], field = 'tags'): { id: string; name: string }[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = db
    .prepare(`SELECT id, name FROM tags WHERE team_id = ? AND id IN (SELECT value FROM json_each(?))`)
    .all(teamId, JSON.stringify(unique)) as { id: string; name: string }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = unique.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw new InvalidReference(field, `Unknown tag id${missing.length > 1 ? 's' : ''} in ${field}: ${missing.join(', ')}`);
  }
  return unique.map((id) => byId.get(id)!);
}
