import { describe, expect, it } from 'vitest';
import { changeStamp, openDatabase, ownStatement } from '../../../src-main/store/db';
import { createTeam } from '../../../src-main/store/teams/teams';
import { tmpDir } from '../../helpers/tmp';

/** The next turn of the event loop, where changeStamp reads other connections' commits again. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('statement cache', () => {
  it('hands back one compiled statement per SQL text, with result modes reset', () => {
    const db = openDatabase(tmpDir());
    createTeam(db, { name: 'A' });
    const sql = 'SELECT name FROM teams';
    const plucked = db.prepare(sql).pluck().get();
    expect(plucked).toBe('A');
    expect(db.prepare(sql)).toBe(db.prepare(sql));
    expect(db.prepare(sql).get()).toEqual({ name: 'A' });
    expect(db.prepare(sql).raw().get()).toEqual(['A']);
    expect(db.prepare(sql).get()).toEqual({ name: 'A' });
    expect(db.prepare('SELECT t.name FROM teams t').expand(true).get()).toEqual({ teams: { name: 'A' } });
    expect(db.prepare('SELECT t.name FROM teams t').get()).toEqual({ name: 'A' });
    // A mode set and set back by its caller is still handed out at the defaults.
    expect(db.prepare(sql).pluck(true).pluck(false).get()).toEqual({ name: 'A' });
    expect(db.prepare(sql).get()).toEqual({ name: 'A' });
    db.close();
  });

  it('keeps a statement of one caller out of the cache, with the mode it was given', () => {
    const db = openDatabase(tmpDir());
    createTeam(db, { name: 'A' });
    const sql = 'SELECT name FROM teams';
    const own = ownStatement(db, sql).pluck();
    expect(own).not.toBe(db.prepare(sql));
    expect(db.prepare(sql).get()).toEqual({ name: 'A' });
    expect(own.get()).toBe('A');
    db.close();
  });
});

describe('change stamp', () => {
  it('moves with every commit of this connection at once, and stays while nothing is written', () => {
    const db = openDatabase(tmpDir());
    const before = changeStamp(db);
    expect(changeStamp(db)).toBe(before);
    db.prepare('SELECT count(*) FROM teams').get();
    expect(changeStamp(db)).toBe(before);
    createTeam(db, { name: 'A' });
    const after = changeStamp(db);
    expect(after).not.toBe(before);
    expect(changeStamp(db)).toBe(after);
    db.close();
  });

  it('moves with another connection’s commit from the next turn of the event loop', async () => {
    const dir = tmpDir();
    const server = openDatabase(dir);
    const cli = openDatabase(dir);
    await nextTurn();
    const before = changeStamp(server);
    createTeam(cli, { name: 'Written by the CLI' });
    // Within the turn the stamp is the one its requests arrived under...
    expect(changeStamp(server)).toBe(before);
    await nextTurn();
    // ...and the next turn sees the commit.
    const after = changeStamp(server);
    expect(after).not.toBe(before);
    await nextTurn();
    expect(changeStamp(server)).toBe(after);
    cli.close();
    server.close();
  });
});
