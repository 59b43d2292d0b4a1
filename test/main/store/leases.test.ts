import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/db';
import { acquireLease, holderIsGone, leaseHolder } from '../../../src-main/store/leases';
import { deadPid } from '../../helpers/processes';
import { tmpDir } from '../../helpers/tmp';

describe('leases', () => {
  it('a lease whose holder is a process of this machine that is gone is taken at once; a live holder keeps it', async () => {
    const db = openDatabase(tmpDir());
    const gone = `${os.hostname()}:${await deadPid()}:abcd`;
    expect(holderIsGone(gone)).toBe(true);
    expect(holderIsGone(`${os.hostname()}:${process.ppid}:abcd`)).toBe(false);
    expect(holderIsGone(`another-host:${await deadPid()}:abcd`)).toBe(false);
    expect(acquireLease(db, 'job', 60_000, { owner: gone })).toBe(true);
    expect(acquireLease(db, 'job', 60_000, { owner: 'me' })).toBe(true);
    expect(leaseHolder(db, 'job')?.owner).toBe('me');
    const alive = `${os.hostname()}:${process.ppid}:live`;
    expect(acquireLease(db, 'other', 60_000, { owner: alive })).toBe(true);
    expect(acquireLease(db, 'other', 60_000, { owner: 'me' })).toBe(false);
    db.close();
  });
});
