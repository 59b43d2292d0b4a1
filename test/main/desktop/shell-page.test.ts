/** The shell's own page: what it says for each server state, its actions, and that it carries no script. */
import { describe, expect, it } from 'vitest';
import {
  loadFailureNeedsPage,
  SHELL_ACTION_ORIGIN,
  type ShellPageFacts,
  shellActionOf,
  shellPageHtml,
  shellPageUrl,
} from '../../../src-main/desktop/shell-page';

const facts = (over: Partial<ShellPageFacts>): ShellPageFacts => ({
  productName: 'Finops Desk',
  status: { state: 'starting', attempt: 1 },
  logFile: '/home/a/.config/Finops Desk/logs/finops-desk.log',
  dataDir: '/home/a/.config/Finops Desk/data',
  ...over,
});

const links = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

describe('shell page', () => {
  it('says the server is restarting, why, and offers a restart now and the log folder', () => {
    const html = shellPageHtml(
      facts({ status: { state: 'restarting', attempt: 2, inMs: 1800, reason: 'the server process exited (code 1)' } }),
    );
    expect(html).toContain('The local server stopped; it restarts in 2 s');
    expect(html).toContain('the server process exited (code 1)');
    expect(html).toContain('/home/a/.config/Finops Desk/logs/finops-desk.log');
    expect(links(html)).toEqual([`${SHELL_ACTION_ORIGIN}/restart-server`, `${SHELL_ACTION_ORIGIN}/open-log-folder`]);
  });

  it('after giving up: the reason and a restart', () => {
    const html = shellPageHtml(facts({ status: { state: 'failed', reason: 'database is newer than this version' } }));
    expect(html).toContain('could not be kept running');
    expect(html).toContain('database is newer than this version');
    expect(links(html)[0]).toBe(`${SHELL_ACTION_ORIGIN}/restart-server`);
  });

  it('while starting: no restart button, only the log', () => {
    expect(links(shellPageHtml(facts({})))).toEqual([`${SHELL_ACTION_ORIGIN}/open-log-folder`]);
    expect(shellPageHtml(facts({ status: { state: 'starting', attempt: 3 } }))).toContain('(attempt 3)');
  });

  it('while the database is updated: which step of how many, where the backup went, no restart button', () => {
    const html = shellPageHtml(
      facts({
        progress: { type: 'progress', phase: 'migration', message: 'migrating: step 2 of 5', step: 2, steps: 5 },
        backupPath: '/data/backups/before-migration-v24-to-v29.sqlite',
      }),
    );
    expect(html).toContain('Updating the database (2 of 5)…');
    expect(html).toContain('backed up first, to /data/backups/before-migration-v24-to-v29.sqlite');
    expect(links(html)).toEqual([`${SHELL_ACTION_ORIGIN}/open-log-folder`]);
    const checking = facts({ progress: { type: 'progress', phase: 'opening', message: 'opening the database' } });
    expect(shellPageHtml(checking)).toContain('Checking the database…');
    const done = facts({ progress: { type: 'progress', phase: 'migrated', message: 'migrated' } });
    expect(shellPageHtml(done)).toContain('Starting the local server…');
  });

  it('when the page failed while the server is up: reload first', () => {
    const html = shellPageHtml(facts({ status: { state: 'ready', url: 'http://127.0.0.1:1' }, pageProblem: 'crashed' }));
    expect(html).toContain('The window could not show the app');
    expect(links(html)[0]).toBe(`${SHELL_ACTION_ORIGIN}/reload`);
  });

  it('escapes what it shows and allows no script', () => {
    const html = shellPageHtml(facts({ status: { state: 'failed', reason: '<script>alert(1)</script>' } }));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    const url = shellPageUrl(facts({}));
    expect(url.startsWith('data:text/html;charset=utf-8;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1]!, 'base64').toString('utf8')).toBe(shellPageHtml(facts({})));
  });

  it('recognises its own action links and nothing else', () => {
    expect(shellActionOf(`${SHELL_ACTION_ORIGIN}/restart-server`)).toBe('restart-server');
    expect(shellActionOf(`${SHELL_ACTION_ORIGIN}/reload`)).toBe('reload');
    expect(shellActionOf(`${SHELL_ACTION_ORIGIN}/rm-rf`)).toBeNull();
    expect(shellActionOf('http://finops-shell.invalid.evil.example/restart-server')).toBeNull();
    expect(shellActionOf('https://finops-shell.invalid/restart-server')).toBeNull();
    expect(shellActionOf('not a url')).toBeNull();
  });

  it('replaces the content on a failed main-frame load, not on an aborted one or a sub-frame', () => {
    expect(loadFailureNeedsPage(-102, true, 'http://127.0.0.1:21001/')).toBe(true); // connection refused
    expect(loadFailureNeedsPage(-3, true, 'http://127.0.0.1:21001/')).toBe(false);
    expect(loadFailureNeedsPage(-102, false, 'http://127.0.0.1:21001/frame')).toBe(false);
    expect(loadFailureNeedsPage(-2, true, 'data:text/html;base64,xx')).toBe(false);
  });
});
