import { afterEach, describe, expect, it } from 'vitest';
import { Prng } from '../../../src-main/demo/prng';
import { changesSince, currentSeq } from '../../../src-main/store/changes';
import { updateCustomer, upsertCustomer } from '../../../src-main/store/customers/write';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { ENTITIES, type EntityDef, type EntityName, isEntityName, NOT_ENTITIES } from '../../../src-main/store/entities';
import { NotFound } from '../../../src-main/store/errors';
import { FEED_READERS } from '../../../src-main/store/feed';
import { createTag, deleteTag, updateTag } from '../../../src-main/store/tags/tags';
import { teamTables } from '../../../src-main/store/teams/content';
import { createTeam } from '../../../src-main/store/teams/teams';
import { write } from '../../../src-main/store/write';
import { SYNC_SPECS } from '../../../src-shared/domain/sync/fields';
import { tmpDir } from '../../helpers/tmp';

let db: Db;
afterEach(() => db?.close());

function fresh() {
  db = openDatabase(tmpDir());
  const a = createTeam(db, { name: 'A' }).id;
  const b = createTeam(db, { name: 'B' }).id;
  return { a, b };
}

/** The feed's invariants for a team: one row per record, the row's seq is its change's seq, the counter is the max. */
function expectFeedConsistent(teamId: string): void {
  const changes = changesSince(db, teamId, 0, 1_000_000);
  const seqs = changes.map((c) => c.seq);
  expect(new Set(seqs).size).toBe(seqs.length);
  expect(new Set(changes.map((c) => `${c.entity} ${c.entityId}`)).size).toBe(changes.length);
  if (changes.length) expect(currentSeq(db, teamId)).toBe(Math.max(...seqs));
  for (const c of changes) {
    const table = ENTITIES[c.entity as EntityName].table;
    const row = db.prepare(`SELECT seq FROM ${table} WHERE team_id = ? AND id = ?`).get(teamId, c.entityId) as
      | { seq: number }
      | undefined;
    if (c.op === 'delete') expect(row, `${c.entity} ${c.entityId} deleted`).toBeUndefined();
    else expect(row?.seq, `${c.entity} ${c.entityId} seq`).toBe(c.seq);
  }
}

describe('entity registry', () => {
  it('marks as synced exactly the entities the sync engine has a projection for', () => {
    const synced = Object.entries(ENTITIES)
      .filter(([, e]) => e.synced)
      .map(([name]) => name)
      .sort();
    expect(synced).toEqual(Object.keys(SYNC_SPECS).sort());
  });

  it('names every table with a team_id as an entity or as explicitly not one', () => {
    fresh();
    const registered = new Set<string>([...Object.values(ENTITIES).map((e: EntityDef) => e.table), ...Object.keys(NOT_ENTITIES)]);
    const tables = teamTables(db);
    expect(tables.length).toBeGreaterThan(10);
    for (const t of tables) expect(registered.has(t), `${t} is neither an entity nor in NOT_ENTITIES`).toBe(true);
  });

  it('gives every entity a table with the columns the write path writes, and no table two entities', () => {
    fresh();
    const tables = Object.values(ENTITIES).map((e: EntityDef) => e.table);
    expect(new Set(tables).size).toBe(tables.length);
    for (const [name, def] of Object.entries(ENTITIES) as [string, EntityDef][]) {
      const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(def.table) as string[];
      for (const c of ['id', 'team_id', 'created_at', 'updated_at', 'seq']) expect(columns, `${name}.${c}`).toContain(c);
      expect(Object.hasOwn(NOT_ENTITIES, def.table), `${def.table} both an entity and not`).toBe(false);
      for (const e of (def as EntityDef).embeddedIn ?? []) {
        expect(isEntityName(e.entity), `${name} embedded in ${e.entity}`).toBe(true);
        const link = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(e.link) as string[];
        for (const c of ['team_id', e.column, e.target]) expect(link, `${e.link}.${c}`).toContain(c);
      }
    }
  });

  it('has a feed reader slot for every entity, and the built readers read what was written', () => {
    const { a } = fresh();
    expect(Object.keys(FEED_READERS).sort()).toEqual(Object.keys(ENTITIES).sort());
    const tag = createTag(db, a, { name: 'vip' });
    const customer = upsertCustomer(db, a, { name: 'Reader Co', tags: [{ id: tag.id }] }).customer;
    expect(FEED_READERS.customer?.(db, a, customer.id)).toMatchObject({ id: customer.id, name: 'Reader Co' });
    expect(FEED_READERS.tag?.(db, a, tag.id)).toMatchObject({ id: tag.id, name: 'vip' });
  });
});

