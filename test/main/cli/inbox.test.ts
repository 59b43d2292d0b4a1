/**
 * `finops inbox watch|imap|callback|show` through the real launcher: settings land in the data dir, the IMAP password
 * (read from standard input) in the 0600 secret file and never in the output or the database; bad values are usage
 * errors (exit 2).
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DB_FILE_NAME, openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { FINOPS_BIN, runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

function team(): string {
  const dataDir = tmpDir('finops-cli-');
  openDatabase(dataDir).close();
  const db = openDatabase(dataDir);
  ensureTeam(db, 'Acme');
  db.close();
  return dataDir;
}

describe('finops inbox', { timeout: 120_000 }, () => {
  it('sets the folder, the mailbox (password from stdin, kept out of sight) and the callback, and shows them', () => {
    const dataDir = team();
    const at = ['--data-dir', dataDir, '--team', 'Acme'];
    const folder = tmpDir('finops-watched-');
    const watch = runCli(['inbox', 'watch', ...at, '--path', folder]);
    expect(watch.status, watch.stderr).toBe(0);
    expect(watch.stdout).toBe(`watching ${folder}\n`);

    const password = 'correct horse battery staple';
    const imap = spawnSync(
      FINOPS_BIN,
      [
        'inbox',
        'imap',
        'set',
        ...at,
        '--host',
        'imap.example.com',
        '--port',
        '993',
        '--user',
        'receipts@acme.example',
        '--password-stdin',
      ],
      { input: `${password}\n`, encoding: 'utf8' },
    );
    expect(imap.status, imap.stderr).toBe(0);
    expect(imap.stdout).toBe('fetching INBOX of receipts@acme.example at tls imap.example.com:993\n');

    const callback = runCli(['inbox', 'callback', 'new', ...at]);
    expect(callback.status, callback.stderr).toBe(0);
    const { path: hookPath, secret } = JSON.parse(callback.stdout);
    expect(hookPath).toMatch(/^\/webhook\/inbox\/[0-9a-f]{32}$/);
    expect(secret).toMatch(/^whsec_/);

    const show = runCli(['inbox', 'show', ...at]);
    expect(show.status, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({
      folder: { path: folder, lastError: null },
      imap: {
        host: 'imap.example.com',
        port: 993,
        security: 'tls',
        user: 'receipts@acme.example',
        mailbox: 'INBOX',
        passwordSet: true,
      },
      webhook: { path: hookPath, secretSet: true },
    });
    for (const out of [watch, imap, callback, show]) expect(out.stdout).not.toContain(password);
    expect(show.stdout).not.toContain(secret);

    const secrets = path.join(dataDir, 'secrets', 'inbox.json');
    expect(fs.statSync(secrets).mode & 0o777).toBe(0o600);
    for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith(DB_FILE_NAME))) {
      const bytes = fs.readFileSync(path.join(dataDir, file));
      expect(bytes.includes(password) || bytes.includes(secret)).toBe(false);
    }

    expect(runCli(['inbox', 'imap', 'clear', ...at]).stdout).toBe('mailbox no longer fetched\n');
    expect(runCli(['inbox', 'watch', ...at, '--off']).stdout).toBe('folder no longer watched\n');
    expect(runCli(['inbox', 'callback', 'off', ...at]).stdout).toBe('callback turned off\n');
    expect(JSON.parse(runCli(['inbox', 'show', ...at]).stdout)).toMatchObject({ folder: null, imap: null, webhook: null });
    expect(fs.readFileSync(secrets, 'utf8')).not.toContain(password);
  });

  it('answers bad values with a usage error', () => {
    const dataDir = team();
    const at = ['--data-dir', dataDir, '--team', 'Acme'];
    const relative = runCli(['inbox', 'watch', ...at, '--path', 'receipts']);
    expect(relative.status).toBe(2);
    expect(relative.stderr).toBe('error: path: give an absolute path (got receipts)\n');
    expect(runCli(['inbox', 'watch', ...at]).status).toBe(2);
    const port = runCli(['inbox', 'imap', 'set', ...at, '--host', 'h', '--port', '99999', '--user', 'u']);
    expect(port.status).toBe(2);
    const unknown = runCli(['inbox', 'show', '--data-dir', dataDir, '--team', 'Nobody']);
    expect(unknown.status).toBe(1);
  });
});
