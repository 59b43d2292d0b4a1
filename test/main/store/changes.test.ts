import { describe, expect, it } from 'vitest';
import { changesSince, currentSeq } from '../../../src-main/store/changes';
import { openDatabase } from '../../../src-main/store/db';
import { createTeam } from '../../../src-main/store/teams/teams';
import { write } from '../../../src-main/store/write';
import { tmpDir } from '../../helpers/tmp';

describe('change feed', () => {
  it('is per team, monotonic, and keeps one row per record with tombstones', () => {
    const db = openDatabase(tmpDir());
    const a = createTeam(db, { name: 'A' }).id;
    const b = createTeam(db, { name: 'B' }).id;
    const c1 = write(db, a, (w) => w.insert('tag', { name: 'c1' }));
    const c2 = write(db, a, (w) => w.insert('tag', { name: 'c2' }));
    const x = write(db, b, (w) => w.insert('tag', { name: 'x' }));
    write(db, a, (w) => w.remove('tag', c1));
    expect(changesSince(db, a, 0).map((c) => [c.entityId, c.op, c.seq])).toEqual([
      [c2, 'upsert', 2],
      [c1, 'delete', 3],
    ]);
    expect(changesSince(db, a, 2).map((c) => c.entityId)).toEqual([c1]);
    expect(changesSince(db, b, 0).map((c) => [c.entityId, c.seq])).toEqual([[x, 1]]);
    expect(currentSeq(db, a)).toBe(3);
    db.close();
  });

  it('pages by limit in sequence order', () => {
    const db = openDatabase(tmpDir());
    const a = createTeam(db, { name: 'A' }).id;
    write(db, a, (w) => {
      for (let i = 0; i < 5; i++) w.insert('tag', { name: `t${i}` });
    });
    expect(changesSince(db, a, 0, 2).map((c) => c.seq)).toEqual([1, 2]);
    expect(changesSince(db, a, 2, 10).map((c) => c.seq)).toEqual([3, 4, 5]);
    db.close();
  });
});
