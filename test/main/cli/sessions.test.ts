/**
 * `finops sessions`: a user's web sessions listed (never the secret) and signed out from the command line, through
 * the real launcher on a real data dir; the server's session lookup then refuses them.
 */
import { describe, expect, it } from 'vitest';
import { createSession, findSession } from '../../../src-main/store/auth/sessions';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { createUser } from '../../../src-main/store/users/users';
import { runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

describe('finops sessions', () => {
  it('lists a user’s live sessions and signs them out everywhere', () => {
    const dataDir = tmpDir();
    const db = openDatabase(dataDir);
    const team = ensureTeam(db, 'CLI Co');
    const { user } = createUser(db, team.id, { email: 'ada@example.com', passwordHash: 'x' });
    const a = createSession(db, { teamId: team.id, userId: user.id, userAgent: 'Laptop', ip: '10.0.0.1' });
    const b = createSession(db, { teamId: team.id, userId: user.id, userAgent: 'Phone', ip: '10.0.0.2' });
    db.close();

    const list = runCli(['sessions', 'list', '--data-dir', dataDir, '--email', 'ada@example.com']);
    expect(list.status, list.stderr).toBe(0);
    const rows = list.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.id).sort()).toEqual([a.session.id, b.session.id].sort());
    expect(rows[0]).toMatchObject({ team: 'CLI Co' });
    expect(list.stdout).not.toContain(a.token);

    const revoke = runCli(['sessions', 'revoke', '--data-dir', dataDir, '--email', 'ada@example.com']);
    expect(revoke.status, revoke.stderr).toBe(0);
    expect(revoke.stdout.trim()).toBe('2');
    const after = openDatabase(dataDir);
    expect(findSession(after, a.token)).toBeUndefined();
    expect(findSession(after, b.token)).toBeUndefined();
    after.close();

    const unknown = runCli(['sessions', 'list', '--data-dir', dataDir, '--email', 'nobody@example.com']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no user with email nobody@example.com');
  });
});
