import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { write } from '../write';

/**
 * Tags of a team. Names are unique per team, case-insensitively (index tags_team_name). Customers, transactions
 * and tracker projects refer to tags through their link tables (ON DELETE CASCADE), so deleting a tag removes it
 * everywhere. Those records embed their tags' names, so renaming or deleting a tag also records a change for every
 * record that carried it (the registry's `embeddedIn`, applied by the write path; the feed then re-sends them).
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

export function createTag(db: Db, teamId: string, input: { name: string; id?: string }): Tag {
  return write(db, teamId, (w) => {
    assertNameFree(db, teamId, input.name);
    return getTag(db, teamId, w.insert('tag', { id: input.id, name: input.name }));
  });
}

export function updateTag(db: Db, teamId: string, id: string, patch: { name?: string }): Tag {
  return write(db, teamId, (w) => {
    const current = getTag(db, teamId, id);
    if (patch.name === undefined || patch.name === current.name) return current;
    assertNameFree(db, teamId, patch.name, id);
    w.update('tag', id, { name: patch.name });
    return getTag(db, teamId, id);
  });
}

export function deleteTag(db: Db, teamId: string, id: string): Tag {
  return write(db, teamId, (w) => {
    const current = getTag(db, teamId, id);
    w.remove('tag', id);
    return current;
  });
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
