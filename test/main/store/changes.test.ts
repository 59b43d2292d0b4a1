import { describe, expect, it } from 'vitest';
import { changesSince, currentSeq, recordChange, reserveSeq } from '../../../src-main/store/changes';
import { openDatabase } from '../../../src-main/store/db';
import { createTeam } from '../../../src-main/store/teams';
import { tmpDir } from '../../helpers/tmp';

describe('change sequence', () => {
  it('is per team, monotonic, and keeps one row per record with tombstones', () => {
    const db = openDatabase(tmpDir());
    const a = createTeam(db, { name: 'A' });
    const b = createTeam(db, { name: 'B' });
    const s1 = db.transaction(() => recordChange(db, a.id, 'customer', 'c1', 'upsert'))();
    const s2 = db.transaction(() => recordChange(db, a.id, 'customer', 'c2', 'upsert'))();
    const sb = db.transaction(() => recordChange(db, b.id, 'customer', 'x', 'upsert'))();
    const s3 = db.transaction(() => recordChange(db, a.id, 'customer', 'c1', 'delete'))();
    expect([s1, s2, s3]).toEqual([1, 2, 3]);
    expect(sb).toBe(1);
    expect(changesSince(db, a.id, 0).map((c) => [c.entityId, c.op, c.seq])).toEqual([
      ['c2', 'upsert', 2],
      ['c1', 'delete', 3],
    ]);
    expect(changesSince(db, a.id, 2).map((c) => c.entityId)).toEqual(['c1']);
    expect(changesSince(db, b.id, 0).map((c) => c.entityId)).toEqual(['x']);
    db.close();
  });

  it('a rolled-back write leaves neither a change row nor a consumed sequence number', () => {
    const db = openDatabase(tmpDir());
    const a = createTeam(db, { name: 'A' });
    expect(() =>
      db.transaction(() => {
        recordChange(db, a.id, 'customer', 'c1', 'upsert');
        throw new Error('boom');
      })(),
    ).toThrow('boom');
    expect(currentSeq(db, a.id)).toBe(0);
    expect(changesSince(db, a.id, 0)).toEqual([]);
    expect(db.transaction(() => reserveSeq(db, a.id, 10))()).toBe(1);
    expect(currentSeq(db, a.id)).toBe(10);
    db.close();
  });
});
