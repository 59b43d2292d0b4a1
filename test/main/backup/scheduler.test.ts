/**
 * The server's scheduled backups (backup/scheduler.ts): one is made when due (on, and none within the interval),
 * none while one is recent or the schedule is off, "back up now" is refused while another runs, and retention keeps
 * the newest scheduled and hand-made archives while copies made before a restore stay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupBusy, BackupScheduler } from '../../../src-main/backup/scheduler';
import { backUp, listBackups } from '../../../src-main/backup/service';
import { backupRuns, setBackupSettings } from '../../../src-main/store/backups/settings';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { tmpDir } from '../../helpers/tmp';

const open: { db: Db; scheduler?: BackupScheduler }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.scheduler?.stop();
    o.db.close();
  }
});

describe('scheduled backups', () => {
  it('makes one when due, then none until the interval has passed, and none when off', async () => {
    const dir = tmpDir();
    const db = openDatabase(dir);
    let now = new Date('2026-06-16T09:30:00Z');
    const scheduler = new BackupScheduler(db, dir, { checkIntervalMs: 3_600_000, now: () => now });
    open.push({ db, scheduler });
    scheduler.start();
    const first = await scheduler.tick();
    expect(first?.path).toMatch(new RegExp(`^${dir}/backups/finops-2026-06-16T09-30-00-000Z-scheduled-`));
    now = new Date('2026-06-17T09:00:00Z');
    expect(await scheduler.tick()).toBeUndefined();
    now = new Date('2026-06-17T09:31:00Z');
    expect(await scheduler.tick()).toBeDefined();
    setBackupSettings(db, { enabled: false });
    now = new Date('2026-06-20T09:00:00Z');
    expect(await scheduler.tick()).toBeUndefined();
    expect(backupRuns(db).map((r) => [r.trigger, r.state])).toEqual([
      ['scheduled', 'done'],
      ['scheduled', 'done'],
    ]);
  });

  it('refuses a second backup while one runs, and keeps only the newest by the retention setting', async () => {
    const dir = tmpDir();
    const db = openDatabase(dir);
    const scheduler = new BackupScheduler(db, dir, { checkIntervalMs: 3_600_000 });
    open.push({ db, scheduler });
    setBackupSettings(db, { keep: 2 });
    const running = scheduler.backUpNow();
    await expect(scheduler.backUpNow()).rejects.toBeInstanceOf(BackupBusy);
    await running;
    await backUp(db, dir, { trigger: 'restore', mode: 'online', now: new Date('2026-06-16T08:00:00Z') });
    for (let i = 1; i <= 3; i++) {
      await backUp(db, dir, { trigger: 'manual', mode: 'online', now: new Date(`2026-06-16T1${i}:00:00Z`) });
    }
    const kept = listBackups(path.join(dir, 'backups'));
    expect(kept.map((b) => [b.trigger, b.createdAt])).toEqual([
      ['manual', '2026-06-16T13:00:00.000Z'],
      ['manual', '2026-06-16T12:00:00.000Z'],
      ['restore', '2026-06-16T08:00:00.000Z'],
    ]);
    expect(fs.readdirSync(path.join(dir, 'backups')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