describe('the write path', () => {
  it('records exactly one change per touched record, whatever the write does to it', () => {
    const { a } = fresh();
    const before = currentSeq(db, a);
    const id = write(db, a, (w) => {
      const id = w.insert('tag', { name: 'first' });
      w.update('tag', id, { name: 'second' });
      w.touch('tag', id);
      w.update('tag', id, { name: 'third' });
      return id;
    });
    const changes = changesSince(db, a, before);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ entity: 'tag', entityId: id, op: 'upsert', origin: 'local' });
    expect(currentSeq(db, a)).toBe(before + 1);
    expectFeedConsistent(a);
  });

  it('reads the clock once: every row of a write carries the same updated_at and changed_at', () => {
    const { a } = fresh();
    const ids = write(db, a, (w) => Array.from({ length: 50 }, (_, i) => w.insert('tag', { name: `t${i}` })));
    const stamps = db.prepare('SELECT DISTINCT updated_at FROM tags WHERE team_id = ?').pluck().all(a);
    expect(ids).toHaveLength(50);
    expect(stamps).toHaveLength(1);
    expect(new Set(changesSince(db, a, 0).map((c) => c.changedAt))).toEqual(new Set(stamps));
  });

  it('writes nothing and records nothing for an update that changes nothing', () => {
    const { a } = fresh();
    const id = write(db, a, (w) => w.insert('tag', { name: 'same' }));
    const seq = currentSeq(db, a);
    expect(write(db, a, (w) => w.update('tag', id, { name: 'same' }))).toBe(false);
    expect(currentSeq(db, a)).toBe(seq);
  });

  it('refuses another team’s record as not found, and leaves it untouched', () => {
    const { a, b } = fresh();
    const id = write(db, a, (w) => w.insert('tag', { name: 'mine' }));
    expect(() => write(db, b, (w) => w.update('tag', id, { name: 'stolen' }))).toThrow(NotFound);
    expect(() => write(db, b, (w) => w.remove('tag', id))).toThrow(NotFound);
    expect(db.prepare('SELECT name FROM tags WHERE id = ?').pluck().get(id)).toBe('mine');
    expect(changesSince(db, b, 0)).toEqual([]);
  });

  it('rolls back with its transaction: no row, no change, no consumed sequence number', () => {
    const { a } = fresh();
    expect(() =>
      write(db, a, (w) => {
        w.insert('tag', { name: 'gone' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(currentSeq(db, a)).toBe(0);
    expect(changesSince(db, a, 0)).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM tags').pluck().get()).toBe(0);
  });

  it('joins an outer write: one transaction, the outer origin unless the inner names its own', () => {
    const { a } = fresh();
    write(
      db,
      a,
      () => {
        createTag(db, a, { name: 'pulled' });
        write(db, a, (w) => w.insert('tag', { name: 'by rule' }), { origin: 'rule' });
        expect(() => write(db, createTeam(db, { name: 'C' }).id, () => 0)).toThrow(/in progress/);
      },
      { origin: 'sync' },
    );
    const origins = Object.fromEntries(
      changesSince(db, a, 0).map((c) => [db.prepare('SELECT name FROM tags WHERE id = ?').pluck().get(c.entityId), c.origin]),
    );
    expect(origins).toEqual({ pulled: 'sync', 'by rule': 'rule' });
    expectFeedConsistent(a);
  });

  it('a delete leaves a tombstone and touches the records that embed the deleted one', () => {
    const { a } = fresh();
    const tag = createTag(db, a, { name: 'vip' });
    const tagged = upsertCustomer(db, a, { name: 'Tagged', tags: [{ id: tag.id }] }).customer;
    const plain = upsertCustomer(db, a, { name: 'Plain' }).customer;
    const seq = currentSeq(db, a);
    deleteTag(db, a, tag.id);
    const after = changesSince(db, a, seq);
    expect(after.map((c) => [c.entity, c.entityId, c.op]).sort()).toEqual(
      [
        ['customer', tagged.id, 'upsert'],
        ['tag', tag.id, 'delete'],
      ].sort(),
    );
    expect(after.some((c) => c.entityId === plain.id)).toBe(false);
    expectFeedConsistent(a);
  });

  it('a rename touches every embedding record once, through each link table', () => {
    const { a } = fresh();
    const tag = createTag(db, a, { name: 'travel' });
    const c1 = upsertCustomer(db, a, { name: 'One', tags: [{ id: tag.id }] }).customer;
    const c2 = upsertCustomer(db, a, { name: 'Two', tags: [{ id: tag.id }] }).customer;
    const seq = currentSeq(db, a);
    updateTag(db, a, tag.id, { name: 'trips' });
    expect(
      changesSince(db, a, seq)
        .map((c) => c.entityId)
        .sort(),
    ).toEqual([c1.id, c2.id, tag.id].sort());
    expect(currentSeq(db, a)).toBe(seq + 3);
  });

  it('removeAll tombstones every record of the entity in the team, and only that team', () => {
    const { a, b } = fresh();
    write(db, a, (w) => {
      for (const name of ['x', 'y', 'z']) w.insert('tag', { name });
    });
    write(db, b, (w) => w.insert('tag', { name: 'other' }));
    expect(write(db, a, (w) => w.removeAll('tag'), { origin: 'system' })).toBe(3);
    expect(changesSince(db, a, 0).map((c) => [c.op, c.origin])).toEqual([
      ['delete', 'system'],
      ['delete', 'system'],
      ['delete', 'system'],
    ]);
    expect(db.prepare('SELECT count(*) FROM tags WHERE team_id = ?').pluck().get(b)).toBe(1);
    expectFeedConsistent(a);
    expectFeedConsistent(b);
  });

  it('keeps the feed consistent over random sequences of store writes', () => {
    const { a } = fresh();
    const rng = new Prng('write-path');
    const tags: string[] = [];
    const customers: string[] = [];
    for (let step = 0; step < 300; step++) {
      const r = rng.next();
      if (r < 0.2 || tags.length === 0) tags.push(createTag(db, a, { name: `tag ${step}` }).id);
      else if (r < 0.45 || customers.length === 0) {
        const pick = tags.filter(() => rng.next() < 0.3).map((id) => ({ id }));
        customers.push(upsertCustomer(db, a, { name: `Customer ${step}`, tags: pick }).customer.id);
      } else if (r < 0.7) {
        const id = customers[Math.floor(rng.next() * customers.length)]!;
        updateCustomer(db, a, id, {
          note: rng.next() < 0.5 ? `note ${step}` : null,
          tags: tags.slice(0, 2).map((t) => ({ id: t })),
        });
      } else if (r < 0.85) {
        updateTag(db, a, tags[Math.floor(rng.next() * tags.length)]!, { name: `renamed ${step}` });
      } else {
        const i = Math.floor(rng.next() * tags.length);
        deleteTag(db, a, tags[i]!);
        tags.splice(i, 1);
      }
    }
    expectFeedConsistent(a);
  });
});
