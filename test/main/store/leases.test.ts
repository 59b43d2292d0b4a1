import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/db';
import { claimNextDelivery } from '../../../src-main/store/invoices/deliveries';
import { setSmtpSettings } from '../../../src-main/store/invoices/smtp';
import { acquireLease, holderIsGone, leaseHolder } from '../../../src-main/store/leases';
import { deadPid } from '../../helpers/processes';
import { tmpDir } from '../../helpers/tmp';
import { invoice, seedTeam } from '../invoices/fixtures';

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

  // docs/decisions/0189-crash-harness.md: a killed server's email waited out its 2-minute lease after the restart.
  it('an email a gone process was sending is claimed again at once; one a live process sends is not', async () => {
    const { db, teamId, customerId } = seedTeam();
    setSmtpSettings(db, teamId, {
      ...{ host: 'mail.example', port: 25, security: 'none', username: null },
      ...{ fromAddress: 'billing@studio.example', fromName: null },
    });
    const first = invoice(db, teamId, { customerId, issueDate: '2099-01-01', deliveryType: 'create_and_send' });
    invoice(db, teamId, { customerId, issueDate: '2099-01-01', deliveryType: 'create_and_send' });
    const lease = { leaseMs: 120_000 };
    const dead = claimNextDelivery(db, { owner: `${os.hostname()}:${await deadPid()}:abcd`, ...lease });
    expect(dead?.invoice_id).toBe(first.id);
    // The next claim takes the dead process's email back before the queued one, an attempt more.
    const live = claimNextDelivery(db, { owner: `${os.hostname()}:${process.ppid}:live`, ...lease });
    expect([live?.id, live?.attempts]).toEqual([dead?.id, 2]);
    const mine = claimNextDelivery(db, { owner: 'me', ...lease });
    expect(mine?.id).not.toBe(dead?.id);
    // Both are held by live processes now: nothing to claim until a lease lapses.
    expect(claimNextDelivery(db, { owner: 'me', ...lease })).toBeUndefined();
    db.close();
  });
});
