import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/db';
import { acquireLease, holderIsGone, leaseHolder } from '../../../src-main/store/leases';
import { tmpDir } from '../../helpers/tmp';

/** A pid of this machine that ran and has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await new Promise((r) => child.once('exit', r));
  return pid;
}

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
