/**
 * `finops smtp set|show|clear` and `finops invoices run` through the real launcher: the password goes to a 0600
 * secret file and is never printed; queued emails waiting for sync are handed to SMTP; a run sends them.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store/db';
import { deliveryCounts } from '../../../src-main/store/invoices/deliveries';
import { FINOPS_BIN, runCli } from '../../helpers/cli';
import { startTestSmtp, type TestSmtp } from '../../helpers/smtp';
import { invoice, seedTeam } from '../invoices/fixtures';

let smtp: TestSmtp | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

describe('finops smtp', { timeout: 120_000 }, () => {
  it('stores the password in a 0600 secret file, never prints it, and hands waiting emails to SMTP', async () => {
    const { db, dataDir, teamId, customerId } = seedTeam('Mail Team');
    invoice(db, teamId, { customerId, issueDate: '2099-01-01', deliveryType: 'create_and_send' });
    expect(deliveryCounts(db, teamId)).toEqual({ awaiting_sync: 1 });
    db.close();

    smtp = await startTestSmtp();
    const set = spawnSync(
      FINOPS_BIN,
      [
        'smtp',
        'set',
        '--data-dir',
        dataDir,
        '--team',
        'Mail Team',
        '--host',
        '127.0.0.1',
        '--port',
        String(smtp.port),
        '--security',
        'none',
        '--user',
        'mailer',
        '--password-stdin',
        '--from',
        'billing@mail.example',
      ],
      { input: 's3cret-pass\n', encoding: 'utf8' },
    );
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toContain(`none 127.0.0.1:${smtp.port} from billing@mail.example`);
    const secrets = path.join(dataDir, 'secrets', 'smtp.json');
    expect(fs.statSync(secrets).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(secrets)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(secrets, 'utf8'))[teamId]).toBe('s3cret-pass');
    const check = openDatabase(dataDir);
    expect(deliveryCounts(check, teamId)).toEqual({ queued: 1 });
    // The database never holds the password.
    expect(JSON.stringify(check.prepare('SELECT * FROM smtp_settings').all())).not.toContain('s3cret');
    check.close();

    const show = runCli(['smtp', 'show', '--data-dir', dataDir, '--team', 'Mail Team']);
    expect(show.status).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ host: '127.0.0.1', username: 'mailer', password: 'set' });
    expect(show.stdout).not.toContain('s3cret');

    const cleared = runCli(['smtp', 'clear', '--data-dir', dataDir, '--team', 'Mail Team']);
    expect(cleared.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(secrets, 'utf8'))[teamId]).toBeUndefined();
    expect(runCli(['smtp', 'show', '--data-dir', dataDir, '--team', 'Mail Team']).stdout).toContain('not configured');
    const after = openDatabase(dataDir);
    expect(deliveryCounts(after, teamId)).toEqual({ awaiting_sync: 1 });
    after.close();
  });

  it('refuses unknown teams and bad values with the usual exit codes', () => {
    const dir = tmpDirOf();
    expect(runCli(['smtp', 'show', '--data-dir', dir, '--team', 'Nobody']).status).toBe(1);
    const bad = runCli(['smtp', 'set', '--data-dir', dir, '--team', 'x', '--host', 'h', '--port', '99999', '--from', 'a@b.c']);
    expect(bad.status).toBe(2);
    expect(
      runCli(['smtp', 'set', '--data-dir', dir, '--team', 'x', '--host', 'h', '--port', '25', '--from', 'nope']).status,
    ).toBe(2);
  });

  it('finops invoices run sends the queue and reports the scheduler', async () => {
    const { db, dataDir, teamId, customerId } = seedTeam('Run Team');
    smtp = await startTestSmtp();
    invoice(db, teamId, { customerId, issueDate: '2099-01-01', deliveryType: 'create_and_send' });
    db.close();
    expect(
      runCli([
        'smtp',
        'set',
        '--data-dir',
        dataDir,
        '--team',
        'Run Team',
        '--host',
        '127.0.0.1',
        '--port',
        String(smtp.port),
        '--security',
        'none',
        '--from',
        'b@run.example',
      ]).status,
    ).toBe(0);
    // Asynchronously: the SMTP server answering it lives in this process.
    const r = await runCliAsync(['invoices', 'run', '--data-dir', dataDir]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      scheduler: { overdue: 0, issued: 0, paymentsMatched: 0 },
      emails: { sent: 1, retried: 0, failed: 0, awaitingSync: 0 },
      queue: { sent: 1 },
    });
    expect(smtp.received).toHaveLength(1);
  });
});

function runCliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(FINOPS_BIN, args, { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

function tmpDirOf(): string {
  return seedTeam('Other').dataDir;
}
